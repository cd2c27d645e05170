"""Mahjong words in the reader's language: tile labels, suits, fans, payment reasons,
and the players' names (escaped in a message's text, as they are in pictures)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from bot.i18n import EN, LOCALES, catalog, has, t
from data.models import Rating, shown_rating
from engine.tiles import HONOR, rank, suit, tile_name


def tile_label(kind: int, locale: str) -> str:
    """The short name players type and say: ``5万``/``5萬``/``东``/``東``; English
    ``5 Characters``/``East``."""
    if locale == EN or suit(kind) == HONOR:
        return tile_name(kind, locale)
    return f"{rank(kind)}{t(f'suit.{suit(kind)}', locale)}"


def tiles_label(kinds: tuple[int, ...] | list[int], locale: str) -> str:
    return t("tiles.separator", locale).join(tile_label(k, locale) for k in kinds)


def suit_label(suit_index: int, locale: str) -> str:
    """万/筒/条 (0, 1, 2) in the reader's language."""
    return t(f"suit.{suit_index}", locale)


def fan_name(variant: str, line: Mapping[str, Any], locale: str) -> str:
    """A fan or pattern line of the calculator contract (``id``, ``zh``, ``en``), named
    from the catalog; a fan the catalog does not know yet keeps the engine's own name."""
    key = f"fan.{variant}.{line['id']}"
    if has(key):
        return t(key, locale)
    return str(line["en"] if locale == EN else line["zh"])


def own_key(variant: str, key: str) -> str:
    """``key`` as a rule set words it: a rule set that names a moment, a kind of win or a
    payment its own way has ``<group>.<variant>.<rest>`` in the catalogs (血战 says
    ``log.sichuan.win_kong_bloom`` 杠上花 and ``reason.sichuan.kong_added`` 巴杠 where the
    others say 杠上开花 and 补杠), which wins over the shared ``<group>.<rest>``.

    >>> own_key("sichuan", "how.kong_bloom"), own_key("mcr", "how.kong_bloom")
    ('how.sichuan.kong_bloom', 'how.kong_bloom')
    """
    group, _, rest = key.partition(".")
    own = f"{group}.{variant}.{rest}"
    return own if has(own) else key


def variant_text(variant: str, key: str, locale: str, /, **values: object) -> str:
    """The text of ``key`` in the rule set's own words where it has them (:func:`own_key`)."""
    return t(own_key(variant, key), locale, **values)


def reason_name(variant: str, reason: str, locale: str) -> str:
    """A payment reason id (``win_discard``, ``kong_concealed`` …) as the rule set names it."""
    key = own_key(variant, f"reason.{reason}")
    return t(key, locale) if has(key) else reason


def variant_name(variant: str, locale: str) -> str:
    return t(f"variant.{variant}", locale)


def fan_sum(lines: Iterable[Mapping[str, Any]]) -> int:
    """What fan or pattern lines of the calculator contract add up to, before any cap."""
    return sum(int(line["fan"]) * int(line["count"]) for line in lines)


def by_name(variant: str) -> bool:
    """Whether the rule set names a win's worth instead of counting it (广东: small or big
    hu, the big kinds never adding up): its catalog words each total."""
    return has(f"fan.total.{variant}.1")


def total_text(
    variant: str, total: int, locale: str, raw: int | None = None, *, plain: bool = False
) -> str:
    """A win's total as the rule set words it: Guangdong names big and small hu rather
    than counting, so a text for the exact total wins over the general one. ``raw`` is
    what the lines add up to: above ``total``, the rule set's cap lowered it, which
    Sichuan says (``fan.total.sichuan.capped``). The catalog bolds the figure in
    Markdown; ``plain`` leaves that out, for pictures and lines Discord does not format."""
    exact = f"fan.total.{variant}.{total}"
    if has(exact):
        text = t(exact, locale)
    else:
        capped = f"fan.total.{variant}.capped"
        if raw is not None and raw > total and has(capped):
            text = t(capped, locale, total=total, raw=raw)
        else:
            text = t(f"fan.total.{variant}", locale, total=total)
    return text.replace("**", "") if plain else text


def worth_text(variant: str, total: int, locale: str) -> str:
    """What a win is worth, short, for a line that already says what the figure is (what
    each wait would score): the fan with their unit (``12 番``, ``12 fan``), or the name of
    the worth where the rule set names it (广东's ``大胡``)."""
    if by_name(variant):
        return total_text(variant, total, locale, plain=True)
    return t("fan.worth", locale, total=total)


@cache
def _ai_name_forms() -> re.Pattern[str]:
    """An AI seat's name as any of the catalogs words it (``电脑3``, ``電腦3``, ``AI 3``)."""
    forms: list[str] = []
    for locale in LOCALES:
        before, _, after = catalog(locale)["lobby.ai_name"].partition("{n}")
        forms.append(f"{re.escape(before)}(?P<n{len(forms)}>[0-9]+){re.escape(after)}")
    return re.compile("|".join(forms))


def ai_number(name: str) -> int | None:
    """The number of an AI seat's name in any language (``電腦3`` → 3), or None for a
    name the bot did not give."""
    found = _ai_name_forms().fullmatch(name)
    if found is None:
        return None
    return next(int(n) for n in found.groupdict().values() if n is not None)


#: Discord's inline Markdown, wherever it stands: emphasis, strikes, spoilers and code
#: (``*`` ``_`` ``~`` ``|`` and the backtick), masked links (``[``, ``]``), mentions,
#: emojis and timestamps (``<``), and the backslash that escapes them.
_INLINE_MARKS = re.compile(r"([\\*_~|`<\[\]])")
#: What Markdown reads only at the start of a line: a quote (``>``), a heading (``#``),
#: small text or a list item (``-``), a numbered list item (``1.``). A name may start a
#: line, so a name that starts so is escaped where it starts.
_LINE_MARK = re.compile(r"^(\s*)(?:([>#-])|(\d+)\.)")


def escaped(text: str) -> str:
    r"""``text`` as it is, in a message Discord formats: every Markdown mark in it
    escaped. Not ``discord.utils.escape_markdown``, which escapes a mark only when a
    second one follows in the same string: a name goes into a line among others, where
    ``alice_b`` and ``carol_d`` would make what lies between them italic.

    >>> escaped("a_b*c*~~d~~||e||")
    'a\\_b\\*c\\*\\~\\~d\\~\\~\\|\\|e\\|\\|'
    >>> escaped("> Boss"), escaped("1. Bob"), escaped("Jean-Luc")
    ('\\> Boss', '1\\. Bob', 'Jean-Luc')
    """
    text = _INLINE_MARKS.sub(r"\\\1", text)
    return _LINE_MARK.sub(
        lambda m: m.group(1) + (f"\\{m.group(2)}" if m.group(2) else f"{m.group(3)}\\."), text
    )


def plain_name(name: str, ai: bool, locale: str) -> str:
    """A seat's name for one reader, as it is: for pictures (the renderer draws text as
    it is given) and for button and select option labels (Discord formats no Markdown
    there). An AI seat's name is stored in the server's language when it sits down;
    every reader sees it in their own (``电脑3`` → ``電腦3``, ``AI 3``). A person's name,
    and any name the bot did not give, is shown as it is.

    >>> plain_name("电脑3", True, "zh-TW"), plain_name("电脑3", True, "en")
    ('電腦3', 'AI 3')
    >>> plain_name("AI 1", False, "zh-CN")
    'AI 1'
    """
    number = ai_number(name) if ai else None
    return name if number is None else t("lobby.ai_name", locale, n=number)


def plain_names(names: Sequence[str], ai: Sequence[bool], locale: str) -> tuple[str, ...]:
    """:func:`plain_name` of each seat; ``ai`` may be shorter (the rest are people)."""
    return tuple(
        plain_name(name, seat < len(ai) and ai[seat], locale) for seat, name in enumerate(names)
    )


def player_name(name: str, ai: bool, locale: str) -> str:
    r"""A seat's name for one reader in a message's text: :func:`plain_name`
    :func:`escaped`, so that a nickname such as ``**Boss**`` reads as it is written
    instead of formatting the message. Every name that goes into a message's words comes
    from here (or goes through :func:`escaped`); pictures and labels take
    :func:`plain_name`.

    >>> player_name("alice_b", False, "en"), player_name("电脑3", True, "en")
    ('alice\\_b', 'AI 3')
    """
    return escaped(plain_name(name, ai, locale))


def player_names(names: Sequence[str], ai: Sequence[bool], locale: str) -> tuple[str, ...]:
    """:func:`player_name` of each seat, for a message's text; ``ai`` may be shorter."""
    return tuple(escaped(name) for name in plain_names(names, ai, locale))


def rating_text(rating: Rating | None, locale: str) -> str:
    """A rating as players see it, marked while provisional (1500?, 1500（定级中）); no
    rating yet reads as a new player's."""
    if rating is None:
        return t("stats.rating_provisional", locale, rating=shown_rating(0.0))
    key = "stats.rating_provisional" if rating.provisional else "stats.rating"
    return t(key, locale, rating=rating.shown)
