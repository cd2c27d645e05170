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

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import EN, has, t
from bot.i18n.terms import suit_label, tile_label, tiles_label
from bot.ids import CustomId
from bot.runtime.clicks import (
    ACT,
    PICK,
    REACTIONS,
    button_arg,
    chosen_name,
    select_arg,
    tiles_arg,
)
from bot.tile_emoji import UNICODE_TILES
from bot.views.components import ROW_WIDTH, ROWS, GameButton, GameSelect, Item
from engine.actions import Action, Discard
from engine.controls import Choice, Controls, PickNumbers, PickOne, PickTiles
from engine.readiness import Readiness, Wait
from engine.tiles import HONOR, rank, suit

#: A select offers at most this many options (Discord's limit).
SELECT_OPTIONS = 25
#: Discord's limit on a select option's label, and on its description.
OPTION_TEXT = 100


@dataclass(frozen=True, slots=True)
class PromptIds:
    """Where the controls of one prompt point: table, hand and prompt sequence."""

    table_id: int
    hand_no: int
    seq: int

    def cid(self, kind: str, arg: str = "") -> CustomId:
        return CustomId(kind, self.table_id, self.hand_no, self.seq, arg)


#: A tile's emoji, or None until the bot's tile emojis are there (``bot/tile_emoji.py``).
EmojiOf = Callable[[int], discord.PartialEmoji | None]


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads the controls: their language, the players' names by seat (as they are:
    Discord formats no Markdown in a label), the tile the seat has just drawn, the
    numbers chosen so far, the order the hand picture shows the tiles in (discard buttons
    follow it), the hand's 听牌, and the tile emojis."""

    locale: str
    names: Sequence[str]
    drawn: int | None = None
    chosen: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    readiness: Readiness | None = None
    emoji: EmojiOf | None = None

    def emoji_of(self, kind: int) -> discord.PartialEmoji | None:
        return self.emoji(kind) if self.emoji is not None else None


Group = list[Item]


def items(ids: PromptIds, controls: Controls, reader: Reader) -> list[Item]:
    """Every control of the prompt, in the engine's order, laid out in rows."""
    return arrange(groups(ids, controls, reader))


def groups(ids: PromptIds, controls: Controls, reader: Reader) -> list[Group]:
    """The controls of the prompt in groups, each starting a row of its own: the tiles to
    discard, a select, the other choices of a control."""
    out: list[Group] = []
    for index, control in enumerate(controls.controls):
        if isinstance(control, PickOne):
            out += _pick_one(ids, index, control, controls, reader)
        elif isinstance(control, PickTiles):
            out += _pick_tiles(ids, index, control, reader)
        else:
            out.append([_pick_numbers(ids, index, control, reader)])
    return [group for group in out if group]


def arrange(parts: Sequence[Group]) -> list[Item]:
    """The groups in Discord's five rows of five buttons (a select fills a row): each group
    on rows of its own while they suffice, else each filling the gaps the one before left;
    whatever still does not fit (the last groups, the toggles) is left out."""
    for packed in (False, True):
        rows = _rows(parts, packed)
        if len(rows) <= ROWS:
            break
    out: list[Item] = []
    for number, row in enumerate(rows[:ROWS]):
        for item in row:
            item.row = number
            out.append(item)
    return out


def _rows(parts: Sequence[Group], packed: bool) -> list[list[Item]]:
    rows: list[list[Item]] = []
    for group in parts:
        fresh = True
        for item in group:
            fits = rows and sum(i.width for i in rows[-1]) + item.width <= ROW_WIDTH
            if fits and (packed or not fresh):
                rows[-1].append(item)
            else:
                rows.append([item])
            fresh = False
    return rows


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


def waits_text(waits: Sequence[Wait], locale: str) -> str:
    """``听3万6万，剩5张``: the tiles a ready hand waits on and how many are left."""
    if locale == EN:
        tiles = _english_tiles([w.tile for w in waits])
    else:
        tiles = "".join(tile_label(w.tile, locale) for w in waits)
    return t("hand.waits", locale, tiles=tiles, left=sum(w.left for w in waits))


def _english_tiles(kinds: Sequence[int]) -> str:
    """``1, 4, 7 Characters, East``: the ranks of one suit named once with the suit, as
    English players say them, which also keeps a wide wait within a select option's 100
    characters (nine waits spelled out one by one take half as much again)."""
    parts = []
    for _, group in itertools.groupby(kinds, key=suit):
        same = list(group)
        if len(same) == 1 or suit(same[0]) == HONOR:
            parts += [tile_label(k, EN) for k in same]
        else:
            ranks = ", ".join(str(rank(k)) for k in same)
            parts.append(f"{ranks} {suit_label(suit(same[0]), EN)}")
    return ", ".join(parts)


def _discards_first(choices: Sequence[Choice]) -> tuple[list[int], list[int], list[int]]:
    """Indices of the plain discards, of the discards that declare ready, and the rest."""
    plain: list[int] = []
    ready: list[int] = []
    rest: list[int] = []
    for index, choice in enumerate(choices):
        action = choice.action
        if isinstance(action, Discard):
            (ready if action.declare_ready else plain).append(index)
        else:
            rest.append(index)
    return plain, ready, rest


def _pick_one(
    ids: PromptIds, index: int, control: PickOne, controls: Controls, reader: Reader
) -> list[Group]:
    """Discards as one button per tile in the picture's order (the drawn tile last and
    marked, a tile that leaves the hand ready in green), declaring ready as a select that
    says what each discard waits on, every other choice a button; the engine's suggestion
    stands out."""
    plain, ready, rest = _discards_first(control.choices)
    out: list[Group] = [_discard_buttons(ids, index, control, plain, reader)]
    if ready:
        out.append([_ready_select(ids, index, control, ready, reader)])
    # The numbers chosen before the answer ride on its buttons, so nothing waits in memory.
    numbers = reader.chosen if _after_numbers(controls, index) else ()
    buttons: Group = []
    for choice_index in rest:
        choice = control.choices[choice_index]
        only = f"controls.{control.key}.{choice.action.name}.only"
        if len(control.choices) == 1 and has(only):
            # The one choice there is (a bet with doubling off) only confirms the rest.
            label = t(only, reader.locale)
        else:
            label = choice_label(control.key, choice, reader)
        style = _style(choice.action)
        if control.suggested == choice_index:
            label = t("controls.suggested", reader.locale, choice=label)
            style = discord.ButtonStyle.success
        buttons.append(
            GameButton(
                ids.cid(ACT, button_arg(choice.action.name, index, choice_index, numbers)),
                label=label,
                style=style,
            )
        )
    out.append(buttons)
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


def _in_picture_order(tiles: dict[int, int], reader: Reader) -> list[int]:
    """Choice indices by their tiles' places in the hand picture, the drawn tile last."""
    place = {kind: i for i, kind in enumerate(reader.order)}
    if reader.drawn is not None:
        place[reader.drawn] = len(reader.order)
    return sorted(tiles, key=lambda i: (place.get(tiles[i], len(place)), tiles[i]))


def tile_face(kind: int, reader: Reader) -> dict[str, Any]:
    """How a button shows a tile: the bot's tile emoji, else the Unicode tile and name."""
    emoji = reader.emoji_of(kind)
    if emoji is not None:
        return {"emoji": emoji}
    return {"label": f"{UNICODE_TILES[kind]} {tile_label(kind, reader.locale)}"}


def _discard_buttons(
    ids: PromptIds, index: int, control: PickOne, indices: list[int], reader: Reader
) -> Group:
    tiles = {i: control.choices[i].tile or 0 for i in indices}
    ready = reader.readiness
    out: Group = []
    for i in _in_picture_order(tiles, reader):
        tile = tiles[i]
        style = discord.ButtonStyle.secondary
        if tile == reader.drawn:
            style = discord.ButtonStyle.primary
        if ready is not None and ready.after(tile):
            style = discord.ButtonStyle.success
        cid = ids.cid(ACT, button_arg(control.choices[i].action.name, index, i))
        out.append(GameButton(cid, style=style, **tile_face(tile, reader)))
    return out


def _ready_select(
    ids: PromptIds, index: int, control: PickOne, indices: list[int], reader: Reader
) -> GameSelect:
    """MCR 报听: each discard that declares ready, with what the hand then waits on."""
    tiles = {i: control.choices[i].tile or 0 for i in indices}
    locale = reader.locale
    options = []
    for i in _in_picture_order(tiles, reader)[:SELECT_OPTIONS]:
        label = tile_label(tiles[i], locale)
        description = None
        waits = reader.readiness.after(tiles[i]) if reader.readiness is not None else ()
        if waits:
            said = waits_text(waits, locale)
            both = t("controls.ready_option", locale, tile=label, waits=said)
            # Discord cuts neither: a label past its limit goes under the tile instead.
            if len(both) <= OPTION_TEXT:
                label = both
            else:
                description = said[:OPTION_TEXT]
        options.append(
            discord.SelectOption(
                label=label, value=str(i), description=description, emoji=reader.emoji_of(tiles[i])
            )
        )
    return GameSelect(
        ids.cid(PICK, select_arg(chosen_name(control), index, "ready")),
        options,
        placeholder=t("controls.discard_ready", locale),
    )


def _pick_tiles(ids: PromptIds, index: int, control: PickTiles, reader: Reader) -> list[Group]:
    """A select of the tiles, and the engine's suggestion as a button that answers it in
    one tap (换三张: the three it would hand on)."""
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
    select = GameSelect(
        ids.cid(PICK, select_arg(chosen_name(control), index)),
        options,
        placeholder=t(f"controls.{control.key}.pick", locale, **values)[:150],
        min_values=control.least,
        max_values=min(control.most, len(options)),
    )
    if not control.suggested:
        return [[select]]
    suggested = tiles_label(tuple(control.tiles[p] for p in control.suggested), locale)
    label = t("controls.suggested", locale, choice=t(f"controls.{control.key}.accept", locale))
    button = GameButton(
        ids.cid(ACT, tiles_arg(control.action, index, control.suggested)),
        label=f"{label} · {suggested}"[:80],
        style=discord.ButtonStyle.success,
    )
    return [[button], [select]]


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
