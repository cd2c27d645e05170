"""The settlement picture: winning hands with their fans, horses, payments and nets.

Each part is drawn as its own band of the full width and the bands are stacked, so the
picture is as tall as what it has to say.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.tiles import suit
from renderer import layout, sprites, text, theme
from renderer.bands import HEADER_SIZE, MARGIN, WIDTH, blank, heading, rule, stack
from renderer.layout import Placed
from renderer.models import FanLine, HorseView, Labels, PaymentLine, SettlementView, WinnerView
from renderer.sprites import Mark, tile_height

TILE_WIDTH = 40
HORSE_TILE = 34
GAP = 2
WIN_GAP = 14
MELD_GAP = 10
MELDS_GAP = 20
TITLE_SIZE = 28
BODY_SIZE = 20
LINE_GAP = 4
HORSES_PER_ROW = 3

_INNER = WIDTH - 2 * MARGIN


def _titleband(view: SettlementView) -> Image.Image:
    """The caller's title, and the word for a drawn hand when nobody won."""
    lines = [view.title] if view.title else []
    if not view.winners:
        lines.append(view.labels.draw)
    band = blank(MARGIN + len(lines) * (text.line_height(TITLE_SIZE) + LINE_GAP) + LINE_GAP * 2)
    y = MARGIN
    for line in lines:
        text.paste(
            band,
            text.fit(line, TITLE_SIZE, _INNER, bold=True),
            (MARGIN, y),
            TITLE_SIZE,
            theme.TEXT,
            bold=True,
        )
        y += text.line_height(TITLE_SIZE) + LINE_GAP
    return band


def _winner_header(view: SettlementView, winner: WinnerView) -> Image.Image:
    """Wind, name, how the hand was won and its title, side by side."""
    labels = view.labels
    items = [text.pill(labels.winds[winner.seat], HEADER_SIZE - 4, theme.PANEL, theme.TEXT_DARK)]
    items.append(text.text(view.names[winner.seat], HEADER_SIZE, theme.TEXT, bold=True))
    if winner.how:
        items.append(text.pill(winner.how, HEADER_SIZE - 4, theme.ACCENT, theme.TEXT_DARK))
    if winner.title:
        items.append(text.text(winner.title, HEADER_SIZE, theme.ACCENT, bold=True))
    height = max(i.height for i in items)
    band = blank(height)
    x = MARGIN
    for item in items:
        if x + item.width > WIDTH - MARGIN:
            break
        band.paste(item, (x, (height - item.height) // 2), item)
        x += item.width + 10
    return band


def _hand_mark(kind: int, view: SettlementView) -> Mark:
    return Mark.WILD if kind == view.wildcard else Mark.NONE


def _winner_hand(view: SettlementView, winner: WinnerView) -> Image.Image:
    """Concealed tiles sorted, the winning tile apart and outlined, then the melds."""
    row_h = layout.row_height(TILE_WIDTH, winner.melds)
    top = row_h - tile_height(TILE_WIDTH)
    placed = []
    x = MARGIN
    for kind in sorted(winner.concealed, key=lambda k: (suit(k), k)):
        placed.append(Placed(kind, x, top, mark=_hand_mark(kind, view)))
        x += TILE_WIDTH + GAP
    x += WIN_GAP - GAP
    placed.append(Placed(winner.win_tile, x, top, mark=Mark.HIGHLIGHT))
    x += TILE_WIDTH + MELDS_GAP
    placed += layout.place_melds(winner.melds, winner.seat, x, row_h, TILE_WIDTH, GAP, MELD_GAP)
    band = blank(row_h)
    layout.paint(band, placed, TILE_WIDTH)
    return band


def _fan_text(labels: Labels, fan: FanLine) -> tuple[str, str]:
    name = fan.name if fan.count == 1 else f"{fan.name} ×{fan.count}"
    value = "" if fan.value is None else labels.fan_value.format(n=fan.value * fan.count)
    return name, value


def _fans(labels: Labels, winner: WinnerView) -> Image.Image:
    """Fans in two columns, name left and worth right, then the total."""
    column = (_INNER - 2 * MARGIN) // 2
    rows = (len(winner.fans) + 1) // 2
    line = text.line_height(BODY_SIZE) + LINE_GAP
    total_h = text.line_height(HEADER_SIZE) if winner.total is not None else 0
    band = blank(rows * line + (LINE_GAP + total_h if total_h else 0))
    for i, fan in enumerate(winner.fans):
        x = MARGIN + (i % 2) * (column + 2 * MARGIN)
        y = (i // 2) * line
        name, value = _fan_text(labels, fan)
        value_w = text.width(value, BODY_SIZE, bold=True) if value else 0
        name = text.fit(name, BODY_SIZE, column - value_w - 12)
        text.paste(band, name, (x, y), BODY_SIZE, theme.TEXT)
        if value:
            text.paste(band, value, (x + column, y), BODY_SIZE, theme.ACCENT, bold=True, anchor="r")
    if winner.total is not None:
        total = labels.total.format(n=winner.total)
        text.paste(
            band,
            total,
            (WIDTH - MARGIN, rows * line + LINE_GAP),
            HEADER_SIZE,
            theme.ACCENT,
            bold=True,
            anchor="r",
        )
    return band


def _horse_caption(names: Sequence[str], horse: HorseView) -> str:
    target = names[horse.target] if horse.target is not None else ""
    if horse.buyer is not None:
        return f"{names[horse.buyer]} → {target}"
    return f"→ {target}" if target else ""


def _horses(view: SettlementView) -> Image.Image:
    """Each horse tile with whom it hits (and who bought it, where buyers differ)."""
    cell = _INNER // HORSES_PER_ROW
    th = tile_height(HORSE_TILE)
    rows = (len(view.horses) + HORSES_PER_ROW - 1) // HORSES_PER_ROW
    band = blank(rows * (th + LINE_GAP))
    for i, horse in enumerate(view.horses):
        x = MARGIN + (i % HORSES_PER_ROW) * cell
        y = (i // HORSES_PER_ROW) * (th + LINE_GAP)
        face = sprites.BACK if horse.kind is None else horse.kind
        layout.paint(band, [Placed(face, x, y)], HORSE_TILE)
        caption = text.fit(_horse_caption(view.names, horse), BODY_SIZE, cell - HORSE_TILE - 20)
        text.paste(
            band,
            caption,
            (x + HORSE_TILE + 8, y + (th - text.line_height(BODY_SIZE)) // 2),
            BODY_SIZE,
            theme.TEXT,
        )
    return band


def _payments(names: Sequence[str], payments: Sequence[PaymentLine]) -> Image.Image:
    """One line per payment: payer → payee, the amount, the reason."""
    line = text.line_height(BODY_SIZE) + LINE_GAP
    band = blank(len(payments) * line)
    amount_right = MARGIN + int(_INNER * 0.62)
    who_width = amount_right - MARGIN - 90
    for i, pay in enumerate(payments):
        y = i * line
        who = text.fit(f"{names[pay.payer]} → {names[pay.payee]}", BODY_SIZE, who_width)
        text.paste(band, who, (MARGIN, y), BODY_SIZE, theme.TEXT)
        text.paste(
            band, str(pay.amount), (amount_right, y), BODY_SIZE, theme.ACCENT, bold=True, anchor="r"
        )
        reason = text.fit(pay.reason, BODY_SIZE, WIDTH - MARGIN - amount_right - 20)
        text.paste(band, reason, (amount_right + 20, y), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
    return band


def _nets(view: SettlementView) -> Image.Image:
    """Four boxes, one per seat: wind, name, net (green for a gain, red for a loss)."""
    box_w = (_INNER - 3 * 10) // 4
    box_h = text.line_height(BODY_SIZE) + text.line_height(HEADER_SIZE) + 20
    band = blank(box_h)
    draw = ImageDraw.Draw(band)
    for seat, net in enumerate(view.nets):
        x = MARGIN + seat * (box_w + 10)
        draw.rounded_rectangle((x, 0, x + box_w, box_h - 1), 10, fill=theme.PANEL)
        wind = text.pill(view.labels.winds[seat], BODY_SIZE - 2, theme.FELT, theme.TEXT)
        band.paste(wind, (x + 8, 8), wind)
        name = text.fit(view.names[seat], BODY_SIZE, box_w - wind.width - 24, bold=True)
        text.paste(band, name, (x + wind.width + 14, 8), BODY_SIZE, theme.TEXT_DARK, bold=True)
        color = theme.GAIN if net > 0 else theme.LOSS if net < 0 else theme.TEXT_MUTED
        text.paste(
            band,
            f"{net:+d}" if net else "0",
            (x + box_w // 2, 10 + text.line_height(BODY_SIZE)),
            HEADER_SIZE,
            color,
            bold=True,
            anchor="m",
        )
    return band


def _bands(view: SettlementView) -> list[Image.Image]:
    bands = [_titleband(view)]
    for winner in view.winners:
        bands += [
            _winner_header(view, winner),
            blank(6),
            _winner_hand(view, winner),
            blank(10),
            _fans(view.labels, winner),
            rule(),
        ]
    if not view.winners:
        bands.append(rule())
    if view.horses:
        bands += [heading(view.labels.horses, LINE_GAP), _horses(view), rule()]
    if view.payments:
        bands += [
            heading(view.labels.payments, LINE_GAP),
            _payments(view.names, view.payments),
            rule(),
        ]
    bands += [heading(view.labels.nets, LINE_GAP), _nets(view), blank(MARGIN)]
    return bands


def render_settlement(view: SettlementView) -> bytes:
    """PNG of a hand's settlement."""
    return stack(_bands(view))
