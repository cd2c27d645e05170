"""A chat message for screenshots: drawn at a phone's width (360 points, twice over),
its picture scaled to fit, its buttons wrapped as a narrow screen wraps them."""

from __future__ import annotations

import io

from PIL import Image

from renderer.hand import render_tile_emoji
from renderer.message import BUTTON_HEIGHT, WIDTH, render_message
from renderer.models import ButtonView, MessageView
from tests.fakediscord.table_bot import tiny_png


def size(view: MessageView) -> tuple[int, int]:
    width, height = Image.open(io.BytesIO(render_message(view))).size
    return width, height


def test_a_message_is_a_phone_wide_and_its_buttons_wrap() -> None:
    tile = render_tile_emoji(4)
    lines = ((("Your turn", True), (" · until 20 s", False)),)
    one_row = MessageView("Bot", lines, tiny_png(80, 40), ((ButtonView("", tile),),))
    width, height = size(one_row)
    assert width == WIDTH
    many = MessageView(
        "Bot", lines, tiny_png(80, 40), (tuple(ButtonView("", tile) for _ in range(9)),)
    )
    wrapped = size(many)[1] - height
    assert wrapped >= BUTTON_HEIGHT, "nine tile buttons take two lines on a phone"
    labelled = MessageView("Bot", lines, None, ((ButtonView("摸切"), ButtonView("自动胡")),))
    assert size(labelled)[0] == WIDTH
