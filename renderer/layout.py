"""Where tiles go: rows of concealed tiles and melds as players lay them out, and pasting
them onto a picture."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image

from engine.tiles import Meld, MeldType
from renderer import sprites
from renderer.sprites import BACK, Mark, tile_height


# A named tuple rather than a frozen dataclass: pictures place hundreds of these, and a
# frozen dataclass costs several times as much to make.
class Placed(NamedTuple):
    """A tile at (x, y), its top-left corner in the layout's frame; ``quarter`` turns it
    counter-clockwise (1 = sideways, as a claimed tile lies)."""

    face: int
    x: int
    y: int
    quarter: int = 0
    dim: bool = False
    mark: Mark = Mark.NONE


#: A rectangle (left, top, right, bottom), right and bottom excluded.
Rect = tuple[int, int, int, int]


def apart(spots: list[Rect]) -> bool:
    """Whether no two of ``spots`` overlap: what is drawn at each is then blended onto
    the background alone, in any order."""
    ordered = sorted(spots)
    for i, (_, top, right, bottom) in enumerate(ordered):
        for other in ordered[i + 1 :]:
            if other[0] >= right:
                break
            if other[1] < bottom and top < other[3]:
                return False
    return True


@dataclass(frozen=True, slots=True)
class Piece:
    """One tile of a meld: ``sideways`` for the claimed tile, ``stacked`` for the tile an
    added kong (补杠) lays on top of it."""

    face: int
    sideways: bool = False
    stacked: bool = False


def _claimed_index(meld: Meld, owner: int | None, size: int) -> int:
    """Where the claimed tile lies, the way players set it: at the left for 上家, in the
    middle for 对家, at the right for 下家 (left when the source is unknown)."""
    if meld.from_seat is None or owner is None:
        return 0
    relative = (meld.from_seat - owner) % 4
    return {3: 0, 2: 1, 1: size - 1}.get(relative, 0)


def meld_pieces(meld: Meld, owner: int | None = None) -> list[Piece]:
    """The tiles of a meld as they lie on the table. A concealed kong shows two backs."""
    if meld.type is MeldType.CONCEALED_KONG:
        return [Piece(BACK), Piece(meld.kind), Piece(meld.kind), Piece(BACK)]
    tiles = list(meld.tiles)
    claimed = meld.claimed
    if claimed is None or claimed not in tiles:
        return [Piece(k) for k in tiles]
    if meld.type is MeldType.CHOW:
        tiles.remove(claimed)
        return [Piece(claimed, sideways=True)] + [Piece(k) for k in tiles]
    if meld.added:
        at = _claimed_index(meld, owner, 3)
        pieces = [Piece(meld.kind) for _ in range(3)]
        pieces[at] = Piece(meld.kind, sideways=True)
        pieces.insert(at + 1, Piece(meld.kind, sideways=True, stacked=True))
        return pieces
    at = _claimed_index(meld, owner, len(tiles))
    pieces = [Piece(k) for k in tiles]
    pieces[at] = Piece(meld.kind, sideways=True)
    return pieces


def row_height(width: int, melds: Iterable[Meld]) -> int:
    """Height of a row of ``width``-wide tiles: taller when an added kong stacks two."""
    stacked = any(m.added and m.type is MeldType.KONG for m in melds)
    return max(tile_height(width), 2 * width) if stacked else tile_height(width)


def melds_width(melds: Sequence[Meld], width: int, gap: int, meld_gap: int) -> int:
    total = 0
    for meld in melds:
        for piece in meld_pieces(meld):
            if not piece.stacked:
                total += (tile_height(width) if piece.sideways else width) + gap
    return total + meld_gap * max(0, len(melds) - 1) - (gap if melds else 0)


def place_melds(
    melds: Sequence[Meld],
    owner: int | None,
    x: int,
    bottom: int,
    width: int,
    gap: int,
    meld_gap: int,
) -> list[Placed]:
    """Melds left to right from ``x``, every tile standing on the line y = ``bottom``."""
    out: list[Placed] = []
    height = tile_height(width)
    for meld in melds:
        last_x = x
        for piece in meld_pieces(meld, owner):
            if piece.stacked:
                out.append(Placed(piece.face, last_x, bottom - 2 * width, quarter=1))
                continue
            last_x = x
            if piece.sideways:
                out.append(Placed(piece.face, x, bottom - width, quarter=1))
                x += height + gap
            else:
                out.append(Placed(piece.face, x, bottom - height))
                x += width + gap
        x += meld_gap - gap
    return out


def place_row(faces: Sequence[int], x: int, y: int, width: int, gap: int) -> list[Placed]:
    """Upright tiles left to right from (x, y)."""
    return [Placed(face, x + i * (width + gap), y) for i, face in enumerate(faces)]


def paint(canvas: Image.Image, placed: Iterable[Placed], width: int) -> None:
    """Paste ``width``-wide tiles onto ``canvas`` where the layout put them."""
    for p in placed:
        sprite = sprites.tile(p.face, width, p.quarter, p.dim, p.mark)
        sprites.stamp(canvas, sprite, p.x, p.y)
