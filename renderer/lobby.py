"""The lobby picture: a table waiting for its players, with its price and options.

Like the settlement, it is a stack of full-width bands, as tall as the options it lists:
the title with the price and status, the four chairs as cards in two rows, then the
options (name, value, what it means). It is 720 px wide with type sized to read when a
phone shows it 360 px wide: the smallest, the badges, then stand 11 px tall.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer import bands, layout, text, theme
from renderer.layout import Placed
from renderer.models import ChairView, Labels, LobbyView, OptionLine
from renderer.sprites import BACK, tile_height

WIDTH = 720
MARGIN = 20
TITLE_SIZE = 32
HEADER_SIZE = 26
NAME_SIZE = 26
BADGE_SIZE = 22
BODY_SIZE = 24
LINE_GAP = 6
ITEM_GAP = 8
TITLE_LINES = 2
CHAIR_GAP = 12
CHAIR_TILE = 30
CHAIR_PAD = 10
NAME_COLUMN = 140
NAME_COLUMN_MAX = 300
COLUMN_GAP = 16
#: A value with nothing to explain it may run this many lines (广东's list of big-hu
#: kinds); an explanation that does not fit beside its value, this many under it.
VALUE_LINES = 3
ABOUT_LINES = 2

_INNER = WIDTH - 2 * MARGIN
_CHAIR_WIDTH = (_INNER - CHAIR_GAP) // 2
# As tall as text.pill draws a badge.
_BADGE_HEIGHT = text.line_height(BADGE_SIZE) + 2
# The name on the card's first line, the chair's number and badges on the second: the
# name gets the card's whole width, as long Discord names need.
_CHAIR_HEIGHT = (
    max(tile_height(CHAIR_TILE), text.line_height(NAME_SIZE) + LINE_GAP + _BADGE_HEIGHT)
    + 2 * CHAIR_PAD
)


def _blank(height: int) -> Image.Image:
    return bands.blank(height, WIDTH)


def _title(view: LobbyView) -> Image.Image:
    """The title (on two lines if need be, in whole parts), then the price as a badge
    and the status beside it, or under it when they do not fit on one line."""
    title = text.parts(view.title, TITLE_SIZE, _INNER, TITLE_LINES)
    title_h = text.line_height(TITLE_SIZE)
    body_h = text.line_height(BODY_SIZE)
    price = text.fit(view.price, BODY_SIZE, _INNER, bold=True)
    badge = text.pill(price, BODY_SIZE, theme.ACCENT, theme.TEXT_DARK) if price else None
    status = text.fit(view.status, BODY_SIZE, _INNER) if view.status else ""
    status_w = text.width(status, BODY_SIZE) if status else 0
    beside = badge is None or not status or badge.width + ITEM_GAP + status_w <= _INNER
    badge_h = badge.height if badge is not None else 0
    lines_h = max(badge_h, body_h if status else 0) if beside else badge_h + LINE_GAP + body_h
    band = _blank(MARGIN + len(title) * title_h + LINE_GAP + lines_h + LINE_GAP)
    y = MARGIN
    for line in title:
        text.paste(band, line, (MARGIN, y), TITLE_SIZE, theme.TEXT, bold=True)
        y += title_h
    y += LINE_GAP
    x = MARGIN
    line_h = max(badge_h, body_h) if beside else badge_h
    if badge is not None:
        band.paste(badge, (x, y + (line_h - badge.height) // 2), badge)
        if beside:
            x += badge.width + ITEM_GAP
        else:
            y += badge_h + LINE_GAP
            line_h = body_h
    if status:
        top = y + (line_h - body_h) // 2
        text.paste(band, status, (x, top), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _badges(number: int, chair: ChairView, labels: Labels) -> list[Image.Image]:
    """The chair's number, then 桌主 and 电脑 where they apply."""
    fill = theme.FELT if chair.taken else theme.FELT_DARK
    badges = [text.pill(str(number), BADGE_SIZE, fill, theme.TEXT)]
    if chair.host:
        badges.append(text.pill(labels.host, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK))
    if chair.ai:
        badges.append(text.pill(labels.ai, BADGE_SIZE, theme.BACK, theme.TEXT))
    return badges


def _chair(
    band: Image.Image, number: int, chair: ChairView, labels: Labels, x: int, y: int
) -> None:
    """A card: a tile standing for the chair (face down, dimmed while free), the name,
    and under it the chair's number and badges. A free chair is an outline on the felt."""
    draw = ImageDraw.Draw(band)
    box = (x, y, x + _CHAIR_WIDTH - 1, y + _CHAIR_HEIGHT - 1)
    if chair.taken:
        draw.rounded_rectangle(box, 12, fill=theme.PANEL)
    else:
        draw.rounded_rectangle(box, 12, fill=theme.FELT_DARK, outline=theme.TEXT_MUTED, width=2)
    tile_top = y + (_CHAIR_HEIGHT - tile_height(CHAIR_TILE)) // 2
    layout.paint(band, [Placed(BACK, x + CHAIR_PAD, tile_top, dim=not chair.taken)], CHAIR_TILE)
    left = x + CHAIR_PAD + CHAIR_TILE + CHAIR_PAD
    right = x + _CHAIR_WIDTH - CHAIR_PAD
    color = theme.TEXT_DARK if chair.taken else theme.TEXT_MUTED
    name = text.fit(chair.name, NAME_SIZE, right - left, bold=chair.taken)
    top = y + CHAIR_PAD
    text.paste(band, name, (left, top), NAME_SIZE, color, bold=chair.taken)
    top += text.line_height(NAME_SIZE) + LINE_GAP
    for badge in _badges(number, chair, labels):
        if left + badge.width > right:
            break
        band.paste(badge, (left, top), badge)
        left += badge.width + ITEM_GAP


def _chairs(view: LobbyView) -> Image.Image:
    """Chairs 1 and 2 on the first row, 3 and 4 on the second."""
    band = _blank(2 * _CHAIR_HEIGHT + CHAIR_GAP)
    for index, chair in enumerate(view.chairs):
        x = MARGIN + (index % 2) * (_CHAIR_WIDTH + CHAIR_GAP)
        y = (index // 2) * (_CHAIR_HEIGHT + CHAIR_GAP)
        _chair(band, index + 1, chair, view.labels, x, y)
    return band


def _option_lines(option: OptionLine, room: int, about_x: int) -> list[tuple[str, str]]:
    """An option's value and explanation as lines of (value, explanation) in ``room``:
    the explanation in its column ``about_x`` past the value where it fits there, else
    on lines of its own under the value."""
    if not option.about:
        return [(v, "") for v in text.wrap(option.value, BODY_SIZE, room, VALUE_LINES)]
    value = text.fit(option.value, BODY_SIZE, room, bold=True)
    beside = text.width(value, BODY_SIZE, bold=True) + COLUMN_GAP <= about_x
    if beside and text.width(option.about, BODY_SIZE) <= room - about_x:
        return [(value, option.about)]
    about = text.wrap(option.about, BODY_SIZE, room, ABOUT_LINES, bold=False)
    return [(value, ""), *(("", line) for line in about)]


def _options(options: tuple[OptionLine, ...]) -> Image.Image:
    """The options one under the other: the name, then its value and what it means,
    muted, each in its column. The names' column is as wide as the longest name needs, up
    to ``NAME_COLUMN_MAX``, the values' as the longest explained value, up to half of
    what is left."""
    line = text.line_height(BODY_SIZE)
    longest = max(text.width(o.name, BODY_SIZE, bold=True) for o in options)
    names = max(NAME_COLUMN, min(longest + COLUMN_GAP, NAME_COLUMN_MAX))
    value_x = MARGIN + names
    room = WIDTH - MARGIN - value_x
    explained = [text.width(o.value, BODY_SIZE, bold=True) for o in options if o.about]
    about_x = min(max(explained, default=0) + COLUMN_GAP, room // 2)
    rows = [_option_lines(option, room, about_x) for option in options]
    band = _blank(sum(len(r) * line + LINE_GAP for r in rows))
    y = 0
    for option, lines in zip(options, rows, strict=True):
        name = text.fit(option.name, BODY_SIZE, names - COLUMN_GAP, bold=True)
        text.paste(band, name, (MARGIN, y), BODY_SIZE, theme.TEXT, bold=True)
        for value, about in lines:
            if value:
                text.paste(band, value, (value_x, y), BODY_SIZE, theme.ACCENT, bold=True)
            if about:
                x = value_x + (about_x if value else 0)
                text.paste(band, about, (x, y), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
            y += line
        y += LINE_GAP
    return band


def _rule() -> Image.Image:
    return bands.rule(WIDTH, MARGIN)


def _heading(label: str) -> Image.Image:
    return bands.heading(label, LINE_GAP, WIDTH, MARGIN, HEADER_SIZE)


def _bands(view: LobbyView) -> list[Image.Image]:
    out = [_title(view), _rule(), _heading(view.labels.seats), _chairs(view), _rule()]
    if view.options:
        out += [_heading(view.labels.options), _options(view.options)]
    out.append(_blank(MARGIN))
    return out


def render_lobby(view: LobbyView) -> bytes:
    """PNG of a table's lobby."""
    return bands.stack(_bands(view))
