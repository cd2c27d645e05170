"""``/leaderboard``, ``/stats`` and ``/history``: per-server figures from the store."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.cards import guild_of
from bot.i18n import t
from bot.i18n.terms import variant_name
from bot.i18n.translator import text, variant_choices
from data.models import LeaderboardEntry, Period, PlayerStats, Ranking, RoundSummary, Variant

if TYPE_CHECKING:
    from bot.client import MahjongBot

BOARD_SIZE = 10
HISTORY_SIZE = 10


def figure(entry: LeaderboardEntry, ranking: Ranking) -> str:
    stats = entry.stats
    if ranking is Ranking.WIN_RATE:
        return f"{stats.win_rate:.0%}"
    if ranking is Ranking.BEST_HAND:
        return str(stats.best_hand or 0)
    return f"{stats.net:+d}"


def board_text(entries: list[LeaderboardEntry], ranking: Ranking, heading: str, locale: str) -> str:
    if not entries:
        return f"{heading}\n" + t("stats.empty", locale)
    lines = [heading]
    for entry in entries:
        lines.append(
            t(
                "stats.board_line",
                locale,
                rank=entry.rank,
                name=entry.display_name or entry.stats.user_id,
                figure=figure(entry, ranking),
                count=entry.stats.games,
            )
        )
    return "\n".join(lines)


def stats_text(name: str, stats: PlayerStats, locale: str) -> str:
    return t(
        "stats.player",
        locale,
        name=name,
        games=stats.games,
        wins=stats.wins,
        win_rate=f"{stats.win_rate:.0%}",
        self_draws=stats.self_draws,
        deal_ins=stats.deal_ins,
        net=f"{stats.net:+d}",
        best=stats.best_hand if stats.best_hand is not None else "—",
    )


def history_line(row: RoundSummary, locale: str) -> str:
    if row.won:
        outcome = t(f"how.{row.how}", locale) if row.how else t("stats.won", locale)
    elif row.dealt_in:
        outcome = t("stats.dealt_in", locale)
    else:
        outcome = ""
    return t(
        "stats.history_line",
        locale,
        round=row.round_id,
        variant=variant_name(row.variant.value, locale),
        hand=row.hand_number,
        net=f"{row.net:+d}",
        outcome=outcome,
        when=f"<t:{int(row.finished_at.timestamp())}:R>",
    )


class StatsCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.leaderboard.name"), description=text("cmd.leaderboard.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(
        variant=text("opt.variant.name"),
        period=text("opt.leaderboard.period.name"),
        ranking=text("opt.leaderboard.ranking.name"),
    )
    @app_commands.describe(
        variant=text("opt.variant.description"),
        period=text("opt.leaderboard.period.description"),
        ranking=text("opt.leaderboard.ranking.description"),
    )
    @app_commands.choices(
        variant=variant_choices(),
        period=[
            app_commands.Choice(name=text(f"choice.period.{p.value}"), value=p.value)
            for p in Period
        ],
        ranking=[
            app_commands.Choice(name=text(f"choice.ranking.{r.value}"), value=r.value)
            for r in Ranking
        ],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[MahjongBot],
        variant: str | None = None,
        period: str = Period.ALL.value,
        ranking: str = Ranking.NET.value,
    ) -> None:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        chosen = Ranking(ranking)
        entries = await self.bot.store.leaderboard(
            guild_id=guild_id,
            variant=Variant(variant) if variant else None,
            period=Period(period),
            ranking=chosen,
            limit=BOARD_SIZE,
        )
        heading = t(
            "stats.board_heading",
            locale,
            variant=variant_name(variant, locale) if variant else t("stats.all_variants", locale),
            period=t(f"choice.period.{period}", locale),
            ranking=t(f"choice.ranking.{ranking}", locale),
        )
        await interaction.response.send_message(
            board_text(entries, chosen, heading, locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name=text("cmd.stats.name"), description=text("cmd.stats.description"))
    @app_commands.guild_only()
    @app_commands.rename(user=text("opt.user.name"))
    @app_commands.describe(user=text("opt.user.description"))
    async def stats(
        self, interaction: discord.Interaction[MahjongBot], user: discord.User | None = None
    ) -> None:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        target = user or interaction.user
        figures = await self.bot.store.player_stats(target.id, guild_id=guild_id)
        await interaction.response.send_message(
            stats_text(target.display_name, figures, locale), ephemeral=True
        )

    @app_commands.command(
        name=text("cmd.history.name"), description=text("cmd.history.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(user=text("opt.user.name"))
    @app_commands.describe(user=text("opt.user.description"))
    async def history(
        self, interaction: discord.Interaction[MahjongBot], user: discord.User | None = None
    ) -> None:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        target = user or interaction.user
        rows = await self.bot.store.recent_rounds(target.id, guild_id=guild_id, limit=HISTORY_SIZE)
        lines = [t("stats.history_heading", locale, name=target.display_name)]
        lines += [history_line(row, locale) for row in rows] or [t("stats.empty", locale)]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(StatsCog(bot))
