"""Scaled to 360 px wide, as a phone shows it in a thread, every face-up tile a player
must read on a table picture (rivers, melds, winning tiles) is at least 18 px wide, the
horses 11 px, and every text at least 9 px tall. Measured from the picture's plan, the
boxes the tiles are drawn in, and the sizes its text is drawn at."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine.ai import make_player
from engine.round import Round
from engine.tiles import Meld, MeldType, parse_tile
from renderer import engine_views, layout, table_layout, text, theme
from renderer.engine_views import SeatText
from renderer.models import HorseView, Labels, SeatView, TableView
from renderer.reference import late_game_table
from renderer.sprites import BACK, Mark
from renderer.table_layout import BOXES, CENTRE, SIZE, Ink, Role, TablePlan, TableTile

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


# Every text of the table, the centre's title and the horses' winds the smallest, stands
# at least this tall on a phone.
MIN_PHONE_TEXT = 9
# Turned-up horses are at least this wide there, with their winds under them apart.
MIN_PHONE_HORSE = 11
HORSES = tuple(parse_tile(t) for t in ("9p", "6s", "7z", "1p", "5s", "9m"))
WILDCARD = parse_tile("4z")


def _finished(wildcard: int | None, horses: int) -> TableView:
    """The end of a hand: the 宝牌, the horses turned up, the winning discard."""
    seats = tuple(
        SeatView(f"电脑{seat}", hand=HORSES[:4], discards=HORSES * 2) for seat in range(4)
    )
    return TableView(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        last_discard=3,
        caption="电脑3 打出 6条",
        wall_left=22,
        round_wind=0,
        wildcard=wildcard,
        horses=tuple(HorseView(k, i % 4) for i, k in enumerate(HORSES[:horses])),
        title="国标麻将 · 第 1/4 局 · 庄家 电脑0",
    )


@pytest.mark.parametrize("wildcard", [None, WILDCARD])
@pytest.mark.parametrize("horses", [1, 4, 6])
def test_turned_up_horses_and_their_winds_read_on_a_phone(
    wildcard: int | None, horses: int
) -> None:
    view = _finished(wildcard, horses)
    plan = table_layout.plan(view)
    cx, cy, cw, ch = CENTRE
    centre = [t for t in plan.tiles if t.role is Role.CENTRE]
    shown = [t for t in centre if t.mark is Mark.NONE and t.face in HORSES]
    assert len(shown) == horses
    assert all(_phone_width(t.width) >= MIN_PHONE_HORSE for t in shown)
    assert (wildcard is not None) == any(t.face == WILDCARD for t in centre)
    top = min(t.y + t.box[3] for t in shown)
    winds = [i for i in plan.inks if i.seat is None and i.y >= top]
    assert len(winds) == horses
    spots = [(i.x, i.y, i.x + i.image.width, i.y + i.image.height) for i in winds]
    assert layout.apart(spots)
    by_x = sorted(shown, key=lambda t: t.x), sorted(winds, key=lambda i: i.x)
    for tile, wind in zip(*by_x, strict=True):
        assert abs(wind.x + wind.image.width / 2 - (tile.x + tile.width / 2)) <= 1
    things: list[TableTile | Ink] = [*centre, *(i for i in plan.inks if i.seat is None)]
    for thing in things:
        x, y, w, h = thing.box
        assert cx <= x and cy <= y and x + w <= cx + cw and y + h <= cy + ch, thing


def test_every_text_of_the_table_reads_on_a_phone(drawn_text: list[tuple[str, int, str]]) -> None:
    for view in (_finished(WILDCARD, 6), _full_table("mcr", 24), late_game_table()):
        table_layout.plan(view)
    assert drawn_text
    assert min(_phone_width(size) for _, size, _ in drawn_text) >= MIN_PHONE_TEXT


def test_the_centre_keeps_whole_parts_of_the_title_and_the_end_of_the_caption(
    drawn_text: list[tuple[str, int, str]],
) -> None:
    """Early in a hand the centre has room for the title's rule set and hand; whatever
    does not fit is left out whole. A long name is cut so that the move stays."""
    seats = tuple(SeatView("W" * 32) for _ in range(4))
    view = TableView(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        last_discard=None,
        caption="W" * 32 + " 打出 7条",
        title="国标麻将 · 第 3/16 局 · 庄家 " + "W" * 32,
    )
    table_layout.plan(view)
    title = [words for words, _, colour in drawn_text if colour == theme.TEXT_MUTED_LIGHT]
    assert "第 3/16 局" in " ".join(title)
    assert not any(text.ELLIPSIS in words for words in title)
    assert any(words.endswith(" 打出 7条") for words, _, _ in drawn_text)
