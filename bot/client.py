"""The bot: a ``commands.Bot`` holding the store, the live tables and the command tree.

It provides :class:`bot.services.Services` to the parts that need the bot.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Sequence
from functools import partial
from urllib.parse import urlsplit

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_http, pictures
from bot.budget import RequestBudget, cluster_share
from bot.card_history import turn_page
from bot.deliveries import Deliveries
from bot.errors import UserError, on_app_command_error
from bot.forwarding import ClusterMember
from bot.i18n import resolve_locale
from bot.i18n.translator import CatalogTranslator
from bot.ids import CARDS_BUTTONS, CustomId
from bot.option_checks import check_options
from bot.pacing import Pacing
from bot.settings import Settings
from bot.shards import format_shards
from bot.tables.manager import TableManager
from bot.tile_emoji import TileEmoji
from bot.views.components import clicked, is_component, submitted
from data.models import PlayerSettings
from data.store import Store

log = logging.getLogger(__name__)

#: DM channels the whole bot opens a second at most, in a cluster: Discord allows five
#: (a route limit of its own); a little under, as requests may arrive bunched up.
DM_OPENINGS_PER_SECOND = 4.0

#: Seconds a person's membership of a server, as Discord last told it, is trusted.
MEMBERSHIP_TTL = 60.0

# What discord.py raises when Discord cannot be reached at all: no route, no name, no
# answer, a refused connection or certificate, or Discord's own servers failing.
_UNREACHABLE = (aiohttp.ClientConnectionError, discord.GatewayNotFound, discord.DiscordServerError)


class DiscordUnreachable(RuntimeError):
    """Discord could not be reached at start (the network, DNS, a firewall, an outage):
    the same start may work later."""


class DevGuildRefused(RuntimeError):
    """``DEV_GUILD_ID`` names a server the bot cannot register its commands in: it is not
    there, or the id is not a server's."""


EXTENSIONS = (
    "bot.cogs.table",
    "bot.cogs.hand",
    "bot.cogs.fan",
    "bot.cogs.stats",
    "bot.cogs.replay",
    "bot.cogs.cards",
    "bot.cogs.admin",
    "bot.cogs.settings",
    "bot.cogs.rules",
)


def intents() -> discord.Intents:
    """Slash commands and components need no privileged intent; reactions to claim
    prompts arrive in DMs. No message intent: the bot reads no message, and every hand
    message it sends would otherwise come back to it as an event to parse."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.dm_reactions = True
    return chosen


def unreachable(error: BaseException) -> str:
    """Why Discord could not be reached, as the sentence the launcher logs."""
    where = urlsplit(discord.http.Route.BASE).netloc
    if isinstance(error, discord.GatewayNotFound) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, discord.DiscordServerError):
        # Its text may be a whole HTML page: the status says enough.
        return (
            f"Discord's servers at {where} are failing ({error.status}"
            f" {error.response.reason}): Discord is down for now"
            " (https://discordstatus.com), start the bot again later"
        )
    if isinstance(error, aiohttp.ClientConnectorError):
        where = f"{error.host}:{error.port}"
    return (
        f"cannot reach Discord at {where} ({_network_reason(error)}): check this"
        " machine's network, DNS, firewall or proxy, then start the bot again"
    )


def _network_reason(error: BaseException) -> str:
    if isinstance(error, aiohttp.ClientConnectorCertificateError):
        return f"its certificate was refused: {error.certificate_error}"
    cause = error.os_error if isinstance(error, aiohttp.ClientConnectorError) else error
    if isinstance(cause, socket.gaierror):
        return f"no such host: {cause.strerror}"
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(cause, TimeoutError):
        return "no answer in time"
    return str(cause) or type(cause).__name__


class BotTree(app_commands.CommandTree["MahjongBot"]):
    async def interaction_check(self, interaction: discord.Interaction[MahjongBot]) -> bool:
        if not interaction.client.first_delivery(interaction):
            return False
        command = interaction.command
        if isinstance(command, app_commands.Command) and interaction.data is not None:
            check_options(command, interaction.data)
        return True


def budget_share(settings: Settings) -> float:
    """The part of Discord's global limit this process may spend: all of it, or, in a
    cluster, its shards' part (:func:`bot.budget.cluster_share`)."""
    if settings.shard_ids is None or settings.shard_count is None:
        return 1.0
    return cluster_share(len(settings.shard_ids), settings.shard_count)


class MahjongBot(commands.AutoShardedBot):
    """One process runs every shard Discord asks for (past 2,500 servers it refuses one),
    or, in a cluster, the shards of ``settings.shard_ids`` whose locks it holds
    (``cluster``, bot/forwarding.py). Events without a server (DM clicks, DM reactions)
    reach shard 0; the process holding it forwards those of other processes' tables."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        pacing: Pacing | None = None,
        sync_commands: bool = True,
        cluster: ClusterMember | None = None,
        **options: object,
    ) -> None:
        pacing = pacing or Pacing(table_edit_interval=settings.table_refresh)
        share = budget_share(settings)
        budget = RequestBudget(
            pacing.requests_per_second * share, max(1.0, pacing.request_burst * share)
        )
        if settings.shard_ids is not None:
            options.setdefault(
                "shard_ids", list(cluster.shard_ids if cluster else settings.shard_ids)
            )
            options.setdefault("shard_count", settings.shard_count)
        # The bot uses no voice: discord.py's warnings, as the client is made, that
        # voice's libraries (PyNaCl, davey) are missing would only alarm the operator.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=BotTree,
            # Names are the players' own and may hold mentions: nothing pings unless a send
            # names whom it means to ping.
            allowed_mentions=discord.AllowedMentions.none(),
            **options,  # type: ignore[arg-type]
        )
        #: The bot's share of Discord's global limit (bot/budget.py).
        self.budget = budget
        #: Openings of DM channels: Discord allows five a second for the whole bot, which
        #: discord.py learns only from its own requests' answers; processes of a cluster
        #: share them out as they share the global limit.
        self._dm_openings = (
            RequestBudget(DM_OPENINGS_PER_SECOND * share, 1.0) if share < 1 else None
        )
        self.settings = settings
        self.store = store
        #: The cluster this process is a member of, or None when it runs every shard.
        self.cluster = cluster
        self.tables = TableManager(self, pacing)
        #: The tile buttons' emojis, uploaded once to the application (bot/tile_emoji.py).
        self.tile_emoji = TileEmoji()
        self._sync_commands = sync_commands
        self._player_settings: dict[int, PlayerSettings] = {}
        self._dm_channels: dict[int, int] = {}
        #: The lookups or openings of DM channels under way, by person.
        self._dm_findings: dict[int, asyncio.Future[int]] = {}
        #: Each person's Discord language, from their latest interaction, for the DMs
        #: sent to them later.
        self._user_locales: dict[int, str] = {}
        self._resume_task: asyncio.Task[None] | None = None
        self._test_copies_task: asyncio.Task[None] | None = None
        self._deliveries = Deliveries()
        #: (guild, user) → (when it was last known, whether a member), trusted for
        #: ``membership_ttl`` seconds.
        self._members: dict[tuple[int, int], tuple[float, bool]] = {}
        self.membership_ttl = MEMBERSHIP_TTL
        self._pictures_started = False

    async def login(self, token: str) -> None:
        # API requests go out through the bot's own client, each toward Discord's global
        # limit waiting for the budget as it leaves, discord.py's own retries included;
        # login's one request comes before it, at start, before any table.
        try:
            await super().login(token)
        except _UNREACHABLE as exc:
            raise DiscordUnreachable(unreachable(exc)) from exc
        discord_http.install(self.http, self.budget)

    async def launch_shards(self) -> None:
        # Asking Discord how many shards to run and where its gateway is: past login,
        # discord.py retries connections by itself, but not this first question.
        try:
            await super().launch_shards()
        except _UNREACHABLE as exc:
            raise DiscordUnreachable(unreachable(exc)) from exc

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except commands.ExtensionError:
                log.exception("extension %s failed to load", extension)
        self.tree.error(on_app_command_error)
        await pictures.start_processes(self.settings.picture_processes)
        self._pictures_started = True
        self.tile_emoji.start(self)
        if self._sync_commands and (self.cluster is None or 0 in self.cluster.shard_ids):
            # In a cluster, the process holding shard 0 registers them for all.
            await self.sync_commands()
        if self._sync_commands:
            # Each process looks in its own shards' servers.
            self._test_copies_task = asyncio.create_task(self._remove_test_copies())
        if self.cluster is not None:
            await self.cluster.start(
                self, self._forwarded_click, self._forwarded_reaction, self._settings_changed
            )
        self._resume_task = asyncio.create_task(self._resume_when_ready())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord allows one identify every five seconds for the whole bot: discord.py
        spaces out a process's own, and a cluster's processes take turns through the
        database."""
        if self.cluster is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        await self.cluster.locks.identify_turn()

    async def sync_commands(self) -> None:
        """Register the commands, at every start.

        Without a development server (``DEV_GUILD_ID``), globally: every server lists
        them (a Discord client shows a change after a reload, Ctrl+R). With one, in that
        server only, where they show at once; the global commands are left as they are,
        so every other server keeps its own, and the test server lists both (Discord
        cannot hide the global ones there). A server's copies outlive the setting at
        Discord: they are removed once the bot is ready (:meth:`_remove_test_copies`)."""
        if self.settings.dev_guild_id is None:
            synced = await self.tree.sync()
            log.info("%d slash commands registered for every server", len(synced))
            return
        guild_id = self.settings.dev_guild_id
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DevGuildRefused(
                f"DEV_GUILD_ID={guild_id} is not a server the bot can register its commands"
                f" in (Discord: {exc.text or exc.status}): set it to the id of a server the"
                " bot was invited to (Developer Mode, then right-click the server, Copy"
                " Server ID), or leave it empty"
            ) from None
        await self.store.mark_test_commands(guild_id)
        log.info(
            "%d slash commands registered in the test server %d only (DEV_GUILD_ID)",
            len(synced),
            guild_id,
        )
        if await self.tree.fetch_commands():
            log.warning(
                "the test server %d lists every command twice while DEV_GUILD_ID is set:"
                " its own copy, and the global one the other servers keep; once testing is"
                " done, leave DEV_GUILD_ID empty and restart, and its copies are removed",
                guild_id,
            )

    async def _remove_test_copies(self) -> None:
        """Remove the commands an earlier ``DEV_GUILD_ID`` registered in this process's
        servers (all but the current one's): beside the global commands, such a server
        lists every command twice. The store keeps which servers got a copy
        (:meth:`Store.mark_test_commands`), so only those are asked."""
        await self.wait_until_ready()
        for guild_id in await self.store.test_command_guilds():
            if guild_id == self.settings.dev_guild_id or not self.owns_guild(guild_id):
                continue
            guild = discord.Object(guild_id)
            try:
                self.tree.clear_commands(guild=guild)
                await self.tree.sync(guild=guild)
            except discord.NotFound:
                pass  # The bot left that server: the copy went with it.
            except discord.HTTPException as exc:
                log.warning("the test commands of server %d stay: %s", guild_id, exc)
                continue
            await self.store.forget_test_commands(guild_id)
            log.info(
                "removed the slash commands an earlier DEV_GUILD_ID left in the server %d:"
                " it lists the global ones only now",
                guild_id,
            )

    async def on_ready(self) -> None:
        # The operator's sign that the bot is up: who it is, where, with which shards.
        assert self.user is not None and self.shard_count is not None
        log.info(
            "ready: logged in as %s (id %d) in %d servers, shards %s of %d",
            self.user,
            self.user.id,
            len(self.guilds),
            format_shards(sorted(self.shards)),
            self.shard_count,
        )

    async def _resume_when_ready(self) -> None:
        await self.wait_until_ready()
        try:
            await self.tables.resume_all()
        except Exception:
            log.exception("resuming live tables failed")

    async def close(self) -> None:
        if self._test_copies_task is not None:
            self._test_copies_task.cancel()
        await self.tables.shutdown()
        await self.tile_emoji.close()
        if self._pictures_started:
            self._pictures_started = False
            await pictures.stop_processes()
        await super().close()

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the person is still in the server. The bot has no member events (a
        privileged intent), so what it saw last stands for a minute (an interaction in
        the server, or Discord's answer); then it asks Discord again when a click in DMs
        needs to know."""
        now = time.monotonic()
        known = self._members.get((guild_id, user_id))
        if known is not None and now - known[0] < self.membership_ttl:
            return known[1]
        guild = self.get_guild(guild_id)
        if guild is None:
            member = False
        else:
            try:
                # A click is waiting on the answer: the lookup takes the budget's next
                # slot rather than queueing behind the table pictures (in a cluster, a
                # process's share is a smaller queue's, slower to pass).
                with self.budget.first():
                    await guild.fetch_member(user_id)
                member = True
            except discord.NotFound:
                member = False
            except discord.HTTPException as exc:
                # Discord could not say: the person is given the benefit of the doubt.
                log.info("membership of %s in %s unknown: %s", user_id, guild_id, exc)
                return True
        self._members[(guild_id, user_id)] = (now, member)
        return member

    # -- clusters -----------------------------------------------------------------------

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves the server's tables (it holds the server's shard)."""
        return self.cluster is None or self.cluster.owns_guild(guild_id)

    async def forward_click(
        self, interaction: discord.Interaction, guild_id: int, values: Sequence[str]
    ) -> bool:
        """Hand a DM click to the process serving ``guild_id``; False when none does now."""
        assert self.cluster is not None
        return await self.cluster.forward_click(interaction, guild_id, values)

    async def forward_reaction(self, user_id: int, message_id: int, emoji: str) -> None:
        """Hand a DM reaction on a message this process did not send to the others (the
        bot's own reactions, on its claim prompts, go nowhere)."""
        if self.cluster is not None and (self.user is None or user_id != self.user.id):
            await self.cluster.forward_reaction(user_id, message_id, emoji)

    async def _forwarded_click(
        self, interaction: discord.Interaction, cid: CustomId, values: list[str]
    ) -> None:
        self._met(interaction)
        if self.first_delivery(interaction):
            await self.tables.on_component(interaction, cid, values)

    async def _forwarded_reaction(self, user_id: int, message_id: int, emoji: str) -> None:
        await self.tables.on_reaction(user_id, message_id, emoji, forwarded=True)

    async def _settings_changed(self, user_id: int) -> None:
        """Another process saved the person's /settings: read them again, and hold them at
        the tables in play here."""
        self._player_settings.pop(user_id, None)
        if self.tables.is_seated(user_id):
            self.tables.apply_settings(await self.player_settings(user_id))

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        return self._deliveries.first(interaction.id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction: what it tells of the person, and a click on one of the
        bot's controls goes to the tables (slash commands go through the command tree)."""
        self._met(interaction)
        if is_component(interaction):
            if not self.first_delivery(interaction):
                return
            click = clicked(interaction)
            if click is None:
                # No control the bot sends reads like this (a forged or mangled custom_id):
                # answered as a stale control rather than left to "This interaction failed".
                await self.tables.answer_error(interaction, UserError("click.expired"))
                return
            cid, values = click
            if cid.kind in CARDS_BUTTONS:
                await self._turn_history_page(interaction, cid)
                return
            await self.tables.on_component(interaction, cid, values)
            return
        # A form of the bot's is read as a click is, its fields as a select's values.
        form = submitted(interaction)
        if form is not None and self.first_delivery(interaction):
            await self.tables.on_component(interaction, *form)

    async def _turn_history_page(self, interaction: discord.Interaction, cid: CustomId) -> None:
        """A page of /cards history: no table's, so not the tables' to route, but its
        refusals and failures are answered as theirs are, privately."""
        try:
            await turn_page(self, interaction, cid)
        except Exception as exc:
            await self.tables.answer_error(interaction, exc)

    def _met(self, interaction: discord.Interaction) -> None:
        self._user_locales[interaction.user.id] = str(interaction.locale.value)
        if interaction.guild_id is not None:
            # Whoever acts in a server is a member of it now.
            self._members[(interaction.guild_id, interaction.user.id)] = (time.monotonic(), True)

    # -- players ------------------------------------------------------------------------

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """A person's DM channel. It is opened once and then known by its id, kept in the
        store, so a DM costs one request, not a user lookup and a channel opening as well,
        and a restarted bot does not open every player's DM channel again (Discord allows
        five openings a second)."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            # Several messages may want a new person's channel at once (a hand's first
            # message, a result, a notice): they share one lookup and one opening.
            finding = self._dm_findings.get(user_id)
            if finding is None:
                finding = asyncio.ensure_future(self._find_dm_channel(user_id))
                self._dm_findings[user_id] = finding
                finding.add_done_callback(partial(self._found_dm_channel, user_id))
            channel_id = await asyncio.shield(finding)
        return self.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def _found_dm_channel(self, user_id: int, finding: asyncio.Future[int]) -> None:
        self._dm_findings.pop(user_id, None)
        if not finding.cancelled():
            # Its waiters were given the error, if any; with none left (all cancelled)
            # it is not an error of the event loop's.
            finding.exception()

    async def _find_dm_channel(self, user_id: int) -> int:
        channel_id = await self.store.dm_channel_id(user_id)
        if channel_id is None:
            if self._dm_openings is not None:
                await self._dm_openings.take()
            channel_id = (await self.create_dm(discord.Object(user_id))).id
            await self.store.save_dm_channel_id(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        return channel_id

    async def player_settings(self, user_id: int) -> PlayerSettings:
        cached = self._player_settings.get(user_id)
        if cached is None:
            cached = await self.store.player_settings(user_id)
            self._player_settings[user_id] = cached
        return cached

    async def save_player_settings(self, settings: PlayerSettings) -> None:
        await self.store.save_player_settings(settings)
        self._player_settings[settings.user_id] = settings
        self.tables.apply_settings(settings)
        if self.cluster is not None:
            await self.cluster.settings_changed(settings.user_id)

    async def locale_of(self, interaction: discord.Interaction) -> str:
        """The reader's catalog locale: their /settings language, else their Discord one."""
        settings = await self.player_settings(interaction.user.id)
        return resolve_locale(interaction.locale, settings.locale)

    async def locale_of_user(self, user_id: int) -> str:
        settings = await self.player_settings(user_id)
        return resolve_locale(self._user_locales.get(user_id), settings.locale)

    def guild_locale(self, guild_id: int) -> str:
        guild = self.get_guild(guild_id)
        return resolve_locale(guild.preferred_locale if guild else None)

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.get_partial_messageable(channel_id, guild_id=guild_id)

    def is_own_channel(self, channel_id: int) -> bool:
        return isinstance(self.get_channel(channel_id), discord.TextChannel)

    async def reopen_thread(self, thread_id: int) -> None:
        await self.http.edit_channel(thread_id, archived=False)

    async def archive_thread(self, thread_id: int) -> None:
        await self.http.edit_channel(thread_id, archived=True)

    async def delete_channel(self, channel_id: int) -> None:
        await self.http.delete_channel(channel_id)
