"""A player's hand message: what the engine lets them see and do right now, worded.

Everything here reads a :class:`~bot.runtime.snapshots.SeatState`, which never changes,
so the picture can be drawn and the message sent at leisure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import has, t
from bot.i18n.terms import player_names, suit_label, tile_label, tiles_label, variant_name
from bot.pictures import hand_png
from bot.runtime.clicks import BACK
from bot.runtime.notes import Note
from bot.runtime.snapshots import HandFacts, SeatState
from bot.tables.handmail import Rendered
from bot.tables.scene import hand_view
from bot.views.components import GameButton, view_of
from bot.views.controls import PromptIds, Reader, items, reaction_legend
from engine.actions import Discard
from engine.tiles import kinds_of
from renderer.models import HandView

TURN = "turn"
CLAIM_KINDS = ("claim", "rob")


def names(facts: HandFacts, locale: str) -> tuple[str, ...]:
    """The players' names by seat of the hand as ``locale``'s reader sees them: an AI
    seat's in the reader's language."""
    return player_names(facts.names, facts.ai, locale)


def title(facts: HandFacts, locale: str) -> str:
    return t(
        "table.title",
        locale,
        variant=variant_name(facts.variant, locale),
        hand=facts.number,
        hands=facts.hands,
        dealer=names(facts, locale)[0],
    )


def _deadline_text(state: SeatState, locale: str) -> str:
    if state.deadline is None:
        return ""
    return " · " + t("hand.deadline", locale, when=f"<t:{int(state.deadline)}:R>")


def headline(state: SeatState, locale: str) -> str:
    """The first line: what is asked of me (and until when), or whose move it is."""
    view = state.view
    seats = names(state.facts, locale)
    kind = state.kind
    if kind is None:
        if view.phase == "end":
            return t("hand.over", locale)
        if view.turn is not None:
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
        text = t(f"hand.{kind}", locale, name=who, tile=tile)
    else:
        text = t(f"hand.prompt.{kind}", locale)
    return f"**{text}**{_deadline_text(state, locale)}"


def _peeked(state: SeatState, locale: str) -> list[str]:
    """Hands of other seats this seat may see (MCR 火眼金睛)."""
    lines = []
    seats = names(state.facts, locale)
    for info in state.view.seats:
        if info.seat != state.seat and info.concealed is not None and state.view.phase != "end":
            tiles = tiles_label(kinds_of(info.concealed), locale)
            lines.append(t("hand.peek", locale, name=seats[info.seat], tiles=tiles))
    return lines


def note_texts(notes: Sequence[Note], names: Sequence[str], locale: str) -> list[str]:
    """The private notices, worded. Of the claims a seat may not make, only restrictions
    players set on themselves are worth a word."""
    sep = t("list.separator", locale)
    out = []
    for note in notes:
        reasons = [r for r in note.reasons if has(f"blocked.{r}")]
        if note.kind == "blocked" and not reasons:
            continue
        out.append(
            t(
                f"note.{note.kind}",
                locale,
                name=names[note.seat] if note.seat is not None else "",
                tiles=tiles_label(note.tiles, locale),
                got=tiles_label(note.got, locale),
                reasons=sep.join(t(f"blocked.{r}", locale) for r in reasons),
            )
        )
    return out


def content(state: SeatState, locale: str, last_line: str = "") -> str:
    lines = [t("hand.title", locale, title=title(state.facts, locale)), headline(state, locale)]
    if last_line:
        lines.append(last_line)
    if state.own_void is not None:
        lines.append(t("hand.own_void", locale, suit=suit_label(state.own_void, locale)))
    lines += _peeked(state, locale)
    lines += note_texts(state.notes, names(state.facts, locale), locale)
    if state.kind in CLAIM_KINDS:
        legend = reaction_legend(state.legal, locale)
        if legend:
            lines.append(legend)
    if state.autoplay:
        lines.append(t("hand.autoplay", locale))
    return "\n".join(lines)


def picture(state: SeatState, locale: str) -> HandView:
    discards = frozenset(a.tile for a in state.legal if isinstance(a, Discard))
    return hand_view(
        state.view,
        state.seat,
        locale,
        title(state.facts, locale),
        legal_discards=discards if state.kind == TURN else None,
    )


def ids(state: SeatState) -> PromptIds:
    return PromptIds(state.facts.table_id, state.facts.number, state.seq)


def controls(state: SeatState, locale: str) -> list[discord.ui.Item[Any]]:
    """The controls of the seat's prompt, or 我回来了 while on auto-play."""
    if state.autoplay:
        back = GameButton(
            ids(state).cid(BACK),
            label=t("controls.back", locale),
            style=discord.ButtonStyle.success,
        )
        return [back]
    if not state.asks or state.controls is None:
        return []
    seats = names(state.facts, locale)
    reader = Reader(locale, seats, state.view.seats[state.seat].drawn, state.chosen)
    return items(ids(state), state.controls, reader)


def message_view(state: SeatState, locale: str) -> discord.ui.View | None:
    found = controls(state, locale)
    return view_of(*found) if found else None


async def render(state: SeatState, locale: str, last_line: str = "") -> Rendered:
    png = await hand_png(picture(state, locale))
    return Rendered(
        content=content(state, locale, last_line),
        png=png,
        view=message_view(state, locale),
        asks=state.asks and not state.autoplay,
        claim=state.kind in CLAIM_KINDS,
    )
