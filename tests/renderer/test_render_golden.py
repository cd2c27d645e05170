"""Every kind of picture against a stored golden PNG, with a small tolerance.

The goldens live in golden/. After an intended change to the pictures, look at the new
output and regenerate them with:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/renderer/test_render_golden.py
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.tiles import parse_hand, parse_tile, parse_tiles
from renderer import (
    ChairView,
    HandView,
    LobbyView,
    OptionLine,
    fonts,
    render_hand,
    render_lobby,
    render_settlement,
    render_table,
    render_tiles,
)

GOLDEN = Path(__file__).parent / "golden"
# Mean difference per channel (0..255) and share of pixels off by more than a faint
# anti-aliasing change: loose enough for another FreeType build, tight enough to catch a
# moved tile or a changed colour.
MAX_MEAN_DIFF = 1.5
MAX_CHANGED_SHARE = 0.01
CHANGED_LEVEL = 48


def _hand_views() -> dict[str, HandView]:
    spec = parse_hand("1123m456p99s[777s]{4444z}")
    return {
        "hand": HandView(
            concealed=spec.concealed,
            drawn=parse_tile("5m"),
            melds=spec.melds,
            legal_discards=frozenset(parse_tiles("125m")),
            waits=tuple(parse_tiles("14m")),
            wildcard=parse_tile("6p"),
            title="Alice 的手牌",
        ),
        "hand_void": HandView(
            concealed=tuple(parse_tiles("1234m569p11234s")),
            drawn=parse_tile("7p"),
            void_suit=1,
            legal_discards=frozenset(parse_tiles("5679p")),
        ),
    }


def _lobby_view() -> LobbyView:
    """Three chairs taken (the host, a guest, an AI player), one free, a few options."""
    return LobbyView(
        title="四川血战到底 · 4 局 · 牌桌 #12",
        chairs=(
            ChairView("小张", host=True),
            ChairView("Lily"),
            ChairView("电脑1", ai=True),
            ChairView("（空位）", taken=False),
        ),
        options=(
            OptionLine("rounds", "4", "局数"),
            OptionLine("max_fan", "4", "封顶番数"),
            OptionLine("exchange_direction", "random", "换三张的方向"),
            OptionLine("turn_timer", "20", "出牌时限（秒），0 为不限时"),
        ),
        price="房卡 2 张（桌主付）",
        status="等待玩家入座……",
    )


def _render(name: str, load_view: Callable[[str], Any]) -> bytes:
    hands = _hand_views()
    if name in hands:
        return render_hand(hands[name])
    if name == "lobby":
        return render_lobby(_lobby_view())
    if name == "tiles":
        return render_tiles(parse_tiles("19m19p19s1234567z"))
    view = load_view(name)
    return render_table(view) if name.startswith("table") else render_settlement(view)


def _compare(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    diff = ImageChops.difference(actual, expected)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda v: 255 if v > CHANGED_LEVEL else 0)
    share = ImageStat.Stat(changed).mean[0] / 255
    return mean, share


@pytest.mark.parametrize(
    "name",
    [
        "hand",
        "hand_void",
        "tiles",
        "table",
        "table_mcr",
        "table_guangdong",
        "settlement",
        "settlement_sichuan",
        "settlement_guangdong",
        "lobby",
    ],
)
def test_matches_golden(
    name: str, load_view: Callable[[str], Any], decode: Callable[[bytes], Image.Image]
) -> None:
    if os.environ.get(fonts.ENV_VAR):
        pytest.skip(f"goldens are drawn with the packaged font; {fonts.ENV_VAR} is set")
    png = _render(name, load_view)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        # Same pixels as the output, packed harder to keep the repository small.
        Image.open(io.BytesIO(png)).save(path, optimize=True)
    assert path.exists(), f"no golden {path.name}: run with UPDATE_GOLDEN=1 to create it"
    actual, expected = decode(png), decode(path.read_bytes())
    assert actual.size == expected.size
    mean, share = _compare(actual, expected)
    assert mean <= MAX_MEAN_DIFF and share <= MAX_CHANGED_SHARE, (
        f"{name}: mean difference {mean:.2f}, {share:.2%} of pixels changed"
    )
