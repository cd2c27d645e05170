"""The lobby picture: a table waiting for its players, with its price and options.

Like the settlement, it is a stack of full-width bands, as tall as the options it lists:
the title with the price and status, the four chairs as cards in two rows, then one line
per option (name, value, what it means).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer import layout, text, theme
from renderer.bands import MARGIN, WIDTH, blank, heading, rule, stack
from renderer.layout import Placed
from renderer.models import ChairView, Labels, LobbyView, OptionLine
from renderer.sprites import BACK, tile_height

TITLE_SIZE = 30
NAME_SIZE = 24
BADGE_SIZE = 18
BODY_SIZE = 19
LINE_GAP = 6
CHAIR_GAP = 12
CHAIR_TILE = 30
CHAIR_PAD = 12
NAME_COLUMN = 210
NAME_COLUMN_MAX = 330
VALUE_COLUMN = 230

_INNER = WIDTH - 2 * MARGIN
_CHAIR_WIDTH = (_INNER - CHAIR_GAP) // 2
_CHAIR_HEIGHT = tile_height(CHAIR_TILE) + 2 * CHAIR_PAD


def _title(view: LobbyView) -> Image.Image:
    """The title, then the price as a badge and the status beside it."""
    title_h = text.line_height(TITLE_SIZE)
    price = text.fit(view.price, BODY_SIZE, _INNER // 2, bold=True)
    badge = text.pill(price, BODY_SIZE, theme.ACCENT, theme.TEXT_DARK) if price else None
    second_h = max(badge.height if badge else 0, text.line_height(BODY_SIZE))
    band = blank(MARGIN + title_h + LINE_GAP + second_h + LINE_GAP)
    title = text.fit(view.title, TITLE_SIZE, _INNER, bold=True)
    text.paste(band, title, (MARGIN, MARGIN), TITLE_SIZE, theme.TEXT, bold=True)
    y = MARGIN + title_h + LINE_GAP
    x = MARGIN
    if badge is not None:
        band.paste(badge, (x, y + (second_h - badge.height) // 2), badge)
        x += badge.width + 14
    if view.status:
        status = text.fit(view.status, BODY_SIZE, WIDTH - MARGIN - x)
        top = y + (second_h - text.line_height(BODY_SIZE)) // 2
        text.paste(band, status, (x, top), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _badges(chair: ChairView, labels: Labels) -> list[Image.Image]:
    badges = []
    if chair.host:
        badges.append(text.pill(labels.host, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK))
    if chair.ai:
        badges.append(text.pill(labels.ai, BADGE_SIZE, theme.BACK, theme.TEXT))
    return badges


def _chair(
    band: Image.Image, number: int, chair: ChairView, labels: Labels, x: int, y: int
) -> None:
    """A card: a tile standing for the chair (face down, dimmed while free), its number,
    the name and the badges. A free chair is an outline on the felt."""
    draw = ImageDraw.Draw(band)
    box = (x, y, x + _CHAIR_WIDTH - 1, y + _CHAIR_HEIGHT - 1)
    if chair.taken:
        draw.rounded_rectangle(box, 12, fill=theme.PANEL)
    else:
        draw.rounded_rectangle(box, 12, fill=theme.FELT_DARK, outline=theme.TEXT_MUTED, width=2)
    layout.paint(
        band, [Placed(BACK, x + CHAIR_PAD, y + CHAIR_PAD, dim=not chair.taken)], CHAIR_TILE
    )
    left = x + CHAIR_PAD + CHAIR_TILE + 12
    middle = y + _CHAIR_HEIGHT // 2
    fill = theme.FELT if chair.taken else theme.FELT_DARK
    number_pill = text.pill(str(number), BADGE_SIZE, fill, theme.TEXT)
    band.paste(number_pill, (left, middle - number_pill.height // 2), number_pill)
    left += number_pill.width + 10
    badges = _badges(chair, labels)
    right = x + _CHAIR_WIDTH - CHAIR_PAD
    for badge in reversed(badges):
        right -= badge.width
        band.paste(badge, (right, middle - badge.height // 2), badge)
        right -= 8
    color = theme.TEXT_DARK if chair.taken else theme.TEXT_MUTED
    name = text.fit(chair.name, NAME_SIZE, right - left - 4, bold=chair.taken)
    top = middle - text.line_height(NAME_SIZE) // 2
    text.paste(band, name, (left, top), NAME_SIZE, color, bold=chair.taken)


def _chairs(view: LobbyView) -> Image.Image:
    """Chairs 1 and 2 on the first row, 3 and 4 on the second."""
    band = blank(2 * _CHAIR_HEIGHT + CHAIR_GAP)
    for index, chair in enumerate(view.chairs):
        x = MARGIN + (index % 2) * (_CHAIR_WIDTH + CHAIR_GAP)
        y = (index // 2) * (_CHAIR_HEIGHT + CHAIR_GAP)
        _chair(band, index + 1, chair, view.labels, x, y)
    return band


def _options(options: tuple[OptionLine, ...]) -> Image.Image:
    """One line per option: the name, its value, and what it means, muted. The names'
    column is as wide as the longest name needs, up to ``NAME_COLUMN_MAX``; a value with
    nothing to explain it takes the rest of the line (广东's list of big-hu kinds)."""
    line = text.line_height(BODY_SIZE) + LINE_GAP
    band = blank(len(options) * line)
    longest = max(text.width(o.name, BODY_SIZE, bold=True) for o in options)
    names = max(NAME_COLUMN, min(longest + 12, NAME_COLUMN_MAX))
    about_x = MARGIN + names + VALUE_COLUMN
    for i, option in enumerate(options):
        y = i * line
        name = text.fit(option.name, BODY_SIZE, names - 12, bold=True)
        text.paste(band, name, (MARGIN, y), BODY_SIZE, theme.TEXT, bold=True)
        room = VALUE_COLUMN - 12 if option.about else WIDTH - MARGIN - (MARGIN + names)
        value = text.fit(option.value, BODY_SIZE, room, bold=True)
        text.paste(band, value, (MARGIN + names, y), BODY_SIZE, theme.ACCENT, bold=True)
        if option.about:
            about = text.fit(option.about, BODY_SIZE, WIDTH - MARGIN - about_x)
            text.paste(band, about, (about_x, y), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _bands(view: LobbyView) -> list[Image.Image]:
    bands = [_title(view), rule(), heading(view.labels.seats, LINE_GAP), _chairs(view), rule()]
    if view.options:
        bands += [heading(view.labels.options, LINE_GAP), _options(view.options)]
    bands.append(blank(MARGIN))
    return bands


def render_lobby(view: LobbyView) -> bytes:
    """PNG of a table's lobby."""
    return stack(_bands(view))
