"""A player's figures as one picture (``/stats``): rating and its course, placements,
rates, most frequent fans or patterns, biggest hand.

720 px wide with large type, so a phone that shows it 360 px wide still reads every
line (the smallest text then stands 12 px tall). Every word comes in the view, already
in the reader's language: the renderer only draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer import text, theme
from renderer.bands import blank, heading, rule, stack

WIDTH = 720
MARGIN = 28
TITLE_SIZE = 40
RATING_SIZE = 64
HEAD_SIZE = 30
BODY_SIZE = 28
SMALL_SIZE = 24
LINE_GAP = 8
PLOT_HEIGHT = 250
BAR_HEIGHT = 34
_INNER = WIDTH - 2 * MARGIN


@dataclass(frozen=True)
class StatsView:
    """What /stats draws, every word in the reader's language."""

    title: str
    subtitle: str
    #: The rating as shown ("1623"), a badge beside it ("provisional", or ""), a caption.
    rating: str
    rating_badge: str
    rating_caption: str
    history_label: str
    #: Shown ratings, oldest first; fewer than two draws ``no_history`` instead.
    history: tuple[int, ...]
    no_history: str
    placements_label: str
    #: (label, sessions) for first to fourth.
    placements: tuple[tuple[str, int], ...]
    #: (label, value): hands, win rate, deal-in rate, ...
    figures: tuple[tuple[str, str], ...]
    fans_label: str
    #: (fan or pattern name, how often as shown, e.g. "×12").
    fans: tuple[tuple[str, str], ...]
    biggest_label: str
    #: The biggest hand's total as shown, then its fans.
    biggest: str
    biggest_fans: str
    nothing: str


def _title(view: StatsView) -> Image.Image:
    band = blank(MARGIN + text.line_height(TITLE_SIZE) + text.line_height(SMALL_SIZE), WIDTH)
    name = text.fit(view.title, TITLE_SIZE, _INNER, bold=True)
    text.paste(band, name, (MARGIN, MARGIN), TITLE_SIZE, theme.TEXT, bold=True)
    sub = text.fit(view.subtitle, SMALL_SIZE, _INNER)
    top = MARGIN + text.line_height(TITLE_SIZE)
    text.paste(band, sub, (MARGIN, top), SMALL_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _rating(view: StatsView) -> Image.Image:
    band = blank(text.line_height(RATING_SIZE) + LINE_GAP, WIDTH)
    x = MARGIN + text.paste(band, view.rating, (MARGIN, 0), RATING_SIZE, theme.ACCENT, bold=True)
    x += 16
    middle = (text.line_height(RATING_SIZE) - text.line_height(BODY_SIZE)) // 2
    if view.rating_badge:
        badge = text.pill(view.rating_badge, SMALL_SIZE, theme.BACK, theme.TEXT)
        band.paste(badge, (x, middle + 4), badge)
        x += badge.width + 14
    caption = text.fit(view.rating_caption, BODY_SIZE, WIDTH - MARGIN - x)
    text.paste(band, caption, (x, middle), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _plot(points: Sequence[int], empty: str) -> Image.Image:
    """The rating over time: a line through each session's rating, the lowest and
    highest written at the left, the latest at the right end."""
    band = blank(PLOT_HEIGHT + 2 * LINE_GAP, WIDTH)
    draw = ImageDraw.Draw(band)
    label_w = max(text.width(str(v), SMALL_SIZE) for v in (*points, 0)) + 12
    left, top = MARGIN + label_w, LINE_GAP
    right, bottom = WIDTH - MARGIN - 8, LINE_GAP + PLOT_HEIGHT
    draw.rectangle((left, top, right, bottom), fill=theme.FELT_DARK)
    if len(points) < 2:
        text.paste(
            band,
            text.fit(empty, BODY_SIZE, right - left - 20),
            ((left + right) // 2, (top + bottom - text.line_height(BODY_SIZE)) // 2),
            BODY_SIZE,
            theme.TEXT_MUTED,
            anchor="m",
        )
        return band
    low, high = min(points), max(points)
    span = max(high - low, 1)
    pad = 14

    def y_of(value: int) -> int:
        return round(bottom - pad - (value - low) * (bottom - top - 2 * pad) / span)

    for value in {low, high}:
        y = y_of(value)
        draw.line((left, y, right, y), fill=theme.FELT_LINE, width=1)
        half = text.line_height(SMALL_SIZE) // 2
        text.paste(
            band, str(value), (left - 8, y - half), SMALL_SIZE, theme.TEXT_MUTED_LIGHT, anchor="r"
        )
    step = (right - left - 2 * pad) / (len(points) - 1)
    xy = [(round(left + pad + i * step), y_of(v)) for i, v in enumerate(points)]
    draw.line(xy, fill=theme.ACCENT, width=4, joint="curve")
    dot = 5 if len(points) <= 60 else 0
    for x, y in xy if dot else ():
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=theme.ACCENT)
    x, y = xy[-1]
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), outline=theme.TEXT, width=3)
    return band


def _placements(rows: Sequence[tuple[str, int]]) -> Image.Image:
    """One bar per place, as long as its share of the sessions."""
    line = max(BAR_HEIGHT, text.line_height(BODY_SIZE)) + LINE_GAP
    band = blank(line * len(rows), WIDTH)
    draw = ImageDraw.Draw(band)
    label_w = max(text.width(label, BODY_SIZE) for label, _ in rows) + 16
    count_w = max(text.width(str(n), BODY_SIZE, bold=True) for _, n in rows) + 16
    most = max((n for _, n in rows), default=0) or 1
    full = _INNER - label_w - count_w
    colours = (theme.ACCENT, theme.BACK_LIGHT, theme.TEXT_MUTED, theme.LOSS)
    for index, (label, count) in enumerate(rows):
        y = index * line
        text.paste(band, label, (MARGIN, y), BODY_SIZE, theme.TEXT)
        x0 = MARGIN + label_w
        bar = round(full * count / most)
        top = y + (text.line_height(BODY_SIZE) - BAR_HEIGHT) // 2
        draw.rounded_rectangle((x0, top, x0 + full, top + BAR_HEIGHT), 6, fill=theme.FELT_DARK)
        if bar:
            draw.rounded_rectangle(
                (x0, top, x0 + bar, top + BAR_HEIGHT), 6, fill=colours[index % len(colours)]
            )
        text.paste(
            band, str(count), (WIDTH - MARGIN, y), BODY_SIZE, theme.TEXT, bold=True, anchor="r"
        )
    return band


def _figures(rows: Sequence[tuple[str, str]]) -> Image.Image:
    """Up to three figures a row, each a big value over its label."""
    per_row = 3
    cell = _INNER // per_row
    value_h, label_h = text.line_height(HEAD_SIZE + 8), text.line_height(SMALL_SIZE)
    lines = (len(rows) + per_row - 1) // per_row
    band = blank(lines * (value_h + label_h + LINE_GAP * 2), WIDTH)
    for index, (label, value) in enumerate(rows):
        x = MARGIN + (index % per_row) * cell + cell // 2
        y = (index // per_row) * (value_h + label_h + LINE_GAP * 2)
        shown = text.fit(value, HEAD_SIZE + 8, cell - 12, bold=True)
        text.paste(band, shown, (x, y), HEAD_SIZE + 8, theme.TEXT, bold=True, anchor="m")
        name = text.fit(label, SMALL_SIZE, cell - 12)
        text.paste(band, name, (x, y + value_h), SMALL_SIZE, theme.TEXT_MUTED_LIGHT, anchor="m")
    return band


def _lines(rows: Sequence[tuple[str, str]], nothing: str) -> Image.Image:
    """Name at the left, figure at the right, one line each."""
    line = text.line_height(BODY_SIZE) + LINE_GAP
    if not rows:
        band = blank(line, WIDTH)
        text.paste(band, nothing, (MARGIN, 0), BODY_SIZE, theme.TEXT_MUTED)
        return band
    band = blank(line * len(rows), WIDTH)
    for index, (name, figure) in enumerate(rows):
        y = index * line
        right = text.paste(
            band, figure, (WIDTH - MARGIN, y), BODY_SIZE, theme.ACCENT, bold=True, anchor="r"
        )
        shown = text.fit(name, BODY_SIZE, _INNER - right - 20)
        text.paste(band, shown, (MARGIN, y), BODY_SIZE, theme.TEXT)
    return band


def _biggest(view: StatsView) -> Image.Image:
    if not view.biggest:
        return _lines((), view.nothing)
    wrapped = text.wrap(view.biggest_fans, SMALL_SIZE, _INNER, 3, bold=False)
    line = text.line_height(SMALL_SIZE) + 4
    band = blank(text.line_height(HEAD_SIZE) + LINE_GAP + line * len(wrapped), WIDTH)
    text.paste(band, view.biggest, (MARGIN, 0), HEAD_SIZE, theme.ACCENT, bold=True)
    for index, part in enumerate(wrapped):
        y = text.line_height(HEAD_SIZE) + LINE_GAP + index * line
        text.paste(band, part, (MARGIN, y), SMALL_SIZE, theme.TEXT)
    return band


def _section(label: str) -> Image.Image:
    return heading(label, LINE_GAP, WIDTH, MARGIN, HEAD_SIZE)


def render_stats(view: StatsView) -> bytes:
    """The picture as PNG bytes."""
    gap = rule(WIDTH, MARGIN)
    bands = [
        _title(view),
        _rating(view),
        _section(view.history_label),
        _plot(view.history, view.no_history),
        gap,
        _section(view.placements_label),
        _placements(view.placements),
        gap,
        _figures(view.figures),
        gap,
        _section(view.fans_label),
        _lines(view.fans, view.nothing),
        gap,
        _section(view.biggest_label),
        _biggest(view),
        blank(MARGIN, WIDTH),
    ]
    return stack(bands)
