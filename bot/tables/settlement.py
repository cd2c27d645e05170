"""The end of a hand, worded: the settlement picture, a short summary, each player's line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import has, t
from bot.i18n.terms import (
    by_name,
    fan_name,
    fan_sum,
    own_key,
    reason_name,
    tile_label,
    total_text,
)
from bot.pictures import labels
from bot.runtime.hands import win_how
from bot.tables.narration import Narrator
from engine.round import Round
from engine.rules.play import ScoredWin
from renderer import engine_views
from renderer.engine_views import Naming
from renderer.models import SettlementView


def how_text(variant: str, win: ScoredWin, locale: str) -> str:
    """How the win came, in the reader's words (``hands.win_how``) and the rule set's
    (血战's 杠上花 where the others say 杠上开花)."""
    how = win_how(win)
    key = own_key(variant, f"how.{how}")
    return t(key, locale) if has(key) else how


def win_total(variant: str, win: ScoredWin, locale: str, *, plain: bool = False) -> str:
    """A win's total in words, saying so when the rule set's cap lowered it."""
    raw = fan_sum(line.to_json() for line in win.score.fans)
    return total_text(variant, win.score.total, locale, raw, plain=plain)


def hand_title(variant: str, win: ScoredWin, locale: str) -> str:
    """The hand's name: the rule set's title where it names combinations (Sichuan's),
    else its most valuable fan or pattern (the engine lists them by value), else how the
    rule set words its total (Guangdong's small hu)."""
    title = win.score.extra.get("title")
    name = title.get("id") if isinstance(title, Mapping) else None
    if isinstance(name, str) and has(f"title.{variant}.{name}"):
        return t(f"title.{variant}.{name}", locale)
    if by_name(variant):
        return win_total(variant, win, locale, plain=True)
    if win.score.fans:
        return fan_name(variant, win.score.fans[0].to_json(), locale)
    return win_total(variant, win, locale, plain=True)


def naming(variant: str, locale: str) -> Naming:
    """Fan names, payment reasons and kinds of win in the reader's language. Where the
    rule set names a win's worth (广东), the picture's title says it (大胡), the kinds
    that made it are listed without numbers that would seem to add up, and the worth
    shows as the factor it puts on the payments (×2)."""
    named = by_name(variant)
    return Naming(
        fan=lambda line: fan_name(variant, line.to_json(), locale),
        fan_value=lambda line: None if named else line.fan,
        reason=lambda reason: reason_name(variant, reason, locale),
        how=lambda win: how_text(variant, win, locale),
        title=lambda win: hand_title(variant, win, locale),
        total=lambda win: None if named else win.score.total,
        multiplier=lambda win: win.score.total if named else None,
    )


def settlement_view(hand: Round, names: Sequence[str], locale: str, title: str) -> SettlementView:
    """The settlement picture; ``names`` and ``title`` as they are (``terms.plain_names``):
    the picture draws them as given."""
    return engine_views.settlement_view(
        hand, names, labels(locale), title, naming(hand.variant, locale)
    )


def summary(
    hand: Round, names: Sequence[str], locale: str, seed: str, code: str | None = None
) -> str:
    """The thread's text under the settlement picture: the winners, the nets, what the
    hand's end turned up besides its horses (火眼金睛's targets, 巅峰时刻's hands), the
    hand's replay code, and last the revealed seed. ``names`` are a text's, escaped
    (``terms.player_names``)."""
    lines = []
    if hand.wins:
        for win in hand.wins:
            lines.append(
                t(
                    "settle.winner",
                    locale,
                    name=names[win.seat],
                    how=how_text(hand.variant, win, locale),
                    tile=tile_label(win.context.tile, locale),
                    total=win_total(hand.variant, win, locale),
                )
            )
    else:
        lines.append(t("settle.draw", locale))
    nets = hand.ledger.nets()
    lines.append(
        t("list.separator", locale).join(
            t("settle.net", locale, name=names[s], net=f"{nets[s]:+d}") for s in range(4)
        )
    )
    lines += Narrator(hand.variant, names, locale).reveals(hand.events)
    if code is not None:
        lines.append(t("settle.replay_code", locale, code=code))
    lines.append(t("settle.seed", locale, seed=seed))
    return "\n".join(lines)


def fans_text(variant: str, win: ScoredWin, locale: str) -> str:
    """A win's fans or patterns, each with what it is worth where the rule set counts
    them (two 根 show as 根 2), or a dash when there are none."""
    counted = not by_name(variant)
    return (
        t("list.separator", locale).join(
            fan_name(variant, line.to_json(), locale)
            + (f" {line.fan * line.count}" if counted and line.fan else "")
            for line in win.score.fans
        )
        or "—"
    )


def player_result(hand: Round, seat: int, locale: str, code: str | None = None) -> str:
    """One player's result by DM: their net, when they won their fans, and the hand's
    replay code (a player may open it in the DM)."""
    net = hand.ledger.nets()[seat]
    lines = [t("settle.your_net", locale, net=f"{net:+d}")]
    for win in hand.wins:
        if win.seat != seat:
            continue
        lines.append(
            t(
                "settle.your_win",
                locale,
                how=how_text(hand.variant, win, locale),
                fans=fans_text(hand.variant, win, locale),
                total=win_total(hand.variant, win, locale),
            )
        )
    if code is not None:
        lines.append(t("settle.replay_code", locale, code=code))
    return "\n".join(lines)
