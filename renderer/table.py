"""The whole table as the table channel shows it, drawn from its plan (``table_layout``).

The picture is cut into five cells: each seat's box and the centre, grown by half the gap
between boxes, so that the cells tile the canvas in the layout's pinwheel and nothing of
a box (its tiles, the halo round a ringed discard, the turn outline that reaches into the
gap) crosses into another's cell. A box's cell is drawn on its own, straight in the
table's fixed palette, and kept under the box's plan, which the layout keeps by what the
box shows: between two moves only the seats that moved and the centre are drawn again.

The rows of the picture fall into strips where the cells' top and bottom edges cut them;
each strip is deflated on its own and kept under the cells it crosses, so a strip whose
cells did not change is copied into the new file rather than deflated again.

Drawing in the palette gives the pixels that drawing in RGB and mapping the result would:
that mapping (with no dithering) takes each pixel on its own. Tiles are pasted as sprites
already laid on the flat colour under them and mapped; a text or badge sprite is blended
onto the background under it once (with the sprites it overlaps, in their order), mapped,
and kept by sprites, place and background. A box with something outside its cell is
beyond that: its table is drawn whole in RGB and mapped.
"""

from __future__ import annotations

import itertools
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderer import layout, png, sprites, table_layout, theme
from renderer.layout import Rect
from renderer.models import TableView
from renderer.reference import late_game_table
from renderer.sprites import Mark, Same
from renderer.table_layout import (
    BOX_GAP,
    BOXES,
    CENTRE,
    SIZE,
    BoxPlan,
    TablePlan,
    TableTile,
    plan,
)

__all__ = ["SIZE", "clear_caches", "clear_picture_caches", "render_table"]

BOX_RADIUS = 12
TURN_OUTLINE = 6
# Of the turn outline, the pixels inside the box: no more than its padding.
INSIDE = table_layout.PAD
HALO = 4
# How far a cell reaches past its box: half the gap, the other half is the neighbour's.
CELL_MARGIN = BOX_GAP // 2
#: The cells' positions: the four seats' boxes (0 bottom .. 3 left), then the centre.
POSITIONS: tuple[int | None, ...] = (0, 1, 2, 3, None)

_NO_DITHER = Image.Dither.NONE


def cell(position: int | None) -> tuple[int, int, int, int]:
    """The cell (left, top, right, bottom; right and bottom excluded) of the box at
    ``position``, or of the centre for None."""
    x, y, w, h = CENTRE if position is None else BOXES[position]
    return x - CELL_MARGIN, y - CELL_MARGIN, x + w + CELL_MARGIN, y + h + CELL_MARGIN


def _strips() -> tuple[tuple[int, int, tuple[int | None, ...]], ...]:
    """The picture's row strips (top, bottom excluded), cut where a cell begins or ends,
    each with the positions of the cells it crosses."""
    cuts = sorted({y for p in POSITIONS for y in cell(p)[1::2]})
    return tuple(
        (top, bottom, tuple(p for p in POSITIONS if cell(p)[1] < bottom and cell(p)[3] > top))
        for top, bottom in itertools.pairwise(cuts)
    )


STRIPS = _strips()
"""Rows 0-242 hold the left and top cells, 242-398 the left, right and centre ones,
398-640 the bottom and right ones."""


@cache
def _background(current: int | None) -> Image.Image:
    """Felt, the four seat boxes and the centre; the box of the seat to move outlined in
    the accent colour, the outline reaching into the gap round the box so that it stays
    clear of the tiles."""
    canvas = Image.new("RGB", (SIZE, SIZE), theme.FELT)
    draw = ImageDraw.Draw(canvas)
    for x, y, w, h in BOXES:
        draw.rounded_rectangle(
            (x, y, x + w - 1, y + h - 1),
            BOX_RADIUS,
            fill=theme.FELT_DARK,
            outline=theme.FELT_LINE,
            width=2,
        )
    if current is not None:
        x, y, w, h = BOXES[current]
        out = TURN_OUTLINE - INSIDE
        draw.rounded_rectangle(
            (x - out, y - out, x + w - 1 + out, y + h - 1 + out),
            BOX_RADIUS + out,
            outline=theme.ACCENT,
            width=TURN_OUTLINE,
        )
    cx, cy, cw, ch = CENTRE
    draw.rounded_rectangle((cx, cy, cx + cw - 1, cy + ch - 1), BOX_RADIUS, fill=theme.FELT_CENTRE)
    return canvas


def _paste(canvas: Image.Image, tile: TableTile, ground: str) -> None:
    """A tile on the flat colour under it (seat tiles lie on their box, the others on the
    centre or on a halo), pasted without blending."""
    sprite = sprites.tile_on(tile.face, tile.width, ground, tile.quarter, tile.mark)
    sprites.stamp(canvas, sprite, tile.x, tile.y, blend=False)


def _halo_box(tile: TableTile) -> tuple[int, int, int, int]:
    """The ring of the accent colour round a tile (inclusive corners), wide enough to
    find at a glance."""
    x, y, w, h = tile.box
    return x - HALO, y - HALO, x + w - 1 + HALO, y + h - 1 + HALO


def _paint(plan_: TablePlan) -> Image.Image:
    canvas = _background(plan_.current).copy()
    for ink in plan_.inks:
        sprites.stamp(canvas, ink.image, ink.x, ink.y)
    ringed = []
    for tile in plan_.tiles:
        if tile.mark is Mark.HIGHLIGHT:
            ringed.append(tile)
        else:
            _paste(canvas, tile, _ground(tile))
    # Ringed tiles last, so their halo lies over the neighbours it overlaps.
    for tile in ringed:
        ImageDraw.Draw(canvas).rounded_rectangle(_halo_box(tile), HALO + 3, fill=theme.HIGHLIGHT)
        _paste(canvas, tile, theme.HIGHLIGHT)
    return canvas


def _ground(tile: TableTile) -> str:
    return theme.FELT_CENTRE if tile.seat is None else theme.FELT_DARK


def _draw(view: TableView) -> Image.Image:
    """The whole picture on one RGB canvas: for choosing the palette, for a table whose
    cells cannot be drawn apart, and for the tests that compare the two."""
    return _paint(plan(view))


# -- drawing in the palette ----------------------------------------------------------------


@cache
def _indexed_background(current: int | None) -> Image.Image:
    return _background(current).quantize(palette=_palette(), dither=_NO_DITHER)


@cache
def _index(colour: str) -> int:
    """The palette entry a flat ``colour`` maps onto."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=_palette(), dither=_NO_DITHER)
    return int(pixel.im.getpixel((0, 0)))


# A sprite mapped onto the palette, with what pasting it needs: its core and size.
_Mapped = tuple[Any, int, int]


def _mapped(image: Image.Image) -> _Mapped:
    indexed = image.quantize(palette=_palette(), dither=_NO_DITHER)
    return indexed.im, indexed.width, indexed.height


# A few hundred tile looks (face, width, ground, turn, mark), each 2-3 KB mapped.
@lru_cache(maxsize=2048)
def _indexed_tile(face: int, width: int, ground: str, quarter: int, mark: Mark) -> _Mapped:
    return _mapped(sprites.tile_on(face, width, ground, quarter, mark))


# Text and badges blended where they lie, by sprites, places and the background's turn
# outline: names, scores and badges stay put from move to move, counts and captions
# come and go. About 2 KB each mapped, some 4 MB full.
@lru_cache(maxsize=2048)
def _indexed_inks(
    inks: tuple[tuple[Same, int, int], ...], area: Rect, current: int | None
) -> _Mapped:
    """Sprites blended in turn onto the background in ``area``, which holds them all."""
    left, top = area[0], area[1]
    under = _background(current).crop(area)
    for image, x, y in inks:
        sprite = image.image
        under.paste(sprite, (x - left, y - top), sprite)
    return _mapped(under)


def _meet(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crop(image: Image.Image, area: Rect) -> Image.Image:
    """``image.crop(area)`` without its checks, a third of the time: a cell is inside."""
    return image._new(image.im.crop(area))


def _groups(spots: list[Rect]) -> list[tuple[Rect, list[int]]]:
    """The sprites at ``spots`` gathered where they overlap (the horses' winds may):
    each group's area (its sprites' bounding box) and its sprites in drawing order. No
    sprite reaches into another group's area, so each is blended on its own."""
    groups = [(spot, [i]) for i, spot in enumerate(spots)]
    merged = not layout.apart(spots)
    while merged:
        merged = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            (area_a, members_a), (area_b, members_b) = groups[a], groups[b]
            if _meet(area_a, area_b):
                union = (
                    min(area_a[0], area_b[0]),
                    min(area_a[1], area_b[1]),
                    max(area_a[2], area_b[2]),
                    max(area_a[3], area_b[3]),
                )
                groups[a] = (union, sorted(members_a + members_b))
                del groups[b]
                merged = True
                break
    return groups


#: Cells drawn, by box plan: a table's next picture needs the five cells of its last one
#: (forty tables' worth). A seat's cell is 242 x 398 px, 96 KB in the palette, a centre's
#: 24 KB; over random play a full cache holds some 17 MB, with the boxes it keeps alive.
LAYER_CACHE_SIZE = 200


@lru_cache(maxsize=LAYER_CACHE_SIZE)
def _layer(box: BoxPlan) -> Image.Image | None:
    """The box's cell drawn in the palette, in the order the whole picture draws it:
    sprites, tiles, then the ringed tiles over their halos. None when something of the
    box leaves its cell."""
    area = left, top, right, bottom = cell(box.position)
    current = box.position if box.current else None
    spots = []
    for ink in box.inks:
        w, h = ink.image.size
        spots.append((ink.x, ink.y, ink.x + w, ink.y + h))
    if not all(x >= left and y >= top and r <= right and b <= bottom for x, y, r, b in spots):
        return None
    canvas = _crop(_indexed_background(current), area)
    core = canvas.im
    for group, members in _groups(spots):
        inks = tuple((Same(box.inks[i].image), box.inks[i].x, box.inks[i].y) for i in members)
        sprite = _indexed_inks(inks, group, current)[0]
        x0, y0, x1, y1 = group
        core.paste(sprite, (x0 - left, y0 - top, x1 - left, y1 - top))
    width, height = right - left, bottom - top
    ringed = []
    for tile in box.tiles:
        if tile.mark is Mark.HIGHLIGHT:
            ringed.append(tile)
            continue
        ground = theme.FELT_CENTRE if tile.seat is None else theme.FELT_DARK
        sprite, w, h = _indexed_tile(tile.face, tile.width, ground, tile.quarter, tile.mark)
        x, y = tile.x - left, tile.y - top
        if x < 0 or y < 0 or x + w > width or y + h > height:
            return None
        core.paste(sprite, (x, y, x + w, y + h))
    for tile in ringed:
        x0, y0, x1, y1 = _halo_box(tile)
        if x0 < left or y0 < top or x1 >= right or y1 >= bottom:
            return None
        halo = (x0 - left, y0 - top, x1 - left, y1 - top)
        ImageDraw.Draw(canvas).rounded_rectangle(halo, HALO + 3, fill=_index(theme.HIGHLIGHT))
        sprite, w, h = _indexed_tile(
            tile.face, tile.width, theme.HIGHLIGHT, tile.quarter, tile.mark
        )
        x, y = tile.x - left, tile.y - top
        core.paste(sprite, (x, y, x + w, y + h))
    return canvas


#: Encoded strips, by the box plans of the cells they cross: a table's next picture
#: needs the three strips of its last (a hundred tables' worth). Over play of people at
#: many tables a strip averages some 14 KB of deflate, so a full cache holds about 4 MB.
STRIP_CACHE_SIZE = 300


@lru_cache(maxsize=STRIP_CACHE_SIZE)
def _strip(top: int, bottom: int, boxes: tuple[BoxPlan, ...]) -> png.EncodedBand:
    """Rows ``top`` to ``bottom`` of the picture, pasted from the cells that cross them
    and deflated."""
    canvas = png.row_canvas(SIZE, bottom - top)
    core = canvas.im
    for box in boxes:
        layer = _layer(box)
        assert layer is not None, "render_table draws a table with such a box whole"
        left, y, right, low = cell(box.position)
        # After the rows' filter column, clipped to the strip by the paste.
        core.paste(layer.im, (left + 1, y - top, right + 1, low - top))
    return png.encode_rows(canvas)


def render_table(view: TableView) -> bytes:
    """PNG of the table, ``view.bottom``'s seat at the bottom."""
    seats, centre = table_layout.box_plans(view)
    boxes: dict[int | None, BoxPlan] = {box.position: box for box in seats}
    boxes[None] = centre
    if any(_layer(box) is None for box in boxes.values()):
        return png.encode(_draw(view), colours=_palette())
    strips = [
        _strip(top, bottom, tuple(boxes[p] for p in positions)) for top, bottom, positions in STRIPS
    ]
    return png.write_bands(strips, _palette())


@cache
def _palette() -> Image.Image:
    """The 256 colours of every table picture, chosen once from a table that shows
    everything a table picture draws. Mapping onto fixed colours costs a sixth of
    choosing them for each picture, and every table is drawn from the same felt, tiles
    and ink."""
    return png.palette_of(_draw(late_game_table()))


def clear_picture_caches() -> None:
    """Forget every laid-out box, cell and strip, keeping the palette and the mapped
    sprites (the benchmark measures tables drawn whole with this)."""
    _layer.cache_clear()
    _strip.cache_clear()
    table_layout.clear_caches()


def clear_caches() -> None:
    _palette.cache_clear()
    _background.cache_clear()
    _indexed_background.cache_clear()
    _index.cache_clear()
    _indexed_tile.cache_clear()
    _indexed_inks.cache_clear()
    clear_picture_caches()
