"""Player-facing texts in 简体中文, 繁體中文 and English.

Every text a player reads comes from the JSON catalogs beside this module, keyed by a
dotted id (``lobby.title``); ``{name}`` placeholders are filled by :func:`t`. The reader's
language is their ``/settings`` override when set, otherwise their Discord locale:
``zh-CN`` → 简体, ``zh-TW`` (and ``zh-HK``) → 繁體, anything else → English.

A text that names a number of things has two forms, ``<key>.one`` and ``<key>.other``,
and :func:`t` picks one by the ``count`` value it is given (see :func:`plural_form`).
Every language has both keys, so every catalog has the same keys; Chinese, which has no
plural, gives both the same text.
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


PLURAL_FORMS = ("one", "other")


def plural_form(count: object) -> str:
    """``one`` for a count of 1 (or -1, as in "-1 room card"), ``other`` for any other:
    English's rule in the Unicode CLDR plural rules for whole numbers. The Chinese
    catalogs write both forms alike.

    >>> plural_form(1), plural_form(0), plural_form(2), plural_form(-1)
    ('one', 'other', 'other', 'one')
    """
    if not isinstance(count, int):
        raise TypeError(f"a plural text needs a whole-number count, not {count!r}")
    return "one" if abs(count) == 1 else "other"


def t(key: str, locale: str, /, **values: object) -> str:
    """The text of ``key`` in ``locale`` with its placeholders filled; for a text with
    plural forms, the form for ``values["count"]``.

    >>> t("cards.balance", EN, count=1), t("cards.balance", EN, count=3)
    ('You have **1** room card.', 'You have **3** room cards.')
    """
    texts = catalog(locale)
    text = texts.get(key)
    if text is None and f"{key}.other" in texts:
        if "count" not in values:
            raise MissingTextError(f"{key} (a plural text needs a count)")
        text = texts.get(f"{key}.{plural_form(values['count'])}")
    if text is None:
        raise MissingTextError(key)
    return text.format(**values) if values else text


def has(key: str) -> bool:
    """Whether the catalogs have ``key``, as a text or as a text with plural forms."""
    return key in catalog(EN) or f"{key}.other" in catalog(EN)


def placeholders(text: str) -> frozenset[str]:
    """The named fields a catalog text uses."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)
