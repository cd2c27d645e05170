"""The table picture: sizes, which seat sits where, and what each mark changes."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image, ImageChops, ImageStat

import renderer
from engine.tiles import ALL_KINDS, Meld, MeldType
from renderer import HorseView, Labels, SeatView, TableView, render_table, table_layout
from renderer import table as table_module
from renderer.png import MAX_BYTES
from renderer.reference import late_game_table
from renderer.sprites import Mark
from renderer.table_layout import Role

Decode = Callable[[bytes], Image.Image]
LIMIT = 300 * 1024


def _changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    """Where two pictures differ clearly (the palette shifts faint shades everywhere)."""
    diff = ImageChops.difference(a, b).convert("L")
    return diff.point(lambda v: 255 if v > 40 else 0).getbbox()


def _crowded() -> TableView:
    """The busiest table a hand can reach: six full river rows, four kongs, open hands."""
    kongs = tuple(
        Meld(MeldType.KONG, k, claimed=k, from_seat=(s + 1) % 4, added=i % 2 == 0)
        for i, (k, s) in enumerate(zip((0, 9, 18, 27), range(4), strict=True))
    )
    seats = tuple(
        SeatView(
            name=f"玩家 Player {seat} 的名字很长很长",
            score=-123456,
            hand=tuple(ALL_KINDS[seat * 2 : seat * 2 + 2]),
            drawn=True,
            melds=kongs,
            discards=tuple(ALL_KINDS[(seat * 7 + i) % 34] for i in range(40)),
            void_suit=seat % 3,
            won_tile=seat,
            note="托管",
        )
        for seat in range(4)
    )
    return TableView(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        current=1,
        last_discard=2,
        wall_left=100,
        wildcard=33,
        horses=tuple(HorseView(k, k % 4, (k + 1) % 4) for k in range(8)),
        title="国标麻将 · 东风圈 第4局 · 底分押倍",
    )


def test_full_table_is_under_300_kb(load_view: Callable[[str], Any], decode: Decode) -> None:
    png = render_table(load_view("table"))
    assert len(png) < LIMIT
    assert decode(png).size == (table_module.SIZE, table_module.SIZE)


def test_crowded_table_stays_within_limits() -> None:
    png = render_table(_crowded())
    assert len(png) < LIMIT
    assert len(png) < MAX_BYTES


def test_each_bottom_seat_gives_a_different_table(
    load_view: Callable[[str], Any], decode: Decode
) -> None:
    view = load_view("table")
    images = [decode(render_table(dataclasses.replace(view, bottom=b))) for b in range(4)]
    for a in range(4):
        for b in range(a + 1, 4):
            assert ImageChops.difference(images[a], images[b]).getbbox() is not None


def test_turning_the_table_moves_a_river_to_the_right_seat(decode: Decode) -> None:
    """A lone discard by seat 1 sits right of centre with seat 0 at the bottom, below the
    centre with seat 1 at the bottom, left of it with seat 2 there."""
    empty = SeatView(name="", hand_count=0)
    seats = (empty, dataclasses.replace(empty, discards=(31,)), empty, empty)
    mid = table_module.SIZE // 2
    sides = ((0, lambda x, y: x > mid), (1, lambda x, y: y > mid), (2, lambda x, y: x < mid))
    for bottom, inside in sides:
        view = TableView(seats=seats, bottom=bottom)
        base = decode(render_table(dataclasses.replace(view, seats=(empty,) * 4)))
        box = _changed_box(decode(render_table(view)), base)
        assert box is not None
        assert inside((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _in_box(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    return x <= point[0] < x + w and y <= point[1] < y + h


def test_the_dealer_badge_follows_the_dealer_round_the_table(decode: Decode) -> None:
    """Seat 0 deals: with another seat at the bottom, the 庄 badge is drawn in the box of
    seat 0, wherever that box is."""
    names = tuple(SeatView(name=f"P{s}", hand_count=0) for s in range(4))
    seats = (names[0], names[1], names[2], names[3])
    plain = Labels(dealer=" ")
    for bottom in range(4):
        view = TableView(seats=seats, bottom=bottom)
        box = _changed_box(
            decode(render_table(view)),
            decode(render_table(dataclasses.replace(view, labels=plain))),
        )
        assert box is not None
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        assert _in_box(centre, table_layout.BOXES[table_layout.position(view, 0)])


def test_current_seat_last_discard_and_wind_are_marked(
    load_view: Callable[[str], Any], decode: Decode
) -> None:
    view = load_view("table")
    base = decode(render_table(view))
    changes: list[dict[str, Any]] = [
        {"current": 2},
        {"last_discard": 3},
        {"caption": "Dave 打出 4筒"},
        {"wildcard": 5},
        {"round_wind": 1},
    ]
    for change in changes:
        other = decode(render_table(dataclasses.replace(view, **change)))
        assert ImageChops.difference(base, other).getbbox() is not None, change


def test_the_latest_discard_is_ringed_in_its_river_and_shown_in_the_centre() -> None:
    named = tuple(SeatView(name=f"P{s}", discards=(s, s + 9)) for s in range(4))
    view = TableView(
        seats=(named[0], named[1], named[2], named[3]),
        last_discard=2,
        caption="P2 打出 3筒",
    )
    plan = table_layout.plan(view)
    ringed = [t for t in plan.tiles if t.mark is Mark.HIGHLIGHT]
    assert {(t.role, t.face, t.seat) for t in ringed} == {
        (Role.RIVER, 11, 2),
        (Role.CENTRE, 11, None),
    }
    centre = next(t for t in ringed if t.role is Role.CENTRE)
    assert centre.width >= table_layout.TILE


def test_the_seat_to_move_has_its_whole_box_outlined(decode: Decode) -> None:
    """The turn marker is bold: an outline round the whole box of the seat to move; what
    changes lies within that outline."""
    named = tuple(SeatView(name=f"P{s}", hand_count=0) for s in range(4))
    seats = (named[0], named[1], named[2], named[3])
    for current in range(4):
        view = TableView(seats=seats, bottom=1, current=current)
        idle = decode(render_table(dataclasses.replace(view, current=None)))
        box = _changed_box(decode(render_table(view)), idle)
        assert box is not None
        bx, by, bw, bh = table_layout.BOXES[table_layout.position(view, current)]
        assert bx - 3 <= box[0] <= bx + 1 and by - 3 <= box[1] <= by + 1
        assert bx + bw - 1 <= box[2] <= bx + bw + 3 and by + bh - 1 <= box[3] <= by + bh + 3


def test_renders_agree_across_threads(load_view: Callable[[str], Any]) -> None:
    """The bot may render off its event loop: cold caches filled by several threads at once
    must give the same picture as one thread."""
    view = load_view("table")
    expected = render_table(view)
    renderer.clear_caches()
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render_table(view), range(4)))
    assert all(r == expected for r in results)


def test_every_table_picture_maps_onto_one_palette_without_visible_change() -> None:
    """Table pictures share fixed colours (choosing 256 per picture cost half its time);
    a table unlike the reference one still comes out as drawn, to a shade or two."""
    pictures = [render_table(_crowded()), render_table(late_game_table())]
    palettes = {tuple(Image.open(io.BytesIO(png)).getpalette() or ()) for png in pictures}
    assert len(palettes) == 1
    drawn = table_module._draw(_crowded())
    shown = Image.open(io.BytesIO(pictures[0])).convert("RGB")
    error = ImageStat.Stat(ImageChops.difference(drawn, shown)).mean
    assert max(error) < 2.0
