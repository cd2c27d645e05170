"""The lobby picture: it grows with the options it lists and keeps long words in bounds."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PIL import Image

from renderer import ChairView, LobbyView, OptionLine, render_lobby
from renderer.bands import WIDTH

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
