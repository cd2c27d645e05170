"""PNG encoding tuned for flat-coloured pictures: small files, fast to write."""

from __future__ import annotations

import io

from PIL import Image

MAX_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit for every server; no picture may exceed it."""

# zlib level 1 is several times faster than the default 6 and, on these flat pictures
# with few colours, within a few per cent of its size.
_COMPRESS_LEVEL = 1


def encode(image: Image.Image, colours: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image`` in 256 colours, which the felt, ivory and ink of a table
    survive without visible change: the colours of ``colours`` (a palette image, see
    :func:`palette_of`) when given, else chosen for this picture."""
    image = (
        palette_of(image)
        if colours is None
        else image.quantize(palette=colours, dither=Image.Dither.NONE)
    )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=_COMPRESS_LEVEL)
    data = buffer.getvalue()
    if len(data) > MAX_BYTES:
        raise ValueError(f"picture of {len(data)} bytes exceeds the {MAX_BYTES}-byte limit")
    return data


def palette_of(image: Image.Image) -> Image.Image:
    """``image`` in 256 colours chosen for it. Choosing them is most of the cost of a
    picture; pictures that share their colours can choose once and map onto the result."""
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
