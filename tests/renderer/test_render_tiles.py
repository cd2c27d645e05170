"""Tile art: every face distinct, sizes, sprite caching and turning."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.tiles import ALL_KINDS
from renderer import sprites
from renderer.sprites import BACK, Mark
from renderer.tileart import draw_tile, tile_height

# Mean per-channel difference (0..255) two faces must at least show. The closest pairs,
# 万 tiles that differ only in their numeral, measure about 6.
MIN_FACE_DIFF = 3.0


def _difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean[:3]) / 3


def _alpha(image: Image.Image, xy: tuple[int, int]) -> int:
    """The alpha of an RGBA picture's pixel at ``xy``."""
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple)
    return pixel[3]


def _flat(face: int, width: int) -> Image.Image:
    tile = sprites.tile(face, width)
    out = Image.new("RGB", tile.size, "white")
    out.paste(tile, (0, 0), tile)
    return out


@pytest.mark.parametrize("width", [40, 48])
def test_every_face_differs_from_every_other(width: int) -> None:
    faces = {face: _flat(face, width) for face in (*ALL_KINDS, BACK)}
    close = [
        (a, b, round(d, 2))
        for a, b in itertools.combinations(faces, 2)
        if (d := _difference(faces[a], faces[b])) < MIN_FACE_DIFF
    ]
    assert not close


@pytest.mark.parametrize("width", [12, 24, 33, 48, 97])
def test_any_size_keeps_the_tile_shape(width: int) -> None:
    tile = draw_tile(5, width)
    assert tile.size == (width, tile_height(width))
    assert tile.mode == "RGBA"
    # Rounded corners let the table show through; the middle is solid.
    assert _alpha(tile, (0, 0)) < 200
    assert _alpha(tile, (width // 2, tile.height // 2)) == 255


def test_sprites_are_cached_by_face_size_and_state() -> None:
    assert sprites.tile(3, 40) is sprites.tile(3, 40)
    assert sprites.tile(3, 40) is not sprites.tile(3, 41)
    assert sprites.tile(3, 40, dim=True) is not sprites.tile(3, 40)
    assert sprites.tile(3, 40, mark=Mark.HIGHLIGHT) is sprites.tile(3, 40, mark=Mark.HIGHLIGHT)


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_turned_sprites_swap_width_and_height(quarter: int) -> None:
    tile = sprites.tile(20, 40, quarter)
    assert tile.size == sprites.tile_size(40, quarter)
    upright = sprites.tile(20, 40)
    back_again = tile.rotate(-90 * quarter, expand=True)
    assert _difference(back_again, upright) == 0


@pytest.mark.parametrize("mark", [Mark.HIGHLIGHT, Mark.WON, Mark.VOID, Mark.WILD])
def test_marks_and_dimming_change_the_tile(mark: Mark) -> None:
    plain = sprites.tile(12, 48)
    assert _difference(sprites.tile(12, 48, mark=mark), plain) > 0.5
    assert _difference(sprites.tile(12, 48, dim=True), plain) > 5
    # A mark stays inside the tile's rounded outline.
    assert _alpha(sprites.tile(12, 48, mark=mark), (47, 0)) < 16


@pytest.mark.parametrize(("face", "width"), [(34, 40), (-2, 40), (0, 0)])
def test_bad_faces_and_sizes_are_refused(face: int, width: int) -> None:
    with pytest.raises(ValueError, match="tile"):
        draw_tile(face, width)
