"""A player's desk: everything one decision needs on one picture that reads on a phone.

From the top: the hand's title and the tiles left in the wall; the other three seats in
the order play goes round (下家, 对家, 上家), each on a band of its own: who it is and its
marks, then its melds, its winning tile once it has won (ringed in the 胡 badge's
colour) and its newest discards (the tile the reader may claim ringed in amber, the only
amber ring); then the reader's own hand, large, with the tile just drawn set apart, and
the tiles a ready hand waits on with the copies left of each. The band of the seat whose
move it is has a bar down its left edge.

The picture is ``WIDTH`` wide, so a phone shows it at half size: the other seats' tiles
and the waits (``TILE``) are then 18 px wide, the reader's own (``OWN_TILE``) 23 px.

The picture is drawn and deflated band by band (the header; each other seat's name and
marks, then its tiles; the rule; the reader's own hand), and each encoded band is kept by
what it shows: the next desk of a reader mostly differs in the reader's own band, and the
bands that did not change are copied into the new file rather than drawn again. A seat's
tiles say nothing that depends on who reads them or in what language, so the band of a
seat's new discard, drawn for the first reader who sees it, serves the other two as well.
A band is drawn straight in the desk's fixed colours, from tiles and sprites already laid
on the flat colour under them and mapped (see "drawing in the palette" below): the pixels
of the band drawn in RGB and mapped, at a fraction of the cost.
"""

from __future__ import annotations

import enum
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from engine.tiles import HONOR, NUM_KINDS, Meld, suit
from renderer import layout, png, sprites, text, theme
from renderer.hand import hand_order
from renderer.layout import Placed, Rect
from renderer.models import DeskView, HandView, Labels, OpponentView
from renderer.reference import reference_desk
from renderer.sprites import BACK, Mark, Same, stamp, tile_height, tile_size

WIDTH = 720
MARGIN = 12
TILE = 36
OWN_TILE = 46
GAP = 2
MELD_GAP = 10
DRAWN_GAP = 12
BAND_PAD = 6
BAND_GAP = 6
BAR = 5
HIGHLIGHT_RADIUS = 8
INSET = MARGIN + BAR + BAND_PAD
INNER = WIDTH - INSET - MARGIN
TITLE_SIZE = 22
NAME_SIZE = 22
BADGE_SIZE = 18
LEFT_SIZE = 20
ITEM_GAP = 6
WAIT_GAP = 14
#: A band shows at most this many of a seat's newest discards, on at most two lines.
RECENT = 12
BAND_LINES = 2


class Part(enum.Enum):
    """What a tile of the picture is, for the drawing and for the tests that read sizes."""

    OWN = "own"
    MELD = "meld"
    RIVER = "river"
    WON = "won"
    WAIT = "wait"

    # Hashed in C as the object it is, as ``Mark`` is: cached blocks are looked up by it.
    __hash__ = object.__hash__


# Named tuples rather than frozen dataclasses, as for ``Placed``: a band places dozens.
class DeskTile(NamedTuple):
    """A tile of the picture, ``width`` wide before its ``placed.quarter`` turns."""

    placed: Placed
    width: int
    part: Part

    @property
    def box(self) -> tuple[int, int, int, int]:
        w, h = tile_size(self.width, self.placed.quarter)
        return self.placed.x, self.placed.y, w, h

    def moved(self, dx: int, dy: int) -> DeskTile:
        p = self.placed
        return DeskTile(
            Placed(p.face, p.x + dx, p.y + dy, p.quarter, p.dim, p.mark), self.width, self.part
        )


class Sprite(NamedTuple):
    """A text or badge pasted with its top-left corner at (x, y)."""

    image: Image.Image
    x: int
    y: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.image.width, self.image.height


@dataclass(frozen=True, slots=True)
class DeskPlan:
    """Everything the picture draws: its size, tiles and sprites, the band (x, y, w, h)
    of the seat whose move it is, and where the reader's own band begins."""

    size: tuple[int, int]
    tiles: tuple[DeskTile, ...]
    sprites: tuple[Sprite, ...]
    current: tuple[int, int, int, int] | None
    rule: int | None


@dataclass(frozen=True, slots=True)
class _Block:
    """Tiles laid out as a unit (a meld, one tile), relative to the block's top-left."""

    width: int
    height: int
    tiles: tuple[DeskTile, ...]


# Blocks are pure and asked for again with every band drawn: a few thousand looks in all.
@lru_cache(maxsize=2048)
def _tile_block(
    face: int, width: int, part: Part, mark: Mark = Mark.NONE, dim: bool = False
) -> _Block:
    tile = DeskTile(Placed(face, 0, 0, dim=dim, mark=mark), width, part)
    return _Block(width, tile_height(width), (tile,))


@lru_cache(maxsize=1024)
def _meld_block(meld: Meld, owner: int, width: int, part: Part) -> _Block:
    height = layout.row_height(width, [meld])
    placed = layout.place_melds([meld], owner, 0, height, width, GAP, 0)
    return _Block(
        layout.melds_width([meld], width, GAP, 0),
        height,
        tuple(DeskTile(p, width, part) for p in placed),
    )


def _flow(blocks: Sequence[_Block], gaps: Sequence[int], y0: int) -> tuple[list[DeskTile], int]:
    """Blocks left to right across the band, wrapped at its width, each line's blocks
    standing on the line's bottom; ``gaps[i]`` is the room before block i on its line.
    Returns the tiles and the height used."""
    lines: list[list[tuple[_Block, int]]] = []
    x = 0
    for block, gap in zip(blocks, gaps, strict=True):
        start = x + gap if lines else 0
        if not lines or start + block.width > INNER:
            lines.append([])
            start = 0
        lines[-1].append((block, start))
        x = start + block.width
    out: list[DeskTile] = []
    y = y0
    for line in lines:
        height = max(b.height for b, _ in line)
        for block, bx in line:
            out += [t.moved(INSET + bx, y + height - block.height) for t in block.tiles]
        y += height + GAP
    return out, max(0, y - y0 - GAP)


def _row(items: Sequence[Image.Image], x0: int, y0: int) -> tuple[list[Sprite], int]:
    """Sprites in a row, centred on one line; returns them and the line's height."""
    height = max((i.height for i in items), default=0)
    out = []
    x = x0
    for item in items:
        out.append(Sprite(item, x, y0 + (height - item.height) // 2))
        x += item.width + ITEM_GAP
    return out, height


def _river_room(melds: Sequence[_Block]) -> int:
    """How many river tiles fit after the melds within a band's lines."""
    per_line = (INNER + GAP) // (TILE + GAP)
    lines, x = 1, 0
    for block in melds:
        start = x + MELD_GAP if x else 0
        if x and start + block.width > INNER:
            lines, start = lines + 1, 0
        x = start + block.width
    if lines > BAND_LINES:
        return 0
    on_line = (INNER - x - MELD_GAP + GAP) // (TILE + GAP) if x else per_line
    return max(0, on_line) + per_line * (BAND_LINES - lines)


def _badge(word: str, fill: str, ink: str = theme.TEXT_DARK) -> Image.Image:
    return text.pill(text.fit(word, BADGE_SIZE, INNER // 3, bold=True), BADGE_SIZE, fill, ink)


def _seat_items(head: _SeatHead) -> list[Image.Image]:
    """The badges and the name across the top of another seat's band."""
    items = [
        _badge(head.place, theme.ACCENT if head.current else theme.PANEL),
        text.text(text.fit(head.name, NAME_SIZE, INNER // 2, bold=True), NAME_SIZE, theme.TEXT),
    ]
    items += [_badge(word, fill, ink) for word, fill, ink in head.marks]
    return items


def _seat_blocks(
    melds: Sequence[Meld], owner: int, won_tile: int | None, discards: Sequence[int], live: bool
) -> tuple[list[_Block], list[int], tuple[int, ...]]:
    """Another seat's melds, its winning tile and its newest discards as they flow across
    its band, the room before each, and the discards that fit (``live``: the newest of
    them ringed)."""
    blocks = [_meld_block(m, owner, TILE, Part.MELD) for m in melds]
    if won_tile is not None:
        blocks.append(_tile_block(won_tile, TILE, Part.WON, Mark.WON))
    gaps = [MELD_GAP] * len(blocks)
    room = min(RECENT, _river_room(blocks))
    river = tuple(discards[-room:]) if room else ()
    for i, face in enumerate(river):
        ringed = live and i == len(river) - 1
        blocks.append(_tile_block(face, TILE, Part.RIVER, Mark.HIGHLIGHT if ringed else Mark.NONE))
        gaps.append(MELD_GAP if i == 0 else GAP)
    return blocks, gaps, river


def _mark(hand: HandView, kind: int) -> Mark:
    if hand.void_suit is not None and suit(kind) != HONOR and suit(kind) == hand.void_suit:
        return Mark.VOID
    if kind == hand.wildcard:
        return Mark.WILD
    return Mark.NONE


def _own(band: _OwnBand, y0: int) -> tuple[list[DeskTile], list[Sprite], int]:
    hand = band.hand
    sprites: list[Sprite] = []
    top = y0
    if band.won_tile is not None:
        order = band.won_order
        word = hand.labels.won if order is None else hand.labels.won_order.format(n=order)
        found, height = _row([_badge(word, theme.WON_MARK, theme.TEXT)], INSET, y0)
        sprites += found
        top += height + GAP
    order_ = hand_order(hand)
    blocks, gaps = [], []
    for i, kind in enumerate(order_):
        dim = hand.legal_discards is not None and kind not in hand.legal_discards
        blocks.append(_tile_block(kind, OWN_TILE, Part.OWN, _mark(hand, kind), dim))
        drawn = hand.drawn is not None and i == len(order_) - 1
        gaps.append(DRAWN_GAP if drawn else GAP)
    if band.won_tile is not None:
        blocks.append(_tile_block(band.won_tile, OWN_TILE, Part.WON, Mark.WON))
        gaps.append(DRAWN_GAP)
    for meld in hand.melds:
        blocks.append(_meld_block(meld, 0, OWN_TILE, Part.MELD))
        gaps.append(MELD_GAP)
    tiles, height = _flow(blocks, gaps, top) if blocks else ([], 0)
    y = top + height
    if hand.waits:
        found_tiles, found_sprites, used = _waits(band, y + BAND_PAD)
        tiles += found_tiles
        sprites += found_sprites
        y += BAND_PAD + used
    return tiles, sprites, y - y0


def _waits(band: _OwnBand, y0: int) -> tuple[list[DeskTile], list[Sprite], int]:
    """听: each tile the hand waits on, with the copies left of it beside it."""
    labels = band.hand.labels
    row = tile_height(TILE)
    label = text.text(f"{labels.waits}:", LEFT_SIZE + 2, theme.ACCENT, bold=True)
    sprites = [Sprite(label, INSET, y0 + (row - label.height) // 2)]
    tiles = []
    x, y = INSET + label.width + ITEM_GAP, y0
    for i, kind in enumerate(band.hand.waits):
        left = None
        if i < len(band.wait_left):
            words = labels.left.format(n=band.wait_left[i])
            left = text.text(words, LEFT_SIZE, theme.TEXT, bold=True)
        size = TILE + (3 + left.width if left is not None else 0)
        if x + size > INSET + INNER:
            x, y = INSET + label.width + ITEM_GAP, y + row + GAP
        tiles.append(DeskTile(Placed(kind, x, y), TILE, Part.WAIT))
        if left is not None:
            sprites.append(Sprite(left, x + TILE + 3, y + (row - left.height) // 2))
        x += size + WAIT_GAP
    return tiles, sprites, y + row - y0


@dataclass(frozen=True, slots=True)
class _BandPlan:
    """What one full-width band draws, placed from the band's own top: nothing of a band
    depends on where the band lies in the picture, nor reaches into another band."""

    height: int
    tiles: tuple[DeskTile, ...] = ()
    sprites: tuple[Sprite, ...] = ()
    current: tuple[int, int, int, int] | None = None
    rule: int | None = None


@dataclass(frozen=True, slots=True)
class _HeadBand:
    """The hand's title and the tiles left in the wall."""

    title: str
    wall_left: int | None
    labels: Labels

    def plan(self) -> _BandPlan:
        labels = self.labels
        sprites: list[Sprite] = []
        height = 0
        wall = None
        if self.wall_left is not None:
            wall = text.text(labels.wall.format(n=self.wall_left), TITLE_SIZE, theme.ACCENT, True)
            sprites.append(Sprite(wall, WIDTH - MARGIN - wall.width, MARGIN))
            height = wall.height
        if self.title:
            room = WIDTH - 2 * MARGIN - (wall.width + ITEM_GAP if wall is not None else 0)
            title = text.fit(self.title, TITLE_SIZE, room, bold=True)
            ink = text.text(title, TITLE_SIZE, theme.TEXT, bold=True)
            sprites.append(Sprite(ink, MARGIN, MARGIN))
            height = max(height, ink.height)
        return _BandPlan(MARGIN + (height + BAND_GAP if height else 0), sprites=tuple(sprites))


@dataclass(frozen=True, slots=True)
class _SeatHead:
    """The top of another seat's band: who it is and its marks, in the reader's words.
    ``place`` and the marks (word, fill, ink) are the reader's; ``current`` rings the
    place, ``lit`` is the seat whose move it is. ``alone``: no tiles under it, so the
    band ends here; otherwise the tiles are a band of their own (:class:`_SeatTiles`),
    which says nothing the reader's words or seat would change, so one encoded band
    serves every reader at the table whatever their language."""

    place: str
    name: str
    marks: tuple[tuple[str, str, str], ...]
    current: bool
    lit: bool
    alone: bool

    def header(self) -> int:
        """The height of the badges' line."""
        return max(item.height for item in _seat_items(self))

    def plan(self) -> _BandPlan:
        sprites, header = _row(_seat_items(self), INSET, BAND_PAD)
        if self.alone:
            used = header
            current = (MARGIN, 0, WIDTH - 2 * MARGIN, used + 2 * BAND_PAD) if self.lit else None
            return _BandPlan(
                used + 2 * BAND_PAD + BAND_GAP, sprites=tuple(sprites), current=current
            )
        height = BAND_PAD + header + GAP
        # The highlight runs on into the tiles' band: its bottom corners are drawn there,
        # so here it only has to reach past this band's last row by more than their radius.
        current = (
            (MARGIN, 0, WIDTH - 2 * MARGIN, height + 2 * HIGHLIGHT_RADIUS) if self.lit else None
        )
        return _BandPlan(height, sprites=tuple(sprites), current=current)


@dataclass(frozen=True, slots=True)
class _SeatTiles:
    """Another seat's melds, win and newest discards (``river``, the ones shown), from
    ``top`` of its band down to the gap under it; ``live`` rings the newest discard,
    ``lit``: the seat whose move it is (the highlight begins in the head above)."""

    melds: tuple[Meld, ...]
    owner: int
    won_tile: int | None
    river: tuple[int, ...]
    live: bool
    top: int
    lit: bool

    def plan(self) -> _BandPlan:
        blocks, gaps, _ = _seat_blocks(self.melds, self.owner, self.won_tile, self.river, self.live)
        tiles, height = _flow(blocks, gaps, 0)
        full = self.top + height + BAND_PAD
        current = (MARGIN, -self.top, WIDTH - 2 * MARGIN, full) if self.lit else None
        return _BandPlan(height + BAND_PAD + BAND_GAP, tuple(tiles), current=current)


def _seat_bands(other: OpponentView, labels: Labels, lit: bool) -> list[_Band]:
    """Another seat's band: its head, and the tiles under it when it has any."""
    marks: list[tuple[str, str, str]] = []
    if other.void_suit is not None:
        void = labels.void_text(other.void_suit)
        marks.append((void, theme.VOID_SUITS[other.void_suit], theme.TEXT))
    if other.won_tile is not None:
        marks.append((labels.won, theme.WON_MARK, theme.TEXT))
    if other.note:
        marks.append((other.note, theme.PANEL, theme.TEXT_DARK))
    blocks, _, river = _seat_blocks(
        other.melds, other.owner, other.won_tile, other.discards, other.live
    )
    head = _SeatHead(other.place, other.name, tuple(marks), other.current, lit, not blocks)
    if not blocks:
        return [head]
    top = BAND_PAD + head.header() + GAP
    return [head, _SeatTiles(other.melds, other.owner, other.won_tile, river, other.live, top, lit)]


@dataclass(frozen=True, slots=True)
class _RuleBand:
    """The line between the other seats and the reader's own hand."""

    def plan(self) -> _BandPlan:
        return _BandPlan(BAND_GAP, rule=0)


@dataclass(frozen=True, slots=True)
class _OwnBand:
    """The reader's own hand, its win and its waits, down to the picture's bottom."""

    hand: HandView
    won_tile: int | None
    won_order: int | None
    wait_left: tuple[int, ...]
    lit: bool

    def plan(self) -> _BandPlan:
        tiles, sprites, used = _own(self, BAND_PAD)
        current = (MARGIN, 0, WIDTH - 2 * MARGIN, used + 2 * BAND_PAD) if self.lit else None
        return _BandPlan(used + 2 * BAND_PAD + MARGIN, tuple(tiles), tuple(sprites), current)


_Band = _HeadBand | _SeatHead | _SeatTiles | _RuleBand | _OwnBand


def _bands(view: DeskView) -> list[_Band]:
    """The picture's bands from the top, each holding exactly what it draws: an encoded
    band is kept under it."""
    hand = view.hand
    labels = hand.labels
    # One band carries the highlight: the last of the seats marked current, as the
    # whole picture always drew it.
    lit = max((i for i, other in enumerate(view.opponents) if other.current), default=None)
    if view.current:
        lit = len(view.opponents)
    out: list[_Band] = [_HeadBand(hand.title, view.wall_left, labels)]
    for i, other in enumerate(view.opponents):
        out += _seat_bands(other, labels, i == lit)
    if view.opponents:
        out.append(_RuleBand())
    out.append(
        _OwnBand(hand, view.won_tile, view.won_order, view.wait_left, lit == len(view.opponents))
    )
    return out


def plan(view: DeskView) -> DeskPlan:
    """Where everything of the picture goes: its bands' plans one under the other."""
    tiles: list[DeskTile] = []
    sprites: list[Sprite] = []
    current = None
    rule = None
    y = 0
    for band in _bands(view):
        part = band.plan()
        tiles += [tile.moved(0, y) for tile in part.tiles]
        sprites += [Sprite(s.image, s.x, s.y + y) for s in part.sprites]
        if part.current is not None:
            x, top, w, h = part.current
            current = (x, top + y, w, h)
        if part.rule is not None:
            rule = part.rule + y
        y += part.height
    return DeskPlan((WIDTH, y), tuple(tiles), tuple(sprites), current, rule)


def _paint(
    canvas: Image.Image,
    tiles: Sequence[DeskTile],
    sprites: Sequence[Sprite],
    current: tuple[int, int, int, int] | None,
    rule: int | None,
) -> None:
    """Draw a plan's highlight, rule, tiles and sprites onto ``canvas`` (felt already)."""
    draw = ImageDraw.Draw(canvas)
    if current is not None:
        x, y, w, h = current
        draw.rounded_rectangle((x, y, x + w, y + h), HIGHLIGHT_RADIUS, fill=theme.FELT_DARK)
        draw.rectangle((x, y, x + BAR, y + h), fill=theme.ACCENT)
    if rule is not None:
        draw.line((MARGIN, rule, WIDTH - MARGIN, rule), fill=theme.FELT_LINE, width=2)
    for tile in tiles:
        layout.paint(canvas, [tile.placed], tile.width)
    for sprite in sprites:
        stamp(canvas, sprite.image, sprite.x, sprite.y)


def _draw(view: DeskView) -> Image.Image:
    """The whole picture on one canvas (for choosing the palette; tests compare the
    banded file with it)."""
    spot = plan(view)
    canvas = Image.new("RGB", spot.size, theme.FELT)
    _paint(canvas, spot.tiles, spot.sprites, spot.current, spot.rule)
    return canvas


def _encode_band(band: _Band) -> png.EncodedBand:
    """One band drawn on its own canvas in the desk's colours and deflated."""
    spot = band.plan()
    rows = _draw_indexed(spot)
    if rows is not None:
        return png.encode_rows(rows)
    canvas = Image.new("RGB", (WIDTH, spot.height), theme.FELT)
    _paint(canvas, spot.tiles, spot.sprites, spot.current, spot.rule)
    return png.encode_band(canvas.quantize(palette=_palette(), dither=_NO_DITHER))


# -- drawing in the palette ----------------------------------------------------------------
#
# Mapping onto the palette with no dithering takes each pixel on its own, so a band drawn
# straight in the palette has the pixels of the band drawn in RGB and mapped, as long as
# every tile and sprite is blended onto one flat colour: each is laid on that colour once,
# mapped, and pasted as it is. The felt and the highlight are drawn in colours the palette
# holds exactly, one entry each, so a flat stretch of entries is a flat stretch of colour.

_NO_DITHER = Image.Dither.NONE
# Every colour the background of a band is drawn in.
_GROUNDS = (theme.FELT, theme.FELT_DARK, theme.ACCENT, theme.FELT_LINE)
# How far from the highlight's edges its rounded corners may reach.
_CLEAR = 2 * HIGHLIGHT_RADIUS


@cache
def _index(colour: str) -> int:
    """The palette entry a flat ``colour`` maps onto."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=_palette(), dither=_NO_DITHER)
    return int(pixel.im.getpixel((0, 0)))


@cache
def _grounds() -> dict[int, str] | None:
    """The background colours by palette entry, or None if two share an entry (then a
    flat stretch of entries would not tell the colour under a sprite)."""
    by_index = {_index(colour): colour for colour in _GROUNDS}
    return by_index if len(by_index) == len(_GROUNDS) else None


def _mapped(image: Image.Image) -> tuple[Any, int, int]:
    """``image`` mapped onto the palette: what pasting it needs, its core and size."""
    indexed = image.quantize(palette=_palette(), dither=_NO_DITHER)
    return indexed.im, indexed.width, indexed.height


def _laid(sprite: Image.Image, ground: str) -> tuple[Any, int, int]:
    out = Image.new("RGB", sprite.size, ground)
    out.paste(sprite, (0, 0), sprite)
    return _mapped(out)


# Tile looks by face, size, state and ground: a few hundred, 2-4 KB each mapped.
@lru_cache(maxsize=2048)
def _indexed_tile(
    face: int, width: int, quarter: int, dim: bool, mark: Mark, ground: str
) -> tuple[Any, int, int]:
    return _laid(sprites.tile(face, width, quarter, dim, mark), ground)


# Text and badges by sprite and ground; names, badges, counts: about 2 KB each mapped.
@lru_cache(maxsize=2048)
def _indexed_sprite(image: Same, ground: str) -> tuple[Any, int, int]:
    return _laid(image.image, ground)


# Some twenty sizes of a lit band over random play, 70-150 KB each.
@lru_cache(maxsize=32)
def _lit(height: int, lit: tuple[int, int, int, int]) -> Image.Image:
    """A band's row canvas with the highlight of the seat to move drawn at ``lit``."""
    canvas = png.row_canvas(WIDTH, height, _index(theme.FELT))
    x, y, w, h = lit
    draw = ImageDraw.Draw(canvas)
    # One column right of the band's own, after the rows' filter bytes.
    draw.rounded_rectangle(
        (x + 1, y, x + w + 1, y + h), HIGHLIGHT_RADIUS, fill=_index(theme.FELT_DARK)
    )
    draw.rectangle((x + 1, y, x + BAR + 1, y + h), fill=_index(theme.ACCENT))
    return canvas


def _draw_indexed(spot: _BandPlan) -> Image.Image | None:
    """The band drawn in the palette, as a row canvas (``png.row_canvas``); None when a
    tile or sprite would be blended onto anything but one flat colour."""
    grounds = _grounds()
    height = spot.height
    if grounds is None or (spot.rule is not None and (spot.tiles or spot.sprites)):
        return None
    looks: list[tuple[int, int, int, bool, Mark] | Same] = []
    spots: list[Rect] = []
    for tile in spot.tiles:
        p = tile.placed
        w, h = tile_size(tile.width, p.quarter)
        looks.append((p.face, tile.width, p.quarter, p.dim, p.mark))
        spots.append((p.x, p.y, p.x + w, p.y + h))
    for sprite in spot.sprites:
        w, h = sprite.image.size
        looks.append(Same(sprite.image))
        spots.append((sprite.x, sprite.y, sprite.x + w, sprite.y + h))
    if not layout.apart(spots):
        return None
    lit = spot.current
    if lit is None:
        canvas = png.row_canvas(WIDTH, height, _index(theme.FELT))
    else:
        canvas = _lit(height, lit).copy()
        x, y, w, h = lit
        left, top, right, bottom = x, y, x + w + 1, y + h + 1
    core = canvas.im
    if spot.rule is not None:
        line = (MARGIN + 1, spot.rule, WIDTH - MARGIN + 1, spot.rule)
        ImageDraw.Draw(canvas).line(line, fill=_index(theme.FELT_LINE), width=2)
    # Nothing overlaps, so the ground under each is the background's, pasted or not. Off
    # the highlight all is felt; well inside it, clear of its bar and its rounded
    # corners, all is dark felt; elsewhere the background says.
    for look, (x, y, r, b) in zip(looks, spots, strict=True):
        if x < 0 or y < 0 or r > WIDTH or b > height:
            return None
        if lit is None:
            ground = theme.FELT
        elif (left + _CLEAR <= x and r <= right - _CLEAR and top <= y and b <= bottom) or (
            left + BAR + 1 <= x and r <= right and top + _CLEAR <= y and b <= bottom - _CLEAR
        ):
            ground = theme.FELT_DARK
        else:
            low, high = core.crop((x + 1, y, r + 1, b)).getextrema()
            if low != high:
                return None
            ground = grounds[low]
        if isinstance(look, Same):
            sprite = _indexed_sprite(look, ground)[0]
        else:
            sprite = _indexed_tile(*look, ground)[0]
        core.paste(sprite, (x + 1, y, r + 1, b))
    return canvas


#: Encoded bands by what they show, the least recently used forgotten first. Over play
#: of people at many tables a band averages 6.2 KB of deflate (a seat's tiles 6.4, its
#: name line 1.4, the reader's own hand 10-12, the header 4.0) and about 7.5 KB with its
#: key and objects, so a full cache holds some 30 MB: a hand of one table makes about 470
#: bands, and a reader's next desk needs the bands of its last one to be kept still when
#: dozens of tables play at once.
BAND_CACHE_SIZE = 4096
_encoded: OrderedDict[_Band, png.EncodedBand] = OrderedDict()
# Desks are drawn in worker threads; the lock keeps the cache's order consistent.
_encoded_lock = threading.Lock()


def _encoded_band(band: _Band) -> png.EncodedBand:
    with _encoded_lock:
        found = _encoded.get(band)
        if found is not None:
            _encoded.move_to_end(band)
            return found
    # Drawn outside the lock, so that other desks are not kept waiting on it; two threads
    # missing the same band both draw it, to the same bytes.
    found = _encode_band(band)
    with _encoded_lock:
        _encoded[band] = found
        if len(_encoded) > BAND_CACHE_SIZE:
            _encoded.popitem(last=False)
    return found


def render_desk(view: DeskView) -> bytes:
    """PNG of a player's desk (what is where: this module's docstring), put together from
    its encoded bands."""
    return png.write_bands([_encoded_band(band) for band in _bands(view)], _palette())


@cache
def _palette() -> Image.Image:
    """The 256 colours of every desk picture, chosen once from a sample showing every
    kind of mark above every face plain, dimmed and marked, as the hand pictures do."""
    sample = _draw(reference_desk())
    faces = [*range(NUM_KINDS), BACK]
    looks = [(False, mark) for mark in Mark] + [(True, Mark.NONE), (True, Mark.VOID)]
    row_h = tile_height(OWN_TILE)
    width = max(sample.width, len(faces) * (OWN_TILE + GAP))
    mosaic = Image.new("RGB", (width, sample.height + len(looks) * row_h), theme.FELT)
    mosaic.paste(sample, (0, 0))
    for row, (dim, mark) in enumerate(looks):
        top = sample.height + row * row_h
        placed = [
            Placed(face, i * (OWN_TILE + GAP), top, dim=dim, mark=mark)
            for i, face in enumerate(faces)
        ]
        layout.paint(mosaic, placed, OWN_TILE)
    return png.palette_of(mosaic)


def clear_band_cache() -> None:
    """Forget every encoded band (the benchmark measures desks drawn whole with this)."""
    with _encoded_lock:
        _encoded.clear()


def clear_caches() -> None:
    _palette.cache_clear()
    _index.cache_clear()
    _grounds.cache_clear()
    _indexed_tile.cache_clear()
    _indexed_sprite.cache_clear()
    _lit.cache_clear()
    _tile_block.cache_clear()
    _meld_block.cache_clear()
    clear_band_cache()
