"""PNG encoding tuned for flat-coloured pictures: small files, fast to write.

Every picture is written in 256 colours with no per-row filter, deflated by zlib-ng at a
low level: on felt, ivory and ink that is within a few per cent of the smallest file and
several times faster than Pillow's own PNG writer, and a move draws several pictures.

A picture made of full-width bands can also be written from bands encoded apart
(:func:`encode_band`, :func:`write_bands`): each band's rows are deflated on their own, so
a band that did not change since the last picture is copied rather than deflated again.
A band drawn into a :func:`row_canvas` (which holds the rows' filter bytes) is deflated
straight from it by :func:`encode_rows`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image
from zlib_ng import zlib_ng

MAX_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit for every server; no picture may exceed it."""

# zlib-ng's level 1 deflates a band of a desk or a table in about 60 % of level 2's time
# (0.13-0.17 against 0.22-0.27 ms for the average 72 KB of rows) for a file about 30 %
# larger (a desk 38 KB against 30, a table 43 against 34). Deflating is a quarter of the
# picture processes' CPU; the bytes cost the upload about 1 us of CPU a KB, and a phone
# on a slow line (1 Mbit/s) well under a tenth of a second more for a picture.
_COMPRESS_LEVEL = 1
# zlib-ng's level 1 keeps a hash table of its own size whatever the memory level asks
# (levels 1 to 9 write the same bytes in the same time): the default is passed.
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Bit depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
_INDEXED = (8, 3, 0, 0, 0)
# PNG's filter byte for a row stored as it is.
_NO_FILTER = 0
# The zlib header zlib writes for level 1: deflate, 32 KB window, "fastest" (the level is
# informative only; decoders ignore it).
_ZLIB_HEADER = b"\x78\x01"
# A final block with fixed codes and nothing but its end-of-block code: it closes a stream
# whose bands each end on a sync flush (a byte boundary, no final block).
_LAST_BLOCK = b"\x03\x00"
# Raw deflate: no zlib header or trailer, the picture's stream has one of its own.
_RAW_WINDOW = -15
_ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class EncodedBand:
    """Full-width rows of a palette picture, deflated apart from the rest of the picture:
    ``deflated`` is raw deflate ending on a byte boundary with no final block, so bands
    concatenate into one stream; ``adler`` and ``raw_length`` are the Adler-32 and the
    length of the rows as deflated (each with its filter byte), which the stream's
    checksum is combined from."""

    width: int
    height: int
    deflated: bytes
    adler: int
    raw_length: int


def encode(image: Image.Image, colours: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image`` in 256 colours, which the felt, ivory and ink of a table
    survive without visible change: the colours of ``colours`` (a palette image, see
    :func:`palette_of`) when given, else chosen for this picture."""
    indexed = (
        palette_of(image)
        if colours is None
        else image.quantize(palette=colours, dither=Image.Dither.NONE)
    )
    return write(indexed)


def write(indexed: Image.Image) -> bytes:
    """The PNG file of a palette image (mode "P")."""
    width, height = indexed.size
    data = zlib_ng.compress(_rows(indexed), _COMPRESS_LEVEL)
    return _file(width, height, indexed.getpalette("RGB") or [], data)


def encode_band(indexed: Image.Image) -> EncodedBand:
    """A palette image's rows (mode "P") deflated on their own, for :func:`write_bands`."""
    return _deflate_band(indexed.width, indexed.height, _rows(indexed))


def row_canvas(width: int, height: int, fill: int = 0) -> Image.Image:
    """A palette canvas for a band ``width`` wide filled with entry ``fill``, with one
    more column on the left, all zeros: the filter byte PNG wants before each row. Draw
    the band at x = 1 and deflate it with :func:`encode_rows`, which saves copying its
    pixels into such a canvas."""
    canvas = Image.new("P", (width + 1, height), fill)
    if fill != _NO_FILTER:
        canvas.im.paste(_NO_FILTER, (0, 0, 1, height))
    return canvas


def encode_rows(canvas: Image.Image) -> EncodedBand:
    """A :func:`row_canvas`'s rows deflated on their own, for :func:`write_bands`."""
    if canvas.mode != "P":
        raise ValueError(f"expected a palette image, got mode {canvas.mode}")
    return _deflate_band(canvas.width - 1, canvas.height, _bytes(canvas))


def _deflate_band(width: int, height: int, raw: bytes) -> EncodedBand:
    # A fresh stream per band: nothing refers back into another band, so any bands can be
    # put together. The sync flush ends the band on a byte boundary without a final block.
    stream = zlib_ng.compressobj(
        _COMPRESS_LEVEL, zlib_ng.DEFLATED, _RAW_WINDOW, zlib_ng.DEF_MEM_LEVEL
    )
    deflated = stream.compress(raw) + stream.flush(zlib_ng.Z_SYNC_FLUSH)
    return EncodedBand(width, height, deflated, zlib_ng.adler32(raw), len(raw))


def write_bands(bands: Sequence[EncodedBand], palette: Image.Image) -> bytes:
    """The PNG file of ``bands`` one under the other, in the colours of ``palette`` (the
    palette image the bands were mapped onto); the bands must be equally wide."""
    if not bands:
        raise ValueError("a picture needs at least one band")
    width = bands[0].width
    if any(band.width != width for band in bands):
        raise ValueError("bands of one picture must be equally wide")
    adler = 1
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.raw_length)
    data = b"".join(
        (
            _ZLIB_HEADER,
            *(band.deflated for band in bands),
            _LAST_BLOCK,
            struct.pack(">I", adler),
        )
    )
    height = sum(band.height for band in bands)
    return _file(width, height, palette.getpalette("RGB") or [], data)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from the checksum of each and
    the second's length (zlib's ``adler32_combine``, which Python does not expose): every
    running sum over the second string starts from the first's instead of from 1."""
    low1, high1 = first & 0xFFFF, first >> 16
    low2, high2 = second & 0xFFFF, second >> 16
    low = (low1 + low2 - 1) % _ADLER_BASE
    high = (high1 + high2 + second_length * (low1 - 1)) % _ADLER_BASE
    return high << 16 | low


def _rows(indexed: Image.Image) -> bytes:
    """A palette image's rows as PNG stores them unfiltered: each after a filter byte."""
    if indexed.mode != "P":
        raise ValueError(f"expected a palette image, got mode {indexed.mode}")
    # One more column on the left, all zeros: each row's bytes then start with the filter
    # byte PNG wants, and the whole picture is deflated straight from Pillow's buffer.
    rows = row_canvas(indexed.width, indexed.height)
    rows.paste(indexed, (1, 0))
    return _bytes(rows)


def _bytes(image: Image.Image) -> bytes:
    """A palette image's pixels, row after row: ``tobytes`` in one pass of Pillow's raw
    encoder rather than its 64 KB pieces, a third of the time for a picture's rows."""
    size = image.width * image.height
    if not size:
        return b""
    encoder = Image._getencoder("P", "raw", "P")
    encoder.setimage(image.im, (0, 0, image.width, image.height))
    _, done, data = encoder.encode(size)
    return data if done == 1 else image.tobytes()


def _file(width: int, height: int, palette: Sequence[int], zlib_data: bytes) -> bytes:
    """The PNG file of an indexed picture from its zlib stream of filtered rows."""
    data = b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, *_INDEXED)),
            _chunk(b"PLTE", bytes(palette[: 3 * 256])),
            _chunk(b"IDAT", zlib_data),
            _chunk(b"IEND", b""),
        )
    )
    if len(data) > MAX_BYTES:
        raise ValueError(f"picture of {len(data)} bytes exceeds the {MAX_BYTES}-byte limit")
    return data


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join(
        (
            struct.pack(">I", len(data)),
            kind,
            data,
            struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))),
        )
    )


def palette_of(image: Image.Image) -> Image.Image:
    """``image`` in 256 colours chosen for it. Choosing them is most of the cost of a
    picture; pictures that share their colours can choose once and map onto the result."""
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
