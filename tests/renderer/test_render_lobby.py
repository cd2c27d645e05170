"""The lobby picture: it grows with the options it lists, keeps long words in bounds and
reads on a phone."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PIL import Image

from renderer import ChairView, LobbyView, OptionLine, lobby, render_lobby, text
from renderer.lobby import WIDTH

Decode = Callable[[bytes], Image.Image]

FREE = ChairView("-", taken=False)
CHAIRS = (ChairView("Host", host=True), ChairView("AI 1", ai=True), FREE, FREE)


def test_more_options_make_a_taller_picture(decode: Decode) -> None:
    view = LobbyView("mcr", CHAIRS, options=(OptionLine("rounds", "4"),))
    longer = dataclasses.replace(view, options=view.options * 10)
    bare = dataclasses.replace(view, options=())
    heights = [decode(render_lobby(v)).height for v in (bare, view, longer)]
    assert heights == sorted(heights) and len(set(heights)) == 3


def test_long_words_stay_inside_the_picture(decode: Decode) -> None:
    long = "名" * 200
    view = LobbyView(
        long,
        (ChairView(long, host=True, ai=True), CHAIRS[1], FREE, FREE),
        options=(OptionLine(long, long, long),),
        price=long,
        status=long,
    )
    assert decode(render_lobby(view)).width == WIDTH


#: A phone shows a picture 360 px wide; at that width the lobby's smallest text, its
#: badges, stands this tall.
PHONE_WIDTH = 360
MIN_PHONE_TEXT = 11


def test_the_lobby_reads_on_a_phone(decode: Decode, drawn_text: list[tuple[str, int, str]]) -> None:
    view = LobbyView(
        "广东推倒胡 · 4 局 · 牌桌 #2",
        (ChairView("Ah Keung", host=True), ChairView("电脑1 · 普通", ai=True), FREE, FREE),
        options=(OptionLine("算大胡的牌型", "天胡、地胡、清一色、字一色、七对", "大胡"),),
        price="房卡：2 张（桌主付）",
        status="已开局。",
    )
    width = decode(render_lobby(view)).width
    assert width <= 720
    assert drawn_text
    assert min(size for _, size, _ in drawn_text) * PHONE_WIDTH / width >= MIN_PHONE_TEXT


def test_a_long_value_runs_on_more_lines_before_it_is_cut(decode: Decode) -> None:
    view = LobbyView("gd", CHAIRS, options=(OptionLine("big_hu", "短"),))
    kinds = "、".join(["十八罗汉"] * 12)
    longer = dataclasses.replace(view, options=(OptionLine("big_hu", kinds),))
    line = text.line_height(lobby.BODY_SIZE)
    grown = decode(render_lobby(longer)).height - decode(render_lobby(view)).height
    assert grown == (lobby.VALUE_LINES - 1) * line
