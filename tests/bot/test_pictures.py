"""Pictures are drawn once for what they show."""

from __future__ import annotations

from dataclasses import replace

import pytest

import bot.pictures
from bot.pictures import Drawn, desk_png
from renderer import worker
from renderer.reference import reference_desk


async def test_an_equal_view_is_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[object] = []

    def counting(view: object) -> bytes:
        drawn.append(view)
        return b"png %d" % len(drawn)

    monkeypatch.setitem(worker.RENDERERS, "desk", counting)
    monkeypatch.setattr(bot.pictures, "_DRAWN", Drawn())
    view = reference_desk()
    first = await desk_png(view)
    assert await desk_png(replace(view)) == first
    other = replace(view, wall_left=(view.wall_left or 0) + 1)
    assert await desk_png(other) != first
    assert len(drawn) == 2


def test_only_the_latest_pictures_are_kept() -> None:
    kept = Drawn(kept=2)
    kept.put("a", b"1")
    kept.put("b", b"2")
    assert kept.get("a") == b"1"  # now the latest used
    kept.put("c", b"3")
    assert kept.get("b") is None
    assert (kept.get("a"), kept.get("c")) == (b"1", b"3")
