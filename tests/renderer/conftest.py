"""Shared inputs for the renderer tests: the JSON views under data/ and PNG decoding."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from renderer import loaders, table_layout, text

DATA = Path(__file__).parent / "data"


def _load_view(name: str) -> Any:
    data = loaders.load(DATA / f"{name}.json")
    if name.startswith("table"):
        return loaders.table_from_json(data)
    return loaders.settlement_from_json(data)


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def load_view() -> Callable[[str], Any]:
    """A view from data/<name>.json, read by the table or settlement loader by its name."""
    return _load_view


@pytest.fixture
def decode() -> Callable[[bytes], Image.Image]:
    """PNG bytes to an RGB image, checking they are a PNG."""
    return _decode


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, str]]:
    """Every text sprite drawn from here on, as (words, size, colour): the text sprites
    and the table's layouts, which keep sprites, are forgotten first, so that each is
    drawn."""
    text.clear_caches()
    table_layout.clear_caches()
    drawn: list[tuple[str, int, str]] = []
    sprite = text.text

    def recording(content: str, size: int, color: str, bold: bool = False) -> Image.Image:
        drawn.append((content, size, color))
        return sprite(content, size, color, bold)

    monkeypatch.setattr(text, "text", recording)
    return drawn
