"""``/cards balance`` and ``/cards history``: room cards in this server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_privately, in_time, whole_lines
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.translator import text
from data.models import CardMovement

if TYPE_CHECKING:
    from bot.client import MahjongBot

HISTORY_LINES = 15
#: The most of an admin's note (up to 200 characters) a line of /cards history shows, so
#: that a page of movements fits one message.
NOTE_SHOWN = 60


def shown_note(note: str) -> str:
    return note if len(note) <= NOTE_SHOWN else note[: NOTE_SHOWN - 1] + "…"


def movement_line(move: CardMovement, locale: str) -> str:
    table = t("cards.table", locale, table=move.table_id) if move.table_id else ""
    return t(
        "cards.line",
        locale,
        when=f"<t:{int(move.created_at.timestamp())}:d>",
        kind=t(f"cards.kind.{move.kind.value}", locale),
        delta=f"{move.delta:+d}",
        balance=move.balance_after,
        table=table,
        note=f" · {shown_note(move.note)}" if move.note else "",
    )


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("error.guild_only")
    return interaction.guild_id


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
        await answer_privately(interaction, await in_time(interaction, self._history(interaction)))

    async def _history(self, interaction: discord.Interaction[MahjongBot]) -> str:
        guild_id = guild_of(interaction)
        moves = await self.bot.store.card_history(
            guild_id, interaction.user.id, limit=HISTORY_LINES
        )
        locale = await self.bot.locale_of(interaction)
        if not moves:
            return t("cards.none", locale)
        lines = [t("cards.history_heading", locale)]
        lines += [movement_line(move, locale) for move in moves]
        return whole_lines(lines)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(CardsCog(bot))
