"""``/settings``: the player's language and privacy settings, used at every table."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_privately, in_time
from bot.i18n import LOCALES, t
from bot.i18n.translator import text
from data.models import PlayerSettings

if TYPE_CHECKING:
    from bot.client import MahjongBot

AUTO = "auto"


def language_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(f"choice.language.{value}"), value=value)
        for value in (AUTO, *LOCALES)
    ]


def describe(settings: PlayerSettings, locale: str) -> str:
    def flag(on: bool) -> str:
        return t("settings.on" if on else "settings.off", locale)

    language = t(f"choice.language.{settings.locale or AUTO}", locale)
    return t(
        "settings.current",
        locale,
        language=language,
        spectators=flag(settings.spectators_see_hand),
        system=flag(settings.show_system_messages),
        auto_play=flag(settings.auto_play_on_timeout),
    )


class SettingsCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.settings.name"), description=text("cmd.settings.description")
    )
    @app_commands.rename(
        language=text("opt.settings.language.name"),
        spectators_see_hand=text("opt.settings.spectators_see_hand.name"),
        show_system_messages=text("opt.settings.show_system_messages.name"),
        auto_play=text("opt.settings.auto_play.name"),
    )
    @app_commands.describe(
        language=text("opt.settings.language.description"),
        spectators_see_hand=text("opt.settings.spectators_see_hand.description"),
        show_system_messages=text("opt.settings.show_system_messages.description"),
        auto_play=text("opt.settings.auto_play.description"),
    )
    @app_commands.choices(language=language_choices())
    async def settings(
        self,
        interaction: discord.Interaction[MahjongBot],
        language: str | None = None,
        spectators_see_hand: bool | None = None,
        show_system_messages: bool | None = None,
        auto_play: bool | None = None,
    ) -> None:
        chosen = {
            "spectators_see_hand": spectators_see_hand,
            "show_system_messages": show_system_messages,
            "auto_play_on_timeout": auto_play,
        }
        saved = self._saved(interaction, language, chosen)
        await answer_privately(interaction, await in_time(interaction, saved))

    async def _saved(
        self,
        interaction: discord.Interaction[MahjongBot],
        language: str | None,
        chosen: dict[str, bool | None],
    ) -> str:
        """The person's settings after the changes chosen, stored, as they read them."""
        current = await self.bot.player_settings(interaction.user.id)
        changes: dict[str, object] = {k: v for k, v in chosen.items() if v is not None}
        if language is not None:
            changes["locale"] = None if language == AUTO else language
        if changes:
            current = dataclasses.replace(current, **changes)  # type: ignore[arg-type]
            await self.bot.save_player_settings(current)
        locale = await self.bot.locale_of(interaction)
        head = t("settings.saved" if changes else "settings.heading", locale)
        return f"{head}\n{describe(current, locale)}"


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(SettingsCog(bot))
