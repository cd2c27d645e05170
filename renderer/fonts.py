"""The one CJK font every picture uses: found once, loaded once per size.

Search order: the file named by the ``MAHJONG_FONT`` environment variable, the Noto Sans CJK
collection shipped by the ``noto-cjk-sans-otc`` package, then common system fonts.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import os
import threading
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ENV_VAR = "MAHJONG_FONT"
_PACKAGE = "noto_cjk_sans_otc"
_PACKAGE_FILE = "NotoSansCJK-Regular.ttc"
_SYSTEM_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Medium.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
)
_INSTALL_HINT = (
    "install the Python package noto-cjk-sans-otc (pip install noto-cjk-sans-otc), "
    "or a system CJK font (apt-get install fonts-noto-cjk), "
    f"or set {ENV_VAR} to a .ttf/.otf/.ttc file with Chinese glyphs"
)
# A plane-16 private-use code point: no font maps it, so it always draws .notdef.
_NOTDEF_PROBE = "\U0010fffd"
_PROBE_SIZE = 32
_CJK_PROBE = "萬"


LOCK = threading.RLock()
"""Held while drawing text: a FreeType face must not rasterise in two threads at once."""


class FontNotFoundError(RuntimeError):
    """No usable CJK font; the message says how to install one."""


def _package_font() -> Path | None:
    if importlib.util.find_spec(_PACKAGE) is None:
        return None
    path = Path(str(importlib.resources.files(_PACKAGE).joinpath(_PACKAGE_FILE)))
    return path if path.is_file() else None


@cache
def _face_index(path: Path) -> int:
    """In a collection, the Simplified Chinese face; otherwise the first one."""
    if path.suffix.lower() != ".ttc":
        return 0
    for index in range(32):
        try:
            family, _ = ImageFont.truetype(str(path), 12, index=index).getname()
        except OSError:
            break
        if family and family.endswith(" SC") and "Mono" not in family:
            return index
    return 0


def _candidates() -> list[Path]:
    found = [_package_font()]
    found += [Path(p) for p in _SYSTEM_FONTS]
    return [p for p in found if p is not None and p.is_file()]


@cache
def font_source() -> tuple[str, int]:
    """(path, face index) of the font in use; raises FontNotFoundError if there is none."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        path = Path(configured)
        if not path.is_file():
            raise FontNotFoundError(f"{ENV_VAR}={configured} is not a file; {_INSTALL_HINT}")
        if not _covers_cjk(path):
            raise FontNotFoundError(
                f"{ENV_VAR}={configured} has no Chinese glyphs; {_INSTALL_HINT}"
            )
        return str(path), _face_index(path)
    for path in _candidates():
        if _covers_cjk(path):
            return str(path), _face_index(path)
    raise FontNotFoundError(f"no CJK font found: {_INSTALL_HINT}")


def _covers_cjk(path: Path) -> bool:
    try:
        probe = ImageFont.truetype(str(path), _PROBE_SIZE, index=_face_index(path))
    except OSError:
        return False
    return _bitmap(probe, _CJK_PROBE) != _bitmap(probe, _NOTDEF_PROBE)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The CJK font at ``size`` pixels. Basic layout: CJK and Latin need no shaping, and
    the result does not depend on whether Pillow was built with libraqm."""
    path, index = font_source()
    return ImageFont.truetype(path, size, index=index, layout_engine=ImageFont.Layout.BASIC)


def _bitmap(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    size = int(face.size)
    image = Image.new("L", (size * 2, size * 2))
    with LOCK:
        ImageDraw.Draw(image).text((size // 2, size // 2), text, font=face, fill=255)
    return image.tobytes()


@cache
def _notdef_bitmap() -> bytes:
    return _bitmap(font(_PROBE_SIZE), _NOTDEF_PROBE)


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """True when the font draws ``char`` as itself, not as the missing-glyph box."""
    if char.isspace():
        # Line breaks and tabs would split a one-line label; only true spaces are kept.
        return char in " \u3000"
    drawn = _bitmap(font(_PROBE_SIZE), char)
    return drawn != _notdef_bitmap() and any(drawn)


def drawable(text: str) -> str:
    """``text`` without the characters the font cannot draw (emoji in names, mostly)."""
    kept = "".join(ch for ch in text if has_glyph(ch))
    return kept if kept.strip() or not text.strip() else "?"


def clear_caches() -> None:
    """Forget the font choice and every loaded size (tests that change MAHJONG_FONT)."""
    font_source.cache_clear()
    font.cache_clear()
    _notdef_bitmap.cache_clear()
    has_glyph.cache_clear()
