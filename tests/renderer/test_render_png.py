"""The PNG writer: files any decoder reads back to the same pixels and colours."""

from __future__ import annotations

import io

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
    # 256 colours: the felt comes back as the palette's nearest colour, not visibly other.
    assert all(abs(a - b) <= 4 for a, b in zip(shown, drawn, strict=True))
