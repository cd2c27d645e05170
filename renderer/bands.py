"""Pictures built as a stack of full-width bands (the settlement and the lobby)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer import png, text, theme

WIDTH = 960
MARGIN = 24
HEADER_SIZE = 24
SECTION_GAP = 14


def blank(height: int) -> Image.Image:
    return Image.new("RGB", (WIDTH, height), theme.FELT)


def rule() -> Image.Image:
    """A thin dividing line between sections."""
    out = blank(SECTION_GAP * 2 + 1)
    ImageDraw.Draw(out).line(
        (MARGIN, SECTION_GAP, WIDTH - MARGIN, SECTION_GAP), fill=theme.FELT_DARK, width=2
    )
    return out


def heading(label: str, line_gap: int) -> Image.Image:
    """A section's title in the accent colour."""
    out = blank(text.line_height(HEADER_SIZE) + line_gap)
    text.paste(out, label, (MARGIN, 0), HEADER_SIZE, theme.ACCENT, bold=True)
    return out


def stack(bands: Sequence[Image.Image]) -> bytes:
    """The bands one under the other, as a PNG."""
    canvas = Image.new("RGB", (WIDTH, sum(b.height for b in bands)), theme.FELT)
    y = 0
    for piece in bands:
        canvas.paste(piece, (0, y))
        y += piece.height
    return png.encode(canvas)
