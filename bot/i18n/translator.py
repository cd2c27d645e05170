"""Localized names and descriptions of the slash commands, read from the catalogs.

Command metadata is written as :func:`text` (the English catalog entry as the default,
its key riding in ``locale_str.extras``); the translator answers Discord's Chinese locales
from the matching catalog and leaves every other locale to the English default.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import EN, ZH_CN, ZH_TW, t
from engine.rules.registry import VARIANTS

_TARGETS = {discord.Locale.chinese: ZH_CN, discord.Locale.taiwan_chinese: ZH_TW}


def text(key: str) -> app_commands.locale_str:
    """A command name, description or choice name by catalog key."""
    return app_commands.locale_str(t(key, EN), key=key)


def variant_choices() -> list[app_commands.Choice[str]]:
    """The rule sets as a command option's choices."""
    return [app_commands.Choice(name=text(f"variant.{v}"), value=v) for v in VARIANTS]


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        target = _TARGETS.get(locale)
        if key is None or target is None:
            return None
        return t(key, target)
