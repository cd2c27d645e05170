"""The controls of a prompt, built from the engine's legal actions, and the action a
click or reaction stands for.

A control only offers what ``legal`` lists (or, for set-up prompts whose answers are too
many to list, what the player holds); the engine still checks every action it receives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t
from bot.i18n.terms import suit_label, tile_label, tiles_label
from bot.views.components import GameButton, GameSelect
from bot.views.ids import CustomId
from engine.actions import (
    Action,
    Bet,
    ChooseVoid,
    Chow,
    Discard,
    Exchange,
    Kong,
    LastChance,
    Pass,
    Peek,
    Pong,
    Swap,
    Win,
)
from engine.tiles import format_tiles, kinds_of, parse_tile, parse_tiles, suit, tile_str

Item = discord.ui.Item[Any]

# Reactions a player may use instead of the claim buttons.
REACTIONS = {"🏆": "win", "4️⃣": "kong", "3️⃣": "pong", "⬅️": "chow", "❌": "pass"}
EXCHANGE_SIZE = 3
SUIT_LETTERS = "mps"


@dataclass(frozen=True, slots=True)
class PromptIds:
    """Where the controls of one prompt point: table, hand and prompt sequence."""

    table_id: int
    hand_no: int
    seq: int

    def cid(self, kind: str, arg: str = "") -> CustomId:
        return CustomId(kind, self.table_id, self.hand_no, self.seq, arg)


def _button(
    ids: PromptIds,
    kind: str,
    label: str,
    arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
) -> GameButton:
    return GameButton(ids.cid(kind, arg), label=label, style=style, row=row)


def _discard_options(
    kinds: Sequence[int], drawn: int | None, locale: str
) -> list[discord.SelectOption]:
    """One option per tile kind, the drawn tile first and marked."""
    ordered = sorted(set(kinds))
    if drawn is not None and drawn in ordered:
        ordered.remove(drawn)
        ordered.insert(0, drawn)
    return [
        discord.SelectOption(
            label=tile_label(k, locale) + (t("controls.drawn_mark", locale) if k == drawn else ""),
            value=tile_str(k),
        )
        for k in ordered
    ]


def turn_controls(
    ids: PromptIds, legal: Sequence[Action], drawn: int | None, locale: str
) -> list[Item]:
    """My turn: a select of the tiles I may discard (drawn tile first), another for
    discarding while declaring ready, then 胡 (自摸) and one 杠 per kong."""
    items: list[Item] = []
    plain = [a.tile for a in legal if isinstance(a, Discard) and not a.declare_ready]
    ready = [a.tile for a in legal if isinstance(a, Discard) and a.declare_ready]
    if plain:
        items.append(
            GameSelect(
                ids.cid("discard"),
                _discard_options(plain, drawn, locale),
                placeholder=t("controls.discard", locale),
            )
        )
    if ready:
        items.append(
            GameSelect(
                ids.cid("ready"),
                _discard_options(ready, drawn, locale),
                placeholder=t("controls.discard_ready", locale),
            )
        )
    if any(isinstance(a, Win) for a in legal):
        items.append(
            _button(ids, "win", t("controls.self_draw", locale), style=discord.ButtonStyle.danger)
        )
    for action in legal:
        if isinstance(action, Kong):
            label = t("controls.kong", locale, tile=tile_label(action.tile, locale))
            items.append(
                _button(
                    ids, "kong", label, tile_str(action.tile), style=discord.ButtonStyle.primary
                )
            )
    return items


def claim_controls(ids: PromptIds, legal: Sequence[Action], locale: str) -> list[Item]:
    """A claim: 胡 / 杠 / 碰 / 吃 (one button per chow that fits) / 过."""
    items: list[Item] = []
    for action in legal:
        if isinstance(action, Win):
            items.append(
                _button(ids, "win", t("controls.win", locale), style=discord.ButtonStyle.danger)
            )
        elif isinstance(action, Kong):
            items.append(
                _button(
                    ids,
                    "kong",
                    t("controls.claim_kong", locale),
                    tile_str(action.tile),
                    discord.ButtonStyle.primary,
                )
            )
        elif isinstance(action, Pong):
            items.append(
                _button(ids, "pong", t("controls.pong", locale), style=discord.ButtonStyle.primary)
            )
        elif isinstance(action, Chow):
            label = t("controls.chow", locale, tiles=tiles_label(action.tiles, locale))
            items.append(
                _button(ids, "chow", label, format_tiles(action.tiles), discord.ButtonStyle.primary)
            )
        elif isinstance(action, Pass):
            items.append(_button(ids, "pass", t("controls.pass", locale)))
    return items


def exchange_controls(ids: PromptIds, concealed: Sequence[int], locale: str) -> list[Item]:
    """换三张: one select per suit holding three or more, each taking exactly three."""
    tiles = kinds_of(concealed)
    items: list[Item] = []
    for suit_index in range(3):
        mine = [k for k in tiles if suit(k) == suit_index]
        if len(mine) < EXCHANGE_SIZE:
            continue
        options = [
            discord.SelectOption(label=tile_label(k, locale), value=f"{tile_str(k)}.{i}")
            for i, k in enumerate(mine)
        ]
        items.append(
            GameSelect(
                ids.cid("exchange", SUIT_LETTERS[suit_index]),
                options,
                placeholder=t("controls.exchange", locale, suit=suit_label(suit_index, locale)),
                min_values=EXCHANGE_SIZE,
                max_values=EXCHANGE_SIZE,
            )
        )
    return items


def void_controls(ids: PromptIds, legal: Sequence[Action], locale: str) -> list[Item]:
    """定缺: 万 / 条 / 筒, the engine's suggestion (its first answer) marked."""
    suits = [a.suit for a in legal if isinstance(a, ChooseVoid)]
    items: list[Item] = []
    for suit_index in sorted(suits):
        suggested = suits and suit_index == suits[0]
        label = suit_label(suit_index, locale)
        if suggested:
            label = t("controls.suggested", locale, choice=label)
        style = discord.ButtonStyle.success if suggested else discord.ButtonStyle.secondary
        items.append(_button(ids, "void", label, SUIT_LETTERS[suit_index], style))
    return items


def bet_arg(factor: int, horses: Sequence[int]) -> str:
    return f"{factor}." + "-".join(str(h) for h in horses)


def bet_controls(
    ids: PromptIds, legal: Sequence[Action], chosen_horses: Sequence[int], locale: str
) -> list[Item]:
    """底分押倍 and 万马奔腾: a select of horse positions (kept in the factor buttons'
    ids, so nothing waits in memory), then one button per doubling factor."""
    bets = [a for a in legal if isinstance(a, Bet)]
    factors = sorted({b.factor for b in bets})
    positions = sorted({h for b in bets for h in b.horses})
    most = max((len(b.horses) for b in bets), default=0)
    items: list[Item] = []
    if positions and most:
        options = [
            discord.SelectOption(
                label=t("controls.horse", locale, position=p),
                value=str(p),
                default=p in chosen_horses,
            )
            for p in positions
        ]
        items.append(
            GameSelect(
                ids.cid("horses"),
                options,
                placeholder=t("controls.horses", locale, most=most),
                min_values=0,
                max_values=most,
            )
        )
    for factor in factors:
        items.append(
            _button(
                ids,
                "bet",
                t("controls.factor", locale, factor=factor),
                bet_arg(factor, chosen_horses),
                discord.ButtonStyle.primary if factor > 1 else discord.ButtonStyle.secondary,
            )
        )
    return items


def peek_controls(
    ids: PromptIds, legal: Sequence[Action], names: Sequence[str], locale: str
) -> list[Item]:
    """火眼金睛: one button per opponent whose hand I may watch."""
    return [
        _button(ids, "peek", t("controls.peek", locale, name=names[a.target]), str(a.target))
        for a in legal
        if isinstance(a, Peek)
    ]


def swap_controls(ids: PromptIds, concealed: Sequence[int], most: int, locale: str) -> list[Item]:
    """偷天换日: a select of up to ``most`` tiles to give up, or keep them all."""
    tiles = kinds_of(concealed)
    items: list[Item] = []
    if most and tiles:
        options = [
            discord.SelectOption(label=tile_label(k, locale), value=f"{tile_str(k)}.{i}")
            for i, k in enumerate(tiles)
        ]
        items.append(
            GameSelect(
                ids.cid("swap"),
                options,
                placeholder=t("controls.swap", locale, most=most),
                min_values=1,
                max_values=min(most, len(options)),
            )
        )
    items.append(_button(ids, "noswap", t("controls.no_swap", locale)))
    return items


def last_chance_controls(ids: PromptIds, legal: Sequence[Action], locale: str) -> list[Item]:
    """妙手回春: four face-down tiles; pick one."""
    return [
        _button(
            ids,
            "last",
            t("controls.position", locale, position=a.position),
            str(a.position),
            discord.ButtonStyle.primary,
        )
        for a in legal
        if isinstance(a, LastChance)
    ]


def _tiles_of(values: Sequence[str]) -> tuple[int, ...]:
    """Select values ``5m.0`` (a tile and its place in the hand) → sorted tiles."""
    return tuple(sorted(parse_tile(v.split(".")[0]) for v in values))


def _bet_of(seat: int, arg: str) -> Bet:
    factor, _, horses = arg.partition(".")
    return Bet(seat, int(factor), tuple(int(h) for h in horses.split("-") if h))


def action_of(cid: CustomId, values: Sequence[str], seat: int) -> Action | None:
    """The action a click stands for; None for a click that only changes the controls
    (choosing horses before the bet) or that does not parse."""
    try:
        return _action_of(cid, values, seat)
    except (ValueError, IndexError):
        return None


def _action_of(cid: CustomId, values: Sequence[str], seat: int) -> Action | None:
    kind, arg = cid.kind, cid.arg
    simple: dict[str, Any] = {
        "discard": lambda: Discard(seat, parse_tile(values[0])),
        "ready": lambda: Discard(seat, parse_tile(values[0]), declare_ready=True),
        "win": lambda: Win(seat),
        "kong": lambda: Kong(seat, parse_tile(arg)),
        "pong": lambda: Pong(seat),
        "chow": lambda: Chow(seat, tuple(parse_tiles(arg))),  # type: ignore[arg-type]
        "pass": lambda: Pass(seat),
        "exchange": lambda: Exchange(seat, _tiles_of(values)),
        "void": lambda: ChooseVoid(seat, SUIT_LETTERS.index(arg)),
        "bet": lambda: _bet_of(seat, arg),
        "peek": lambda: Peek(seat, int(arg)),
        "swap": lambda: Swap(seat, _tiles_of(values)),
        "noswap": lambda: Swap(seat, ()),
        "last": lambda: LastChance(seat, int(arg)),
    }
    make = simple.get(kind)
    return make() if make is not None else None


def reaction_action(emoji: str, legal: Sequence[Action]) -> Action | None:
    """The claim a reaction stands for, when it names exactly one legal action."""
    name = REACTIONS.get(emoji)
    if name is None:
        return None
    matching = [a for a in legal if a.name == name]
    return matching[0] if len(matching) == 1 else None


def reaction_legend(legal: Sequence[Action], locale: str) -> str:
    names = {a.name for a in legal}
    shown = [
        f"{emoji} {t(f'controls.reaction.{name}', locale)}"
        for emoji, name in REACTIONS.items()
        if name in names
    ]
    return t("controls.reactions", locale, legend=" · ".join(shown)) if shown else ""
