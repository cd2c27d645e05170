"""Text as cached sprites, so names and numbers are rasterised once."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from renderer import fonts

# CJK glyphs sit in an em box from about 0.88 em above the baseline to 0.12 em below;
# Latin descenders reach 0.2 em. A line box of 1.25 em with the baseline at 0.98 em holds
# both without the font's much taller ascender/descender gaps.
_LINE = 1.25
_BASELINE = 0.98
ELLIPSIS = "…"
# Between the parts of a title (rule set · hand · dealer).
SEPARATOR = " · "
# Chinese commas, which a line may break after.
_COMMAS = "、，"


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


# Bold is the regular face with a stroke round its glyphs. Below ``THIN_BELOW`` px a whole
# pixel of stroke fills the counters of dense CJK glyphs (缺筒, 电脑, 胡 become blobs once a
# phone shows the picture at half size); a fraction of a pixel still sets bold apart.
THIN_BELOW = 22
THIN_STROKE = 0.4


def _stroke(size: int, bold: bool) -> float:
    if not bold:
        return 0
    return THIN_STROKE if size < THIN_BELOW else max(1, round(size / 28))


# Measured apart from drawing: fitting and wrapping measure many candidates, and a
# caption or a count is new with nearly every move.
@lru_cache(maxsize=4096)
def _extent(clean: str, size: int, bold: bool) -> tuple[int, int]:
    """Where the text's origin lies in its sprite, and how far right of it the ink ends."""
    with fonts.LOCK:
        left, _, right, _ = fonts.font(size).getbbox(
            clean, anchor="ls", stroke_width=_stroke(size, bold)
        )
    # A stroke of a fraction of a pixel reaches a fraction past the glyphs' pixels.
    return -min(math.floor(left), 0), math.ceil(right)


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
    spaces or after Chinese commas where a line can break there, else between characters
    (Chinese has no spaces to break at); what does not fit in the last line is cut short
    with an ellipsis."""
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
        # After a list's comma, a whole word of it (四暗刻) stays on one line.
        space = max(rest.rfind(" ", 0, cut + 1), *(rest.rfind(c, 0, cut) + 1 for c in _COMMAS))
        if space > 0:
            cut = space
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        lines.append(fit(rest, size, max_width, bold))
    return tuple(lines)


def shortened(
    content: str, size: int, max_width: int, max_lines: int, bold: bool = True
) -> list[str]:
    """``content`` wrapped as :func:`wrap` does, but when it does not fit its longest
    word is cut short rather than its end: a caption keeps its verb and tile however long
    the name before them ("WWWW… 打出 7条")."""
    return list(_shortened(content, size, max_width, max_lines, bold))


# The table's caption changes with every move and is shortened only for a long name.
@lru_cache(maxsize=1024)
def _shortened(
    content: str, size: int, max_width: int, max_lines: int, bold: bool
) -> tuple[str, ...]:
    # Wrapped in one line more than there is room for, what fits comes back in fewer.
    if len(_wrapped(content, size, max_width, max_lines + 1, bold)) <= max_lines:
        return _wrapped(content, size, max_width, max_lines, bold)
    words = content.strip().split(" ")
    longest = max(range(len(words)), key=lambda i: width(words[i], size, bold))
    word = words[longest]

    def cut(keep: int) -> str:
        return " ".join([*words[:longest], word[:keep] + ELLIPSIS, *words[longest + 1 :]])

    def fits(keep: int) -> bool:
        return len(_wrapped(cut(keep), size, max_width, max_lines + 1, bold)) <= max_lines

    # Even with the word cut to one letter, what comes after it is cut at its end.
    low, high = 1, max(1, len(word) - 1)
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return _wrapped(cut(low), size, max_width, max_lines, bold)


def parts(content: str, size: int, max_width: int, max_lines: int, bold: bool = True) -> list[str]:
    """``content``'s parts, as titles join them with ``SEPARATOR`` (rule set · hand ·
    dealer), packed into at most ``max_lines`` lines of at most ``max_width``: a line
    breaks between parts, a part too wide for a line is wrapped on lines of its own, and
    the parts after one that does not fit are left out whole rather than cut off halfway.
    Only a first part too long for every line is cut short."""
    return list(_packed(content, size, max_width, max_lines, bold))


# The table's title is packed for every centre drawn, and a table keeps its title.
@lru_cache(maxsize=256)
def _packed(content: str, size: int, max_width: int, max_lines: int, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for part in content.strip().split(SEPARATOR):
        joined = f"{lines[-1]}{SEPARATOR}{part}" if lines else part
        if lines and width(joined, size, bold) <= max_width:
            lines[-1] = joined
            continue
        room = max_lines - len(lines)
        if room <= 0:
            break
        # Wrapped in one line more than there is room for, a part that fits comes back
        # in fewer lines than that, none of them cut.
        pieces = _wrapped(part, size, max_width, room + 1, bold)
        if len(pieces) > room:
            if lines:
                break
            pieces = _wrapped(part, size, max_width, room, bold)
        lines += pieces
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
    _shortened.cache_clear()
    _packed.cache_clear()
    pill.cache_clear()
