"""Text as cached sprites, so names and numbers are rasterised once."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderer import fonts

# CJK glyphs sit in an em box from about 0.88 em above the baseline to 0.12 em below;
# Latin descenders reach 0.2 em. A line box of 1.25 em with the baseline at 0.98 em holds
# both without the font's much taller ascender/descender gaps.
_LINE = 1.25
_BASELINE = 0.98
ELLIPSIS = "…"


def line_height(size: int) -> int:
    return round(size * _LINE)


@lru_cache(maxsize=4096)
def text(content: str, size: int, color: str, bold: bool = False) -> Image.Image:
    """``content`` on a transparent line box ``line_height(size)`` tall, its left edge at 0."""
    face = fonts.font(size)
    clean = fonts.drawable(content)
    stroke = _stroke(size, bold)
    origin, right = _extent(clean, size, bold)
    with fonts.LOCK:
        image = Image.new("RGBA", (max(1, origin + right), line_height(size)), (0, 0, 0, 0))
        ImageDraw.Draw(image).text(
            (origin, round(size * _BASELINE)),
            clean,
            font=face,
            fill=color,
            anchor="ls",
            stroke_width=stroke,
            stroke_fill=color,
        )
    return image


def _stroke(size: int, bold: bool) -> int:
    return max(1, round(size / 28)) if bold else 0


# Measured apart from drawing: fitting and wrapping measure many candidates, and a
# caption or a count is new with nearly every move.
@lru_cache(maxsize=4096)
def _extent(clean: str, size: int, bold: bool) -> tuple[int, int]:
    """Where the text's origin lies in its sprite, and how far right of it the ink ends."""
    with fonts.LOCK:
        left, _, right, _ = fonts.font(size).getbbox(
            clean, anchor="ls", stroke_width=_stroke(size, bold)
        )
    return -min(int(left), 0), int(right)


def width(content: str, size: int, bold: bool = False) -> int:
    """The width of ``text(content, size, any colour, bold)``, without drawing it."""
    origin, right = _extent(fonts.drawable(content), size, bold)
    return max(1, origin + right)


@lru_cache(maxsize=4096)
def fit(content: str, size: int, max_width: int, bold: bool = False) -> str:
    """``content`` cut short with an ellipsis so it is at most ``max_width`` wide."""
    if width(content, size, bold) <= max_width:
        return content
    face = fonts.font(size)
    cut = fonts.drawable(content)
    with fonts.LOCK:
        while cut and face.getlength(cut + ELLIPSIS) > max_width:
            cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def wrap(content: str, size: int, max_width: int, max_lines: int, bold: bool = True) -> list[str]:
    """``content`` broken into at most ``max_lines`` lines of at most ``max_width``: at
    spaces where a line can break there, else between characters (Chinese has no spaces
    to break at); what does not fit in the last line is cut short with an ellipsis."""
    return list(_wrapped(content, size, max_width, max_lines, bold))


# The table's caption is wrapped for every picture, and the same few captions come back.
@lru_cache(maxsize=1024)
def _wrapped(
    content: str, size: int, max_width: int, max_lines: int, bold: bool
) -> tuple[str, ...]:
    lines: list[str] = []
    rest = content.strip()
    while rest and len(lines) < max_lines - 1:
        if width(rest, size, bold) <= max_width:
            break
        cut = _longest_fit(rest, size, max_width, bold)
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0:
            cut = space
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        lines.append(fit(rest, size, max_width, bold))
    return tuple(lines)


def _longest_fit(content: str, size: int, max_width: int, bold: bool) -> int:
    """The length of the longest start of ``content`` at most ``max_width`` wide (at least
    one character, so every line takes something)."""
    low, high = 1, len(content)
    while low < high:
        middle = (low + high + 1) // 2
        if width(content[:middle], size, bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    return low


def paste(
    canvas: Image.Image,
    content: str,
    xy: tuple[int, int],
    size: int,
    color: str,
    bold: bool = False,
    anchor: str = "l",
) -> int:
    """Paste a line of text with its line box's top at ``xy[1]``; ``anchor`` l/m/r places
    ``xy[0]`` at the left, middle or right. Returns the text's width."""
    sprite = text(content, size, color, bold)
    x, y = xy
    if anchor == "m":
        x -= sprite.width // 2
    elif anchor == "r":
        x -= sprite.width
    canvas.paste(sprite, (x, y), sprite)
    return sprite.width


@lru_cache(maxsize=512)
def pill(content: str, size: int, fill: str, color: str) -> Image.Image:
    """Bold ``content`` on a rounded pill: winds, 庄, 缺, status badges."""
    sprite = text(content, size, color, bold=True)
    pad = max(4, size // 3)
    image = Image.new("RGBA", (sprite.width + 2 * pad, sprite.height + 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, image.width - 1, image.height - 1), image.height // 2, fill=fill
    )
    image.paste(sprite, (pad, 1), sprite)
    return image


def clear_caches() -> None:
    text.cache_clear()
    _extent.cache_clear()
    fit.cache_clear()
    _wrapped.cache_clear()
    pill.cache_clear()
