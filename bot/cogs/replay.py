"""``/replay``: step through a finished hand by its code (or number), with jumps."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import replays
from bot.errors import UserError
from bot.i18n.translator import text
from bot.ids import MAX_ID

if TYPE_CHECKING:
    from bot.client import MahjongBot


class ReplayCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    # Not guild-only: in DMs a hand's players open it by its code (replays.may_see).
    @app_commands.command(name=text("cmd.replay.name"), description=text("cmd.replay.description"))
    @app_commands.rename(code=text("opt.replay.code.name"), round_id=text("opt.replay.round.name"))
    @app_commands.describe(
        code=text("opt.replay.code.description"), round_id=text("opt.replay.round.description")
    )
    async def replay(
        self,
        interaction: discord.Interaction[MahjongBot],
        code: app_commands.Range[str, 1, 20] | None = None,
        round_id: app_commands.Range[int, 1, MAX_ID] | None = None,
    ) -> None:
        if code is not None:
            await replays.show_code(self.bot, interaction, code)
        elif round_id is not None:
            await replays.show(self.bot, interaction, round_id)
        else:
            raise UserError("replay.need_code")


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(ReplayCog(bot))
