"""The controls of a prompt, drawn from the engine's description of them.

The engine says what a seat is asked (:class:`~engine.controls.Controls`): choose one of
these actions, choose tiles, choose numbers first. Each becomes buttons or a select whose
custom_id points back at its place in that description (:mod:`bot.runtime.clicks`), so
the runtime reads a click from the engine's own list. Words come from the catalog by the
prompt and the action, ``controls.<kind>.<action>``, filled with what the choice is about
(``{tile}``, ``{tiles}``, ``{suit}``, ``{name}``, ``{number}``): a new rule-set prompt
needs only its catalog texts here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t
from bot.i18n.terms import suit_label, tile_label, tiles_label
from bot.ids import CustomId
from bot.runtime.clicks import ACT, PICK, REACTIONS, button_arg, chosen_name, select_arg
from bot.views.components import GameButton, GameSelect
from engine.actions import Action, Discard
from engine.controls import Choice, Controls, PickNumbers, PickOne, PickTiles

Item = discord.ui.Item[Any]

#: A select offers at most this many options (Discord's limit).
SELECT_OPTIONS = 25


@dataclass(frozen=True, slots=True)
class PromptIds:
    """Where the controls of one prompt point: table, hand and prompt sequence."""

    table_id: int
    hand_no: int
    seq: int

    def cid(self, kind: str, arg: str = "") -> CustomId:
        return CustomId(kind, self.table_id, self.hand_no, self.seq, arg)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads the controls: their language, the players' names by seat, the tile the
    seat has just drawn (marked among the discards) and the numbers chosen so far."""

    locale: str
    names: Sequence[str]
    drawn: int | None = None
    chosen: tuple[int, ...] = ()


def items(ids: PromptIds, controls: Controls, reader: Reader) -> list[Item]:
    """Every control of the prompt, in the engine's order."""
    out: list[Item] = []
    for index, control in enumerate(controls.controls):
        if isinstance(control, PickOne):
            out += _pick_one(ids, index, control, controls, reader)
        elif isinstance(control, PickTiles):
            out.append(_pick_tiles(ids, index, control, reader))
        else:
            out.append(_pick_numbers(ids, index, control, reader))
    return out


def choice_label(kind: str, choice: Choice, reader: Reader) -> str:
    """A choice's words: ``controls.<kind>.<action>`` filled with what it is about."""
    locale = reader.locale
    values: dict[str, object] = {}
    if choice.tile is not None:
        values["tile"] = tile_label(choice.tile, locale)
    if choice.tiles:
        values["tiles"] = tiles_label(choice.tiles, locale)
    if choice.suit is not None:
        values["suit"] = suit_label(choice.suit, locale)
    if choice.seat is not None:
        values["name"] = reader.names[choice.seat]
    if choice.number is not None:
        values["number"] = choice.number
    return t(f"controls.{kind}.{choice.action.name}", locale, **values)


def _discards_first(choices: Sequence[Choice]) -> tuple[list[int], list[int], list[int]]:
    """Indices of the plain discards, of the discards that declare ready, and the rest."""
    plain, ready, rest = [], [], []
    for index, choice in enumerate(choices):
        action = choice.action
        if isinstance(action, Discard):
            (ready if action.declare_ready else plain).append(index)
        else:
            rest.append(index)
    return plain, ready, rest


def _pick_one(
    ids: PromptIds, index: int, control: PickOne, controls: Controls, reader: Reader
) -> list[Item]:
    """Discards as selects (the drawn tile first and marked), every other choice a
    button; the engine's suggestion stands out."""
    plain, ready, rest = _discards_first(control.choices)
    out: list[Item] = []
    for indices, part in ((plain, ""), (ready, "ready")):
        if indices:
            out.append(_discard_select(ids, index, control, indices, part, reader))
    # The numbers chosen before the answer ride on its buttons, so nothing waits in memory.
    numbers = reader.chosen if _after_numbers(controls, index) else ()
    for choice_index in rest:
        choice = control.choices[choice_index]
        label = choice_label(control.key, choice, reader)
        style = _style(choice.action)
        if control.suggested == choice_index:
            label = t("controls.suggested", reader.locale, choice=label)
            style = discord.ButtonStyle.success
        out.append(
            GameButton(
                ids.cid(ACT, button_arg(choice.action.name, index, choice_index, numbers)),
                label=label,
                style=style,
            )
        )
    return out


def _after_numbers(controls: Controls, index: int) -> bool:
    return any(isinstance(c, PickNumbers) for c in controls.controls[:index])


#: Claims and picks stand out; declining and set-up answers stay plain.
_PRIMARY = frozenset({"kong", "pong", "chow", "last_chance"})


def _style(action: Action) -> discord.ButtonStyle:
    if action.name == "win":
        return discord.ButtonStyle.danger
    if action.name in _PRIMARY:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def _discard_select(
    ids: PromptIds,
    index: int,
    control: PickOne,
    indices: list[int],
    part: str,
    reader: Reader,
) -> GameSelect:
    """The discards of ``indices``; ``part`` "ready" for those declaring a ready hand."""
    tiles = {i: control.choices[i].tile for i in indices}
    ordered = sorted(indices, key=lambda i: (tiles[i] != reader.drawn, tiles[i] or 0))
    options = [
        discord.SelectOption(
            label=tile_label(tiles[i] or 0, reader.locale)
            + (t("controls.drawn_mark", reader.locale) if tiles[i] == reader.drawn else ""),
            value=str(i),
        )
        for i in ordered[:SELECT_OPTIONS]
    ]
    placeholder = "controls.discard_ready" if part else "controls.discard"
    return GameSelect(
        ids.cid(PICK, select_arg(chosen_name(control), index, part)),
        options,
        placeholder=t(placeholder, reader.locale),
    )


def _pick_tiles(ids: PromptIds, index: int, control: PickTiles, reader: Reader) -> GameSelect:
    locale = reader.locale
    options = [
        discord.SelectOption(
            label=tile_label(kind, locale),
            value=str(position),
            default=position in control.suggested,
        )
        for position, kind in enumerate(control.tiles[:SELECT_OPTIONS])
    ]
    values: dict[str, object] = {"least": control.least, "most": control.most}
    if control.suit is not None:
        values["suit"] = suit_label(control.suit, locale)
    return GameSelect(
        ids.cid(PICK, select_arg(chosen_name(control), index)),
        options,
        placeholder=t(f"controls.{control.key}.pick", locale, **values)[:150],
        min_values=control.least,
        max_values=min(control.most, len(options)),
    )


def _pick_numbers(ids: PromptIds, index: int, control: PickNumbers, reader: Reader) -> GameSelect:
    locale = reader.locale
    options = [
        discord.SelectOption(
            label=t(f"controls.{control.key}.option", locale, number=n),
            value=str(n),
            default=n in reader.chosen,
        )
        for n in control.numbers[:SELECT_OPTIONS]
    ]
    return GameSelect(
        ids.cid(PICK, select_arg(chosen_name(control), index)),
        options,
        placeholder=t(
            f"controls.{control.key}.pick", locale, least=control.least, most=control.most
        ),
        min_values=control.least,
        max_values=min(control.most, len(options)),
    )


def reaction_legend(legal: Sequence[Action], locale: str) -> str:
    names = {a.name for a in legal}
    shown = [
        f"{emoji} {t(f'controls.reaction.{name}', locale)}"
        for emoji, name in REACTIONS.items()
        if name in names
    ]
    return t("controls.reactions", locale, legend=" · ".join(shown)) if shown else ""
