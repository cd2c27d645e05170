"""The CJK font: where it is found, how failure reads, and that no glyph is a box."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderer import fonts
from renderer.models import Labels
from renderer.tileart import glyphs_used

NOTDEF = "\U0010fffd"


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    """Forget the font choice before and after a test that changes how it is found."""
    fonts.clear_caches()
    yield
    fonts.clear_caches()


def _default_label_text() -> str:
    text = ""
    for field in dataclasses.fields(Labels):
        value = getattr(Labels(), field.name)
        text += "".join(value) if isinstance(value, tuple) else value
    return text.replace("{n}", "").replace("{suit}", "")


def _render(char: str) -> Image.Image:
    image = Image.new("L", (80, 80))
    ImageDraw.Draw(image).text((8, 8), char, font=fonts.font(48), fill=255)
    return image


def test_the_packaged_noto_font_is_used_by_default(
    fresh_fonts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(fonts.ENV_VAR, raising=False)
    path, index = fonts.font_source()
    assert Path(path).name == "NotoSansCJK-Regular.ttc"
    assert "noto_cjk_sans_otc" in path
    assert fonts.font(20).getname()[0] == "Noto Sans CJK SC"
    assert index == 2


@pytest.mark.parametrize("char", sorted(set(glyphs_used() + _default_label_text()) - {" "}))
def test_every_drawn_glyph_is_a_real_glyph(char: str) -> None:
    """Compare each glyph's pixels with the .notdef box the font draws for a missing one."""
    drawn, missing = _render(char), _render(NOTDEF)
    assert drawn.getbbox() is not None
    assert ImageChops.difference(drawn, missing).getbbox() is not None
    assert fonts.has_glyph(char)


@pytest.mark.parametrize("char", [NOTDEF, "\U0001f389", "\ue000"])
def test_missing_glyphs_are_detected_and_dropped(char: str) -> None:
    assert not fonts.has_glyph(char)
    assert fonts.drawable(f"Bob{char}") == "Bob"
    assert fonts.drawable(char) == "?"


def test_env_var_chooses_the_font(fresh_fonts: None, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged, _ = fonts.font_source()
    fonts.clear_caches()
    monkeypatch.setenv(fonts.ENV_VAR, packaged)
    assert fonts.font_source()[0] == packaged


def test_env_var_naming_a_missing_file_fails_clearly(
    fresh_fonts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(fonts.ENV_VAR, str(tmp_path / "nope.ttf"))
    with pytest.raises(
        fonts.FontNotFoundError, match=r"nope\.ttf is not a file.*noto-cjk-sans-otc"
    ):
        fonts.font_source()


def test_env_var_naming_a_font_without_chinese_fails_clearly(
    fresh_fonts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    latin = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not latin.is_file():
        pytest.skip("no DejaVu font on this machine")
    monkeypatch.setenv(fonts.ENV_VAR, str(latin))
    with pytest.raises(fonts.FontNotFoundError, match="no Chinese glyphs"):
        fonts.font_source()


def test_no_font_anywhere_says_how_to_install_one(
    fresh_fonts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(fonts.ENV_VAR, raising=False)
    monkeypatch.setattr(fonts, "_candidates", list)
    with pytest.raises(fonts.FontNotFoundError) as caught:
        fonts.font(12)
    message = str(caught.value)
    assert "pip install noto-cjk-sans-otc" in message
    assert fonts.ENV_VAR in message
