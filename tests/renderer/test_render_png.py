"""The PNG writer: files any decoder reads back to the same pixels and colours."""

from __future__ import annotations

import io
import itertools
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from renderer import png
from renderer.desk import _draw, _palette
from renderer.reference import reference_desk


def _decoded(data: bytes) -> Image.Image:
    checked = Image.open(io.BytesIO(data))
    checked.verify()  # chunk lengths and CRCs
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_a_desk_reads_back_as_the_indexed_picture() -> None:
    indexed = _draw(reference_desk()).quantize(palette=_palette(), dither=Image.Dither.NONE)
    image = _decoded(png.write(indexed))
    assert image.mode == "P"
    assert image.size == indexed.size
    assert image.tobytes() == indexed.tobytes()
    assert image.getpalette() == indexed.getpalette()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.lists(
        st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
        min_size=1,
        max_size=256,
    ),
    st.data(),
)
def test_any_palette_picture_round_trips(
    width: int, height: int, colours: list[tuple[int, int, int]], data: st.DataObject
) -> None:
    pixels = data.draw(st.binary(min_size=width * height, max_size=width * height))
    indexed = Image.frombytes("P", (width, height), bytes(b % len(colours) for b in pixels))
    indexed.putpalette([channel for colour in colours for channel in colour])
    image = _decoded(png.write(indexed))
    assert image.tobytes() == indexed.tobytes()
    assert image.convert("RGB").tobytes() == indexed.convert("RGB").tobytes()


def test_only_palette_pictures_are_written() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.write(Image.new("RGB", (2, 2)))


def test_encode_maps_a_full_colour_picture_to_its_palette() -> None:
    picture = _draw(reference_desk())
    image = _decoded(png.encode(picture, colours=_palette()))
    assert image.size == picture.size
    shown, drawn = image.convert("RGB").getpixel((0, 0)), picture.getpixel((0, 0))
    assert isinstance(shown, tuple) and isinstance(drawn, tuple)
    # 256 colours: the felt comes back as the palette's nearest colour, not visibly other.
    assert all(abs(a - b) <= 4 for a, b in zip(shown, drawn, strict=True))


def _split(height: int, cuts: list[int]) -> list[tuple[int, int]]:
    """Row ranges [top, bottom) of the bands of a picture ``height`` tall cut at ``cuts``."""
    edges = [0, *sorted({c for c in cuts if 0 < c < height}), height]
    return list(itertools.pairwise(edges))


def _banded(indexed: Image.Image, cuts: list[int]) -> bytes:
    bands = [
        png.encode_band(indexed.crop((0, top, indexed.width, bottom)))
        for top, bottom in _split(indexed.height, cuts)
    ]
    return png.write_bands(bands, indexed)


def _rows(indexed: Image.Image) -> bytes:
    """The picture's rows as PNG stores them unfiltered."""
    row = indexed.width
    pixels = indexed.tobytes()
    return b"".join(b"\0" + pixels[y * row : (y + 1) * row] for y in range(indexed.height))


def _idat(data: bytes) -> bytes:
    out, at = b"", len(png._SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        if data[at + 4 : at + 8] == b"IDAT":
            out += data[at + 8 : at + 8 + length]
        at += 12 + length
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(1, 30),
    st.integers(1, 256),
    st.lists(st.integers(0, 30), max_size=12),
    st.data(),
)
def test_a_picture_written_by_bands_reads_back_whole(
    width: int, height: int, colours: int, cuts: list[int], data: st.DataObject
) -> None:
    pixels = data.draw(st.binary(min_size=width * height, max_size=width * height))
    indexed = Image.frombytes("P", (width, height), bytes(b % colours for b in pixels))
    indexed.putpalette([(7 * i + c) % 256 for i in range(colours) for c in range(3)])
    written = _banded(indexed, cuts)
    image = _decoded(written)
    assert (image.mode, image.size) == ("P", indexed.size)
    assert image.tobytes() == indexed.tobytes()
    assert image.convert("RGB").tobytes() == indexed.convert("RGB").tobytes()
    # zlib itself checks the stream's adler32 against the rows.
    assert zlib.decompress(_idat(written)) == _rows(indexed)


@pytest.mark.parametrize(
    "cuts",
    [[], [1], list(range(1, 400)), [40, 41, 42, 200]],
    ids=["one band", "first row alone", "every row a band", "several"],
)
def test_a_desk_written_by_bands_is_the_desk(cuts: list[int]) -> None:
    indexed = _draw(reference_desk()).quantize(palette=_palette(), dither=Image.Dither.NONE)
    written = _banded(indexed, cuts)
    assert _decoded(written).tobytes() == indexed.tobytes()
    assert zlib.decompress(_idat(written)) == _rows(indexed)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000), st.binary(max_size=3000))
def test_adler32_combines_as_over_the_whole(first: bytes, second: bytes) -> None:
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_adler32_combines_over_long_runs() -> None:
    # Long runs of 0xff overflow both sums many times over the modulus.
    first, second = b"\xff" * 100_000, b"\xfe" * 300_001
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_bands_of_one_picture_are_equally_wide() -> None:
    palette = Image.new("P", (1, 1))
    narrow, wide = Image.new("P", (2, 1)), Image.new("P", (3, 1))
    with pytest.raises(ValueError, match="equally wide"):
        png.write_bands([png.encode_band(narrow), png.encode_band(wide)], palette)
    with pytest.raises(ValueError, match="at least one band"):
        png.write_bands([], palette)
