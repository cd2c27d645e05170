"""Marks a phone player tells apart at a glance: on the desk only the discard they may
claim has the amber ring (another seat's winning tile has a ring of its own colour), each
suit's 缺 badge has its own colour, and small bold text keeps its strokes apart."""

from __future__ import annotations

import pytest
from PIL import Image, ImageStat

from engine.tiles import Meld, MeldType, parse_tile, parse_tiles
from renderer import desk, sprites, table_layout, text, theme
from renderer.models import DeskView, HandView, OpponentView, SeatView, TableView
from renderer.sprites import Mark

LIVE = parse_tile("5m")
WON = parse_tile("3p")


def _claim_after_a_win() -> DeskView:
    """血战: 对家 has won on 3筒, 下家 has just discarded 5万, which the reader may claim."""
    hand = HandView(concealed=tuple(parse_tiles("1123m456m789m3p4p")), void_suit=2)
    others = (
        OpponentView("电脑1", "下家", 1, discards=(*parse_tiles("1s2s9s"), LIVE), live=True),
        OpponentView(
            "阿美",
            "对家",
            2,
            melds=(Meld(MeldType.PUNG, parse_tile("2p"), claimed=parse_tile("2p"), from_seat=1),),
            discards=tuple(parse_tiles("1s9s")),
            won_tile=WON,
        ),
        OpponentView("Sam", "上家", 3, discards=tuple(parse_tiles("7s8s"))),
    )
    return DeskView(hand, others)


def _rgb(colour: str) -> tuple[int, int, int]:
    red, green, blue = Image.new("RGB", (1, 1), colour).getpixel((0, 0))  # type: ignore[misc]
    return red, green, blue


def _ring(mark: Mark) -> tuple[int, int, int]:
    """The colour of the ring at the middle of a tile's top edge."""
    tile = sprites.tile(LIVE, desk.TILE, mark=mark)
    red, green, blue, _ = tile.getpixel((desk.TILE // 2, 1))  # type: ignore[misc]
    return red, green, blue


def test_the_desk_rings_only_the_claimable_discard_in_amber() -> None:
    plan = desk.plan(_claim_after_a_win())
    ringed = [t for t in plan.tiles if t.placed.mark is Mark.HIGHLIGHT]
    assert [(t.part, t.placed.face) for t in ringed] == [(desk.Part.RIVER, LIVE)]
    won = [t for t in plan.tiles if t.part is desk.Part.WON]
    assert [(t.placed.face, t.placed.mark) for t in won] == [(WON, Mark.WON)]
    assert _ring(Mark.HIGHLIGHT) == _rgb(theme.HIGHLIGHT)
    assert _ring(Mark.WON) == _rgb(theme.WON_MARK)
    assert _ring(Mark.WON) != _ring(Mark.HIGHLIGHT)


def _fill(badge: Image.Image) -> tuple[int, int, int]:
    """A pill's colour, inside its rounded left end before the text."""
    red, green, blue, _ = badge.getpixel((3, badge.height // 2))  # type: ignore[misc]
    return red, green, blue


def test_each_void_suit_has_a_badge_of_its_own_colour() -> None:
    seats = tuple(SeatView(f"P{s}", hand_count=13, void_suit=s % 3) for s in range(4))
    plan = table_layout.plan(TableView(seats=(seats[0], seats[1], seats[2], seats[3])))
    fills = {_rgb(colour) for colour in theme.VOID_SUITS}
    assert len(fills) == 3
    for seat in range(3):
        shown = {_fill(i.image) for i in plan.inks if i.seat == seat}
        assert shown & fills == {_rgb(theme.VOID_SUITS[seat])}


def _ink(words: str, size: int, bold: bool) -> float:
    return ImageStat.Stat(text.text(words, size, theme.TEXT, bold).getchannel("A")).sum[0]


@pytest.mark.parametrize("size", [16, 18, 20])
def test_small_bold_text_is_bolder_without_filling_its_strokes(size: int) -> None:
    """A badge's bold (缺筒, 电脑) adds ink but keeps the gaps between strokes: a full
    pixel of stroke more than doubled the ink at these sizes and shut them."""
    words = "缺筒电脑"
    ratio = _ink(words, size, True) / _ink(words, size, False)
    assert 1.2 < ratio < 2
