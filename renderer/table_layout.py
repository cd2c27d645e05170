"""Where everything on the table picture goes, computed before anything is drawn.

The square canvas holds four seat boxes in a pinwheel around a centre square: the bottom
seat's box runs along the bottom edge from the left corner, 下家's up the right edge from
the bottom corner, 对家's along the top from the right corner, 上家's down the left edge
from the top corner. Every box is the same size, landscape at the bottom and top, portrait
at the sides, and holds everything of one seat: its name plate and concealed tiles on top,
then its melds and river, the river on the side that touches the centre. Tiles and text
stand upright everywhere, so every river reads the same way.

The river, meld and winning tiles are at least ``TILE`` wide on a ``SIZE`` canvas: 18 px
when a phone shows the picture 360 px wide. While every seat fits with larger tiles (early
in a hand) all four grow together up to ``TILE_MAX``. A box that cannot hold its seat at
``TILE`` (a river longer than the phone test's full tables beside as many melds) shrinks
that seat's tiles until it does.

A move changes one or two seats and the centre, so the plan is made box by box
(:func:`box_plans`), each box kept by what it depends on: a seat's view, place and turn,
and the tile width the table shares; the centre's latest discard, caption and counts.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image

from engine.tiles import Meld
from renderer import layout, text, theme
from renderer.models import HorseView, Labels, SeatView, TableView
from renderer.sprites import BACK, Mark, tile_height, tile_size

SIZE = 640
EDGE = 2
BOX_GAP = 4
BOX_SHORT = 238
BOX_LONG = SIZE - 2 * EDGE - BOX_GAP - BOX_SHORT
PAD = 4
TILE = 32
TILE_MAX = 40
TILE_STEP = 2
TILE_MIN = 14
TILE_GAP = 1
SIDE_COLUMNS_MIN = 4
MELD_GAP = 5
BLOCK_GAP = 3
MELD_ROW_GAP = 2
BACK_WIDTH = 12
FACE_WIDTH = 23
FACE_WIDTH_MIN = 8
DRAWN_GAP = 5
NAME_SIZE = 20
SCORE_SIZE = 18
BADGE_SIZE = 16
ITEM_GAP = 5
LINE_GAP = 3
NAME_MIN = 106
CENTRE_TILE = 40
CENTRE_TILE_MIN = 28
# Clear of the halo round the ringed discard.
CENTRE_PAD = 7
CAPTION_SIZE = 16
WALL_SIZE = 22
WALL_SIZE_MIN = 16
# The centre's smallest type: 9 px when a phone shows the picture 360 px wide.
TITLE_SIZE = 16
TITLE_LINES = 2
LABEL_SIZE = 16
SMALL_TILE = 16
WILDCARD_TILE = 24
HORSE_TILE = 24
# Narrower, a turned-up horse does not read on a phone (11 px): its label gives way
# first, then the 宝牌 leaves its row.
HORSE_TILE_MIN = 20
HORSE_TARGET_SIZE = 16
LABEL_GAP = 2
CAPTION_LINES = 3

_NEAR = EDGE + BOX_SHORT + BOX_GAP
_FAR = EDGE + BOX_LONG + BOX_GAP
CENTRE = (_NEAR, _NEAR, _FAR - BOX_GAP - _NEAR, _FAR - BOX_GAP - _NEAR)
"""The centre square (x, y, w, h) between the four boxes."""

BOXES = (
    (EDGE, _FAR, BOX_LONG, BOX_SHORT),
    (_FAR, _NEAR, BOX_SHORT, BOX_LONG),
    (_NEAR, EDGE, BOX_LONG, BOX_SHORT),
    (EDGE, EDGE, BOX_SHORT, BOX_LONG),
)
"""Each position's box (x, y, w, h): 0 bottom, 1 right (下家), 2 top (对家), 3 left (上家)."""


class Role(enum.Enum):
    """What a tile on the table is, for the drawing and for the tests that read sizes."""

    HAND = "hand"
    MELD = "meld"
    RIVER = "river"
    WON = "won"
    CENTRE = "centre"


# Named tuples rather than frozen dataclasses: a picture places a hundred and more of
# these, and a frozen dataclass costs several times as much to make.
class TableTile(NamedTuple):
    """A tile at (x, y) on the canvas, ``width`` wide before ``quarter`` turns; ``seat``
    is the seat whose box holds it (None in the centre)."""

    face: int
    x: int
    y: int
    width: int
    role: Role
    seat: int | None = None
    quarter: int = 0
    mark: Mark = Mark.NONE

    @property
    def box(self) -> tuple[int, int, int, int]:
        w, h = tile_size(self.width, self.quarter)
        return self.x, self.y, w, h


class Ink(NamedTuple):
    """A text or badge sprite pasted with its top-left corner at (x, y); ``seat`` is the
    seat whose box holds it (None in the centre)."""

    image: Image.Image
    x: int
    y: int
    seat: int | None = None

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.image.width, self.image.height


@dataclass(frozen=True, slots=True)
class TablePlan:
    """Everything a table picture draws, in canvas pixels. ``current`` is the position
    (0 bottom .. 3 left) of the seat whose move it is, which the background outlines."""

    tiles: tuple[TableTile, ...]
    inks: tuple[Ink, ...]
    current: int | None


def position(view: TableView, seat: int) -> int:
    """0 bottom, 1 right (下家), 2 top (对家), 3 left (上家)."""
    return (seat - view.bottom) % 4


# -- one seat's box -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Block:
    """Something of a known size placed as a unit: a meld, or the winning tile with its
    label. ``tiles`` and ``inks`` are relative to the block's top-left corner; a
    ``loose`` block need not keep its place after the melds."""

    width: int
    height: int
    tiles: tuple[TableTile, ...]
    inks: tuple[Ink, ...] = ()
    loose: bool = False


def _shift_tile(tile: TableTile, dx: int, dy: int) -> TableTile:
    # The constructor rather than _replace: this runs for every tile drawn.
    return TableTile(
        tile.face,
        tile.x + dx,
        tile.y + dy,
        tile.width,
        tile.role,
        tile.seat,
        tile.quarter,
        tile.mark,
    )


# Pure and asked again for every width tried, every picture: a table has a few dozen melds.
@lru_cache(maxsize=1024)
def _meld_block(meld: Meld, seat: int, width: int) -> _Block:
    height = layout.row_height(width, [meld])
    placed = layout.place_melds([meld], seat, 0, height, width, TILE_GAP, 0)
    tiles = tuple(TableTile(p.face, p.x, p.y, width, Role.MELD, seat, p.quarter) for p in placed)
    return _Block(layout.melds_width([meld], width, TILE_GAP, 0), height, tiles)


def _won_block(body: _BodyView, seat: int, labels: Labels, width: int) -> _Block | None:
    """The winning tile with a badge: 胡, and the order of the win where it is known."""
    if body.won_tile is None:
        return None
    order = body.won_order
    word = labels.won if order is None else labels.won_order.format(n=order)
    badge = text.pill(word, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK)
    height = max(tile_height(width), badge.height)
    tile_x = badge.width + ITEM_GAP
    tile = TableTile(
        body.won_tile, tile_x, (height - tile_height(width)) // 2, width, Role.WON, seat
    )
    ink = Ink(badge, 0, (height - badge.height) // 2, seat)
    return _Block(tile_x + width, height, (tile,), (ink,), loose=True)


# Most seats show a row of backs, the same row for the same count: kept, as the melds are.
@lru_cache(maxsize=256)
def _concealed_block(
    hand: tuple[int, ...] | None, hand_count: int, drawn: bool, seat: int, max_width: int
) -> _Block:
    """The concealed tiles as one row: small backs, or the faces of a revealed hand shrunk
    to fit; the drawn tile set apart."""
    if hand is None:
        faces = [BACK] * hand_count
        width = BACK_WIDTH
    else:
        faces = list(hand)
        if drawn and faces:
            faces = [*sorted(faces[:-1]), faces[-1]]
        else:
            faces.sort()
        room = max_width - (DRAWN_GAP if drawn else 0)
        fair = (room + TILE_GAP) // max(1, len(faces)) - TILE_GAP
        width = max(FACE_WIDTH_MIN, min(FACE_WIDTH, fair))
    tiles = []
    x = 0
    for i, face in enumerate(faces):
        if drawn and i == len(faces) - 1:
            x += DRAWN_GAP - TILE_GAP
        tiles.append(TableTile(face, x, 0, width, Role.HAND, seat))
        x += width + TILE_GAP
    return _Block(max(0, x - TILE_GAP), tile_height(width) if faces else 0, tuple(tiles))


def _plate_inks(
    seat_view: SeatView, labels: Labels, seat: int, current: bool, max_width: int
) -> list[Image.Image]:
    """The name plate's sprites in reading order: wind, 庄, name, score, 定缺, status."""
    items = [
        text.pill(
            labels.winds[seat],
            BADGE_SIZE,
            theme.ACCENT if current else theme.PANEL,
            theme.TEXT_DARK,
        )
    ]
    if seat == 0:
        items.append(text.pill(labels.dealer, BADGE_SIZE, theme.LOSS, theme.TEXT))
    score = text.text(str(seat_view.score), SCORE_SIZE, theme.ACCENT, bold=True)
    room = max_width - sum(i.width + ITEM_GAP for i in items) - score.width - ITEM_GAP
    # A long name is cut so that the badges after it can share its line.
    room = min(room, max(NAME_MIN, max_width * 2 // 5))
    name = text.fit(seat_view.name, NAME_SIZE, max(room, NAME_SIZE), bold=True)
    items += [text.text(name, NAME_SIZE, theme.TEXT, bold=True), score]
    if seat_view.void_suit is not None:
        void = labels.void_text(seat_view.void_suit)
        fill = theme.VOID_SUITS[seat_view.void_suit]
        items.append(text.pill(void, BADGE_SIZE, fill, theme.TEXT))
    if seat_view.note:
        note = text.fit(seat_view.note, BADGE_SIZE, max_width // 2, bold=True)
        items.append(text.pill(note, BADGE_SIZE, theme.PANEL, theme.TEXT_DARK))
    return items


def _header(
    seat_view: SeatView, labels: Labels, seat: int, current: bool, x0: int, y0: int, width: int
) -> tuple[list[TableTile], list[Ink], int]:
    """The plate's sprites and the concealed row, flowed left to right and wrapped at
    ``width``; returns the tiles, the sprites and the height used."""
    items: list[Image.Image | _Block] = list(_plate_inks(seat_view, labels, seat, current, width))
    items.append(
        _concealed_block(seat_view.hand, seat_view.hand_count, seat_view.drawn, seat, width)
    )
    tiles: list[TableTile] = []
    inks: list[Ink] = []
    x, y, line_h = 0, 0, 0
    line: list[tuple[Image.Image | _Block, int]] = []

    def close_line() -> None:
        for item, ix in line:
            top = y0 + y + (line_h - item.height) // 2
            if isinstance(item, _Block):
                tiles.extend(_shift_tile(t, x0 + ix, top) for t in item.tiles)
            else:
                inks.append(Ink(item, x0 + ix, top, seat))

    for item in items:
        if item.width == 0:
            continue
        if line and x + item.width > width:
            close_line()
            y += line_h + LINE_GAP
            x, line_h, line = 0, 0, []
        line.append((item, x))
        x += item.width + ITEM_GAP
        line_h = max(line_h, item.height)
    close_line()
    return tiles, inks, y + line_h


@dataclass(frozen=True, slots=True)
class _Body:
    """Melds and river arranged in a ``width``-wide area: ``side`` puts the blocks in a
    column beside the river, else in rows above or below it."""

    side: bool
    columns: int
    height: int
    blocks_width: int


def _river_height(count: int, columns: int, width: int) -> int:
    rows = math.ceil(count / columns) if count else 0
    return max(0, rows * (tile_height(width) + TILE_GAP) - TILE_GAP)


def _rows_of(blocks: Sequence[_Block], width: int) -> list[list[_Block]]:
    """Blocks in rows at most ``width`` wide: melds in the order they were made, a loose
    block in the first row with room for it."""
    rows: list[list[_Block]] = []
    used: list[int] = []
    for block in blocks:
        candidates = range(len(rows)) if block.loose else range(max(0, len(rows) - 1), len(rows))
        row = next((r for r in candidates if used[r] + MELD_GAP + block.width <= width), None)
        if row is None:
            rows.append([block])
            used.append(block.width)
        else:
            rows[row].append(block)
            used[row] += MELD_GAP + block.width
    return rows


def _rows_height(rows: Sequence[Sequence[_Block]]) -> int:
    return sum(max(b.height for b in row) for row in rows) + MELD_ROW_GAP * max(0, len(rows) - 1)


def _columns(width: int, tile: int) -> int:
    return max(1, (width + TILE_GAP) // (tile + TILE_GAP))


def _arrange(blocks: Sequence[_Block], discards: int, width: int, tile: int) -> _Body:
    """The lowest arrangement of blocks and river in ``width``: blocks in rows above or
    below the river, or in a column beside it one, two or more blocks wide."""
    stacked_cols = _columns(width, tile)
    blocks_h = _rows_height(_rows_of(blocks, width)) if blocks else 0
    river_h = _river_height(discards, stacked_cols, tile)
    sep = BLOCK_GAP if blocks and discards else 0
    best = _Body(False, stacked_cols, blocks_h + sep + river_h, width)
    if not blocks:
        return best
    widest = max(b.width for b in blocks)
    pairs = {a.width + MELD_GAP + b.width for a, b in itertools.combinations(blocks, 2)}
    for column in sorted({widest} | {w for w in pairs if w > widest}):
        side_cols = _columns(width - column - BLOCK_GAP, tile)
        if side_cols < SIDE_COLUMNS_MIN:
            break
        side_h = max(
            _rows_height(_rows_of(blocks, column)), _river_height(discards, side_cols, tile)
        )
        if side_h < best.height:
            best = _Body(True, side_cols, side_h, column)
    return best


def _river_tiles(
    body: _BodyView, seat: int, x0: int, y0: int, columns: int, tile: int
) -> list[TableTile]:
    """The discards in rows of ``columns`` from (x0, y0)."""
    th = tile_height(tile)
    return [
        TableTile(
            kind,
            x0 + i % columns * (tile + TILE_GAP),
            y0 + i // columns * (th + TILE_GAP),
            tile,
            Role.RIVER,
            seat,
        )
        for i, kind in enumerate(body.discards)
    ]


def _place_rows(
    rows: Sequence[Sequence[_Block]], x0: int, y0: int, width: int, right: bool
) -> tuple[list[TableTile], list[Ink]]:
    """Blocks row by row from (x0, y0), each standing on its row's bottom line; ``right``
    aligns the rows with the right edge of the ``width``-wide area."""
    tiles: list[TableTile] = []
    inks: list[Ink] = []
    y = y0
    for row in rows:
        row_h = max(b.height for b in row)
        used = sum(b.width for b in row) + MELD_GAP * (len(row) - 1)
        x = x0 + (width - used if right else 0)
        for block in row:
            top = y + row_h - block.height
            tiles.extend(_shift_tile(t, x, top) for t in block.tiles)
            inks.extend(Ink(i.image, i.x + x, i.y + top, i.seat) for i in block.inks)
            x += block.width + MELD_GAP
        y += row_h + MELD_ROW_GAP
    return tiles, inks


@dataclass(frozen=True, slots=True)
class _Seat:
    """One seat's box with its header laid out: what is left for melds and river starts
    at ``top`` and is ``room`` tall."""

    seat: int
    position: int
    x: int
    width: int
    top: int
    room: int
    tiles: list[TableTile]
    inks: list[Ink]


def _seat_header(seat_view: SeatView, labels: Labels, seat: int, pos: int, current: bool) -> _Seat:
    bx, by, bw, bh = BOXES[pos]
    x0, y0, width = bx + PAD, by + PAD, bw - 2 * PAD
    tiles, inks, header_h = _header(seat_view, labels, seat, current, x0, y0, width)
    top = y0 + header_h + BLOCK_GAP
    return _Seat(seat, pos, x0, width, top, by + bh - PAD - top, tiles, inks)


@dataclass(frozen=True, slots=True)
class _BodyView:
    """What of a seat its melds and river show: the same for a seat whose turn begins or
    ends, or whose newest discard stops being the latest."""

    melds: tuple[Meld, ...]
    discards: tuple[int, ...]
    won_tile: int | None
    won_order: int | None

    @classmethod
    def of(cls, seat_view: SeatView) -> _BodyView:
        return cls(seat_view.melds, seat_view.discards, seat_view.won_tile, seat_view.won_order)


def _blocks(body: _BodyView, labels: Labels, seat: int, tile: int) -> list[_Block]:
    blocks = [_meld_block(m, seat, tile) for m in body.melds]
    won = _won_block(body, seat, labels, tile)
    return blocks if won is None else [*blocks, won]


@dataclass(frozen=True, slots=True, eq=False)
class BoxPlan:
    """What one box draws, in canvas pixels: a seat's box at ``position`` (0 bottom .. 3
    left), ``current`` when its seat is to move (the background outlines it), or the
    centre (``position`` None). Nothing of it lies outside the box. Compared and hashed
    by identity: the plan of an unchanged box is the same object from one picture to
    the next, so what is drawn of it can be kept under it."""

    position: int | None
    current: bool
    tiles: tuple[TableTile, ...]
    inks: tuple[Ink, ...]


class _SeatState:
    """A seat's box as far as it depends on that seat alone (its header laid out), and
    what has been worked out of it since: at which tile widths its melds and river fit,
    and its plan at each width asked. Kept by what it depends on, so that a move lays
    out again only the seats it changed. Threads may fill the memos at once: they
    compute the same values, and a plan made twice only costs a second drawing."""

    __slots__ = ("_fits", "_plans", "body", "current", "header", "labels")

    def __init__(self, body: _BodyView, labels: Labels, header: _Seat, current: bool) -> None:
        self.body = body
        self.labels = labels
        self.header = header
        self.current = current
        self._fits: dict[int, bool] = {}
        self._plans: dict[tuple[int, bool], BoxPlan] = {}

    def fits(self, tile: int) -> bool:
        found = self._fits.get(tile)
        if found is None:
            box = self.header
            found = _fits(self.body, self.labels, box.seat, box.width, box.room, tile)
            self._fits[tile] = found
        return found

    def plan(self, tile: int, ringed: bool) -> BoxPlan:
        """The box at the table's common ``tile`` width, the newest discard ringed if
        ``ringed``."""
        key = (tile, ringed)
        found = self._plans.get(key)
        if found is None:
            box = self.header
            tiles, inks = _seat_body(
                self.body,
                self.labels,
                box.seat,
                box.position,
                box.x,
                box.top,
                box.width,
                box.room,
                tile,
            )
            if ringed and self.body.discards:
                # The river comes first, oldest discard first.
                newest = len(self.body.discards) - 1
                body = list(tiles)
                body[newest] = body[newest]._replace(mark=Mark.HIGHLIGHT)
                tiles = tuple(body)
            found = BoxPlan(box.position, self.current, (*box.tiles, *tiles), (*box.inks, *inks))
            self._plans[key] = found
        return found


#: Seats laid out, by what they depend on: a table's four seats change one or two at a
#: time, and dozens of tables share a worker. Each holds its header and a plan or two
#: (some 60 tiles and sprites, about 10 KB), so a full cache holds some 5 MB; as many
#: melds and rivers again are kept apart from their headers.
SEAT_CACHE_SIZE = 512


@lru_cache(maxsize=SEAT_CACHE_SIZE)
def _seat_state(
    seat_view: SeatView, labels: Labels, seat: int, pos: int, current: bool
) -> _SeatState:
    header = _seat_header(seat_view, labels, seat, pos, current)
    return _SeatState(_BodyView.of(seat_view), labels, header, current)


@lru_cache(maxsize=4 * SEAT_CACHE_SIZE)
def _fits(body: _BodyView, labels: Labels, seat: int, width: int, room: int, tile: int) -> bool:
    blocks = _blocks(body, labels, seat, tile)
    return _arrange(blocks, len(body.discards), width, tile).height <= room


@lru_cache(maxsize=SEAT_CACHE_SIZE)
def _seat_body(
    body: _BodyView,
    labels: Labels,
    seat: int,
    position: int,
    x0: int,
    top: int,
    width: int,
    room: int,
    tile: int,
) -> tuple[tuple[TableTile, ...], tuple[Ink, ...]]:
    """The seat's river (first, none ringed) and melds at ``tile`` wide, or narrower if
    they cannot fit in the ``width`` x ``room`` area from (x0, top)."""
    while tile > TILE_MIN and not _fits(body, labels, seat, width, room, tile):
        tile -= TILE_STEP
    blocks = _blocks(body, labels, seat, tile)
    count = len(body.discards)
    arranged = _arrange(blocks, count, width, tile)
    river_w = arranged.columns * (tile + TILE_GAP) - TILE_GAP if count else 0
    river_h = _river_height(count, arranged.columns, tile)
    if arranged.side:
        # The river on the side that touches the centre: the right of the bottom box and
        # of the left one, the left of the top box and of the right one.
        river_right = position in (0, 3)
        river_x = x0 + width - river_w if river_right else x0
        blocks_w = arranged.blocks_width
        blocks_x = x0 if river_right else x0 + width - blocks_w
        tiles = _river_tiles(body, seat, river_x, top, arranged.columns, tile)
        more_tiles, inks = _place_rows(
            _rows_of(blocks, blocks_w), blocks_x, top, blocks_w, not river_right
        )
    else:
        # Stacked, the river is nearer the centre: above the melds at the bottom and on
        # the right, below them at the top and on the left.
        river_first = position in (0, 1)
        rows = _rows_of(blocks, width)
        blocks_h = _rows_height(rows) if rows else 0
        sep = BLOCK_GAP if rows and count else 0
        river_y = top if river_first else top + blocks_h + sep
        blocks_y = top + river_h + sep if river_first else top
        tiles = _river_tiles(body, seat, x0, river_y, arranged.columns, tile)
        more_tiles, inks = _place_rows(rows, x0, blocks_y, width, False)
    return (*tiles, *more_tiles), tuple(inks)


# -- the centre ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Extras:
    """What the centre's bottom rows show: the 宝牌 and the horses."""

    wildcard: int | None
    horses: tuple[HorseView, ...]
    labels: Labels


@dataclass(frozen=True, slots=True)
class _CentreView:
    """What of a table the centre shows: ``discard`` is the latest discard's face."""

    discard: int | None
    caption: str
    wall_left: int
    round_wind: int | None
    extras: _Extras
    title: str
    labels: Labels

    @classmethod
    def of(cls, view: TableView) -> _CentreView:
        seat = view.last_discard
        discards = view.seats[seat].discards if seat is not None else ()
        return cls(
            discards[-1] if discards else None,
            view.caption,
            view.wall_left,
            view.round_wind,
            _Extras(view.wildcard, view.horses, view.labels),
            view.title,
            view.labels,
        )


#: Centres laid out, by what they show (some 20 tiles and sprites each).
CENTRE_CACHE_SIZE = 256


@lru_cache(maxsize=CENTRE_CACHE_SIZE)
def _centre_box(view: _CentreView) -> BoxPlan:
    tiles, inks = _centre_plan(view)
    return BoxPlan(None, False, tuple(tiles), tuple(inks))


def _centre_plan(view: _CentreView) -> tuple[list[TableTile], list[Ink]]:
    """Title, prevailing wind and tiles left, then the latest discard large with its
    caption, then the 宝牌 and the horses along the bottom. Where that is too much for
    the centre, the title's lines go first and then the discard shrinks."""
    cx, cy, cw, ch = CENTRE
    inner = cw - 2 * CENTRE_PAD
    mid = cx + cw // 2
    tiles: list[TableTile] = []
    inks: list[Ink] = []
    extra_tiles, extra_inks, extras_top = _centre_extras(view.extras, cy + ch - CENTRE_PAD)
    tiles += extra_tiles
    inks += extra_inks
    status = _status_lines(view, inner)
    status_h = sum(max(i.height for i in line) + LINE_GAP for line in status)
    y = cy + CENTRE_PAD
    title_h = text.line_height(TITLE_SIZE)
    if view.discard is not None:
        below = tile_height(CENTRE_TILE_MIN)
    else:
        below = text.line_height(CAPTION_SIZE) if view.caption else 0
    spare = extras_top - LINE_GAP - (y + status_h) - below
    title = text.parts(view.title, TITLE_SIZE, inner, TITLE_LINES, bold=False)
    for words in title[: max(0, spare // title_h)]:
        image = text.text(words, TITLE_SIZE, theme.TEXT_MUTED_LIGHT)
        inks.append(Ink(image, mid - image.width // 2, y))
        y += title_h
    for line in status:
        line_h = max(i.height for i in line)
        x = mid - _row_width(line) // 2
        for item in line:
            inks.append(Ink(item, x, y + (line_h - item.height) // 2))
            x += item.width + ITEM_GAP
        y += line_h + LINE_GAP
    _centre_discard(view, tiles, inks, y, extras_top - LINE_GAP - y)
    return tiles, inks


def _status_lines(view: _CentreView, inner: int) -> list[list[Image.Image]]:
    """The prevailing wind and the tiles left: on one line, with the count in a smaller
    size if need be, else one above the other."""
    labels = view.labels
    wall = labels.wall.format(n=view.wall_left)
    if view.round_wind is None:
        return [[text.text(text.fit(wall, WALL_SIZE, inner, True), WALL_SIZE, theme.TEXT, True)]]
    words = text.fit(
        labels.round_wind.format(wind=labels.winds[view.round_wind]), BADGE_SIZE, inner
    )
    wind = text.pill(words, BADGE_SIZE, theme.PANEL, theme.TEXT_DARK)
    for size in range(WALL_SIZE, WALL_SIZE_MIN - 1, -2):
        count = text.text(wall, size, theme.TEXT, bold=True)
        if wind.width + ITEM_GAP + count.width <= inner:
            return [[wind, count]]
    return [
        [wind],
        [text.text(text.fit(wall, WALL_SIZE, inner, True), WALL_SIZE, theme.TEXT, True)],
    ]


def _row_width(items: Sequence[Image.Image]) -> int:
    return sum(i.width for i in items) + ITEM_GAP * (len(items) - 1)


def _centre_discard(
    view: _CentreView, tiles: list[TableTile], inks: list[Ink], y: int, room: int
) -> None:
    """The latest discard large and ringed, with the caption in up to three lines beside
    it, in the ``room`` px left between the lines above and the rows below (the tile
    shrinks when those leave too little)."""
    cx, _, cw, _ = CENTRE
    inner = cw - 2 * CENTRE_PAD
    discard = view.discard
    width = CENTRE_TILE
    while width > SMALL_TILE and tile_height(width) > room:
        width -= TILE_STEP
    line_h = text.line_height(CAPTION_SIZE)
    most = max(1, min(CAPTION_LINES, room // line_h))
    lines = []
    if discard is not None:
        tile = TableTile(discard, cx + CENTRE_PAD, y, width, Role.CENTRE, mark=Mark.HIGHLIGHT)
        tiles.append(tile)
        if view.caption:
            lines = text.shortened(view.caption, CAPTION_SIZE, inner - width - ITEM_GAP, most)
    elif view.caption:
        lines = text.shortened(view.caption, CAPTION_SIZE, inner, most)
    block_h = tile_height(width) if discard is not None else 0
    text_x = cx + CENTRE_PAD + (width + ITEM_GAP if discard is not None else 0)
    text_y = y + (max(block_h, line_h * len(lines)) - line_h * len(lines)) // 2
    for i, words in enumerate(lines):
        image = text.text(words, CAPTION_SIZE, theme.TEXT, bold=True)
        inks.append(Ink(image, text_x, text_y + i * line_h))


# The same from one move to the next: kept, with what measuring its labels costs.
@lru_cache(maxsize=64)
def _centre_extras(
    view: _Extras, bottom: int
) -> tuple[tuple[TableTile, ...], tuple[Ink, ...], int]:
    """The 宝牌 indicator and the horses along the centre's bottom: in one row where the
    horses keep their label and ``HORSE_TILE_MIN`` there, else the horses in the bottom
    row (labelled where that leaves them as wide) and the 宝牌 above them. Returns the
    tiles, the sprites and the top of what was placed (``bottom`` when there is
    nothing)."""
    tiles: list[TableTile] = []
    inks: list[Ink] = []
    cx, _, cw, _ = CENTRE
    left, inner = cx + CENTRE_PAD, cw - 2 * CENTRE_PAD
    labels = view.labels
    row_h = tile_height(WILDCARD_TILE)
    revealed = any(h.kind is not None for h in view.horses)
    # The winds under turned-up horses have no descenders: the foot of their line box,
    # empty, may reach into the centre's padding.
    top = bottom - row_h - (HORSE_TARGET_SIZE if revealed else 0)
    beside = _wildcard_width(labels) + ITEM_GAP
    shared = view.wildcard is not None and beside + _horses_width(view, True) <= inner
    if view.horses:
        start = left + (beside if shared else 0)
        room = left + inner - start
        labelled = _horses_width(view, True) <= room
        _centre_horses(view, tiles, inks, start, top, row_h, room, labelled)
        if view.wildcard is not None and not shared:
            top -= row_h + LINE_GAP
    if view.wildcard is not None:
        x = _label(inks, labels.wildcard, left, top, row_h)
        tiles.append(TableTile(view.wildcard, x, top, WILDCARD_TILE, Role.CENTRE))
    return tuple(tiles), tuple(inks), top if view.horses or view.wildcard is not None else bottom


def _label_width(word: str) -> int:
    return text.width(word, LABEL_SIZE, bold=True) + LABEL_GAP


def _wildcard_width(labels: Labels) -> int:
    return _label_width(labels.wildcard) + WILDCARD_TILE


def _horses_width(view: _Extras, labelled: bool) -> int:
    """The least width the horses need: one back with the count while they are face
    down, tiles ``HORSE_TILE_MIN`` wide once turned up; after the label if
    ``labelled``."""
    label = _label_width(view.labels.horses) if labelled else 0
    if any(h.kind is not None for h in view.horses):
        return label + len(view.horses) * (HORSE_TILE_MIN + TILE_GAP) - TILE_GAP
    return label + SMALL_TILE + LABEL_GAP + text.width(_horse_count(view), LABEL_SIZE, bold=True)


def _horse_count(view: _Extras) -> str:
    return f"×{len(view.horses)}"


def _centre_horses(
    view: _Extras,
    tiles: list[TableTile],
    inks: list[Ink],
    x: int,
    top: int,
    row_h: int,
    room: int,
    labelled: bool,
) -> None:
    """Face-down horses as one back and their count; turned up, each tile with its
    target's wind under it, as wide as the row's ``room`` lets them be up to
    ``HORSE_TILE``."""
    labels = view.labels
    if labelled:
        x = _label(inks, labels.horses, x, top, row_h)
        room -= _label_width(labels.horses)
    if not any(h.kind is not None for h in view.horses):
        tiles.append(
            TableTile(BACK, x, top + row_h - tile_height(SMALL_TILE), SMALL_TILE, Role.CENTRE)
        )
        count = text.text(_horse_count(view), LABEL_SIZE, theme.TEXT, bold=True)
        inks.append(Ink(count, x + SMALL_TILE + LABEL_GAP, top + (row_h - count.height) // 2))
        return
    width = min(HORSE_TILE, (room + TILE_GAP) // len(view.horses) - TILE_GAP)
    for i, horse in enumerate(view.horses):
        hx = x + i * (width + TILE_GAP)
        face = BACK if horse.kind is None else horse.kind
        tiles.append(TableTile(face, hx, top + row_h - tile_height(width), width, Role.CENTRE))
        if horse.target is not None:
            wind = text.text(labels.winds[horse.target], HORSE_TARGET_SIZE, theme.TEXT)
            inks.append(Ink(wind, hx + (width - wind.width) // 2, top + row_h))


def _label(inks: list[Ink], word: str, x: int, top: int, row_h: int) -> int:
    """A small accent label centred on a row; returns the x after it."""
    label = text.text(word, LABEL_SIZE, theme.ACCENT, bold=True)
    inks.append(Ink(label, x, top + (row_h - label.height) // 2))
    return x + label.width + LABEL_GAP


def box_plans(view: TableView) -> tuple[tuple[BoxPlan, ...], BoxPlan]:
    """The plans of the four seats' boxes (by seat) and of the centre. Every part is
    kept by what it depends on: the same seat, box and tile width give the same
    ``BoxPlan`` object."""
    labels = view.labels
    states = [
        _seat_state(view.seats[seat], labels, seat, position(view, seat), seat == view.current)
        for seat in range(4)
    ]
    # The largest tile width, from TILE_MAX down to TILE, at which every seat's melds and
    # river fit its box: early in a hand the tiles use the empty felt.
    tile = TILE_MAX
    while tile > TILE and not all(state.fits(tile) for state in states):
        tile -= TILE_STEP
    seats = tuple(state.plan(tile, view.last_discard == seat) for seat, state in enumerate(states))
    return seats, _centre_box(_CentreView.of(view))


def plan(view: TableView) -> TablePlan:
    """Where every tile and sprite of ``view``'s picture goes: the seats' boxes in seat
    order, then the centre."""
    seats, centre = box_plans(view)
    parts = (*seats, centre)
    tiles = tuple(tile for part in parts for tile in part.tiles)
    inks = tuple(ink for part in parts for ink in part.inks)
    current = None if view.current is None else position(view, view.current)
    return TablePlan(tiles, inks, current)


def clear_caches() -> None:
    _meld_block.cache_clear()
    _concealed_block.cache_clear()
    _centre_extras.cache_clear()
    _seat_state.cache_clear()
    _fits.cache_clear()
    _seat_body.cache_clear()
    _centre_box.cache_clear()
