"""``/leaderboard``, ``/stats`` and ``/history``: per-server figures from the store.

``/leaderboard`` ranks by rating unless asked otherwise, all time or one season of the
server; ``/stats`` answers with a picture (renderer/stats.py) and a short text."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_privately, answer_publicly, finish, in_time
from bot.card_history import guild_of
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.terms import (
    escaped,
    fan_name,
    rating_text,
    total_text,
    variant_name,
    variant_text,
)
from bot.i18n.translator import text, variant_choices
from bot.pictures import as_file, stats_png
from data.errors import NotFoundError
from data.models import (
    PROVISIONAL_SESSIONS,
    LeaderboardEntry,
    Period,
    PlayerProfile,
    PlayerStats,
    Ranking,
    RoundSummary,
    Variant,
    shown_rating,
)
from renderer.stats import StatsView

if TYPE_CHECKING:
    from bot.client import MahjongBot

BOARD_SIZE = 10
#: Hands a player needs to be ranked by win rate, in the period or season shown: one
#: lucky hand would otherwise top the board at 100%.
MIN_WIN_RATE_HANDS = 10
HISTORY_SIZE = 10
#: Fans or patterns the /stats picture lists.
TOP_FANS = 5


def figure(entry: LeaderboardEntry, ranking: Ranking, locale: str) -> str:
    stats = entry.stats
    if ranking is Ranking.RATING:
        return rating_text(entry.rating, locale)
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
        by_sessions = ranking is Ranking.RATING and entry.rating is not None
        lines.append(
            t(
                "stats.board_line_sessions" if by_sessions else "stats.board_line",
                locale,
                rank=entry.rank,
                name=escaped(entry.display_name or str(entry.stats.user_id)),
                figure=figure(entry, ranking, locale),
                count=entry.rating.sessions
                if by_sessions and entry.rating is not None
                else entry.stats.games,
            )
        )
    return "\n".join(lines)


def stats_text(name: str, stats: PlayerStats, locale: str) -> str:
    """/stats in words; ``name`` as it is (the picture's title), escaped here."""
    return t(
        "stats.player",
        locale,
        name=escaped(name),
        games=stats.games,
        wins=stats.wins,
        win_rate=f"{stats.win_rate:.0%}",
        self_draws=stats.self_draws,
        deal_ins=stats.deal_ins,
        net=f"{stats.net:+d}",
        best=stats.best_hand if stats.best_hand is not None else "—",
    )


def stats_view(
    name: str, profile: PlayerProfile, locale: str, variant: str | None = None
) -> StatsView:
    """The /stats picture's contents in the reader's words."""
    figures = profile.stats
    rating = profile.rating
    sessions = 0 if rating is None else rating.sessions
    deal_in_rate = figures.deal_ins / figures.games if figures.games else 0.0
    biggest = profile.biggest
    separator = t("list.separator", locale)
    return StatsView(
        title=name,
        subtitle=t(
            "stats.picture.subtitle",
            locale,
            variant=variant_name(variant, locale) if variant else t("stats.all_variants", locale),
        ),
        rating=str(shown_rating(0.0) if rating is None else rating.shown),
        rating_badge=t("stats.picture.provisional", locale)
        if rating is None or rating.provisional
        else "",
        rating_caption=t(
            "stats.picture.provisional_sessions",
            locale,
            count=sessions,
            needed=PROVISIONAL_SESSIONS,
        )
        if rating is None or rating.provisional
        else t("stats.picture.sessions", locale, count=sessions),
        history_label=t("stats.picture.history", locale),
        history=tuple(point.rating.shown for point in profile.history),
        no_history=t("stats.picture.no_history", locale),
        placements_label=t("stats.picture.placements", locale),
        placements=tuple(
            (t(f"stats.picture.place_{place}", locale), count)
            for place, count in enumerate(profile.placements, start=1)
        ),
        figures=(
            (t("stats.picture.hands", locale), str(figures.games)),
            (t("stats.picture.win_rate", locale), f"{figures.win_rate:.0%}"),
            (t("stats.picture.deal_in_rate", locale), f"{deal_in_rate:.0%}"),
        ),
        fans_label=t("stats.picture.fans", locale),
        fans=tuple(
            (
                fan_name(fan.variant.value, {"id": fan.fan_id, "zh": fan.zh, "en": fan.en}, locale),
                t("stats.picture.times", locale, count=fan.count),
            )
            for fan in profile.fans[:TOP_FANS]
        ),
        biggest_label=t("stats.picture.biggest", locale),
        biggest=""
        if biggest is None
        else separator.join(
            (
                variant_name(biggest.variant.value, locale),
                total_text(biggest.variant.value, biggest.total, locale, plain=True),
            )
        ),
        biggest_fans=""
        if biggest is None
        else separator.join(fan_name(biggest.variant.value, line, locale) for line in biggest.fans),
        nothing=t("stats.empty", locale),
    )


def history_line(row: RoundSummary, locale: str) -> str:
    if row.won:
        outcome = (
            variant_text(row.variant.value, f"how.{row.how}", locale)
            if row.how
            else t("stats.won", locale)
        )
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
        season=text("opt.leaderboard.season.name"),
    )
    @app_commands.describe(
        variant=text("opt.variant.description"),
        period=text("opt.leaderboard.period.description"),
        ranking=text("opt.leaderboard.ranking.description"),
        season=text("opt.leaderboard.season.description"),
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
        ranking: str = Ranking.RATING.value,
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        board = self._board(interaction, variant, period, ranking, season)
        await answer_publicly(interaction, await in_time(interaction, board, private=False))

    async def _board(
        self,
        interaction: discord.Interaction[MahjongBot],
        variant: str | None,
        period: str,
        ranking: str,
        season: int | None,
    ) -> str:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        chosen = Ranking(ranking)
        try:
            entries = await self.bot.store.leaderboard(
                guild_id=guild_id,
                variant=Variant(variant) if variant else None,
                period=Period(period),
                ranking=chosen,
                min_games=MIN_WIN_RATE_HANDS if chosen is Ranking.WIN_RATE else 0,
                limit=BOARD_SIZE,
                season=season,
            )
        except NotFoundError:
            raise UserError("stats.no_season", season=season) from None
        if season is not None:
            # A season's boards count its rated sessions; ratings count all time.
            when = t("stats.season", locale, number=season)
        elif chosen is Ranking.RATING:
            when = t("choice.period.all", locale)
        else:
            when = t(f"choice.period.{period}", locale)
        heading = t(
            "stats.board_heading",
            locale,
            variant=variant_name(variant, locale) if variant else t("stats.all_variants", locale),
            period=when,
            ranking=t(f"choice.ranking.{ranking}", locale),
        )
        if chosen is Ranking.WIN_RATE:
            heading += t("stats.board_min_hands", locale, count=MIN_WIN_RATE_HANDS)
        board = board_text(entries, chosen, heading, locale)
        # Say so rather than ignore the days asked for.
        if Period(period) is not Period.ALL:
            if season is not None:
                board += "\n" + t("stats.season_whole", locale)
            elif chosen is Ranking.RATING:
                # A rating sums up every session.
                board += "\n" + t("stats.rating_all_time", locale)
        return board

    @app_commands.command(name=text("cmd.stats.name"), description=text("cmd.stats.description"))
    @app_commands.guild_only()
    @app_commands.rename(user=text("opt.user.name"), variant=text("opt.variant.name"))
    @app_commands.describe(
        user=text("opt.user.description"), variant=text("opt.variant.description")
    )
    @app_commands.choices(variant=variant_choices())
    async def stats(
        self,
        interaction: discord.Interaction[MahjongBot],
        user: discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        target = user or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        profile = await self.bot.store.player_profile(
            target.id, guild_id=guild_id, variant=Variant(variant) if variant else None
        )
        png = await stats_png(stats_view(target.display_name, profile, locale, variant))
        lines = [
            stats_text(target.display_name, profile.stats, locale),
            t("stats.rating_line", locale, rating=rating_text(profile.rating, locale)),
        ]
        await finish(interaction, "\n".join(lines), as_file(png, "stats.png"))

    @app_commands.command(
        name=text("cmd.history.name"), description=text("cmd.history.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(user=text("opt.user.name"))
    @app_commands.describe(user=text("opt.user.description"))
    async def history(
        self, interaction: discord.Interaction[MahjongBot], user: discord.User | None = None
    ) -> None:
        shown = self._history(interaction, user or interaction.user)
        await answer_privately(interaction, await in_time(interaction, shown))

    async def _history(
        self, interaction: discord.Interaction[MahjongBot], target: discord.User | discord.Member
    ) -> str:
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        rows = await self.bot.store.recent_rounds(target.id, guild_id=guild_id, limit=HISTORY_SIZE)
        lines = [t("stats.history_heading", locale, name=escaped(target.display_name))]
        lines += [history_line(row, locale) for row in rows] or [t("stats.empty", locale)]
        return "\n".join(lines)


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(StatsCog(bot))
