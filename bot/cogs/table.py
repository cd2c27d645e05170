"""``/table``: open, join, watch, start, change and end tables; reactions on hand messages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import finish
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.translator import text, variant_choices
from bot.variants import MAX_TIMER, ROUND_COUNTS, OptionSyntaxError, parse_assignments

if TYPE_CHECKING:
    from bot.client import MahjongBot


@app_commands.guild_only()
class TableCog(
    commands.GroupCog,
    group_name=text("cmd.table.name"),
    group_description=text("cmd.table.description"),
):
    """Tables."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=text("cmd.table.create.name"), description=text("cmd.table.create.description")
    )
    @app_commands.rename(
        variant=text("opt.variant.name"),
        rounds=text("opt.table.rounds.name"),
        fill_with_ai=text("opt.table.fill_with_ai.name"),
        turn_timer=text("opt.table.turn_timer.name"),
        claim_timer=text("opt.table.claim_timer.name"),
        options=text("opt.table.options.name"),
    )
    @app_commands.describe(
        variant=text("opt.variant.description"),
        rounds=text("opt.table.rounds.description"),
        fill_with_ai=text("opt.table.fill_with_ai.description"),
        turn_timer=text("opt.table.turn_timer.description"),
        claim_timer=text("opt.table.claim_timer.description"),
        options=text("opt.table.options.description"),
    )
    @app_commands.choices(variant=variant_choices())
    @app_commands.choices(rounds=[app_commands.Choice(name=str(n), value=n) for n in ROUND_COUNTS])
    async def create(
        self,
        interaction: discord.Interaction[MahjongBot],
        variant: str,
        rounds: int | None = None,
        fill_with_ai: bool | None = None,
        turn_timer: app_commands.Range[int, 0, MAX_TIMER] | None = None,
        claim_timer: app_commands.Range[int, 0, MAX_TIMER] | None = None,
        options: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            raw: dict[str, Any] = parse_assignments(options or "")
        except OptionSyntaxError as exc:
            raise UserError("error.option_syntax", part=exc.part) from None
        for name, value in (
            ("rounds", rounds),
            ("fill_with_ai", fill_with_ai),
            ("turn_timer", turn_timer),
            ("claim_timer", claim_timer),
        ):
            if value is not None:
                raw[name] = value
        table = await self.bot.tables.create(interaction, variant, raw)
        locale = await self.bot.locale_of(interaction)
        await finish(interaction, t("lobby.opened", locale, channel=f"<#{table.channel_id}>"))

    @app_commands.command(
        name=text("cmd.table.join.name"), description=text("cmd.table.join.description")
    )
    async def join(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        await self.bot.tables.join(interaction, table)

    @app_commands.command(
        name=text("cmd.table.leave.name"), description=text("cmd.table.leave.description")
    )
    async def leave(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        await self.bot.tables.leave(interaction, table)

    @app_commands.command(
        name=text("cmd.table.watch.name"), description=text("cmd.table.watch.description")
    )
    async def watch(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        running = self.bot.tables.running.get(table.id)
        if running is None:
            raise UserError("lobby.not_started")
        await running.spectate(interaction)

    @app_commands.command(
        name=text("cmd.table.start.name"), description=text("cmd.table.start.description")
    )
    async def start(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        # The table manager answers: at once, or privately once a slow start is done.
        await self.bot.tables.start(interaction, table)

    @app_commands.command(
        name=text("cmd.table.options.name"), description=text("cmd.table.options.description")
    )
    @app_commands.rename(settings=text("opt.table.options.name"))
    @app_commands.describe(settings=text("opt.table.options.description"))
    async def options(
        self,
        interaction: discord.Interaction[MahjongBot],
        settings: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        table = await self.bot.tables.table_here(interaction)
        if settings is None:
            await self.bot.tables.open_options(interaction, table)
            return
        await self.bot.tables.change_options(interaction, table.id, settings)

    @app_commands.command(
        name=text("cmd.table.disband.name"), description=text("cmd.table.disband.description")
    )
    async def disband(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        await self.bot.tables.disband(interaction, table)

    # A reaction on a hand message answers a claim. The bot cannot remove a player's
    # reaction in DMs, so taking one back and adding it again counts as a second press.
    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self.bot.tables.on_reaction(payload.user_id, payload.message_id, str(payload.emoji))

    @commands.Cog.listener()
    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        await self.bot.tables.on_reaction(payload.user_id, payload.message_id, str(payload.emoji))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(TableCog(bot))
