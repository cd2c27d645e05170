"""Scaled to 360 px wide, as a phone shows it in a thread, every face-up tile a player
must read on a table picture (rivers, melds, winning tiles) is at least 18 px wide.
Measured from the picture's plan, the boxes the tiles are drawn in."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine.ai import make_player
from engine.round import Round
from engine.tiles import Meld, MeldType, parse_tile
from renderer import engine_views, table_layout
from renderer.engine_views import SeatText
from renderer.models import HorseView, Labels, SeatView, TableView
from renderer.sprites import BACK
from renderer.table_layout import BOXES, SIZE, Ink, Role, TablePlan, TableTile

PHONE_WIDTH = 360
MIN_PHONE_TILE = 18
READ = (Role.RIVER, Role.MELD, Role.WON)


def _phone_width(width: int) -> float:
    return width * PHONE_WIDTH / SIZE


def _kong(kind: int, owner: int, added: bool = False) -> Meld:
    return Meld(MeldType.KONG, kind, claimed=kind, from_seat=(owner + 2) % 4, added=added)


def _pung(kind: int, owner: int) -> Meld:
    return Meld(MeldType.PUNG, kind, claimed=kind, from_seat=(owner + 1) % 4)


def _chow(first: int, owner: int) -> Meld:
    return Meld(MeldType.CHOW, first, claimed=first + 1, from_seat=(owner + 3) % 4)


# Four melds per seat as each rule set allows them: MCR chows, pungs and every kind of
# kong; 广东 pungs and kongs; 四川 pungs and kongs of three suits only.
MELDS = {
    "mcr": lambda s: (_chow(s, s), _pung(9 + s, s), _kong(18 + s, s, True), _kong(27 + s, s)),
    "guangdong": lambda s: (
        _pung(s, s),
        _pung(9 + s, s),
        _kong(18 + s, s, True),
        Meld(MeldType.CONCEALED_KONG, 27 + s),
    ),
    "sichuan": lambda s: (
        _pung(s, s),
        _pung(3 + s, s),
        _kong(9 + s, s, True),
        Meld(MeldType.CONCEALED_KONG, 18 + s),
    ),
}


def _full_table(variant: str, discards: int) -> TableView:
    """Four seats with ``discards`` river tiles and four melds each, one concealed tile
    left, every mark the rule set shows."""
    kinds = range(27) if variant == "sichuan" else range(34)
    river = list(itertools.islice(itertools.cycle(kinds), discards))
    sichuan = variant == "sichuan"
    seats = tuple(
        SeatView(
            name=f"Player {seat} 名字很长很长",
            score=-12345,
            hand_count=1,
            melds=MELDS[variant](seat),
            discards=tuple(river[seat:] + river[:seat]),
            void_suit=seat % 3 if sichuan else None,
            won_tile=parse_tile("5m") if sichuan and seat < 3 else None,
            won_order=seat + 1 if sichuan and seat < 3 else None,
            note="托管",
        )
        for seat in range(4)
    )
    return TableView(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        current=3,
        last_discard=2,
        caption="Player 2 打出 9万",
        wall_left=3,
        round_wind=0 if variant == "mcr" else None,
        wildcard=parse_tile("5z") if variant == "mcr" else None,
        horses=tuple(HorseView(k, k % 4) for k in range(6 if variant == "mcr" else 4))
        if variant != "sichuan"
        else (),
        title="full",
    )


def _unreadable(plan: TablePlan) -> list[str]:
    return [
        f"{tile.role.value} tile of seat {tile.seat}: {_phone_width(tile.width):.1f} px"
        for tile in plan.tiles
        if tile.role in READ and tile.face != BACK and _phone_width(tile.width) < MIN_PHONE_TILE
    ]


def _outside_own_box(view: TableView, plan: TablePlan) -> list[str]:
    """Tiles and sprites (name plates, badges) of a seat that stray out of its box."""
    out = []
    things: tuple[TableTile | Ink, ...] = (*plan.tiles, *plan.inks)
    for thing in things:
        if thing.seat is None:
            continue
        bx, by, bw, bh = BOXES[table_layout.position(view, thing.seat)]
        x, y, w, h = thing.box
        if x < bx or y < by or x + w > bx + bw or y + h > by + bh:
            out.append(f"{thing} of seat {thing.seat} at {thing.box}")
    return out


# 四川 draws 55 tiles from its wall among four seats, and there three seats also show the
# tile they won on: 21 discards beside four melds and a win is already a long hand.
FULL = [("mcr", 21), ("mcr", 24), ("guangdong", 21), ("guangdong", 24), ("sichuan", 21)]


@pytest.mark.parametrize(("variant", "discards"), FULL)
@pytest.mark.parametrize("bottom", range(4))
def test_a_full_table_reads_on_a_phone(variant: str, discards: int, bottom: int) -> None:
    view = dataclasses.replace(_full_table(variant, discards), bottom=bottom)
    plan = table_layout.plan(view)
    assert not _unreadable(plan)
    assert not _outside_own_box(view, plan)
    drawn = [t for t in plan.tiles if t.role in READ]
    expected = sum(len(s.discards) + len(s.melds) for s in view.seats)
    assert len(drawn) >= expected


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(3))
def test_every_table_of_random_play_reads_on_a_phone(variant: str, seed: int) -> None:
    hand = Round.new(variant, {}, seed)
    players = [make_player("random" if seat % 2 else "basic", seed + seat) for seat in range(4)]
    seats = [SeatText(f"Player {seat}", seat * 100) for seat in range(4)]
    while not hand.ended:
        seat = hand.to_act()[0]
        choices = hand.legal_actions(seat)
        view = hand.view(seat)
        action = (
            choices[0]
            if hand.prompt is not None
            else players[seat].choose(view, choices, hand.default_action(seat))
        )
        hand.apply(action)
        table = engine_views.table_view(hand.view(None), seats, Labels(), "t", seed % 4)
        plan = table_layout.plan(table)
        assert not _unreadable(plan), _unreadable(plan)
        assert not _outside_own_box(table, plan)
