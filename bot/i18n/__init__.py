"""Player-facing texts in 简体中文, 繁體中文 and English.

Every text a player reads comes from the JSON catalogs beside this module, keyed by a
dotted id (``lobby.title``); ``{name}`` placeholders are filled by :func:`t`. The reader's
language is their ``/settings`` override when set, otherwise their Discord locale:
``zh-CN`` → 简体, ``zh-TW`` (and ``zh-HK``) → 繁體, anything else → English.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path

ZH_CN = "zh-CN"
ZH_TW = "zh-TW"
EN = "en"
LOCALES = (ZH_CN, ZH_TW, EN)

_FILES = {ZH_CN: "zh_CN.json", ZH_TW: "zh_TW.json", EN: "en.json"}
_HERE = Path(__file__).resolve().parent


class MissingTextError(KeyError):
    """A catalog key that does not exist: a programming error, never a player's."""


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """The flat key → text mapping of one locale."""
    data = json.loads((_HERE / _FILES[locale]).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{_FILES[locale]} must hold one JSON object")
    return data


def resolve_locale(discord_locale: object, override: str | None = None) -> str:
    """The catalog locale for a Discord locale (``discord.Locale`` or its value) and an
    optional per-player override (one of :data:`LOCALES`)."""
    if override in LOCALES:
        return override
    value = str(getattr(discord_locale, "value", discord_locale) or "")
    if value == ZH_CN:
        return ZH_CN
    if value in (ZH_TW, "zh-HK"):
        return ZH_TW
    return EN


def t(key: str, locale: str, /, **values: object) -> str:
    """The text of ``key`` in ``locale`` with its placeholders filled."""
    try:
        text = catalog(locale)[key]
    except KeyError:
        raise MissingTextError(key) from None
    return text.format(**values) if values else text


def has(key: str) -> bool:
    return key in catalog(EN)


def placeholders(text: str) -> frozenset[str]:
    """The named fields a catalog text uses."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)
