"""Round scripts for the sichuan tests: a deal written by hand, the rest filled in.

A :class:`Table` names the dealt hands, the first wall draws (front, in draw order), the
replacement draws (back, first one first) and each seat's void suit; the remaining tiles
fill the middle of the wall. :func:`play` runs the script through the real engine, and
with ``finish`` plays on to the end (every window passed, every turn discarding the tile
just drawn) and replays the finished script, so every assertion reads a replayed hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Discard, Pass
from engine.events import ClaimOffered
from engine.replay import EXIT_OK, replay
from engine.round import Phase, Round
from engine.tiles import counts_of, format_tiles, parse_tiles, suit, tile_str
from engine.wall import TILES_108

Script = dict[str, Any]
# The wall's last front position when no kong takes a tile from the back.
LAST_POSITION = 54


def discard(seat: int, tile: str) -> dict[str, Any]:
    return {"seat": seat, "action": "discard", "tile": tile}


def pong(seat: int) -> dict[str, Any]:
    return {"seat": seat, "action": "pong"}


def kong(seat: int, tile: str) -> dict[str, Any]:
    return {"seat": seat, "action": "kong", "tile": tile}


def win(seat: int) -> dict[str, Any]:
    return {"seat": seat, "action": "win"}


def pass_(seat: int) -> dict[str, Any]:
    return {"seat": seat, "action": "pass"}


def exchange(seat: int, tiles: str) -> dict[str, Any]:
    return {"seat": seat, "action": "exchange", "tiles": tiles}


def void(seat: int, letter: str) -> dict[str, Any]:
    return {"seat": seat, "action": "void", "suit": letter}


# Chooses the filler tile for one front position from the tiles left (sorted).
Filler = Callable[[int, list[int]], int]


def first_left(position: int, left: list[int]) -> int:
    return left[0]


def last_tile(kind: str) -> Filler:
    """A filler that keeps one ``kind`` for the wall's last tile (position 54)."""
    tile = parse_tiles(kind)[0]

    def fill(position: int, left: list[int]) -> int:
        others = [k for k in left if k != tile]
        return tile if position == LAST_POSITION or not others else others[0]

    return fill


@dataclass
class Table:
    hands: Sequence[str]
    voids: str
    front: Sequence[str] = ()
    back: str = ""
    options: dict[str, Any] = field(default_factory=lambda: {"exchange_three": False})
    dealer: int = 0
    fill: Filler = first_left
    extra: dict[str, Any] = field(default_factory=dict)

    def wall(self) -> str:
        dealt = [k for h in self.hands for k in parse_tiles(h)]
        front = [k for t in self.front for k in parse_tiles(t)]
        back = parse_tiles(self.back)
        left = list(TILES_108)
        for k in dealt + front + back:
            if k not in left:
                raise ValueError(f"the table uses a fifth {tile_str(k)}")
            left.remove(k)
        middle = []
        for position in range(len(front), len(front) + len(left)):
            tile = self.fill(position, left)
            left.remove(tile)
            middle.append(tile)
        return format_tiles(front + middle + back[::-1], sort=False)

    def script(self, actions: Sequence[dict[str, Any]], prompts: bool = True) -> Script:
        """The script of ``actions``; with ``prompts`` the 定缺 answers come after the
        换三张 answers among ``actions`` and before the rest."""
        piles = [a for a in actions if a["action"] == "exchange"]
        rest = [a for a in actions if a["action"] != "exchange"]
        voids = [void(s, v) for s, v in enumerate(self.voids)] if prompts else []
        return {
            "variant": "sichuan",
            "options": self.options,
            "dealer": self.dealer,
            "dice": [3, 4],
            "hands": list(self.hands),
            "wall": self.wall(),
            **self.extra,
            "actions": [*piles, *voids, *rest],
        }


def load(script: Script) -> Round:
    """A round script through JSON and the engine, as a stored round is replayed; the
    replay command's function must print the same result."""
    stored = json.loads(json.dumps(script))
    rnd = Round.from_script(stored)
    assert replay(stored) == (EXIT_OK, rnd.result())
    return rnd


def finish(rnd: Round, until: Callable[[Round], bool] = lambda rnd: False) -> None:
    """Play on to the end (or until ``until`` holds): pass every window; on a turn
    discard the tile just drawn, or the first legal discard (a seat still holding its
    void suit)."""
    while not rnd.ended and not until(rnd):
        if rnd.phase in (Phase.CLAIM, Phase.ROB):
            for seat in rnd.to_act():
                rnd.apply(Pass(seat))
            continue
        seat = rnd.to_act()[0]
        legal = [a for a in rnd.legal_actions(seat) if isinstance(a, Discard)]
        drawn = rnd.last_drawn(seat)
        tsumogiri = Discard(seat, drawn) if drawn is not None else None
        rnd.apply(tsumogiri if tsumogiri in legal else legal[0])


def play(
    table: Table,
    actions: Sequence[dict[str, Any]],
    *,
    to_end: bool = False,
    prompts: bool = True,
) -> Round:
    rnd = load(table.script(actions, prompts))
    if not to_end:
        return rnd
    finish(rnd)
    replayed = load(rnd.to_script())
    assert replayed.result() == rnd.result()
    return replayed


def lines(rnd: Round) -> list[tuple[int, int, int, str]]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in rnd.ledger.lines]


def prefer_suit(seats: Callable[[int], int], wanted: dict[int, int]) -> Filler:
    """A filler that gives the seat drawing at each position a tile of its wanted suit
    while any is left (a 花猪 that must keep its void tile), others anything else."""

    def fill(position: int, left: list[int]) -> int:
        seat = seats(position)
        if seat in wanted:
            mine = [k for k in left if suit(k) == wanted[seat]]
            if mine:
                return mine[0]
        others = [k for k in left if suit(k) not in wanted.values()]
        return (others or left)[0]

    return fill


def held(rnd: Round, seat: int) -> str:
    """The seat's concealed tiles in canonical notation."""
    return format_tiles([k for k, n in enumerate(rnd.concealed(seat)) for _ in range(n)])


def tiles(text: str) -> str:
    """``text`` in canonical notation, to compare with :func:`held`."""
    return format_tiles(parse_tiles(text))


def counts(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def offers(rnd: Round) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every claim offered in the hand so far: (seat, tile, options)."""
    return [
        (e.seat, tile_str(e.tile), e.options)
        for e in rnd.events
        if isinstance(e, ClaimOffered) and e.options
    ]
