"""The settlement picture: each seat's net, the winning hands in the order they won, the
horses, and every payment grouped under the player who received or paid it.

Each part is drawn as its own band of the full width and the bands are stacked, so the
picture is as tall as what it has to say. It is 720 px wide with text and tiles sized to
read when a phone shows it 360 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.tiles import suit
from renderer import bands, layout, sprites, text, theme
from renderer.layout import Placed
from renderer.models import FanLine, Labels, SettlementView, WinnerView
from renderer.sprites import Mark, tile_height

WIDTH = 720
MARGIN = 20
TILE_WIDTH = 40
HORSE_TILE = 36
GAP = 2
WIN_GAP = 12
MELD_GAP = 10
MELDS_GAP = 16
TITLE_SIZE = 30
HEADER_SIZE = 26
BODY_SIZE = 22
BADGE_SIZE = 20
NET_SIZE = 28
LINE_GAP = 6
ITEM_GAP = 10
NET_GAP = 8
INDENT = 14
# Between a name and its share in a payment line, and between one share and the next:
# wide enough apart that 电脑1 and its 8 never read as 电脑18.
SHARE_GAP = 8
SHARES_GAP = 24

_INNER = WIDTH - 2 * MARGIN


def _blank(height: int) -> Image.Image:
    return bands.blank(height, WIDTH)


def _rule() -> Image.Image:
    return bands.rule(WIDTH, MARGIN)


def _heading(label: str) -> Image.Image:
    return bands.heading(label, LINE_GAP, WIDTH, MARGIN, HEADER_SIZE)


def _row(items: Sequence[Image.Image], gap: int = ITEM_GAP) -> Image.Image:
    """Sprites side by side from the left margin, centred on one line; items that would
    run past the right margin are left out."""
    height = max(i.height for i in items)
    band = _blank(height)
    x = MARGIN
    for item in items:
        if x + item.width > WIDTH - MARGIN:
            break
        band.paste(item, (x, (height - item.height) // 2), item)
        x += item.width + gap
    return band


def _titleband(view: SettlementView) -> Image.Image:
    """The caller's title, and the word for a drawn hand when nobody won."""
    lines = [view.title] if view.title else []
    if not view.winners:
        lines.append(view.labels.draw)
    band = _blank(MARGIN + len(lines) * (text.line_height(TITLE_SIZE) + LINE_GAP))
    y = MARGIN
    for line in lines:
        title = text.fit(line, TITLE_SIZE, _INNER, bold=True)
        text.paste(band, title, (MARGIN, y), TITLE_SIZE, theme.TEXT, bold=True)
        y += text.line_height(TITLE_SIZE) + LINE_GAP
    return band


# -- nets ---------------------------------------------------------------------------------


def _nets(view: SettlementView) -> Image.Image:
    """Four boxes, one per seat: wind and name, then the net, green for a gain and red for
    a loss, with the seat's stakes multiplier beside it where it is not ×1."""
    box_w = (_INNER - 3 * NET_GAP) // 4
    name_h = text.line_height(BODY_SIZE)
    net_h = text.line_height(NET_SIZE)
    box_h = 8 + name_h + net_h + 6
    band = _blank(box_h)
    draw = ImageDraw.Draw(band)
    labels = view.labels
    for seat, net in enumerate(view.nets):
        x = MARGIN + seat * (box_w + NET_GAP)
        draw.rounded_rectangle((x, 0, x + box_w, box_h - 1), 10, fill=theme.PANEL)
        wind = text.pill(labels.winds[seat], BADGE_SIZE, theme.FELT, theme.TEXT)
        band.paste(wind, (x + 6, 8 + (name_h - wind.height) // 2), wind)
        name = text.fit(view.names[seat], BODY_SIZE, box_w - wind.width - 18, bold=True)
        text.paste(band, name, (x + wind.width + 12, 8), BODY_SIZE, theme.TEXT_DARK, bold=True)
        color = theme.GAIN if net > 0 else theme.LOSS if net < 0 else theme.TEXT_MUTED
        shown = f"{net:+d}" if net else "0"
        text.paste(band, shown, (x + box_w // 2, 8 + name_h), NET_SIZE, color, True, "m")
        factor = 1 if view.factors is None else view.factors[seat]
        if factor != 1:
            word = labels.multiplier.format(n=factor)
            badge = text.pill(word, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK)
            top = 8 + name_h + (net_h - badge.height) // 2
            band.paste(badge, (x + box_w - 6 - badge.width, top), badge)
    return band


# -- winners ------------------------------------------------------------------------------


def _winner_header(view: SettlementView, winner: WinnerView) -> Image.Image:
    """Who won and how: the order of the win, wind, name, how they won, who dealt in."""
    labels = view.labels
    items = []
    if winner.order is not None:
        order = labels.win_order.format(n=winner.order)
        items.append(text.pill(order, BADGE_SIZE, theme.PANEL, theme.TEXT_DARK))
    items.append(text.pill(labels.winds[winner.seat], BADGE_SIZE, theme.PANEL, theme.TEXT_DARK))
    name = text.fit(view.names[winner.seat], HEADER_SIZE, _INNER // 2, bold=True)
    items.append(text.text(name, HEADER_SIZE, theme.TEXT, bold=True))
    if winner.how:
        items.append(text.pill(winner.how, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK))
    if winner.from_seat is not None:
        source = labels.robbed if winner.robbed else labels.dealt_in
        said = source.format(name=view.names[winner.from_seat])
        items.append(text.text(said, BODY_SIZE, theme.TEXT_MUTED_LIGHT))
    return _row(items)


def _total_text(labels: Labels, winner: WinnerView) -> str:
    """The total, and what it was before the cap when the cap lowered it; nothing for a
    total of 0 (四川 平胡), which the hand's title names."""
    if not winner.total:
        return ""
    total = labels.total.format(n=winner.total)
    if winner.capped_from is None:
        return total
    return f"{total} {labels.capped.format(n=winner.capped_from)}"


def _winner_title(view: SettlementView, winner: WinnerView) -> Image.Image | None:
    """The hand's name and multiplier on the left, its total on the right."""
    items = []
    if winner.title:
        title = text.fit(winner.title, HEADER_SIZE, _INNER // 2, bold=True)
        items.append(text.text(title, HEADER_SIZE, theme.ACCENT, bold=True))
    if winner.multiplier is not None and winner.multiplier > 1:
        factor = view.labels.multiplier.format(n=winner.multiplier)
        items.append(text.pill(factor, BADGE_SIZE, theme.ACCENT, theme.TEXT_DARK))
    total = _total_text(view.labels, winner)
    if not items and not total:
        return None
    band = _row(items) if items else _blank(text.line_height(HEADER_SIZE))
    if total:
        total = text.fit(total, HEADER_SIZE, _INNER // 2, bold=True)
        top = (band.height - text.line_height(HEADER_SIZE)) // 2
        text.paste(band, total, (WIDTH - MARGIN, top), HEADER_SIZE, theme.ACCENT, True, "r")
    return band


def _hand_mark(kind: int, view: SettlementView) -> Mark:
    return Mark.WILD if kind == view.wildcard else Mark.NONE


def _winner_hand(view: SettlementView, winner: WinnerView) -> Image.Image:
    """Concealed tiles sorted, the winning tile apart and outlined, then the melds, on a
    second row when they do not fit beside the hand."""
    th = tile_height(TILE_WIDTH)
    placed = []
    x = MARGIN
    for kind in sorted(winner.concealed, key=lambda k: (suit(k), k)):
        placed.append(Placed(kind, x, 0, mark=_hand_mark(kind, view)))
        x += TILE_WIDTH + GAP
    x += WIN_GAP - GAP
    placed.append(Placed(winner.win_tile, x, 0, mark=Mark.HIGHLIGHT))
    x += TILE_WIDTH + MELDS_GAP
    melds_h = layout.row_height(TILE_WIDTH, winner.melds)
    melds_w = layout.melds_width(winner.melds, TILE_WIDTH, GAP, MELD_GAP)
    if x + melds_w <= WIDTH - MARGIN:
        height = max(th, melds_h)
        placed = [Placed(p.face, p.x, p.y + height - th, mark=p.mark) for p in placed]
        bottom = height
        melds_x = x
    else:
        height = th + LINE_GAP + melds_h if winner.melds else th
        bottom = height
        melds_x = MARGIN
    placed += layout.place_melds(
        winner.melds, winner.seat, melds_x, bottom, TILE_WIDTH, GAP, MELD_GAP
    )
    band = _blank(height)
    layout.paint(band, placed, TILE_WIDTH)
    return band


def _fan_text(labels: Labels, fan: FanLine) -> tuple[str, str]:
    name = fan.name if fan.count == 1 else f"{fan.name} ×{fan.count}"
    value = "" if fan.value is None else labels.fan_value.format(n=fan.value * fan.count)
    return name, value


def _fans(labels: Labels, fans: Sequence[FanLine]) -> Image.Image | None:
    """Fans worth something, in two columns of name and worth (a fan worth 0 is the base
    hand, which the title names)."""
    shown = [f for f in fans if f.value != 0]
    if not shown:
        return None
    gap = 2 * MARGIN
    column = (_INNER - gap) // 2
    rows = (len(shown) + 1) // 2
    line = text.line_height(BODY_SIZE) + LINE_GAP // 2
    band = _blank(rows * line)
    for i, fan in enumerate(shown):
        x = MARGIN + (i % 2) * (column + gap)
        y = (i // 2) * line
        name, value = _fan_text(labels, fan)
        value_w = text.width(value, BODY_SIZE, bold=True) if value else 0
        text.paste(
            band, text.fit(name, BODY_SIZE, column - value_w - 12), (x, y), BODY_SIZE, theme.TEXT
        )
        if value:
            text.paste(band, value, (x + column, y), BODY_SIZE, theme.ACCENT, True, "r")
    return band


def _winner(view: SettlementView, winner: WinnerView) -> list[Image.Image]:
    parts = [_winner_header(view, winner), _winner_title(view, winner)]
    parts += [_blank(LINE_GAP), _winner_hand(view, winner), _blank(LINE_GAP)]
    parts.append(_fans(view.labels, winner.fans))
    return [p for p in parts if p is not None] + [_rule()]


# -- horses -------------------------------------------------------------------------------


def horse_gain(view: SettlementView, index: int) -> int:
    """What the horse at ``index`` moved to its buyer (the dealer, seat 0, for a horse
    without one), from the payment lines it made."""
    horse = view.horses[index]
    buyer = 0 if horse.buyer is None else horse.buyer
    return sum(
        p.amount if p.payee == buyer else -p.amount
        for p in view.payments
        if p.horse == index and buyer in (p.payer, p.payee)
    )


def _horses(view: SettlementView) -> Image.Image:
    """One line per horse: the tile, whom it hit, and what it moved to its buyer."""
    th = tile_height(HORSE_TILE)
    line = th + LINE_GAP
    band = _blank(len(view.horses) * line)
    labels = view.labels
    text_top = (th - text.line_height(BODY_SIZE)) // 2
    right = WIDTH - MARGIN
    for i, horse in enumerate(view.horses):
        y = i * line
        face = sprites.BACK if horse.kind is None else horse.kind
        layout.paint(band, [Placed(face, MARGIN, y)], HORSE_TILE)
        if horse.target is None:
            continue
        hit = labels.horse_hit.format(name=view.names[horse.target])
        hit = text.fit(hit, BODY_SIZE, _INNER // 2, bold=True)
        x = MARGIN + HORSE_TILE + ITEM_GAP
        text.paste(band, hit, (x, y + text_top), BODY_SIZE, theme.TEXT, bold=True)
        gain = horse_gain(view, i)
        amount = f"{gain:+d}" if gain else "0"
        color = theme.GAIN if gain > 0 else theme.LOSS if gain < 0 else theme.TEXT_MUTED
        width = text.paste(band, amount, (right, y + text_top), BODY_SIZE, color, True, "r")
        buyer = text.fit(
            view.names[0 if horse.buyer is None else horse.buyer], BODY_SIZE, _INNER // 3
        )
        where = (right - width - 8, y + text_top)
        text.paste(band, buyer, where, BODY_SIZE, theme.TEXT_MUTED_LIGHT, anchor="r")
    return band


# -- payments -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    """What a seat received (or paid) for one reason, added up, and from (or to) whom:
    each other seat with its share, in ledger order."""

    receives: bool
    reason: str
    amount: int
    others: tuple[tuple[int, int], ...]


def _entries(view: SettlementView, seat: int) -> list[_Entry]:
    """What ``seat`` received, then what it paid, reasons in ledger order."""
    shares: dict[tuple[bool, str], dict[int, int]] = {}
    for line in view.payments:
        if seat not in (line.payer, line.payee):
            continue
        receives = line.payee == seat
        other = line.payer if receives else line.payee
        share = shares.setdefault((receives, line.reason), {})
        share[other] = share.get(other, 0) + line.amount
    entries = [
        _Entry(receives, reason, sum(share.values()), tuple(share.items()))
        for (receives, reason), share in shares.items()
    ]
    return sorted(entries, key=lambda e: not e.receives)


#: One other seat of a payment line as drawn: its name and its share, "" where the name
#: stands alone.
_Share = tuple[str, str]


def _shares(view: SettlementView, entry: _Entry) -> list[_Share]:
    """The other seats of an entry: a name alone, or each name with its share."""
    if len(entry.others) == 1:
        return [(view.names[entry.others[0][0]], "")]
    return [(view.names[seat], str(amount)) for seat, amount in entry.others]


def _share_lines(shares: Sequence[_Share], room: int) -> list[list[_Share]]:
    """Shares flowed into lines ``room`` wide, every one of them kept: a name is cut
    short only when its share alone is wider than a line."""
    lines: list[list[_Share]] = [[]]
    used = 0
    for name, amount in shares:
        amount_w = SHARE_GAP + text.width(amount, BODY_SIZE, bold=True) if amount else 0
        name = text.fit(name, BODY_SIZE, room - amount_w)
        width = text.width(name, BODY_SIZE) + amount_w
        if lines[-1] and used + SHARES_GAP + width > room:
            lines.append([])
            used = 0
        used += (SHARES_GAP if lines[-1] else 0) + width
        lines[-1].append((name, amount))
    return lines


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where the parts of a payment line go: the 收/付 badge, the amount's right edge,
    the reason, the other players."""

    badge: int
    amount_right: int
    reason: int
    others: int


def _columns(view: SettlementView, entries: Sequence[_Entry]) -> _Columns:
    labels = view.labels
    badge_w = max(
        text.pill(word, BADGE_SIZE, theme.GAIN, theme.TEXT).width
        for word in (labels.pays, labels.receives)
    )
    amount_w = max(text.width(str(e.amount), BODY_SIZE, bold=True) for e in entries)
    reason_w = min(_INNER // 4, max(text.width(e.reason, BODY_SIZE) for e in entries))
    badge = MARGIN + INDENT
    amount_right = badge + badge_w + ITEM_GAP + amount_w
    reason = amount_right + ITEM_GAP
    return _Columns(badge, amount_right, reason, reason + reason_w + ITEM_GAP)


def _entry_lines(
    view: SettlementView, entries: Sequence[_Entry], cols: _Columns
) -> list[list[list[_Share]]]:
    room = WIDTH - MARGIN - cols.others
    return [_share_lines(_shares(view, e), room) for e in entries]


def _paste_shares(band: Image.Image, shares: Sequence[_Share], x: int, y: int) -> None:
    """A line of shares, a dot between them: each name muted with its share after it in
    the accent colour, bold, so that a name ending in a digit (电脑1) does not run into
    its share."""
    for i, (name, amount) in enumerate(shares):
        if i:
            text.paste(band, "·", (x + SHARES_GAP // 2, y), BODY_SIZE, theme.TEXT_MUTED, anchor="m")
            x += SHARES_GAP
        x += text.paste(band, name, (x, y), BODY_SIZE, theme.TEXT_MUTED_LIGHT)
        if amount:
            x += SHARE_GAP
            x += text.paste(band, amount, (x, y), BODY_SIZE, theme.ACCENT, bold=True)


def _group(
    view: SettlementView, seat: int, entries: Sequence[_Entry], cols: _Columns
) -> Image.Image:
    """The seat's name, then a line per entry: 收 or 付, amount, reason, the others with
    their shares (on more lines when they do not fit in one)."""
    labels = view.labels
    name = text.fit(view.names[seat], BODY_SIZE, _INNER, bold=True)
    header = _row(
        [
            text.pill(labels.winds[seat], BADGE_SIZE, theme.PANEL, theme.TEXT_DARK),
            text.text(name, BODY_SIZE, theme.TEXT, bold=True),
        ]
    )
    line = text.line_height(BODY_SIZE)
    others = _entry_lines(view, entries, cols)
    height = header.height + sum(len(o) * line + LINE_GAP // 2 for o in others)
    band = _blank(height + LINE_GAP // 2)
    band.paste(header, (0, 0))
    y = header.height + LINE_GAP // 2
    for entry, lines in zip(entries, others, strict=True):
        word = labels.receives if entry.receives else labels.pays
        fill = theme.GAIN if entry.receives else theme.LOSS
        badge = text.pill(word, BADGE_SIZE, fill, theme.TEXT)
        band.paste(badge, (cols.badge, y + (line - badge.height) // 2), badge)
        amount = str(entry.amount)
        text.paste(band, amount, (cols.amount_right, y), BODY_SIZE, theme.ACCENT, True, "r")
        reason = text.fit(entry.reason, BODY_SIZE, cols.others - cols.reason - ITEM_GAP)
        text.paste(band, reason, (cols.reason, y), BODY_SIZE, theme.TEXT)
        for shares in lines:
            _paste_shares(band, shares, cols.others, y)
            y += line
        y += LINE_GAP // 2
    return band


def _payments(view: SettlementView) -> list[Image.Image]:
    """Every payment twice, under the seat that received it and under the one that paid,
    each seat's lines added up per reason."""
    groups = [(seat, _entries(view, seat)) for seat in range(4)]
    groups = [(seat, entries) for seat, entries in groups if entries]
    cols = _columns(view, [e for _, entries in groups for e in entries])
    out = [_heading(view.labels.payments)]
    for seat, entries in groups:
        out += [_group(view, seat, entries, cols), _blank(LINE_GAP)]
    return out


def _bands(view: SettlementView) -> list[Image.Image]:
    out = [_titleband(view), _heading(view.labels.nets), _nets(view), _rule()]
    for winner in view.winners:
        out += _winner(view, winner)
    if view.horses:
        out += [_heading(view.labels.horses), _horses(view), _rule()]
    if view.payments:
        out += _payments(view)
    out.append(_blank(MARGIN))
    return out


def render_settlement(view: SettlementView) -> bytes:
    """PNG of a hand's settlement."""
    return bands.stack(_bands(view))
