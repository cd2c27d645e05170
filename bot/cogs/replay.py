"""``/replay``: step through a finished hand of this server with ◀ ▶ buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import replays
from bot.i18n.translator import text
from bot.ids import MAX_ID

if TYPE_CHECKING:
    from bot.client import MahjongBot


class ReplayCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.replay.name"), description=text("cmd.replay.description"))
    @app_commands.guild_only()
    @app_commands.rename(round_id=text("opt.replay.round.name"))
    @app_commands.describe(round_id=text("opt.replay.round.description"))
    async def replay(
        self,
        interaction: discord.Interaction[MahjongBot],
        round_id: app_commands.Range[int, 1, MAX_ID],
    ) -> None:
        await replays.show(self.bot, interaction, round_id)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(ReplayCog(bot))
