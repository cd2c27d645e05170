"""``/hand``: my hand and controls again, privately (a spectator sees the table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.i18n.translator import text

if TYPE_CHECKING:
    from bot.client import MahjongBot


class HandCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.hand.name"), description=text("cmd.hand.description"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[MahjongBot]) -> None:
        table = await self.bot.tables.table_here(interaction)
        running = self.bot.tables.running.get(table.id)
        if running is None:
            raise UserError("lobby.not_started")
        if not running.is_seated(interaction.user.id):
            await running.spectate(interaction)
            return
        await running.show_hand(interaction)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(HandCog(bot))
