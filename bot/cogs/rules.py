"""``/rules``: a short illustrated summary of a rule set and its table options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import options
from bot.answers import finish
from bot.i18n import t
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
    rows = [(o.name, o.default) for o in option_table(variant)]
    rows += [(o.name, defaults.get(o.name, o.default)) for o in COMMON_OPTIONS]
    return [option_line(variant, name, default, locale) for name, default in rows]


def option_line(variant: str, name: str, default: object, locale: str) -> str:
    """One option: its name and default as one types them (``self_draw_bonus=add_base``),
    and what they mean in the reader's words (自摸：加底), as the lobby words them. A list
    (广东's big-hu kinds) is given in words only: its ids would be a long JSON array of
    English."""
    meaning = options.option_name(variant, name, locale)
    words = options.value_text(variant, name, default, locale)
    if isinstance(default, list | tuple | set | frozenset):
        return t("rules.option_list", locale, name=name, meaning=meaning, words=words)
    value = format_value(default)
    if words == value:
        return t("rules.option", locale, name=name, value=value, meaning=meaning)
    return t("rules.option_worded", locale, name=name, value=value, meaning=meaning, words=words)


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
