"""``/cards balance`` and ``/cards history``: room cards in this server (the history's
pages: :mod:`bot.card_history`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_privately, in_time
from bot.card_history import guild_of, shown_page
from bot.i18n import t
from bot.i18n.translator import text

if TYPE_CHECKING:
    from bot.client import MahjongBot


@app_commands.guild_only()
class CardsCog(
    commands.GroupCog,
    group_name=text("cmd.cards.name"),
    group_description=text("cmd.cards.description"),
):
    """Room cards."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=text("cmd.cards.balance.name"), description=text("cmd.cards.balance.description")
    )
    async def balance(self, interaction: discord.Interaction[MahjongBot]) -> None:
        await answer_privately(interaction, await in_time(interaction, self._balance(interaction)))

    async def _balance(self, interaction: discord.Interaction[MahjongBot]) -> str:
        guild_id = guild_of(interaction)
        # The name in this server (nickname first), as the boards and lobbies show it.
        await self.bot.store.touch_member(
            guild_id, interaction.user.id, interaction.user.display_name
        )
        daily = await self.bot.store.claim_daily_cards(guild_id, interaction.user.id)
        balance = await self.bot.store.card_balance(guild_id, interaction.user.id)
        locale = await self.bot.locale_of(interaction)
        lines = [t("cards.balance", locale, count=balance)]
        if daily is not None and not daily.replayed:
            lines.append(t("cards.daily", locale, cards=daily.delta))
        return "\n".join(lines)

    @app_commands.command(
        name=text("cmd.cards.history.name"), description=text("cmd.cards.history.description")
    )
    async def history(self, interaction: discord.Interaction[MahjongBot]) -> None:
        content, view = await in_time(interaction, shown_page(self.bot, interaction, None, 0))
        await answer_privately(interaction, content, view)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(CardsCog(bot))
