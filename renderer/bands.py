"""Pictures built as a stack of full-width bands (the settlement and the lobby)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer import png, text, theme

WIDTH = 960
MARGIN = 24
HEADER_SIZE = 24
SECTION_GAP = 14


def blank(height: int, width: int = WIDTH) -> Image.Image:
    return Image.new("RGB", (width, height), theme.FELT)


def rule(width: int = WIDTH, margin: int = MARGIN) -> Image.Image:
    """A thin dividing line between sections."""
    out = blank(SECTION_GAP * 2 + 1, width)
    ImageDraw.Draw(out).line(
        (margin, SECTION_GAP, width - margin, SECTION_GAP), fill=theme.FELT_DARK, width=2
    )
    return out


def heading(
    label: str, line_gap: int, width: int = WIDTH, margin: int = MARGIN, size: int = HEADER_SIZE
) -> Image.Image:
    """A section's title in the accent colour."""
    out = blank(text.line_height(size) + line_gap, width)
    text.paste(out, label, (margin, 0), size, theme.ACCENT, bold=True)
    return out


def stack(bands: Sequence[Image.Image]) -> bytes:
    """The bands one under the other, as a PNG as wide as the widest."""
    canvas = Image.new(
        "RGB", (max(b.width for b in bands), sum(b.height for b in bands)), theme.FELT
    )
    y = 0
    for piece in bands:
        canvas.paste(piece, (0, y))
        y += piece.height
    return png.encode(canvas)
