"""The settlement picture: it grows with what it lists, stays within limits, and words
each part with what the description gives it."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from PIL import Image, ImageChops

from engine.tiles import parse_tile
from renderer import (
    FanLine,
    HorseView,
    Labels,
    PaymentLine,
    SettlementView,
    WinnerView,
    render_settlement,
    text,
    theme,
)
from renderer import settlement as settlement_module
from renderer.png import MAX_BYTES
from renderer.sprites import tile_height

Decode = Callable[[bytes], Image.Image]
NAMES = ("小明", "Bob", "西门吹雪", "Dave")


def _same(a: SettlementView, b: SettlementView, decode: Decode) -> bool:
    pictures = decode(render_settlement(a)), decode(render_settlement(b))
    return pictures[0].size == pictures[1].size and not ImageChops.difference(*pictures).getbbox()


def _winner(**changes: Any) -> WinnerView:
    return dataclasses.replace(
        WinnerView(seat=1, concealed=(0, 1, 2), win_tile=3, how="胡", title="平胡", total=2),
        **changes,
    )


def test_more_kinds_of_payment_make_a_taller_picture(
    load_view: Callable[[str], Any], decode: Decode
) -> None:
    view = load_view("settlement")
    more = tuple(
        dataclasses.replace(p, reason=f"{p.reason}{i}") for i, p in enumerate(view.payments)
    )
    longer = dataclasses.replace(view, payments=view.payments + more)
    assert decode(render_settlement(longer)).height > decode(render_settlement(view)).height


def test_a_drawn_hand_has_no_winner_block(decode: Decode) -> None:
    view = SettlementView(names=("a", "b", "c", "d"))
    image = decode(render_settlement(view))
    assert 0 < image.height < 400


def test_a_huge_settlement_stays_under_the_limit(load_view: Callable[[str], Any]) -> None:
    view = load_view("settlement_sichuan")
    lines = tuple(PaymentLine(i % 4, (i + 1) % 4, i, "下雨 " * 10) for i in range(200))
    png = render_settlement(dataclasses.replace(view, payments=lines, winners=view.winners * 3))
    assert len(png) < MAX_BYTES


def test_each_seat_lists_what_it_received_then_paid_added_up_per_reason() -> None:
    view = SettlementView(
        names=NAMES,
        payments=(
            PaymentLine(0, 2, 16, "自摸"),
            PaymentLine(1, 2, 32, "自摸"),
            PaymentLine(2, 3, 4, "明杠"),
            PaymentLine(3, 2, 16, "自摸"),
            PaymentLine(2, 3, 2, "明杠"),
        ),
    )
    entries = settlement_module._entries(view, 2)
    assert [(e.receives, e.reason, e.amount, e.others) for e in entries] == [
        (True, "自摸", 64, ((0, 16), (1, 32), (3, 16))),
        (False, "明杠", 6, ((3, 6),)),
    ]
    assert [(e.receives, e.amount) for e in settlement_module._entries(view, 0)] == [(False, 16)]


def test_one_line_per_horse_with_what_it_moved_to_its_buyer() -> None:
    """A horse that copied three lines is one line of the horses band; its buyer (the
    dealer when it names none) gains what the copies brought."""
    horses = (HorseView(parse_tile("5p"), target=2), HorseView(parse_tile("7z"), 1, buyer=3))
    view = SettlementView(
        names=NAMES,
        horses=horses,
        payments=(
            PaymentLine(1, 2, 2, "自摸"),
            PaymentLine(1, 0, 2, "买马", horse=0),
            PaymentLine(3, 0, 2, "买马", horse=0),
            PaymentLine(0, 3, 2, "买马", horse=1),
        ),
    )
    assert settlement_module.horse_gain(view, 0) == 4
    assert settlement_module.horse_gain(view, 1) == 2
    band = settlement_module._horses(view)
    line = tile_height(settlement_module.HORSE_TILE) + settlement_module.LINE_GAP
    assert band.height == len(horses) * line


def test_fans_worth_nothing_and_a_zero_total_are_left_out(decode: Decode) -> None:
    base = SettlementView(names=NAMES, winners=(_winner(fans=(FanLine("根", 1),), total=1),))
    with_zero = dataclasses.replace(
        base, winners=(_winner(fans=(FanLine("平胡", 0), FanLine("根", 1)), total=1),)
    )
    assert _same(base, with_zero, decode)
    no_total = dataclasses.replace(base, winners=(_winner(fans=(), total=None),))
    zero_total = dataclasses.replace(base, winners=(_winner(fans=(FanLine("平胡", 0),), total=0),))
    assert _same(no_total, zero_total, decode)


def test_the_cap_is_mentioned_only_when_it_lowered_the_total(decode: Decode) -> None:
    other_words = Labels(capped="CAPPED FROM {n}")
    under = SettlementView(names=NAMES, winners=(_winner(total=3),))
    assert _same(under, dataclasses.replace(under, labels=other_words), decode)
    capped = SettlementView(names=NAMES, winners=(_winner(total=4, capped_from=6),))
    assert not _same(capped, dataclasses.replace(capped, labels=other_words), decode)


def test_who_dealt_in_is_named_beside_the_winner(decode: Decode) -> None:
    other_words = Labels(dealt_in="{name} DEALT IN")
    self_drawn = SettlementView(names=NAMES, winners=(_winner(how="自摸"),))
    assert _same(self_drawn, dataclasses.replace(self_drawn, labels=other_words), decode)
    on_discard = SettlementView(names=NAMES, winners=(_winner(from_seat=0),))
    assert not _same(on_discard, dataclasses.replace(on_discard, labels=other_words), decode)


def test_stakes_multipliers_show_only_where_a_seat_is_not_at_one(decode: Decode) -> None:
    even = SettlementView(names=NAMES, nets=(1, -1, 0, 0))
    assert _same(even, dataclasses.replace(even, factors=(1, 1, 1, 1)), decode)
    assert not _same(even, dataclasses.replace(even, factors=(4, 1, 2, 1)), decode)


def test_winners_keep_the_order_they_are_given(decode: Decode) -> None:
    first, second = _winner(seat=3, order=1), _winner(seat=1, order=2)
    ordered = SettlementView(names=NAMES, winners=(first, second))
    swapped = SettlementView(names=NAMES, winners=(second, first))
    assert not _same(ordered, swapped, decode)


class _Pasted(NamedTuple):
    words: str
    x: int
    y: int
    colour: str
    bold: bool


def _pastes(monkeypatch: pytest.MonkeyPatch, view: SettlementView) -> list[_Pasted]:
    """Every line of text the settlement of ``view`` pastes, in order."""
    pasted: list[_Pasted] = []
    paste = text.paste

    def recording(
        canvas: Image.Image,
        content: str,
        xy: tuple[int, int],
        size: int,
        color: str,
        bold: bool = False,
        anchor: str = "l",
    ) -> int:
        pasted.append(_Pasted(content, xy[0], xy[1], color, bold))
        return paste(canvas, content, xy, size, color, bold, anchor)

    monkeypatch.setattr(text, "paste", recording)
    render_settlement(view)
    return pasted


def _shares(pasted: list[_Pasted]) -> list[tuple[_Pasted, _Pasted]]:
    """(name, share) as a payment line draws them: a muted name, then an accent number
    after it on its line (each group of lines is a band of its own, from y 0)."""
    return [
        (name, share)
        for name, share in itertools.pairwise(pasted)
        if name.colour == theme.TEXT_MUTED_LIGHT
        and share.colour == theme.ACCENT
        and share.bold
        and share.y == name.y
        and share.x > name.x
        and share.words.isdigit()
    ]


def test_a_payers_share_stands_apart_from_a_name_ending_in_a_digit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """电脑1 8 must not read 电脑18: the share is set off by a gap, colour and weight."""
    names = ("Mei", "电脑1", "电脑2", "电脑3")
    payments = tuple(
        PaymentLine(payer, 0, amount, "点炮") for payer, amount in ((1, 16), (2, 8), (3, 20))
    )
    view = SettlementView(names=names, winners=(_winner(seat=0),), payments=payments)
    shares = _shares(_pastes(monkeypatch, view))
    assert [(name.words, share.words) for name, share in shares] == [
        ("电脑1", "16"),
        ("电脑2", "8"),
        ("电脑3", "20"),
    ]
    body = settlement_module.BODY_SIZE
    for name, share in shares:
        assert share.x >= name.x + text.width(name.words, body) + settlement_module.SHARE_GAP


def test_every_payer_keeps_its_share_however_long_the_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    long = tuple(f"麻将大师小{c}同学ThisIsAVeryLongName" for c in "明红刚")
    payments = tuple(PaymentLine(payer, 3, 13 + payer, "自摸") for payer in range(3))
    names = (long[0], long[1], long[2], "Sam")
    view = SettlementView(names=names, winners=(_winner(seat=3),), payments=payments)
    shares = _shares(_pastes(monkeypatch, view))
    assert [share.words for _, share in shares] == ["13", "14", "15"]
    for payer, (name, share) in enumerate(shares):
        assert long[payer].startswith(name.words.removesuffix(text.ELLIPSIS))
        assert share.x + text.width(share.words, settlement_module.BODY_SIZE, bold=True) <= (
            settlement_module.WIDTH - settlement_module.MARGIN
        )
