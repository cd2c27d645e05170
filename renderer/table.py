"""The whole table as the table channel shows it.

The canvas is a square. Each seat is laid out in its own frame, as if it sat at the
bottom: its concealed tiles and melds along the bottom edge, its river in six-tile rows
below the centre box, its name plate in the free corner to its left. The frame is then
turned a quarter turn per seat counter-clockwise (下家 on the right, 对家 on top, 上家 on
the left); text stays upright so every name reads the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from renderer import layout, png, sprites, text, theme
from renderer.layout import Placed
from renderer.models import HorseView, Labels, SeatView, TableView
from renderer.reference import late_game_table
from renderer.sprites import BACK, Mark, tile_height

SIZE = 920
EDGE = 10
RIVER_WIDTH = 32
RIVER_GAP = 1
RIVER_COLUMNS = 6
RIVER_ROWS = 6
HAND_WIDTH = 34
HAND_GAP = 2
DRAWN_GAP = 10
MELD_GAP = 8
CENTRE = 200
PLATE_WIDTH_MIN = 150
NAME_SIZE = 22
SCORE_SIZE = 20
BADGE_SIZE = 20
WALL_SIZE = 28
TITLE_SIZE = 15
LABEL_SIZE = 17
CENTRE_TILE = 24
CENTRE_HORSES_PER_ROW = 8
HORSE_TARGET_SIZE = 14
WON_TILE = 30

_MID = SIZE // 2
_CENTRE_TOP = _MID - CENTRE // 2
_RIVER_SPAN = RIVER_COLUMNS * (RIVER_WIDTH + RIVER_GAP) - RIVER_GAP
_RIVER_X = _MID - _RIVER_SPAN // 2
_RIVER_Y = _MID + CENTRE // 2 + 6
# Room for a sideways tile with an added kong's tile stacked on it.
_HAND_STRIP = 2 * HAND_WIDTH
_HAND_X0 = EDGE + _HAND_STRIP + 8
_HAND_X1 = SIZE - _HAND_X0
_HAND_BOTTOM = SIZE - EDGE
# The free corner to a seat's left, between its river and the neighbour's hand: a square
# whose left edge clears the neighbour's hand and whose top edge clears the centre box.
_PLATE_SIZE = _RIVER_X - 10 - _HAND_X0
_PLATE_REGION = (_HAND_X0, _MID + CENTRE // 2 + 8, _PLATE_SIZE, _PLATE_SIZE)
# Which corner of the turned region a plate hugs, so it sits by its own river and hand.
_PLATE_ALIGN = {0: ("r", "b"), 1: ("r", "t"), 2: ("l", "t"), 3: ("l", "b")}


def _position(view: TableView, seat: int) -> int:
    """0 bottom (the viewer), 1 right (下家), 2 top (对家), 3 left (上家)."""
    return (seat - view.viewer) % 4


def _river(discards: Sequence[int], highlight_last: bool) -> list[Placed]:
    """A seat's discards in six-tile rows; tiles past the sixth row lengthen the last."""
    height = tile_height(RIVER_WIDTH)
    out = []
    for i, kind in enumerate(discards):
        row = min(i // RIVER_COLUMNS, RIVER_ROWS - 1)
        col = i - row * RIVER_COLUMNS
        mark = Mark.HIGHLIGHT if highlight_last and i == len(discards) - 1 else Mark.NONE
        x = _RIVER_X + col * (RIVER_WIDTH + RIVER_GAP)
        out.append(Placed(kind, x, _RIVER_Y + row * (height + RIVER_GAP), mark=mark))
    return out


def _concealed_faces(seat: SeatView) -> list[int]:
    if seat.hand is None:
        return [BACK] * seat.hand_count
    if seat.drawn and seat.hand:
        return [*sorted(seat.hand[:-1]), seat.hand[-1]]
    return sorted(seat.hand)


def _hand(seat: SeatView, seat_no: int) -> list[Placed]:
    """Concealed tiles from the left (the drawn one set apart), melds at the right end."""
    top = _HAND_BOTTOM - tile_height(HAND_WIDTH)
    faces = _concealed_faces(seat)
    out = []
    x = _HAND_X0
    for i, face in enumerate(faces):
        if seat.drawn and i == len(faces) - 1:
            x += DRAWN_GAP - HAND_GAP
        out.append(Placed(face, x, top))
        x += HAND_WIDTH + HAND_GAP
    width = layout.melds_width(seat.melds, HAND_WIDTH, HAND_GAP, MELD_GAP)
    out += layout.place_melds(
        seat.melds, seat_no, _HAND_X1 - width, _HAND_BOTTOM, HAND_WIDTH, HAND_GAP, MELD_GAP
    )
    return out


def _pill(label: str, fill: str, color: str) -> Image.Image:
    return text.pill(label, BADGE_SIZE, fill, color)


def _plate(view: TableView, seat_no: int, max_width: int) -> Image.Image:
    """A seat's name plate: wind, dealer mark, name, score, 定缺, status, winning tile."""
    seat = view.seats[seat_no]
    labels = view.labels
    current = seat_no == view.current
    pad = 10
    first = [
        _pill(labels.winds[seat_no], theme.ACCENT if current else theme.PANEL, theme.TEXT_DARK)
    ]
    if seat_no == 0:
        first.append(_pill(labels.dealer, theme.LOSS, theme.TEXT))
    used = sum(b.width + 6 for b in first)
    name = text.fit(seat.name, NAME_SIZE, max_width - 2 * pad - used, bold=True)
    second = [text.text(str(seat.score), SCORE_SIZE, theme.TEXT, bold=True)]
    if seat.void_suit is not None:
        second.append(_pill(labels.void_text(seat.void_suit), theme.VOID_MARK, theme.TEXT))
    if seat.note:
        second.append(
            _pill(text.fit(seat.note, BADGE_SIZE, 120, bold=True), theme.PANEL, theme.TEXT_DARK)
        )
    lines: list[list[Image.Image]] = [
        [*first, text.text(name, NAME_SIZE, theme.TEXT, bold=True)],
        second,
    ]
    if seat.won_tile is not None:
        lines.append(
            [
                _pill(labels.won, theme.ACCENT, theme.TEXT_DARK),
                sprites.tile(seat.won_tile, WON_TILE),
            ]
        )
    return _stack(lines, pad, current)


def _stack(lines: list[list[Image.Image]], pad: int, current: bool) -> Image.Image:
    """The plate itself: lines of sprites, each line's items side by side, left-aligned
    and centred vertically on the line; outlined when it is the seat's move."""
    spacing = 6
    widths = [sum(i.width for i in line) + spacing * (len(line) - 1) for line in lines]
    heights = [max(i.height for i in line) for line in lines]
    w = max(PLATE_WIDTH_MIN, max(widths) + 2 * pad)
    h = sum(heights) + spacing * (len(lines) - 1) + 2 * pad
    plate = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(plate)
    outline = theme.ACCENT if current else theme.FELT_DARK
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 12, fill=theme.FELT_DARK, outline=outline, width=3)
    y = pad
    for line, lh in zip(lines, heights, strict=True):
        x = pad
        for item in line:
            plate.paste(item, (x, y + (lh - item.height) // 2), item)
            x += item.width + spacing
        y += lh + spacing
    return plate


def _paste_plate(canvas: Image.Image, image: Image.Image, position: int) -> None:
    x, y, w, h = layout.turn_box(*_PLATE_REGION, position, SIZE)
    horizontal, vertical = _PLATE_ALIGN[position]
    px = x + w - image.width if horizontal == "r" else x
    py = y + h - image.height if vertical == "b" else y
    canvas.paste(image, (px, py), image)


def _paint_centre(canvas: Image.Image, view: TableView) -> None:
    draw = ImageDraw.Draw(canvas)
    left = top = _CENTRE_TOP
    draw.rounded_rectangle((left, top, left + CENTRE, top + CENTRE), 16, fill=theme.FELT_DARK)
    if view.current is not None:
        bar = layout.turn_box(
            left + 24, top + CENTRE - 8, CENTRE - 48, 5, _position(view, view.current), SIZE
        )
        draw.rounded_rectangle(
            (bar[0], bar[1], bar[0] + bar[2], bar[1] + bar[3]), 2, fill=theme.ACCENT
        )
    y = top + 14
    if view.title:
        title = text.fit(view.title, TITLE_SIZE, CENTRE - 24)
        text.paste(canvas, title, (_MID, y), TITLE_SIZE, theme.TEXT_MUTED_LIGHT, anchor="m")
        y += text.line_height(TITLE_SIZE) + 4
    wall = view.labels.wall.format(n=view.wall_left)
    text.paste(canvas, wall, (_MID, y), WALL_SIZE, theme.TEXT, bold=True, anchor="m")
    y += text.line_height(WALL_SIZE) + 8
    if view.wildcard is not None:
        y = _centre_wildcard(canvas, view.labels.wildcard, view.wildcard, y) + 4
    if view.horses:
        _centre_horses(canvas, view.labels, view.horses, y)


def _centre_row(canvas: Image.Image, faces: Sequence[int], y: int, width: int) -> int:
    """A row of small tiles centred in the centre box; returns the x of its first tile."""
    x = _MID - (len(faces) * (width + 2) - 2) // 2
    layout.paint(canvas, layout.place_row(faces, x, y, width, 2), width)
    return x


def _centre_wildcard(canvas: Image.Image, label: str, kind: int, y: int) -> int:
    """The 宝牌 indicator with its label to the left; returns the next free y."""
    label_w = text.width(label, LABEL_SIZE, bold=True)
    x = _MID - (label_w + 6 + CENTRE_TILE) // 2
    th = tile_height(CENTRE_TILE)
    text.paste(
        canvas,
        label,
        (x, y + (th - text.line_height(LABEL_SIZE)) // 2),
        LABEL_SIZE,
        theme.ACCENT,
        bold=True,
    )
    layout.paint(canvas, [Placed(kind, x + label_w + 6, y)], CENTRE_TILE)
    return y + th


def _centre_horses(
    canvas: Image.Image, labels: Labels, horses: Sequence[HorseView], y: int
) -> None:
    """The horse tiles under their label, each revealed one with its target's wind; the
    tiles shrink so that a full row of horses still fits the box."""
    text.paste(canvas, labels.horses, (_MID, y), LABEL_SIZE, theme.ACCENT, bold=True, anchor="m")
    y += text.line_height(LABEL_SIZE)
    per_row = min(len(horses), CENTRE_HORSES_PER_ROW)
    width = min(CENTRE_TILE, (CENTRE - 20) // per_row - 2)
    for start in range(0, len(horses), per_row):
        chunk = horses[start : start + per_row]
        x = _centre_row(canvas, [BACK if h.kind is None else h.kind for h in chunk], y, width)
        y += tile_height(width)
        targets = [(i, h.target) for i, h in enumerate(chunk) if h.target is not None]
        for i, target in targets:
            centre = x + i * (width + 2) + width // 2
            text.paste(
                canvas, labels.winds[target], (centre, y), HORSE_TARGET_SIZE, theme.TEXT, anchor="m"
            )
        y += (text.line_height(HORSE_TARGET_SIZE) if targets else 0) + 2


def render_table(view: TableView) -> bytes:
    """PNG of the table seen from ``view.viewer``'s seat."""
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


def _draw(view: TableView) -> Image.Image:
    canvas = Image.new("RGB", (SIZE, SIZE), theme.FELT)
    _paint_centre(canvas, view)
    for seat_no, seat in enumerate(view.seats):
        position = _position(view, seat_no)
        river = _river(seat.discards, seat_no == view.last_discard)
        layout.paint(canvas, river, RIVER_WIDTH, position, SIZE)
        layout.paint(canvas, _hand(seat, seat_no), HAND_WIDTH, position, SIZE)
        _paste_plate(canvas, _plate(view, seat_no, _PLATE_SIZE), position)
    return canvas
