"""``/admin cards grant``, ``/admin config`` and ``/admin season start|end``: what server
admins (Manage Server) set."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answer_privately, answer_publicly, in_time
from bot.card_history import guild_of
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.translator import text
from bot.variants import MAX_TIMER, ROUND_COUNTS
from data.errors import InsufficientCardsError, SeasonError
from data.models import CardPayer, GuildConfig, GuildConfigChange, Season

if TYPE_CHECKING:
    from bot.client import MahjongBot


#: The most cards a table may cost.
MAX_PRICE = 10000
#: "8 = 3", as table options and the bot's own options form write a setting, reads "8=3".
_SPACED_EQUALS = re.compile(r"\s*=\s*")


def parse_prices(written: str) -> dict[int, int]:
    """``1=1 4=2 8=3 16=4`` → {1: 1, 4: 2, 8: 3, 16: 4}: prices of the hand counts a table
    may play (every rule set offers the same ones)."""
    prices: dict[int, int] = {}
    for part in _SPACED_EQUALS.sub("=", written.replace(",", " ")).split():
        rounds, sep, cards = part.partition("=")
        # isdecimal, not isdigit: "²" is a digit that int() refuses.
        if not sep or not rounds.strip().isdecimal() or not cards.strip().isdecimal():
            raise UserError("admin.bad_prices", value=part)
        if int(rounds) not in ROUND_COUNTS or int(cards) > MAX_PRICE:
            raise UserError("admin.bad_prices", value=part)
        prices[int(rounds)] = int(cards)
    if not prices:
        raise UserError("admin.bad_prices", value=written)
    return prices


def prices_of(config: GuildConfig) -> dict[int, int]:
    """What a table of each hand count costs on the server."""
    return {rounds: config.price_for(rounds) for rounds in ROUND_COUNTS}


def describe(config: GuildConfig, timers: tuple[int, int], locale: str) -> str:
    category = f"<#{config.table_category_id}>" if config.table_category_id else "—"
    prices = " ".join(f"{r}={c}" for r, c in sorted(prices_of(config).items()))
    return t(
        "admin.config",
        locale,
        category=category,
        turn_timer=timers[0],
        claim_timer=timers[1],
        starter_cards=config.starter_cards,
        daily_cards=config.daily_cards,
        prices=prices,
        card_payer=t(f"choice.card_payer.{config.card_payer.value}", locale),
        lobbies_per_member=config.lobbies_per_member or t("admin.no_cap", locale),
        lobbies_per_server=config.lobbies_per_server or t("admin.no_cap", locale),
    )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    commands.GroupCog,
    group_name=text("cmd.admin.name"),
    group_description=text("cmd.admin.description"),
):
    """Server settings for admins."""

    cards = app_commands.Group(
        name=text("cmd.admin.cards.name"), description=text("cmd.admin.cards.description")
    )
    season = app_commands.Group(
        name=text("cmd.admin.season.name"), description=text("cmd.admin.season.description")
    )

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Manage Server, checked as each command runs: ``default_permissions`` only sets
        who sees the commands at first, and a server may open them to anyone."""
        return interaction.permissions.manage_guild

    @cards.command(
        name=text("cmd.admin.cards.grant.name"),
        description=text("cmd.admin.cards.grant.description"),
    )
    @app_commands.rename(
        user=text("opt.admin.user.name"),
        amount=text("opt.admin.amount.name"),
        note=text("opt.admin.note.name"),
    )
    @app_commands.describe(
        user=text("opt.admin.user.description"),
        amount=text("opt.admin.amount.description"),
        note=text("opt.admin.note.description"),
    )
    async def grant(
        self,
        interaction: discord.Interaction[MahjongBot],
        user: discord.Member | discord.User,
        amount: app_commands.Range[int, -10000, 10000],
        note: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        if amount == 0:
            raise UserError("admin.zero")
        # Room cards pay for seats at tables, which only the server's people take.
        if user.bot:
            raise UserError("admin.grant_bot", user=user.mention)
        if not isinstance(user, discord.Member):
            raise UserError("admin.grant_not_member", user=user.mention)
        granted = self._granted(interaction, user, amount, note)
        await answer_privately(interaction, await in_time(interaction, granted))

    async def _granted(
        self,
        interaction: discord.Interaction[MahjongBot],
        user: discord.Member,
        amount: int,
        note: str | None,
    ) -> str:
        """The cards given (or taken), stored, as the admin reads it."""
        guild_id = guild_of(interaction)
        locale = await self.bot.locale_of(interaction)
        try:
            move = await self.bot.store.grant_cards(
                guild_id,
                user.id,
                amount,
                key=f"grant:{interaction.id}",
                actor_id=interaction.user.id,
                note=note,
                # Their name in this server, as the boards show it.
                display_name=user.display_name,
            )
        except InsufficientCardsError as exc:
            raise UserError("admin.take_too_many", count=exc.balance) from None
        return t(
            "admin.granted",
            locale,
            user=user.mention,
            count=move.delta,
            delta=f"{move.delta:+d}",
            balance=move.balance_after,
        )

    @app_commands.command(
        name=text("cmd.admin.config.name"), description=text("cmd.admin.config.description")
    )
    @app_commands.rename(
        table_category=text("opt.admin.table_category.name"),
        no_category=text("opt.admin.no_category.name"),
        turn_timer=text("opt.admin.turn_timer.name"),
        claim_timer=text("opt.admin.claim_timer.name"),
        starter_cards=text("opt.admin.starter_cards.name"),
        daily_cards=text("opt.admin.daily_cards.name"),
        prices=text("opt.admin.prices.name"),
        card_payer=text("opt.admin.card_payer.name"),
        lobbies_per_member=text("opt.admin.lobbies_per_member.name"),
        lobbies_per_server=text("opt.admin.lobbies_per_server.name"),
    )
    @app_commands.describe(
        table_category=text("opt.admin.table_category.description"),
        no_category=text("opt.admin.no_category.description"),
        turn_timer=text("opt.admin.turn_timer.description"),
        claim_timer=text("opt.admin.claim_timer.description"),
        starter_cards=text("opt.admin.starter_cards.description"),
        daily_cards=text("opt.admin.daily_cards.description"),
        prices=text("opt.admin.prices.description"),
        card_payer=text("opt.admin.card_payer.description"),
        lobbies_per_member=text("opt.admin.lobbies_per_member.description"),
        lobbies_per_server=text("opt.admin.lobbies_per_server.description"),
    )
    @app_commands.choices(
        card_payer=[
            app_commands.Choice(name=text(f"choice.card_payer.{p.value}"), value=p.value)
            for p in CardPayer
        ]
    )
    async def config(
        self,
        interaction: discord.Interaction[MahjongBot],
        table_category: discord.CategoryChannel | None = None,
        no_category: bool = False,
        turn_timer: app_commands.Range[int, 0, MAX_TIMER] | None = None,
        claim_timer: app_commands.Range[int, 0, MAX_TIMER] | None = None,
        starter_cards: app_commands.Range[int, 0, 10000] | None = None,
        daily_cards: app_commands.Range[int, 0, 10000] | None = None,
        prices: app_commands.Range[str, 3, 100] | None = None,
        card_payer: str | None = None,
        lobbies_per_member: app_commands.Range[int, 0, 100] | None = None,
        lobbies_per_server: app_commands.Range[int, 0, 1000] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        if table_category is not None and no_category:
            raise UserError("admin.category_and_none")
        if (
            table_category is not None
            and not table_category.guild.me.guild_permissions.manage_channels
        ):
            # Accepted, the category would be passed over at every /table create.
            raise UserError("admin.category_needs_permission")
        change = GuildConfigChange(
            table_category_id=None if table_category is None else table_category.id,
            no_category=no_category,
            turn_timer=turn_timer,
            claim_timer=claim_timer,
            starter_cards=starter_cards,
            daily_cards=daily_cards,
            room_card_prices=None if prices is None else parse_prices(prices),
            card_payer=None if card_payer is None else CardPayer(card_payer),
            lobbies_per_member=lobbies_per_member,
            lobbies_per_server=lobbies_per_server,
        )
        saved = self._configured(interaction, guild_id, change)
        await answer_privately(interaction, await in_time(interaction, saved))

    async def _configured(
        self,
        interaction: discord.Interaction[MahjongBot],
        guild_id: int,
        change: GuildConfigChange,
    ) -> str:
        """The server's settings after ``change``, stored, as the admin reads them."""
        locale = await self.bot.locale_of(interaction)
        if change == GuildConfigChange():
            config = await self.bot.store.guild_config(guild_id)
            head = t("admin.heading", locale)
        else:
            config = await self.bot.store.update_guild_config(
                guild_id,
                change,
                # A first configuration keeps the timers the server was using.
                first_timers=self.bot.tables.timer_defaults(GuildConfig(guild_id)),
            )
            head = t("admin.saved", locale)
            self.bot.tables.config_changed(guild_id)
        timers = self.bot.tables.timer_defaults(config)
        return f"{head}\n{describe(config, timers, locale)}"

    @season.command(
        name=text("cmd.admin.season.start.name"),
        description=text("cmd.admin.season.start.description"),
    )
    async def season_start(self, interaction: discord.Interaction[MahjongBot]) -> None:
        await self._announce(interaction, "admin.season_started", self._started(interaction))

    async def _started(self, interaction: discord.Interaction[MahjongBot]) -> Season:
        guild_id = guild_of(interaction)
        try:
            return await self.bot.store.start_season(guild_id, actor_id=interaction.user.id)
        except SeasonError as exc:
            raise UserError("admin.season_running", number=exc.running) from None

    @season.command(
        name=text("cmd.admin.season.end.name"),
        description=text("cmd.admin.season.end.description"),
    )
    async def season_end(self, interaction: discord.Interaction[MahjongBot]) -> None:
        await self._announce(interaction, "admin.season_ended", self._ended(interaction))

    async def _ended(self, interaction: discord.Interaction[MahjongBot]) -> Season:
        try:
            return await self.bot.store.end_season(guild_of(interaction))
        except SeasonError:
            raise UserError("admin.no_season") from None

    async def _announce(
        self, interaction: discord.Interaction[MahjongBot], key: str, change: Awaitable[Season]
    ) -> None:
        """Said in the channel: a season's start or end concerns everyone who plays here."""
        season = await in_time(interaction, change, private=False)
        locale = await self.bot.locale_of(interaction)
        await answer_publicly(interaction, t(key, locale, number=season.number))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(AdminCog(bot))
