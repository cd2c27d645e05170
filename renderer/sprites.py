"""Pre-rendered tiles, cached by face, size and state, ready to paste."""

from __future__ import annotations

import enum
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from renderer import theme
from renderer.tileart import BACK, draw_tile, tile_height

__all__ = ["BACK", "Mark", "clear_caches", "tile", "tile_height", "tile_on", "tile_size"]


_TURNS = {
    1: Image.Transpose.ROTATE_90,
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_270,
}


class Mark(enum.Enum):
    """A badge drawn on a tile: a ring round the tile to act on (the live discard) or
    round a winning tile, each in its own colour so that the desk never shows two rings
    alike; a corner for the void suit or a 宝牌."""

    NONE = "none"
    HIGHLIGHT = "highlight"
    WON = "won"
    VOID = "void"
    WILD = "wild"

    # Hashed as the object it is (each mark is one object), in C: every cached tile and
    # band is looked up with a mark in its key, and Enum hashes its name in Python.
    __hash__ = object.__hash__


# Asked for every tile placed and drawn, of a handful of widths.
@lru_cache(maxsize=256)
def tile_size(width: int, quarter: int = 0) -> tuple[int, int]:
    """(width, height) of a tile turned by ``quarter`` quarter turns."""
    h = tile_height(width)
    return (width, h) if quarter % 2 == 0 else (h, width)


# Unbounded: the pictures use a handful of widths, so this holds a few hundred tiles.
@cache
def _art(face: int, width: int) -> Image.Image:
    return draw_tile(face, width)


def _dimmed(image: Image.Image) -> Image.Image:
    overlay = Image.new("RGBA", image.size, theme.DIM)
    out = Image.alpha_composite(image, overlay)
    out.putalpha(image.getchannel("A"))
    return out


def _badge(image: Image.Image, mark: Mark) -> None:
    w, h = image.size
    draw = ImageDraw.Draw(image)
    if mark is Mark.HIGHLIGHT or mark is Mark.WON:
        ring = max(2, round(w / 12))
        colour = theme.HIGHLIGHT if mark is Mark.HIGHLIGHT else theme.WON_MARK
        draw.rounded_rectangle((0, 0, w - 1, h - 1), round(w * 0.12), outline=colour, width=ring)
        return
    corner = round(w * 0.34)
    if mark is Mark.VOID:
        draw.polygon([(w - corner, 0), (w - 1, 0), (w - 1, corner)], fill=theme.VOID_MARK)
    elif mark is Mark.WILD:
        draw.polygon([(0, 0), (corner, 0), (0, corner)], fill=theme.WILD_MARK)


@lru_cache(maxsize=4096)
def tile(
    face: int, width: int, quarter: int = 0, dim: bool = False, mark: Mark = Mark.NONE
) -> Image.Image:
    """A tile sprite (RGBA), shared: paste it, never draw on it. ``face`` is a kind or
    BACK; ``quarter`` counts quarter turns counter-clockwise (1 = lying sideways with its
    top to the left)."""
    if quarter % 4:
        upright = tile(face, width, 0, dim, mark)
        return upright.transpose(_TURNS[quarter % 4])
    if not dim and mark is Mark.NONE:
        return _art(face, width)
    art = _art(face, width)
    image = _dimmed(art) if dim else art.copy()
    if mark is not Mark.NONE:
        _badge(image, mark)
        # Badges follow the tile's rounded outline, not its bounding box.
        image.putalpha(art.getchannel("A"))
    return image


@lru_cache(maxsize=4096)
def tile_on(
    face: int, width: int, ground: str, quarter: int = 0, mark: Mark = Mark.NONE
) -> Image.Image:
    """The tile already laid on a flat ``ground`` colour (RGB): where a picture knows the
    colour under a tile, pasting this needs no blending, several times faster."""
    sprite = tile(face, width, quarter, False, mark)
    out = Image.new("RGB", sprite.size, ground)
    out.paste(sprite, (0, 0), sprite)
    return out


class Same:
    """A sprite as a cache key, compared by identity: Pillow images compare by content
    and cannot be hashed. The key holds the sprite, so its id is not reused meanwhile."""

    __slots__ = ("image",)

    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def __hash__(self) -> int:
        return id(self.image)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.image is self.image


def stamp(canvas: Image.Image, sprite: Image.Image, x: int, y: int, *, blend: bool = True) -> None:
    """``sprite`` onto ``canvas`` with its top left at (x, y), through its own alpha when
    ``blend``. A move's pictures paste a hundred sprites or more each, and Pillow's
    checks around a paste cost more than the copy: here both images are our own, in
    memory, the canvas mutable and the sprite of its mode or RGBA over RGB."""
    box = (x, y, x + sprite.width, y + sprite.height)
    if blend:
        canvas.im.paste(sprite.im, box, sprite.im)
    else:
        canvas.im.paste(sprite.im, box)


def clear_caches() -> None:
    """Forget every sprite (benchmarks measure cold renders with this)."""
    _art.cache_clear()
    tile.cache_clear()
    tile_on.cache_clear()
    tile_size.cache_clear()
