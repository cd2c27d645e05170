"""A desk is drawn and encoded band by band, each band kept by what it shows: the file
put together from the bands has exactly the pixels of the whole picture drawn at once,
and the next desk of a reader draws again only the bands that changed."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import cast

import pytest
from PIL import Image

from engine.round import Round
from renderer import desk, engine_views, png, theme
from renderer.models import DeskView, Labels
from renderer.reference import reference_desk
from tests.renderer.test_render_desk_phone import SEATS, crowded, played

#: Desks of random play compared, one step in this many (each compared from all seats).
COMPARE_EVERY = 4


def _assert_whole(view: DeskView) -> None:
    """The banded file decodes to the picture drawn on one canvas, in the same colours."""
    whole = desk._draw(view).quantize(palette=desk._palette(), dither=Image.Dither.NONE)
    image = Image.open(io.BytesIO(desk.render_desk(view)))
    image.load()
    assert image.size == whole.size == desk.plan(view).size
    assert image.tobytes() == whole.tobytes()
    assert image.getpalette() == whole.getpalette()


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The bands drawn from now on, recorded as they are drawn."""
    drawn: list[object] = []
    encode = desk._encode_band

    def counted(band: desk._Band) -> object:
        drawn.append(band)
        return encode(band)

    monkeypatch.setattr(desk, "_encode_band", counted)
    return drawn


def test_the_reference_and_the_crowded_desk_are_their_whole_pictures() -> None:
    desk.clear_band_cache()
    for view in (reference_desk(), crowded(), reference_desk()):
        _assert_whole(view)


def test_a_desk_without_other_seats_or_title_is_its_whole_picture() -> None:
    view = reference_desk()
    _assert_whole(replace(view, opponents=(), wall_left=None, hand=replace(view.hand, title="")))
    _assert_whole(replace(view, opponents=(), current=True))


def test_several_seats_marked_current_light_the_last_one_only() -> None:
    view = reference_desk()
    everyone = tuple(replace(o, current=True) for o in view.opponents)
    _assert_whole(replace(view, opponents=everyone))
    _assert_whole(replace(view, opponents=everyone, current=True))


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(2))
def test_every_desk_of_random_play_is_its_whole_picture(variant: str, seed: int) -> None:
    for step, hand in enumerate(played(variant, seed), 1):
        if step % COMPARE_EVERY == 0 or hand.ended:
            for viewer in range(4):
                legal = frozenset(hand.view(viewer).seats[viewer].concealed or ()) or None
                view = engine_views.desk_view(
                    hand.view(viewer), viewer, SEATS, Labels(), "t", legal, [(5, 2), (8, 0)]
                )
                _assert_whole(view)


def test_the_next_desk_draws_only_the_readers_own_band(monkeypatch: pytest.MonkeyPatch) -> None:
    desk.clear_band_cache()
    view = reference_desk()
    desk.render_desk(view)
    drawn = _counting(monkeypatch)
    hand = view.hand
    moved = replace(view, hand=replace(hand, concealed=hand.concealed[1:], drawn=None))
    desk.render_desk(moved)
    assert drawn == [desk._OwnBand(moved.hand, None, None, moved.wait_left, lit=False)]
    desk.render_desk(moved)
    desk.render_desk(view)
    assert len(drawn) == 1


def test_the_move_passing_on_draws_the_bands_it_lights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = reference_desk()
    desk.render_desk(view)
    drawn = _counting(monkeypatch)
    others = tuple(replace(o, current=False, live=False) for o in view.opponents)
    desk.render_desk(replace(view, opponents=(*others[:2], view.opponents[2]), current=True))
    # The seat that had the move: its head and its tiles, both no longer lit.
    assert [type(band) for band in drawn] == [desk._SeatHead, desk._SeatTiles, desk._OwnBand]


def test_the_band_cache_is_bounded_and_forgets_the_least_recently_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk.clear_band_cache()
    view = reference_desk()
    bands = len(desk._bands(view))
    monkeypatch.setattr(desk, "BAND_CACHE_SIZE", bands + 1)
    desk.render_desk(view)
    for n in range(3):
        desk.render_desk(replace(view, wall_left=n))
    assert len(desk._encoded) == bands + 1
    drawn = _counting(monkeypatch)
    desk.render_desk(view)
    # Its other seats were used by every desk since; only its header was forgotten.
    assert [type(band) for band in drawn] == [desk._HeadBand]


def test_clearing_the_caches_forgets_the_bands() -> None:
    desk.render_desk(reference_desk())
    desk.clear_caches()
    assert not desk._encoded


def _lit_tiles() -> desk._BandPlan:
    """The plan of the tiles of a seat whose move it is."""
    _, tiles = desk._seat_bands(reference_desk().opponents[0], Labels(), lit=True)
    assert isinstance(tiles, desk._SeatTiles)
    return tiles.plan()


def test_readers_in_other_seats_and_languages_share_a_seats_tiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    english = Labels()
    chinese = replace(english, winds=("东", "南", "西", "北"), won="胡")

    def desk_of(hand: Round, viewer: int, labels: Labels) -> DeskView:
        return engine_views.desk_view(hand.view(viewer), viewer, SEATS, labels, "t", None, [])

    # Well into the hand, between claims (no reader has a tile ringed to claim).
    for step, hand in enumerate(played("sichuan", 0)):
        first, second = desk_of(hand, 0, english), desk_of(hand, 1, chinese)
        if step > 40 and not any(o.live for o in (*first.opponents, *second.opponents)):
            break
    desk.clear_band_cache()
    desk.render_desk(first)
    drawn = _counting(monkeypatch)
    desk.render_desk(second)
    # Seats 2 and 3 look the same to both readers: only seat 0's tiles are new.
    assert [band.owner for band in drawn if isinstance(band, desk._SeatTiles)] == [0]
    assert sum(isinstance(band, desk._SeatHead) for band in drawn) == 3


def _band_pixels(spot: desk._BandPlan) -> tuple[bytes, bytes]:
    """A band plan drawn the way the desk draws it, and drawn in RGB and mapped."""
    band = cast(desk._Band, _Planned(spot))
    encoded = png.write_bands([desk._encode_band(band)], desk._palette())
    image = Image.open(io.BytesIO(encoded))
    image.load()
    canvas = Image.new("RGB", (desk.WIDTH, spot.height), theme.FELT)
    desk._paint(canvas, spot.tiles, spot.sprites, spot.current, spot.rule)
    whole = canvas.quantize(palette=desk._palette(), dither=Image.Dither.NONE)
    return image.tobytes(), whole.tobytes()


@dataclass(frozen=True)
class _Planned:
    """A band whose plan is given, drawn as the desk's bands are."""

    spot: desk._BandPlan

    def plan(self) -> desk._BandPlan:
        return self.spot


def test_a_band_with_tiles_on_each_other_is_drawn_in_rgb() -> None:
    spot = _lit_tiles()
    first = spot.tiles[0]
    over = first.moved(first.width // 2, 0)
    crowded_spot = replace(spot, tiles=(*spot.tiles, over))
    assert desk._draw_indexed(crowded_spot) is None
    drawn, whole = _band_pixels(crowded_spot)
    assert drawn == whole


def test_a_tile_across_the_highlights_edge_is_drawn_in_rgb() -> None:
    spot = _lit_tiles()
    assert spot.current is not None
    first = spot.tiles[0]
    # Half on the bar down the highlight's left edge.
    edge = first.moved(spot.current[0] - first.placed.x, 0)
    moved = replace(spot, tiles=(edge, *spot.tiles[1:]))
    assert desk._draw_indexed(moved) is None
    drawn, whole = _band_pixels(moved)
    assert drawn == whole


def test_the_lit_band_is_drawn_in_the_palette() -> None:
    spot = _lit_tiles()
    assert desk._draw_indexed(spot) is not None
    drawn, whole = _band_pixels(spot)
    assert drawn == whole
