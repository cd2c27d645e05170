"""The whole table as the table channel shows it, drawn from its plan (``table_layout``).

The felt, the seat boxes and the turn marker (the box of the seat to move outlined) depend
only on whose move it is, so each of those five backgrounds is drawn once and copied;
every picture then pastes its sprites and tiles on the copy and maps the result onto one
fixed palette.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from renderer import png, sprites, table_layout, theme
from renderer.models import TableView
from renderer.reference import late_game_table
from renderer.sprites import Mark
from renderer.table_layout import BOXES, CENTRE, SIZE, TablePlan, TableTile, plan

__all__ = ["SIZE", "clear_caches", "render_table"]

BOX_RADIUS = 12
TURN_OUTLINE = 6
# Of the turn outline, the pixels inside the box: no more than its padding.
INSIDE = table_layout.PAD
HALO = 4


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


def _halo(canvas: Image.Image, tile: TableTile) -> None:
    """A ring of the accent colour around a tile, wide enough to find at a glance."""
    x, y, w, h = tile.box
    ImageDraw.Draw(canvas).rounded_rectangle(
        (x - HALO, y - HALO, x + w - 1 + HALO, y + h - 1 + HALO), HALO + 3, fill=theme.HIGHLIGHT
    )


def _paint(plan_: TablePlan) -> Image.Image:
    canvas = _background(plan_.current).copy()
    for ink in plan_.inks:
        sprites.stamp(canvas, ink.image, ink.x, ink.y)
    ringed = []
    for tile in plan_.tiles:
        if tile.mark is Mark.HIGHLIGHT:
            ringed.append(tile)
        else:
            _paste(canvas, tile, theme.FELT_CENTRE if tile.seat is None else theme.FELT_DARK)
    # Ringed tiles last, so their halo lies over the neighbours it overlaps.
    for tile in ringed:
        _halo(canvas, tile)
        _paste(canvas, tile, theme.HIGHLIGHT)
    return canvas


def _draw(view: TableView) -> Image.Image:
    return _paint(plan(view))


def render_table(view: TableView) -> bytes:
    """PNG of the table, ``view.bottom``'s seat at the bottom."""
    return png.encode(_draw(view), colours=_palette())


@cache
def _palette() -> Image.Image:
    """The 256 colours of every table picture, chosen once from a table that shows
    everything a table picture draws. Mapping onto fixed colours costs a sixth of
    choosing them for each picture, and every table is drawn from the same felt, tiles
    and ink."""
    return png.palette_of(_draw(late_game_table()))


def clear_caches() -> None:
    _palette.cache_clear()
    _background.cache_clear()
    table_layout.clear_caches()
