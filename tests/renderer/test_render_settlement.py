"""The settlement picture: it grows with what it lists and stays within limits."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PIL import Image

from renderer import PaymentLine, SettlementView, render_settlement
from renderer.png import MAX_BYTES

Decode = Callable[[bytes], Image.Image]


def test_more_payments_make_a_taller_picture(
    load_view: Callable[[str], Any], decode: Decode
) -> None:
    view = load_view("settlement")
    longer = dataclasses.replace(view, payments=view.payments * 3)
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
