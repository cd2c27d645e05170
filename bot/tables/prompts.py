"""A player's hand message: what the engine lets them see and do right now, worded.

Everything here reads a :class:`~bot.runtime.snapshots.SeatState`, which never changes,
so the picture can be drawn and the message sent at leisure. The message holds all a
decision needs on one phone screen: the headline (what is asked, until when), the desk
picture (the other seats' melds and newest discards, the wall, whose move it is, the
player's own hand), the 听牌 help, and the controls.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

import discord

from bot.i18n import has, t, terms
from bot.i18n.terms import (
    escaped,
    suit_label,
    tile_label,
    tiles_label,
    variant_name,
    variant_text,
)
from bot.ids import CustomId
from bot.picture_messages import PictureMessage
from bot.pictures import desk_png
from bot.runtime.clicks import AUTO, BACK
from bot.runtime.notes import Note
from bot.runtime.snapshots import BoardState, HandFacts, SeatState
from bot.runtime.standing import Order
from bot.tables.handmail import FILENAME, Rendered
from bot.tables.scene import SeatText, desk_view, hand_view
from bot.tables.settlement import fans_text, how_text, win_total
from bot.views.components import GameButton, Item, action_rows
from bot.views.controls import (
    EmojiOf,
    Group,
    PromptIds,
    Reader,
    arrange,
    groups,
    reaction_legend,
    waits_text,
)
from engine.actions import Discard
from engine.controls import PickNumbers, PickOne
from engine.readiness import Readiness
from engine.rules.play import ScoredWin
from engine.tiles import kinds_of
from renderer.engine_views import win_orders
from renderer.hand import hand_order
from renderer.models import DeskView

TURN = "turn"
#: 算番: what the ready hand would score (a table control, not an answer to the prompt).
SCORE = "score"
CLAIM_KINDS = ("claim", "rob")
PLAY_PHASES = ("turn", "claim", "rob")
#: The 听牌 lines of a turn: the discards that leave the most tiles to wait on first.
READY_LINES = 4


# Every picture, line and prompt of a move names the players: a dozen times a move.
@lru_cache(maxsize=1024)
# Every picture, line and prompt of a move names the players: a dozen times a move.
@lru_cache(maxsize=1024)
def names(facts: HandFacts, locale: str) -> tuple[str, ...]:
    """The players' names by seat of the hand as ``locale``'s reader sees them in a
    message's text: an AI seat's in the reader's language, every one Markdown-escaped
    (``terms.player_name``). Pictures and labels take :func:`plain_names`."""
    return tuple(escaped(name) for name in plain_names(facts, locale))


@lru_cache(maxsize=1024)
def plain_names(facts: HandFacts, locale: str) -> tuple[str, ...]:
    """:func:`names` as they are, for pictures and button labels, which Discord does not
    format (an escaped name there would show its backslashes)."""
    return terms.plain_names(facts.names, facts.ai, locale)


def title(facts: HandFacts, locale: str, *, plain: bool = False) -> str:
    """The hand's title, for a message's text; ``plain`` for a picture's."""
    named = t(
        "table.title",
        locale,
        variant=variant_name(facts.variant, locale),
        hand=facts.number,
        hands=facts.hands,
        dealer=(plain_names if plain else names)(facts, locale)[0],
    )
    if facts.continued:
        return named + t("table.title_continued", locale, n=facts.continued)
    return named


def table_title(board: BoardState, locale: str, *, plain: bool = False) -> str:
    """The title of the table's message (``plain``: of its pictures): the hand's, with its
    dice mode once announced (MCR), which the whole hand plays under."""
    named = title(board.facts, locale, plain=plain)
    mode = board.view.facts.mode
    return f"{named} · {t(f'mode.{mode}', locale)}" if mode else named


def seat_texts(board: BoardState, locale: str) -> list[SeatText]:
    """Each seat's name, score and note for a picture: its stakes once bet above ×1 (MCR
    底分押倍, which every payment of the seat multiplies), then 托管 or 电脑."""
    texts = []
    named = plain_names(board.facts, locale)
    factors = board.view.facts.factors
    for seat in range(4):
        notes = []
        if factors is not None and factors[seat] > 1:
            notes.append(f"×{factors[seat]}")
        if board.autoplay[seat]:
            notes.append(t("table.note.autoplay", locale))
        elif board.ai[seat]:
            notes.append(t("table.note.ai", locale))
        texts.append(SeatText(named[seat], board.scores[seat], " · ".join(notes)))
    return texts


def _deadline_text(state: SeatState, locale: str) -> str:
    if state.deadline is None:
        return ""
    return " · " + t("hand.deadline", locale, when=f"<t:{int(state.deadline)}:R>")


def own_win(state: SeatState) -> ScoredWin | None:
    """The seat's win, once it has won and play goes on without it (血战到底)."""
    if state.view.seats[state.seat].active:
        return None
    return next((w for w in state.view.wins if w.seat == state.seat), None)


def headline(state: SeatState, locale: str) -> str:
    """The first line: what is asked of me (and until when), or whose move it is."""
    view = state.view
    seats = names(state.facts, locale)
    kind = state.kind
    if state.autoplay:
        return f"**{t('hand.autoplay', locale)}**"
    won = own_win(state)
    if won is not None and view.phase != "end":
        order = win_orders(view.wins)[state.seat]
        return f"**{t('hand.won_waiting', locale, order=order)}**"
    if state.standing:
        # A declaration of ready discards for the player as 摸切 does, but says so.
        key = "hand.standing_ready" if view.seats[state.seat].ready else "hand.standing"
        return f"**{t(key, locale)}**"
    if kind is None:
        if view.phase == "end":
            return t("hand.over", locale)
        # In a claim or rob window the turn is still the discarder's (or the kong's
        # owner's), who waits for the others, not for themself.
        if view.turn is not None and view.turn != state.seat:
            return t("hand.waiting", locale, name=seats[view.turn])
        return t("hand.waiting_all", locale)
    if kind == TURN:
        info = view.seats[state.seat]
        if info.drawn is not None:
            text = t("hand.your_turn_drawn", locale, tile=tile_label(info.drawn, locale))
        else:
            text = t("hand.your_turn", locale)
    elif kind in CLAIM_KINDS:
        tile = tile_label(view.claim_tile, locale) if view.claim_tile is not None else ""
        who = seats[view.claim_from] if view.claim_from is not None else ""
        # 血战 calls the kong one may rob a 巴杠.
        text = variant_text(state.facts.variant, f"hand.{kind}", locale, name=who, tile=tile)
    else:
        text = t(f"hand.prompt.{_prompt_key(state)}", locale)
    return f"**{text}**{_deadline_text(state, locale)}"


def _prompt_key(state: SeatState) -> str:
    """A set-up prompt's name; MCR's bet names only the bets the table plays: 底分押倍
    where there are stakes to choose, 万马奔腾 where there are horses to buy."""
    kind = state.kind
    assert kind is not None and state.controls is not None
    if kind != "bet":
        return kind
    parts = state.controls.controls
    horses = any(isinstance(c, PickNumbers) for c in parts)
    stakes = any(isinstance(c, PickOne) and len(c.choices) > 1 for c in parts)
    return "bet" if horses == stakes else "bet.horses" if horses else "bet.doubling"


def mode_line(state: SeatState, locale: str, *, notices: bool = True) -> list[str]:
    """The hand's dice mode, for the whole hand: its name, and with ``notices`` what it
    does (mcr.md §4.6 counts mode explanations among the system notices)."""
    mode = state.view.facts.mode
    if mode is None:
        return []
    if notices:
        return [t(f"mode.{mode}.explained", locale)]
    return [f"🎲 {t(f'mode.{mode}', locale)}"]


def _peeked(state: SeatState, locale: str) -> list[str]:
    """Hands of other seats this seat may see (MCR 火眼金睛)."""
    lines = []
    seats = names(state.facts, locale)
    for info in state.view.seats:
        if info.seat != state.seat and info.concealed is not None and state.view.phase != "end":
            tiles = tiles_label(kinds_of(info.concealed), locale)
            lines.append(t("hand.peek", locale, name=seats[info.seat], tiles=tiles))
    return lines


def note_texts(
    notes: Sequence[Note], names: Sequence[str], locale: str, variant: str = ""
) -> list[str]:
    """The private notices, worded: a rule set words a notice its own way where its rule
    differs (``note.<variant>.<kind>``: 血战's 过水 still lets a bigger win through). Of the
    claims a seat may not make, only restrictions players set on themselves are worth a
    word."""
    sep = t("list.separator", locale)
    out = []
    for note in notes:
        reasons = [r for r in note.reasons if has(f"blocked.{r}")]
        if note.kind == "blocked" and not reasons:
            continue
        out.append(
            variant_text(
                variant,
                f"note.{note.kind}",
                locale,
                name=names[note.seat] if note.seat is not None else "",
                tiles=tiles_label(note.tiles, locale),
                got=tiles_label(note.got, locale),
                reasons=sep.join(t(f"blocked.{r}", locale) for r in reasons),
            )
        )
    return out


def ready_lines(state: SeatState, locale: str) -> list[str]:
    """听牌 help: on a turn, what each discard that leaves the hand ready waits on ("打6万
    → 听3万6万，剩5张"); otherwise what the ready hand waits on."""
    ready = state.readiness
    if ready is None:
        return []
    if state.kind == TURN and not state.standing:
        legal = {a.tile for a in state.legal if isinstance(a, Discard)}
        found = [d for d in ready.discards if d.tile in legal]
        found.sort(key=lambda d: -sum(w.left for w in d.waits))
        return [
            t(
                "hand.ready_discard",
                locale,
                tile=tile_label(d.tile, locale),
                waits=waits_text(d.waits, locale),
            )
            for d in found[:READY_LINES]
        ]
    return [waits_text(ready.waits, locale)] if ready.waits else []


def win_lines(state: SeatState, locale: str) -> list[str]:
    """After the seat's own win while the others play on: how it won and the breakdown."""
    win = own_win(state)
    if win is None:
        return []
    variant = state.facts.variant
    return [
        t(
            "hand.your_win",
            locale,
            how=how_text(variant, win, locale),
            tile=tile_label(win.context.tile, locale),
            fans=fans_text(variant, win, locale),
            total=win_total(variant, win, locale),
        )
    ]


def content(state: SeatState, locale: str, last_line: str = "", *, notices: bool = True) -> str:
    """The hand message's words. Without ``notices`` (显示系统消息 off, mcr.md §4.6) only
    what the player's decision needs: no hints, no breakdown of their own win."""
    lines = [t("hand.title", locale, title=title(state.facts, locale)), headline(state, locale)]
    # A claim's headline already says what was discarded (or added to a kong) by whom.
    if last_line and not (state.kind in CLAIM_KINDS and state.waits_for_person):
        lines.append(last_line)
    lines += mode_line(state, locale, notices=notices)
    if notices:
        lines += win_lines(state, locale)
    if state.own_void is not None:
        lines.append(t("hand.own_void", locale, suit=suit_label(state.own_void, locale)))
    lines += _peeked(state, locale)
    if notices:
        lines += note_texts(state.notes, names(state.facts, locale), locale, state.facts.variant)
    lines += ready_lines(state, locale)
    if state.kind in CLAIM_KINDS and state.waits_for_person:
        legend = reaction_legend(state.legal, locale)
        if legend:
            lines.append(legend)
    return "\n".join(lines)


def _waits(readiness: Readiness | None) -> list[tuple[int, int]]:
    if readiness is None:
        return []
    return [(w.tile, w.left) for w in readiness.waits]


def picture(state: SeatState, locale: str, seats: Sequence[SeatText] = ()) -> DeskView:
    """The desk picture; ``seats`` name the players with their notes (托管, 电脑)."""
    named = seats or [SeatText(name, 0) for name in plain_names(state.facts, locale)]
    asked = state.kind == TURN and state.waits_for_person
    discards = frozenset(a.tile for a in state.legal if isinstance(a, Discard))
    return desk_view(
        state.view,
        state.seat,
        named,
        locale,
        title(state.facts, locale, plain=True),
        legal_discards=discards if asked else None,
        waits=_waits(state.readiness),
    )


def ids(state: SeatState) -> PromptIds:
    return PromptIds(state.facts.table_id, state.facts.number, state.seq)


def toggles(state: SeatState, locale: str) -> Group:
    """摸切 and 自动胡: on a turn, and whenever one is on, so that it can be turned off;
    算番 while the hand is ready."""
    if state.view.phase not in PLAY_PHASES or not state.view.seats[state.seat].active:
        return []
    out: Group = []
    if state.readiness is not None and state.readiness.waits:
        out.append(
            GameButton(
                CustomId(SCORE, state.facts.table_id, state.facts.number),
                label=t("controls.score", locale),
            )
        )
    if state.kind != TURN and not state.orders:
        return out
    for order in Order:
        on = order in state.orders
        label = t(f"controls.auto.{order.value}", locale)
        out.append(
            GameButton(
                ids(state).cid(AUTO, order.value),
                label=t("controls.auto.on", locale, label=label) if on else label,
                style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            )
        )
    return out


def controls(state: SeatState, locale: str, emoji: EmojiOf | None = None) -> list[Item]:
    """The controls of the seat's prompt, or 我回来了 while on auto-play."""
    if state.autoplay:
        back = GameButton(
            ids(state).cid(BACK),
            label=t("controls.back", locale),
            style=discord.ButtonStyle.success,
        )
        return [back]
    parts: list[Group] = []
    if state.waits_for_person and state.controls is not None:
        shown = hand_view(state.view, state.seat, locale, "", None)
        reader = Reader(
            locale,
            plain_names(state.facts, locale),
            shown.drawn,
            state.chosen,
            order=hand_order(shown),
            readiness=state.readiness,
            emoji=emoji,
        )
        parts += groups(ids(state), state.controls, reader)
    parts.append(toggles(state, locale))
    return arrange([part for part in parts if part])


def attention(state: SeatState) -> Hashable:
    """What the player must notice, the same for every picture of it: the prompt that
    waits for them, or being on auto-play; None when nothing waits for them."""
    if state.autoplay:
        return ("autoplay", state.facts.number)
    if state.waits_for_person:
        return ("prompt", state.facts.number, state.seq)
    return None


async def render(
    state: SeatState,
    locale: str,
    last_line: str = "",
    *,
    seats: Sequence[SeatText] = (),
    emoji: EmojiOf | None = None,
    notices: bool = True,
) -> Rendered:
    png = await desk_png(picture(state, locale, seats))
    return Rendered(
        PictureMessage(
            content(state, locale, last_line, notices=notices),
            png,
            FILENAME,
            action_rows(controls(state, locale, emoji)),
        ),
        asks=state.waits_for_person,
        claim=state.kind in CLAIM_KINDS and state.waits_for_person,
        attention=attention(state),
    )
