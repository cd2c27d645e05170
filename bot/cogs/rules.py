"""``/rules``: a short illustrated summary of a rule set and its table options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import finish
from bot.i18n import has, t
from bot.i18n.translator import text, variant_choices
from bot.pictures import as_file, tiles_png
from bot.variants import COMMON_OPTIONS, format_value, ruleset
from data.models import GuildConfig
from engine.rules.base import Option, RuleError
from engine.rules.registry import find_calculator
from engine.tiles import parse_tiles

if TYPE_CHECKING:
    from bot.client import MahjongBot

# A winning hand typical of each rule set, drawn above its summary.
SAMPLE_HANDS = {
    "mcr": "123m456m789m234p55z",
    "guangdong": "111z222z333z444z55z",
    "sichuan": "11122233344455p",
}


def option_table(variant: str) -> tuple[Option, ...]:
    """The table options of a rule set: its play rules' table when available, else the
    calculator's (which names the same options)."""
    try:
        return ruleset(variant).option_table
    except RuleError:
        return tuple(o for o in find_calculator(variant).options if o.name != "void_suit")


def option_lines(variant: str, locale: str, defaults: Mapping[str, object]) -> list[str]:
    """Each option with its default: the rule set's, and for the options every table has,
    ``defaults`` (the server's timers) where given. A common option the rule set words its
    own way (no chow to claim in 广东 and 血战) takes the rule set's words."""
    lines = []
    for option in option_table(variant):
        lines.append(
            t(
                "rules.option",
                locale,
                name=option.name,
                value=format_value(option.default),
                meaning=t(f"option.{variant}.{option.name}", locale),
            )
        )
    for option in COMMON_OPTIONS:
        own = f"option.{variant}.{option.name}"
        lines.append(
            t(
                "rules.option",
                locale,
                name=option.name,
                value=format_value(defaults.get(option.name, option.default)),
                meaning=t(own if has(own) else f"option.common.{option.name}", locale),
            )
        )
    return lines


def summary(variant: str, locale: str, defaults: Mapping[str, object]) -> str:
    parts = [
        t(f"rules.{variant}.summary", locale),
        t("rules.options_heading", locale),
        *option_lines(variant, locale, defaults),
    ]
    return "\n".join(parts)


class RulesCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.rules.name"), description=text("cmd.rules.description"))
    @app_commands.rename(variant=text("opt.variant.name"))
    @app_commands.describe(variant=text("opt.variant.description"))
    @app_commands.choices(variant=variant_choices())
    async def rules(self, interaction: discord.Interaction[MahjongBot], variant: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_of(interaction)
        guild_id = interaction.guild_id
        config = await self.bot.store.guild_config(guild_id) if guild_id else GuildConfig(0)
        timers = self.bot.tables.timer_defaults(config)
        defaults = dict(zip(("turn_timer", "claim_timer"), timers, strict=True))
        png = await tiles_png(tuple(parse_tiles(SAMPLE_HANDS[variant])))
        text = summary(variant, locale, defaults)
        await finish(interaction, text, as_file(png, f"{variant}.png"))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(RulesCog(bot))
