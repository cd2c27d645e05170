"""Pictures built as a stack of full-width bands (the settlement, the lobby, /stats).

Each picture passes its own width, margin and type sizes: they are 720 px wide, so that a
phone showing them 360 px wide halves them, and each sizes its type for that.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer import png, text, theme

SECTION_GAP = 14


def blank(height: int, width: int) -> Image.Image:
    return Image.new("RGB", (width, height), theme.FELT)


def rule(width: int, margin: int) -> Image.Image:
    """A thin dividing line between sections."""
    out = blank(SECTION_GAP * 2 + 1, width)
    ImageDraw.Draw(out).line(
        (margin, SECTION_GAP, width - margin, SECTION_GAP), fill=theme.FELT_DARK, width=2
    )
    return out


def heading(label: str, line_gap: int, width: int, margin: int, size: int) -> Image.Image:
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
