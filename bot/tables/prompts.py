"""A player's hand message: what the engine lets them see and do right now, worded.

:class:`SeatSnapshot` is taken under the table's lock and never changes afterwards, so
the picture can be drawn and the message sent without holding the lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import t
from bot.i18n.terms import suit_label, tile_label, tiles_label
from bot.tables.scene import hand_view
from bot.views.components import GameButton, view_of
from bot.views.controls import (
    PromptIds,
    bet_controls,
    claim_controls,
    exchange_controls,
    last_chance_controls,
    peek_controls,
    reaction_legend,
    swap_controls,
    turn_controls,
    void_controls,
)
from engine.actions import Action, Discard
from engine.round import View
from engine.tiles import kinds_of
from renderer.models import HandView

# Prompt kinds a seat can face; set-up prompts use the engine's prompt id.
TURN = "turn"
CLAIM = "claim"
ROB = "rob"


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One seat's situation at one moment."""

    table_id: int
    hand_no: int
    seat: int
    variant: str
    names: tuple[str, ...]
    locale: str
    title: str
    view: View
    legal: tuple[Action, ...]
    prompt: str | None
    seq: int
    deadline: float | None
    autoplay: bool
    notes: tuple[str, ...] = ()
    last_line: str = ""
    own_void: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    chosen_horses: tuple[int, ...] = ()

    @property
    def ids(self) -> PromptIds:
        return PromptIds(self.table_id, self.hand_no, self.seq)

    @property
    def asks(self) -> bool:
        return bool(self.legal)


def prompt_kind(view: View, legal: Sequence[Action]) -> str | None:
    """What the seat is asked: its turn, a claim or rob window, a set-up prompt, nothing."""
    if not legal:
        return None
    if view.prompt is not None:
        return view.prompt
    if view.phase == "claim":
        return CLAIM
    if view.phase == "rob":
        return ROB
    return TURN


def _deadline_text(snap: SeatSnapshot) -> str:
    if snap.deadline is None:
        return ""
    return " · " + t("hand.deadline", snap.locale, when=f"<t:{int(snap.deadline)}:R>")


def headline(snap: SeatSnapshot) -> str:
    """The first line: what is asked of me (and until when), or whose move it is."""
    locale = snap.locale
    view = snap.view
    if snap.prompt is None:
        if view.phase == "end":
            return t("hand.over", locale)
        if view.turn is not None:
            return t("hand.waiting", locale, name=snap.names[view.turn])
        return t("hand.waiting_all", locale)
    if snap.prompt == TURN:
        info = view.seats[snap.seat]
        if info.drawn is not None:
            text = t("hand.your_turn_drawn", locale, tile=tile_label(info.drawn, locale))
        else:
            text = t("hand.your_turn", locale)
    elif snap.prompt in (CLAIM, ROB):
        tile = tile_label(view.claim_tile, locale) if view.claim_tile is not None else ""
        who = snap.names[view.claim_from] if view.claim_from is not None else ""
        key = "hand.rob" if snap.prompt == ROB else "hand.claim"
        text = t(key, locale, name=who, tile=tile)
    else:
        text = t(f"hand.prompt.{snap.prompt}", locale)
    return f"**{text}**{_deadline_text(snap)}"


def _peeked(snap: SeatSnapshot) -> list[str]:
    """Hands of other seats this seat may see (MCR 火眼金睛)."""
    lines = []
    for info in snap.view.seats:
        if info.seat != snap.seat and info.concealed is not None and snap.view.phase != "end":
            tiles = tiles_label(kinds_of(info.concealed), snap.locale)
            lines.append(t("hand.peek", snap.locale, name=snap.names[info.seat], tiles=tiles))
    return lines


def content(snap: SeatSnapshot) -> str:
    lines = [t("hand.title", snap.locale, title=snap.title), headline(snap)]
    if snap.last_line:
        lines.append(snap.last_line)
    if snap.own_void is not None:
        lines.append(t("hand.own_void", snap.locale, suit=suit_label(snap.own_void, snap.locale)))
    lines += _peeked(snap)
    lines += snap.notes
    if snap.prompt in (CLAIM, ROB):
        legend = reaction_legend(snap.legal, snap.locale)
        if legend:
            lines.append(legend)
    if snap.autoplay:
        lines.append(t("hand.autoplay", snap.locale))
    return "\n".join(lines)


def picture(snap: SeatSnapshot) -> HandView:
    discards = frozenset(a.tile for a in snap.legal if isinstance(a, Discard))
    return hand_view(
        snap.view,
        snap.seat,
        snap.locale,
        snap.title,
        legal_discards=discards if snap.prompt == TURN else None,
    )


def controls(snap: SeatSnapshot) -> list[discord.ui.Item[Any]]:
    """The controls of the seat's prompt, then 我回来了 while on auto-play."""
    items = _prompt_controls(snap) if snap.asks and not snap.autoplay else []
    if snap.autoplay:
        back = GameButton(
            snap.ids.cid("back"),
            label=t("controls.back", snap.locale),
            style=discord.ButtonStyle.success,
        )
        items.append(back)
    return items


def _prompt_controls(snap: SeatSnapshot) -> list[discord.ui.Item[Any]]:
    ids, legal, locale = snap.ids, snap.legal, snap.locale
    concealed = snap.view.seats[snap.seat].concealed or [0] * 34
    builders = {
        TURN: lambda: turn_controls(ids, legal, snap.view.seats[snap.seat].drawn, locale),
        CLAIM: lambda: claim_controls(ids, legal, locale),
        ROB: lambda: claim_controls(ids, legal, locale),
        "exchange": lambda: exchange_controls(ids, concealed, locale),
        "void": lambda: void_controls(ids, legal, locale),
        "bet": lambda: bet_controls(ids, legal, snap.chosen_horses, locale),
        "peek": lambda: peek_controls(ids, legal, snap.names, locale),
        "swap": lambda: swap_controls(ids, concealed, int(snap.options.get("swap_max", 0)), locale),
        "last_chance": lambda: last_chance_controls(ids, legal, locale),
    }
    build = builders.get(snap.prompt or "")
    return build() if build is not None else []


def message_view(snap: SeatSnapshot) -> discord.ui.View | None:
    items = controls(snap)
    return view_of(*items) if items else None
