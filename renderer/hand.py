"""A player's hand as the DM shows it, and a plain row of tiles for the calculator."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from engine.tiles import NUM_KINDS, suit
from renderer import layout, png, sprites, text, theme
from renderer.layout import Placed
from renderer.models import HandView
from renderer.reference import reference_hand
from renderer.sprites import BACK, Mark, tile_height

TILE_WIDTH = 48
WAIT_WIDTH = 36
MARGIN = 16
GAP = 3
DRAWN_GAP = 18
MELD_GAP = 14
MELDS_GAP = 26
TITLE_SIZE = 22
NUMBER_SIZE = 18
WAITS_SIZE = 22


def hand_order(view: HandView) -> tuple[int, ...]:
    """The concealed tiles in the order the picture numbers them (1 first): sorted, tiles
    of the void suit last as players keep them, the drawn tile at the end."""
    ordered = sorted(view.concealed, key=lambda k: (suit(k) == view.void_suit, k))
    return (*ordered, view.drawn) if view.drawn is not None else tuple(ordered)


def _mark(view: HandView, kind: int) -> Mark:
    if view.void_suit is not None and suit(kind) == view.void_suit:
        return Mark.VOID
    if kind == view.wildcard:
        return Mark.WILD
    return Mark.NONE


def _is_dim(view: HandView, kind: int) -> bool:
    return view.legal_discards is not None and kind not in view.legal_discards


def _concealed_row(view: HandView, top: int) -> list[Placed]:
    """The numbered tiles, left to right, the drawn one set apart."""
    placed: list[Placed] = []
    x = MARGIN
    order = hand_order(view)
    for i, kind in enumerate(order):
        if view.drawn is not None and i == len(order) - 1:
            x += DRAWN_GAP - GAP
        placed.append(Placed(kind, x, top, dim=_is_dim(view, kind), mark=_mark(view, kind)))
        x += TILE_WIDTH + GAP
    return placed


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where everything of a hand picture goes."""

    numbered: list[Placed]
    melds: list[Placed]
    numbers_top: int
    waits_top: int
    size: tuple[int, int]


def _right_edge(placed: list[Placed]) -> int:
    return max(
        (p.x + (tile_height(TILE_WIDTH) if p.quarter % 2 else TILE_WIDTH) for p in placed),
        default=MARGIN,
    )


def _lay_out(view: HandView) -> _Layout:
    row_h = layout.row_height(TILE_WIDTH, view.melds)
    top = MARGIN + (text.line_height(TITLE_SIZE) + 6 if view.title else 0)
    numbered = _concealed_row(view, top + row_h - tile_height(TILE_WIDTH))
    melds_x = _right_edge(numbered) + MELDS_GAP if numbered else MARGIN
    melds = layout.place_melds(view.melds, None, melds_x, top + row_h, TILE_WIDTH, GAP, MELD_GAP)
    numbers_top = top + row_h + 4
    waits_top = numbers_top + text.line_height(NUMBER_SIZE) + 10
    bottom = waits_top + tile_height(WAIT_WIDTH) if view.waits else waits_top - 10
    right = _right_edge(numbered + melds)
    if view.waits:
        label_w = text.width(_waits_label(view), WAITS_SIZE, bold=True)
        right = max(right, MARGIN + label_w + 8 + len(view.waits) * (WAIT_WIDTH + GAP))
    if view.title:
        right = max(right, MARGIN + text.width(view.title, TITLE_SIZE, bold=True))
    return _Layout(numbered, melds, numbers_top, waits_top, (right + MARGIN, bottom + MARGIN))


def _waits_label(view: HandView) -> str:
    return f"{view.labels.waits}:"


def render_hand(view: HandView) -> bytes:
    """PNG of a hand: concealed tiles sorted and numbered, the drawn tile apart on the
    right, then the melds; legal discards, the void suit, 宝牌 and waits marked."""
    return png.encode(_draw(view), colours=_palette())


@cache
def _palette() -> Image.Image:
    """The 256 colours of every hand picture, chosen once from a hand that shows every
    kind of mark and text, above every face plain, dimmed and marked: choosing them for
    each picture was most of its cost, and every hand is drawn from the same felt, tiles
    and ink."""
    sample = _draw(reference_hand())
    faces = [*range(NUM_KINDS), BACK]
    looks = [(False, mark) for mark in Mark] + [(True, Mark.NONE), (True, Mark.VOID)]
    row_h = tile_height(TILE_WIDTH)
    width = max(sample.width, len(faces) * (TILE_WIDTH + GAP))
    mosaic = Image.new("RGB", (width, sample.height + len(looks) * row_h), theme.FELT)
    mosaic.paste(sample, (0, 0))
    for row, (dim, mark) in enumerate(looks):
        placed = [
            Placed(face, i * (TILE_WIDTH + GAP), sample.height + row * row_h, dim=dim, mark=mark)
            for i, face in enumerate(faces)
        ]
        layout.paint(mosaic, placed, TILE_WIDTH)
    return png.palette_of(mosaic)


def clear_caches() -> None:
    _palette.cache_clear()


def _draw(view: HandView) -> Image.Image:
    spot = _lay_out(view)
    canvas = Image.new("RGB", spot.size, theme.FELT)
    if view.title:
        text.paste(canvas, view.title, (MARGIN, MARGIN), TITLE_SIZE, theme.TEXT, bold=True)
    layout.paint(canvas, spot.numbered + spot.melds, TILE_WIDTH)
    for number, tile in enumerate(spot.numbered, start=1):
        color = theme.TEXT_MUTED if tile.dim else theme.TEXT
        centre = tile.x + TILE_WIDTH // 2
        text.paste(canvas, str(number), (centre, spot.numbers_top), NUMBER_SIZE, color, anchor="m")
    if view.waits:
        _paint_waits(canvas, view, spot.waits_top)
    return canvas


def _paint_waits(canvas: Image.Image, view: HandView, top: int) -> None:
    """The waits label, then the tiles the ready hand waits on."""
    label_top = top + (tile_height(WAIT_WIDTH) - text.line_height(WAITS_SIZE)) // 2
    label_w = text.paste(
        canvas, _waits_label(view), (MARGIN, label_top), WAITS_SIZE, theme.ACCENT, bold=True
    )
    row = layout.place_row(view.waits, MARGIN + label_w + 8, top, WAIT_WIDTH, GAP)
    layout.paint(canvas, row, WAIT_WIDTH)


#: The square an emoji is uploaded in (Discord shows it at about 22 px, from 128 px art).
EMOJI_SIZE = 128


def render_tile_emoji(kind: int) -> bytes:
    """PNG of one upright tile centred in a transparent square, as an emoji."""
    width = EMOJI_SIZE * 3 // 4
    canvas = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    sprite = sprites.tile(kind, width)
    canvas.paste(sprite, ((EMOJI_SIZE - width) // 2, (EMOJI_SIZE - sprite.height) // 2), sprite)
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def render_tiles(kinds: Sequence[int], width: int = TILE_WIDTH) -> bytes:
    """PNG of tiles in a row, in the order given."""
    gap = max(2, width // 16)
    canvas = Image.new(
        "RGB",
        (2 * MARGIN + max(1, len(kinds)) * (width + gap) - gap, 2 * MARGIN + tile_height(width)),
        theme.FELT,
    )
    layout.paint(canvas, layout.place_row(kinds, MARGIN, MARGIN, width, gap), width)
    return png.encode(canvas)
