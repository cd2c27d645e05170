"""``/rules``: a short illustrated summary of a rule set and its table options."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import finish
from bot.i18n import t
from bot.i18n.translator import text, variant_choices
from bot.pictures import as_file, tiles_png
from bot.variants import COMMON_OPTIONS, format_value, ruleset
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


def option_lines(variant: str, locale: str) -> list[str]:
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
        lines.append(
            t(
                "rules.option",
                locale,
                name=option.name,
                value=format_value(option.default),
                meaning=t(f"option.common.{option.name}", locale),
            )
        )
    return lines


def summary(variant: str, locale: str) -> str:
    parts = [
        t(f"rules.{variant}.summary", locale),
        t("rules.options_heading", locale),
        *option_lines(variant, locale),
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
        png = await tiles_png(tuple(parse_tiles(SAMPLE_HANDS[variant])))
        await finish(interaction, summary(variant, locale), as_file(png, f"{variant}.png"))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(RulesCog(bot))
