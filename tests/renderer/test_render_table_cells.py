"""The table picture is drawn cell by cell in its palette and encoded in strips, each
kept by what it shows: the file has exactly the pixels of the whole picture drawn at once
in RGB and mapped onto the palette, and the next picture draws only what changed."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from renderer import engine_views, png, table, table_layout
from renderer.models import Labels, TableView
from renderer.reference import late_game_table
from renderer.table_layout import BoxPlan
from tests.renderer.test_render_desk_phone import SEATS, played
from tests.renderer.test_render_table import _crowded

#: Tables of random play compared, one step in this many (each seen from two seats).
COMPARE_EVERY = 2


def _assert_whole(view: TableView) -> None:
    """The picture decodes to the one drawn on one RGB canvas, in the same colours."""
    whole = table._draw(view).quantize(palette=table._palette(), dither=Image.Dither.NONE)
    image = Image.open(io.BytesIO(table.render_table(view)))
    image.load()
    assert image.size == whole.size
    assert image.tobytes() == whole.tobytes()
    assert image.getpalette() == whole.getpalette()


def test_the_cells_tile_the_canvas() -> None:
    covered = Image.new("L", (table.SIZE, table.SIZE))
    for position in table.POSITIONS:
        left, top, right, bottom = table.cell(position)
        assert covered.crop((left, top, right, bottom)).getextrema() == (0, 0)
        covered.paste(1, (left, top, right, bottom))
    assert covered.getextrema() == (1, 1)


def test_every_box_lies_in_its_cell() -> None:
    for view in (late_game_table(), _crowded()):
        seats, centre = table_layout.box_plans(view)
        for box in (*seats, centre):
            assert table._layer(box) is not None


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(2))
def test_every_table_of_random_play_is_its_whole_picture(variant: str, seed: int) -> None:
    for step, hand in enumerate(played(variant, seed), 1):
        if step % COMPARE_EVERY == 0 or hand.ended:
            for bottom in (0, step % 3 + 1):
                view = engine_views.table_view(hand.view(None), SEATS, Labels(), "t", bottom)
                _assert_whole(view)


def test_the_reference_and_the_crowded_table_are_their_whole_pictures() -> None:
    for view in (late_game_table(), _crowded(), dataclasses.replace(_crowded(), current=None)):
        _assert_whole(view)


def test_a_box_beyond_its_cell_draws_the_table_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    view = late_game_table()
    seats, centre = table_layout.box_plans(view)
    tile = seats[0].tiles[0]
    # Into the next cell to the left or above, whichever the box has.
    moved = tile._replace(x=tile.x - 300) if tile.x > 300 else tile._replace(y=tile.y - 300)
    bad = BoxPlan(seats[0].position, seats[0].current, (moved, *seats[0].tiles[1:]), ())
    monkeypatch.setattr(table_layout, "box_plans", lambda _: ((bad, *seats[1:]), centre))
    assert table._layer(bad) is None
    _assert_whole(view)


def _encoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The heights of the strips deflated from now on."""
    heights: list[int] = []
    encode = png.encode_rows

    def counted(canvas: Image.Image) -> png.EncodedBand:
        heights.append(canvas.height)
        return encode(canvas)

    monkeypatch.setattr(png, "encode_rows", counted)
    return heights


def test_the_next_picture_encodes_only_the_strips_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = late_game_table()
    table.render_table(view)
    heights = _encoded(monkeypatch)
    table.render_table(view)
    assert heights == []
    # The wall count is in the centre, which only the middle strip crosses.
    table.render_table(dataclasses.replace(view, wall_left=view.wall_left - 1))
    assert heights == [156]


def test_clearing_the_caches_forgets_the_cells_and_strips() -> None:
    table.render_table(late_game_table())
    table.clear_caches()
    assert table._layer.cache_info().currsize == 0
    assert table._strip.cache_info().currsize == 0
