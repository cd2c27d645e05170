"""Every table of the bot: lobbies in the store, tables in play in memory.

Lobby changes go straight to the store and the lobby message is redrawn from it; a table
in play is a :class:`~bot.tables.playing.PlayingTable`. Component clicks arrive here from
their custom_id alone and are routed by kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import options, places, replays
from bot.answers import answer_privately, finish, in_time, owes_words
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.terms import ai_number, escaped, player_name, variant_name
from bot.ids import (
    FORM_KINDS,
    GAME_BUTTONS,
    GAME_SELECTS,
    LOBBY_BUTTONS,
    LOBBY_SELECTS,
    MAX_ID,
    CustomId,
)
from bot.pacing import Pacing
from bot.pictures import as_file, lobby_png
from bot.runtime.hands import new_seed
from bot.runtime.seats import DEFAULT_LEVEL, LOBBY_LEVELS, stored_level
from bot.services import Services
from bot.tables import lobby, options_panel
from bot.tables.playing import PlayingTable
from bot.variants import (
    COMMON_NAMES,
    OptionSyntaxError,
    TableOptions,
    format_value,
    is_playable,
    parse_assignments,
)
from bot.views.components import GameButton, view_of
from data.errors import (
    HostAloneError,
    InsufficientCardsError,
    LobbyLimitError,
    NotFoundError,
    SeatError,
    StateError,
    StoreUnavailableError,
)
from data.models import (
    CardMovement,
    GuildConfig,
    PlayerSettings,
    Table,
    TableStatus,
    Variant,
    shown_rating,
)
from engine.rules.base import OptionError, RuleError

log = logging.getLogger(__name__)

CHAIRS = 4
LOBBY_KINDS = frozenset(LOBBY_BUTTONS + LOBBY_SELECTS)
OPTION_KINDS = frozenset(options_panel.KINDS)
GAME_KINDS = frozenset(GAME_BUTTONS + GAME_SELECTS)
#: Controls whose custom_id names a table (a replay's names a round).
TABLE_KINDS = (
    LOBBY_KINDS | GAME_KINDS | frozenset((*FORM_KINDS, "show", "watch", "score", "vote", "again"))
)
THREAD_NAME_LIMIT = 90
LOBBY_PICTURE = "lobby.png"


@dataclass(slots=True)
class Vote:
    """A disband vote of the seated players of a table in play."""

    voters: frozenset[int]
    yes: set[int] = field(default_factory=set)
    no: set[int] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    #: The asking command, whose answer is the poll: edited to the outcome when it closes.
    asked: discord.Interaction | None = None

    @property
    def passed(self) -> bool:
        return len(self.yes) * 2 > len(self.voters)

    @property
    def failed(self) -> bool:
        return len(self.no) * 2 >= len(self.voters)


def _place_refusal(error: discord.HTTPException) -> str:
    """What to tell the player when Discord would not open or fill the table's place."""
    return "lobby.no_permission" if isinstance(error, discord.Forbidden) else "lobby.place_failed"


@dataclass(frozen=True, slots=True)
class LobbyMessage:
    """The lobby message as the table is now: its words, controls and picture."""

    table: Table
    text: str
    view: discord.ui.View | None
    png: bytes


def _on_lobby(interaction: discord.Interaction, table: Table) -> bool:
    """Whether ``interaction`` is a click on the table's lobby message, still unanswered."""
    return (
        not interaction.response.is_done()
        and interaction.message is not None
        and interaction.message.id == table.lobby_message_id
    )


class OptionsForm(discord.ui.Modal):
    """The lobby's options: one ``name = value`` per line, as the table has them now.

    Its submission is read from its custom_id and its field, as a click and a select's
    value are (:meth:`TableManager.on_component`), not by discord.py's modal store, which
    forgets it when the bot restarts: a form filled in across a restart is answered too."""

    def __init__(self, table: Table, locale: str) -> None:
        super().__init__(
            title=t("lobby.options_title", locale)[:45],
            timeout=None,
            custom_id=CustomId(FORM_KINDS[0], table.id).encode(),
        )
        self.add_item(
            discord.ui.TextInput(
                label=t("lobby.options_label", locale)[:45],
                style=discord.TextStyle.paragraph,
                default="\n".join(
                    f"{name} = {format_value(value)}" for name, value in table.options.items()
                )[:4000],
                max_length=4000,
                custom_id="options",
            )
        )
        # Stopped, discord.py's store never keeps it (as with every view of the bot).
        self.stop()


class TableManager:
    def __init__(self, services: Services, pacing: Pacing) -> None:
        self.services = services
        self.pacing = pacing
        self.running: dict[int, PlayingTable] = {}
        self.hand_messages: dict[int, tuple[int, int]] = {}
        self.votes: dict[int, Vote] = {}
        #: Finished tables whose Play again is opening a table right now. The store links
        #: the two once the new one is open (``Table.played_again_id``), across restarts.
        self.opening_again: set[int] = set()
        #: Where each hand gets its seed (tests fix them).
        self.seeds: Callable[[], str] = new_seed
        #: People who have answered a claim by reaction: their hand messages get the claim
        #: reactions put on them (docs/bot.md, decision 2).
        self.reactors: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._starting: set[int] = set()

    # -- languages ---------------------------------------------------------------------

    async def locale_of(self, interaction: discord.Interaction) -> str:
        return await self.services.locale_of(interaction)

    def guild_locale(self, guild_id: int) -> str:
        return self.services.guild_locale(guild_id)

    async def answer_error(self, interaction: discord.Interaction, error: Exception) -> None:
        locale = await self.locale_of(interaction)
        if isinstance(error, UserError):
            await answer_privately(interaction, t(error.key, locale, **error.values))
            return
        if isinstance(error, StoreUnavailableError):
            log.warning("a lobby click found the store unavailable: %s", error)
            await answer_privately(interaction, t("error.store_busy", locale))
            return
        log.error("table interaction failed", exc_info=error)
        await answer_privately(interaction, t("error.internal", locale))

    # -- components --------------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        try:
            if max(cid.table_id, cid.hand_no, cid.prompt_seq) > MAX_ID:
                raise NotFoundError("table", cid.table_id)
            await self._route(interaction, cid, values)
        except NotFoundError:
            # An old or forged control naming a table the store has never had.
            await self.answer_error(interaction, UserError("click.no_table"))
        except Exception as exc:
            await self.answer_error(interaction, exc)

    async def _route(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        if cid.kind in TABLE_KINDS:
            if await self._forwarded(interaction, cid, values):
                return
            await self._require_here(interaction, cid.table_id)
        if cid.kind in LOBBY_KINDS:
            await self.lobby_click(interaction, cid.kind, cid.table_id, values, cid.arg)
        elif cid.kind in GAME_KINDS:
            await (await self._running(cid.table_id)).on_click(interaction, cid, values)
        elif cid.kind == "show":
            await (await self._running(cid.table_id)).show_hand(interaction)
        elif cid.kind == "score":
            await (await self._running(cid.table_id)).score_hand(interaction)
        elif cid.kind == "watch":
            await (await self._running(cid.table_id)).spectate(interaction)
        elif cid.kind == "vote":
            await self.cast_vote(interaction, cid.table_id, cid.arg == "yes")
        elif cid.kind == "again":
            await self.play_again(interaction, cid.table_id)
        elif cid.kind in FORM_KINDS:
            await self.change_options(interaction, cid.table_id, values[0] if values else "")
        elif cid.kind in ("replay", "seat"):
            await replays.navigate(self.services, interaction, cid, list(values))
        else:
            # A kind of control the bot no longer sends (a message from before an update).
            raise UserError("click.expired")

    async def _forwarded(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> bool:
        """In a cluster, a DM click on a table another process serves (Discord sends DM
        events to shard 0 only) goes to that process, which answers it; whether it went."""
        if interaction.guild_id is not None or cid.table_id in self.running:
            return False
        table = await self.services.store.get_table(cid.table_id)
        if self.services.owns_guild(table.guild_id):
            return False
        if not await self.services.forward_click(interaction, table.guild_id, values):
            # Nobody serves the table's shard this moment: its process is restarting.
            raise UserError("click.resuming")
        return True

    async def _require_here(self, interaction: discord.Interaction, table_id: int) -> None:
        """A control's table belongs to the server it is clicked in; in DMs, to someone
        who sits at it and is still a member of its server. A member who left is handed
        to the AI (托管) instead."""
        running = self.running.get(table_id)
        table = running.table if running else await self.services.store.get_table(table_id)
        if interaction.guild_id is not None:
            if table.guild_id != interaction.guild_id:
                # A control naming another server's table: as if it did not exist.
                raise UserError("click.no_table")
            return
        if table.seat_of(interaction.user.id) is None:
            raise UserError("click.not_seated")
        if not await self.services.is_member(table.guild_id, interaction.user.id):
            if running is not None:
                await running.hand_over(interaction.user.id)
            raise UserError("click.left_server")

    async def _running(self, table_id: int) -> PlayingTable:
        running = self.running.get(table_id)
        if running is not None:
            return running
        # A game's control naming a table that is not in play here: old, or forged.
        table = await self.services.store.get_table(table_id)
        if table.status is TableStatus.LOBBY:
            raise UserError("lobby.not_started")
        raise UserError("click.table_over")

    async def on_reaction(
        self, user_id: int, message_id: int, emoji: str, *, forwarded: bool = False
    ) -> None:
        where = self.hand_messages.get(message_id)
        if where is None:
            if not forwarded:
                # In a cluster, another process may have sent the message.
                await self.services.forward_reaction(user_id, message_id, emoji)
            return
        running = self.running.get(where[0])
        # Only the player a hand message belongs to answers through it (not the bot's own
        # reactions on it).
        if running is None or running.runtime.chairs[where[1]].user_id != user_id:
            return
        if not await self.services.is_member(running.table.guild_id, user_id):
            await running.hand_over(user_id)
            return
        await running.on_reaction(where[1], emoji)

    def is_seated(self, user_id: int) -> bool:
        """Whether the person sits at a table in play in this process."""
        return any(r.table.seat_of(user_id) is not None for r in self.running.values())

    def apply_settings(self, settings: PlayerSettings) -> None:
        """A person's saved /settings hold at once at every table in play they sit at."""
        for running in self.running.values():
            running.apply_settings(settings)

    def hand_message_sent(self, message_id: int, table_id: int, chair: int) -> None:
        self.hand_messages[message_id] = (table_id, chair)

    # -- finding tables ----------------------------------------------------------------

    async def table_here(self, interaction: discord.Interaction) -> Table:
        """The lobby or table of the thread a command runs in."""
        if interaction.channel_id is None:
            raise UserError("lobby.no_table_here")
        table = await self.services.store.table_in_channel(interaction.channel_id)
        if table is None:
            raise UserError("lobby.no_table_here")
        return table

    def timer_defaults(self, config: GuildConfig) -> tuple[int, int]:
        """A server's default timers: its own once an admin has configured it, else the
        bot's (``DEFAULT_TURN_TIMER`` / ``DEFAULT_CLAIM_TIMER``)."""
        if not config.configured:
            return self.services.settings.turn_timer, self.services.settings.claim_timer
        return config.turn_timer, config.claim_timer

    def is_manager(self, interaction: discord.Interaction, table: Table) -> bool:
        perms = interaction.permissions
        return interaction.user.id == table.creator_id or perms.manage_guild

    # -- creating ------------------------------------------------------------------------

    async def create(
        self,
        interaction: discord.Interaction,
        variant: str,
        raw: dict[str, Any],
    ) -> Table:
        """Open a lobby in a new thread (or a channel of the configured category)."""
        if interaction.guild is None or interaction.guild_id is None:
            raise UserError("error.guild_only")
        locale = await self.locale_of(interaction)
        if not is_playable(variant):
            raise UserError("error.variant_unavailable", variant=variant_name(variant, locale))
        config = await self.services.store.guild_config(interaction.guild_id)
        defaults = dict(
            zip(("turn_timer", "claim_timer"), self.timer_defaults(config), strict=True)
        )
        try:
            built = TableOptions.build(variant, raw, defaults)
        except OptionError as exc:
            raise UserError("error.options", error=options.refusal(variant, exc, locale)) from None
        except RuleError as exc:
            raise UserError("error.options", error=str(exc)) from None
        category_id = self._usable_category(interaction, config.table_category_id)
        missing = self._missing_permission(interaction, category_id)
        if missing is not None:
            raise UserError(
                "lobby.missing_permission", permission=t(f"permission.{missing}", locale)
            )
        try:
            table = await self.services.store.create_table(
                guild_id=interaction.guild_id,
                channel_id=None,
                creator_id=interaction.user.id,
                creator_name=interaction.user.display_name,
                variant=Variant(variant),
                options=built.to_json(),
                rounds=built.rounds,
            )
        except InsufficientCardsError as exc:
            raise UserError("lobby.cannot_afford", balance=exc.balance, price=exc.price) from None
        except LobbyLimitError as exc:
            key = "lobby.too_many_mine" if exc.per_member else "lobby.too_many_here"
            raise UserError(key, count=exc.limit) from None
        try:
            where = await self._open_place(interaction, table, category_id)
        except BaseException:
            # No place, no table: the lobby is never left half open.
            await self.services.store.disband_table(table.id)
            raise
        try:
            await self._post_lobby(table.id, where)
        except discord.HTTPException as exc:
            # The place exists but the lobby cannot be posted in it: both go.
            await self.services.store.disband_table(table.id)
            with contextlib.suppress(discord.HTTPException):
                await where.delete()
            raise UserError(_place_refusal(exc)) from None
        return await self.services.store.get_table(table.id)

    @staticmethod
    def _usable_category(interaction: discord.Interaction, category_id: int | None) -> int | None:
        """The configured category, unless the bot may not open channels (Manage Channels,
        perhaps taken away since the admin chose it): then tables open as threads, as
        they do when the category is full, rather than not at all."""
        guild = interaction.guild
        if category_id is None or guild is None or guild.me.guild_permissions.manage_channels:
            return category_id
        log.info("server %s: no Manage Channels for the table category, using threads", guild.id)
        return None

    def _missing_permission(
        self, interaction: discord.Interaction, category_id: int | None
    ) -> str | None:
        """The first permission the bot lacks to open and fill a table's place, checked
        before anything is stored, so the server admin knows exactly what to grant."""
        guild = interaction.guild
        assert guild is not None
        category = guild.get_channel(category_id) if category_id is not None else None
        if isinstance(category, discord.CategoryChannel):
            # A new channel takes the category's permissions.
            granted = category.permissions_for(guild.me)
            needed: tuple[str, ...] = ("send_messages", "attach_files")
        else:
            # The thread takes the permissions of the channel the command ran in.
            granted = interaction.app_permissions
            needed = ("create_public_threads", "send_messages_in_threads", "attach_files")
        return next((name for name in needed if not getattr(granted, name)), None)

    async def _open_place(
        self, interaction: discord.Interaction, table: Table, category_id: int | None
    ) -> discord.TextChannel | discord.Thread:
        """The table's own channel in the configured category, or else (no category, or
        a full one) a thread of the channel the command ran in."""
        guild = interaction.guild
        assert guild is not None
        locale = self.guild_locale(guild.id)
        name = t(
            "lobby.thread_name",
            locale,
            variant=variant_name(table.variant.value, locale),
            table=table.id,
        )[:THREAD_NAME_LIMIT]
        try:
            category = guild.get_channel(category_id) if category_id is not None else None
            if isinstance(category, discord.CategoryChannel):
                try:
                    with self.services.budget.at_once():
                        return await places.open_channel(guild, name, category)
                except places.PlaceFull:
                    log.info(
                        "table %s: category %s is full, opening a thread", table.id, category.id
                    )
            channel = interaction.channel
            if isinstance(channel, discord.Thread):
                channel = channel.parent
            if not isinstance(channel, discord.TextChannel):
                raise UserError("lobby.no_thread_here")
            if category_id is not None and channel.category_id == category_id:
                # A table's own channel (Play again, or a command typed there): it is
                # deleted once its table ends, and every thread in it with it.
                raise UserError("lobby.category_full")
            with self.services.budget.at_once():
                return await places.open_thread(channel, name)
        except discord.HTTPException as exc:
            raise UserError(_place_refusal(exc)) from None

    async def _post_lobby(self, table_id: int, where: discord.abc.Messageable) -> None:
        shown = await self._lobby_message(table_id)
        file = as_file(shown.png, LOBBY_PICTURE)
        quiet = discord.AllowedMentions.none()
        with self.services.budget.at_once():
            if shown.view is None:
                message = await where.send(shown.text, file=file, allowed_mentions=quiet)
            else:
                message = await where.send(
                    shown.text, file=file, allowed_mentions=quiet, view=shown.view
                )
        await self.services.store.set_lobby_message(
            table_id, channel_id=message.channel.id, message_id=message.id
        )

    def config_changed(self, guild_id: int) -> None:
        """A server's settings changed: each of its lobbies is redrawn, since it shows the
        price and who pays as Start will charge them (in the background: the admin's
        answer does not wait for it)."""
        self._spawn(self._redraw_lobbies(guild_id), f"server {guild_id}: redrawing lobbies")

    async def _redraw_lobbies(self, guild_id: int) -> None:
        for table_id in await self.services.store.lobby_ids(guild_id):
            try:
                await self.refresh_lobby(table_id)
            except discord.HTTPException as exc:
                # One lobby out of reach (its thread gone) keeps none of the others waiting.
                log.info("table %s: redrawing the lobby failed: %s", table_id, exc)

    async def refresh_lobby(self, table_id: int) -> None:
        """Redraw the lobby message, words and picture, through its own route."""
        await self._show_lobby(await self._lobby_message(table_id))

    async def _lobby_message(self, table_id: int) -> LobbyMessage:
        table = await self.services.store.get_table(table_id)
        locale = self.guild_locale(table.guild_id)
        config = await self.services.store.guild_config(table.guild_id)
        png = await lobby_png(lobby.picture(table, config, locale))
        return LobbyMessage(
            table, lobby.content(table, config, locale), lobby.controls(table, locale), png
        )

    async def _show_lobby(
        self, shown: LobbyMessage, interaction: discord.Interaction | None = None
    ) -> None:
        """``shown`` on the lobby message: as the answer of ``interaction``, an unanswered
        click on it (``_on_lobby``), else through the message's own route."""
        table = shown.table
        reopen = self._reopener(table.channel_id)
        if interaction is not None:
            answer = interaction.response

            async def answer_click() -> None:
                await answer.edit_message(
                    content=shown.text,
                    attachments=[as_file(shown.png, LOBBY_PICTURE)],
                    view=shown.view,
                )

            await places.reopening(answer_click, reopen)
            return
        if table.channel_id is None or table.lobby_message_id is None:
            return
        message = self.services.channel(table.channel_id).get_partial_message(
            table.lobby_message_id
        )

        async def edit() -> None:
            with self.services.budget.at_once():
                await message.edit(
                    content=shown.text,
                    attachments=[as_file(shown.png, LOBBY_PICTURE)],
                    view=shown.view,
                )

        try:
            await places.reopening(edit, reopen)
        except discord.HTTPException as exc:
            log.warning("lobby %s: edit failed: %s", table.id, exc)

    def _reopener(self, thread_id: int | None) -> places.Reopen:
        """Reopens the table's thread when Discord archived it (a channel never is)."""

        async def reopen() -> None:
            if thread_id is not None:
                with self.services.budget.at_once():
                    await self.services.reopen_thread(thread_id)

        return reopen

    # -- lobby actions -------------------------------------------------------------------

    async def lobby_click(
        self,
        interaction: discord.Interaction,
        kind: str,
        table_id: int,
        values: Sequence[str] = (),
        arg: str = "",
    ) -> None:
        table = await self.services.store.get_table(table_id)
        if table.lobby_message_id is None and interaction.message is not None:
            # The click reached the bot before Discord's answer to posting the lobby did:
            # the click itself says where the lobby is.
            await self.services.store.set_lobby_message(
                table_id,
                channel_id=interaction.message.channel.id,
                message_id=interaction.message.id,
            )
            table = await self.services.store.get_table(table_id)
        if kind == "addai":
            await self.add_ai(interaction, table, values[0] if values else DEFAULT_LEVEL)
            return
        if kind == "dropai":
            await self.remove_ai(interaction, table, values[0] if values else "")
            return
        if kind in OPTION_KINDS:
            await self.options_click(interaction, table, kind, arg, values)
            return
        actions = {
            "join": self.join,
            "leave": self.leave,
            "options": self.open_options,
            "start": self.start,
            "disband": self.disband,
        }
        await actions[kind](interaction, table)

    async def _change(
        self,
        interaction: discord.Interaction,
        table_id: int,
        key: str,
        change: Callable[[], Awaitable[None]],
    ) -> None:
        """Make a change to a table and show it on the lobby, the click answered in time.

        ``change`` (store calls one after another, a table opened or stopped) and the
        lobby's new picture may outlast Discord's three seconds on a busy bot: past
        ``ANSWER_WAIT`` the click is acknowledged (a command privately thinking) and the
        lobby is edited through its own route once ready (``bot.answers.in_time``). A
        click on the lobby is answered with the lobby itself; a command (or a click
        elsewhere) with ``key``'s words, the lobby edited then."""

        async def changed() -> LobbyMessage:
            await change()
            return await self._lobby_message(table_id)

        shown = await in_time(interaction, changed())
        if _on_lobby(interaction, shown.table):
            await self._show_lobby(shown, interaction)
            return
        if owes_words(interaction):
            await answer_privately(interaction, t(key, await self.locale_of(interaction)))
        await self._show_lobby(shown)

    def _require_lobby(self, table: Table) -> None:
        if table.status in (TableStatus.FINISHED, TableStatus.DISBANDED):
            raise UserError("click.table_over")
        if table.status is not TableStatus.LOBBY:
            raise UserError("lobby.already_started")

    async def join(self, interaction: discord.Interaction, table: Table) -> None:
        self._require_lobby(table)
        if table.seat_of(interaction.user.id) is not None:
            raise UserError("lobby.already_seated")
        if len(table.seats) >= CHAIRS:
            raise UserError("lobby.full")

        async def sit() -> None:
            try:
                await self.services.store.take_seat(
                    table.id,
                    display_name=interaction.user.display_name,
                    user_id=interaction.user.id,
                )
            except SeatError:
                # Two clicks at once: the first one's seat is the second one's refusal.
                now = await self.services.store.get_table(table.id)
                seated = now.seat_of(interaction.user.id) is not None
                raise UserError("lobby.already_seated" if seated else "lobby.full") from None
            except StateError:
                raise UserError("lobby.already_started") from None

        await self._change(interaction, table.id, "lobby.joined", sit)

    async def leave(self, interaction: discord.Interaction, table: Table) -> None:
        self._require_lobby(table)
        if table.seat_of(interaction.user.id) is None:
            raise UserError("click.not_seated")

        async def stand() -> None:
            try:
                await self.services.store.leave_seat(table.id, interaction.user.id)
            except StateError:
                # Started while the click was on its way.
                raise UserError("lobby.already_started") from None
            except HostAloneError:
                raise UserError("lobby.host_alone") from None
            except SeatError:
                raise UserError("click.not_seated") from None

        await self._change(interaction, table.id, "lobby.left", stand)

    async def add_ai(
        self, interaction: discord.Interaction, table: Table, level: str = DEFAULT_LEVEL
    ) -> None:
        self._require_lobby(table)
        if not self.is_manager(interaction, table):
            raise UserError("lobby.only_creator")
        if level not in LOBBY_LEVELS:
            raise UserError("click.expired")
        if len(table.seats) >= CHAIRS:
            raise UserError("lobby.full")

        async def seat() -> None:
            try:
                await self._seat_ai(table, stored_level(level))
            except StateError:
                raise UserError("lobby.already_started") from None
            except SeatError:
                # The last seat was taken while the click was on its way.
                raise UserError("lobby.full") from None

        await self._change(interaction, table.id, "lobby.ai_added", seat)

    async def remove_ai(self, interaction: discord.Interaction, table: Table, chair: str) -> None:
        """The host (or an admin) takes an AI seat away; later arrivals move down."""
        self._require_lobby(table)
        if not self.is_manager(interaction, table):
            raise UserError("lobby.only_creator")

        async def unseat() -> None:
            try:
                await self.services.store.remove_ai_seat(table.id, int(chair))
            except (ValueError, SeatError):
                # A seat that changed since the lobby was drawn, or a value never offered.
                raise UserError("click.expired") from None

        await self._change(interaction, table.id, "lobby.ai_removed", unseat)

    async def _seat_ai(self, table: Table, level: int) -> None:
        """An AI seat at a lobby: the store's SeatError when the table is full, its
        StateError when it has started (either may happen while a click is on its way)."""
        locale = self.guild_locale(table.guild_id)
        # Numbers, not names: a name stored in another language has the same number.
        taken = {ai_number(seat.display_name) for seat in table.seats if seat.is_ai}
        number = next(n for n in range(1, 10) if n not in taken)
        await self.services.store.take_seat(
            table.id, display_name=t("lobby.ai_name", locale, n=number), ai_level=level
        )

    async def open_options(self, interaction: discord.Interaction, table: Table) -> None:
        """The host's options panel, privately (``tables/options_panel.py``)."""
        self._require_host(interaction, table)
        locale = await self.locale_of(interaction)
        content, view = options_panel.panel(table, locale)
        await interaction.response.send_message(content, view=view, ephemeral=True)

    async def options_click(
        self,
        interaction: discord.Interaction,
        table: Table,
        kind: str,
        arg: str,
        values: Sequence[str],
    ) -> None:
        """A choice on the options panel: stored at once, the panel redrawn with it, then
        the lobby."""
        self._require_host(interaction, table)
        if kind == options_panel.TEXT:
            locale = await self.locale_of(interaction)
            await interaction.response.send_modal(OptionsForm(table, locale))
            return
        changes, picked = options_panel.changes(table, kind, arg, list(values))
        if changes:
            table = await self._store_options(interaction, table, changes)
        locale = await self.locale_of(interaction)
        content, view = options_panel.panel(table, locale, picked)
        await interaction.response.edit_message(content=content, view=view)
        if changes:
            await self.refresh_lobby(table.id)

    async def change_options(
        self, interaction: discord.Interaction, table_id: int, written: str
    ) -> None:
        """New options from the text form or ``/table options``: checked whole, then
        stored."""
        table = await self.services.store.get_table(table_id)
        self._require_host(interaction, table)
        try:
            changes = parse_assignments(written)
        except OptionSyntaxError as exc:
            raise UserError("error.option_syntax", part=exc.part) from None

        async def store() -> None:
            await self._store_options(interaction, table, changes)

        await self._change(interaction, table_id, "lobby.options_saved", store)

    def _require_host(self, interaction: discord.Interaction, table: Table) -> None:
        self._require_lobby(table)
        if not self.is_manager(interaction, table):
            raise UserError("lobby.only_creator")

    async def _store_options(
        self, interaction: discord.Interaction, table: Table, changes: dict[str, Any]
    ) -> Table:
        """The table's options after ``changes`` (a preset starts from its defaults),
        checked whole and stored; a refusal in the reader's words."""
        variant = table.variant.value
        raw = options.after_change(variant, table.options, changes)
        common = {k: v for k, v in raw.items() if k in COMMON_NAMES}
        try:
            built = TableOptions.build(variant, raw, common)
        except OptionError as exc:
            locale = await self.locale_of(interaction)
            raise UserError("error.options", error=options.refusal(variant, exc, locale)) from None
        except RuleError as exc:
            raise UserError("error.options", error=str(exc)) from None
        try:
            return await self.services.store.set_table_options(
                table.id, options=built.to_json(), rounds=built.rounds
            )
        except InsufficientCardsError as exc:
            raise UserError("lobby.cannot_afford", balance=exc.balance, price=exc.price) from None

    async def start(self, interaction: discord.Interaction, table: Table) -> None:
        self._require_lobby(table)
        if not self.is_manager(interaction, table):
            raise UserError("lobby.only_creator")
        # Two clicks on Start arrive together: only the first one starts the table.
        if table.id in self._starting or table.id in self.running:
            raise UserError("lobby.already_started")
        self._starting.add(table.id)
        try:
            await self._change(
                interaction, table.id, "lobby.started", lambda: self._start(interaction, table)
            )
        finally:
            self._starting.discard(table.id)

    async def _start(self, interaction: discord.Interaction, table: Table) -> None:
        """Seat the AI, charge the cards and open the table; the click is not answered
        here."""
        if table.options.get("fill_with_ai"):
            level = str(table.options.get("ai_level", DEFAULT_LEVEL))
            if level not in LOBBY_LEVELS:
                level = DEFAULT_LEVEL
            while len(table.seats) < CHAIRS:
                try:
                    await self._seat_ai(table, stored_level(level))
                except SeatError:
                    pass  # A person took the seat meanwhile: the table fills all the same.
                except StateError:
                    raise UserError("lobby.already_started") from None
                table = await self.services.store.get_table(table.id)
        if len(table.seats) < CHAIRS:
            raise UserError("lobby.need_four")
        try:
            await self.services.store.start_table(table.id, key=f"start:{table.id}")
        except InsufficientCardsError as exc:
            # The bot keeps no member cache (no members intent): the seat has the name.
            payer = table.seat_of(exc.user_id)
            name = escaped(payer.display_name) if payer is not None else f"<@{exc.user_id}>"
            raise UserError("lobby.cannot_pay", name=name, count=exc.price) from None
        except StateError:
            # A player stood up, or the table started, while the click was on its way.
            now = await self.services.store.get_table(table.id)
            started = now.status is not TableStatus.LOBBY
            raise UserError("lobby.already_started" if started else "lobby.need_four") from None
        try:
            table = await self.services.store.get_table(table.id)
            running = await PlayingTable.open(self.services, self, table, self.pacing, self.seeds)
        except Exception:
            # Charged, but no table runs: the cards go back.
            await self.services.store.disband_table(table.id)
            raise
        self.running[table.id] = running
        self._spawn(self._first_hand(running), f"table {table.id} start")

    async def _first_hand(self, running: PlayingTable) -> None:
        """Deal and show the first hand; a table whose first hand could not even be dealt
        never ran, so its cards go back and the thread says so."""
        try:
            await running.start()
        except Exception:
            if running.runtime.current is not None:
                raise
            now = await self.services.store.get_table(running.id)
            if now.status is TableStatus.DISBANDED:
                return  # Disbanded while it was being dealt: refunded and said already.
            log.exception("table %s: the first hand could not be dealt", running.id)
            refunds = await self.services.store.disband_table(running.id)
            await running.stop(self._disbanded_text(running.table, refunds))

    def _spawn(self, work: Coroutine[Any, Any, None], what: str) -> None:
        """Run work in the background, keeping a reference and logging its failure."""
        task = asyncio.create_task(work)
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("%s failed", what, exc_info=finished.exception())

        task.add_done_callback(done)

    # -- disbanding ---------------------------------------------------------------------

    async def disband(self, interaction: discord.Interaction, table: Table) -> None:
        if table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            raise UserError("click.table_over")
        if not self.is_manager(interaction, table):
            raise UserError("lobby.only_creator")
        humans = frozenset(s.user_id for s in table.seats if s.user_id is not None)
        if table.status is TableStatus.LOBBY or len(humans) <= 1:
            await self._change(
                interaction, table.id, "lobby.disbanded", lambda: self._disband_now(table.id)
            )
            return
        await self._open_vote(interaction, table, humans)

    def _disbanded_text(self, table: Table, refunds: Sequence[CardMovement]) -> str:
        refunded = sum(move.delta for move in refunds)
        return t("table.disbanded", self.guild_locale(table.guild_id), count=refunded)

    async def _disband_now(self, table_id: int) -> None:
        refunds = await self.services.store.disband_table(table_id)
        table = await self.services.store.get_table(table_id)
        running = self.running.get(table_id)
        text = self._disbanded_text(table, refunds)
        if running is not None:
            await running.stop(text)
        elif table.channel_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.services.channel(table.channel_id).send(text)
        self._close_place(table)

    def _close_place(self, table: Table) -> None:
        """After a grace period for its players to read the end, a table that ended puts
        its place away: its thread is archived (it stays readable in the channel's
        archive), its own channel in the category is deleted, so the category keeps room
        for new tables."""
        channel_id = table.channel_id
        if channel_id is None:
            return
        own_channel = self.services.is_own_channel(channel_id)

        async def later() -> None:
            await asyncio.sleep(self.pacing.place_grace)
            try:
                if own_channel:
                    await self.services.delete_channel(channel_id)
                else:
                    await self.services.archive_thread(channel_id)
            except discord.NotFound:
                return

        self._spawn(later(), f"table {table.id}: putting its place away")

    async def _open_vote(
        self, interaction: discord.Interaction, table: Table, voters: frozenset[int]
    ) -> None:
        if table.id in self.votes:
            raise UserError("vote.already_open")
        vote = Vote(voters)
        if interaction.user.id in voters:
            # Asking is the asker's own yes; an admin who is not seated asks, but only
            # the seated players decide.
            vote.yes.add(interaction.user.id)
        self.votes[table.id] = vote
        locale = self.guild_locale(table.guild_id)
        buttons = [
            GameButton(
                CustomId("vote", table.id, arg="yes"),
                label=t("vote.yes", locale),
                style=discord.ButtonStyle.danger,
            ),
            GameButton(CustomId("vote", table.id, arg="no"), label=t("vote.no", locale)),
        ]
        # The seated people are in their DMs during a hand: only a mention reaches their
        # phones, and a vote nobody sees fails by running out.
        asked = sorted(voters - vote.yes)
        deadline = int(time.time() + self.pacing.vote_seconds)
        await interaction.response.send_message(
            t(
                "vote.open",
                locale,
                name=escaped(interaction.user.display_name),
                voters=" ".join(f"<@{user_id}>" for user_id in asked),
                when=f"<t:{deadline}:R>",
            ),
            view=view_of(*buttons),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id) for user_id in asked]
            ),
        )
        vote.asked = interaction
        vote.task = asyncio.create_task(self._close_vote_later(table.id))

    async def _close_vote_later(self, table_id: int) -> None:
        await asyncio.sleep(self.pacing.vote_seconds)
        vote = self.votes.pop(table_id, None)
        if vote is not None:
            table = await self.services.store.get_table(table_id)
            await self._show_outcome(vote, t("vote.failed", self.guild_locale(table.guild_id)))

    @staticmethod
    async def _show_outcome(vote: Vote, text: str) -> None:
        """The poll says how the vote ended and loses its buttons, so that nobody reading
        the thread later votes on a closed question."""
        if vote.asked is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await vote.asked.edit_original_response(content=text, view=None)

    async def cast_vote(self, interaction: discord.Interaction, table_id: int, yes: bool) -> None:
        vote = self.votes.get(table_id)
        if vote is None:
            raise UserError("click.expired")
        if interaction.user.id not in vote.voters:
            raise UserError("click.not_seated")
        if interaction.user.id in vote.yes | vote.no:
            raise UserError("click.already")
        (vote.yes if yes else vote.no).add(interaction.user.id)
        locale = await self.locale_of(interaction)
        await interaction.response.send_message(t("vote.counted", locale), ephemeral=True)
        if vote.passed or vote.failed:
            if self.votes.pop(table_id, None) is not vote:
                return  # Another vote decided it while this one was answered.
            if vote.task is not None:
                vote.task.cancel()
            table = await self.services.store.get_table(table_id)
            locale = self.guild_locale(table.guild_id)
            if vote.passed:
                await self._show_outcome(vote, t("vote.passed", locale))
                await self._disband_now(table_id)
                await self.refresh_lobby(table_id)
            else:
                await self._show_outcome(vote, t("vote.failed", locale))

    # -- play again ------------------------------------------------------------------------

    async def play_again(self, interaction: discord.Interaction, old_id: int) -> None:
        """A new lobby with the same seats and options, opened by the player who asked;
        while it is open or in play, a second press is shown it instead of opening another."""
        if old_id in self.opening_again:
            # Taken before any wait, so that of two presses at once only one opens a table.
            raise UserError("again.opening")
        self.opening_again.add(old_id)
        try:
            await self._play_again(interaction, old_id)
        finally:
            self.opening_again.discard(old_id)

    async def _play_again(self, interaction: discord.Interaction, old_id: int) -> None:
        store = self.services.store
        old = await store.get_table(old_id)
        if old.seat_of(interaction.user.id) is None:
            raise UserError("click.not_seated")
        if old.status is not TableStatus.FINISHED:
            raise UserError("click.expired")
        if old.played_again_id is not None:
            opened = await store.get_table(old.played_again_id)
            if opened.status in (TableStatus.LOBBY, TableStatus.PLAYING):
                locale = await self.locale_of(interaction)
                await answer_privately(
                    interaction, t("lobby.opened", locale, channel=f"<#{opened.channel_id}>")
                )
                return
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.create(interaction, old.variant.value, dict(old.options))
        try:
            await store.set_played_again(old_id, again_id=table.id)
        except StoreUnavailableError as exc:
            # The table is open all the same; only a later press would open another.
            log.warning(
                "table %s: Play again's link to table %s not stored: %s", old_id, table.id, exc
            )
        seated: list[int] = []
        for seat in sorted(old.seats, key=lambda s: s.chair):
            if seat.user_id == interaction.user.id:
                continue
            if seat.user_id is None:
                await store.take_seat(
                    table.id,
                    display_name=seat.display_name,
                    ai_level=stored_level(DEFAULT_LEVEL)
                    if seat.ai_level is None
                    else seat.ai_level,
                )
            else:
                await store.take_seat(
                    table.id, display_name=seat.display_name, user_id=seat.user_id
                )
                seated.append(seat.user_id)
        await self.refresh_lobby(table.id)
        table = await store.get_table(table.id)
        await self._tell_seated_again(table, interaction.user.display_name, seated)
        locale = await self.locale_of(interaction)
        await finish(interaction, t("lobby.opened", locale, channel=f"<#{table.channel_id}>"))

    async def _tell_seated_again(self, table: Table, name: str, seated: Sequence[int]) -> None:
        """The people Play again sat down without asking are told, with a mention that
        reaches their phones, so they can leave before Start (and before any charge)."""
        if not seated or table.channel_id is None:
            return
        text = t(
            "again.seated",
            self.guild_locale(table.guild_id),
            people=" ".join(f"<@{user_id}>" for user_id in seated),
            name=escaped(name),
        )
        channel = self.services.channel(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id) for user_id in seated]
                ),
            )
        except discord.HTTPException as exc:
            log.warning("table %s: telling Play again's seats failed: %s", table.id, exc)

    # -- restarts ------------------------------------------------------------------------

    async def resume_all(self) -> None:
        """Post the session summaries a stop cut off, then pick up every table that was in
        play when the bot stopped (first, so a resumed table that finishes now is not
        summarized twice): in a cluster, only those of the servers whose shards this
        process holds."""
        for table in await self.services.store.summaries_due():
            if not self.services.owns_guild(table.guild_id):
                continue
            try:
                await self.post_summary(table, await self.services.store.table_standings(table.id))
            except Exception:
                log.exception("table %s: the owed session summary failed", table.id)
        for live in await self.services.store.live_tables():
            table = live.table
            if not self.services.owns_guild(table.guild_id):
                # Another process of the cluster serves its server's shard.
                continue
            try:
                running = await PlayingTable.open(
                    self.services, self, table, self.pacing, self.seeds
                )
                self.running[table.id] = running
                await running.resume(live)
            except Exception:
                log.exception("table %s could not be resumed", table.id)

    # -- the end of a session ------------------------------------------------------------

    async def post_summary(self, table: Table, scores: Sequence[int]) -> None:
        """The end of a session in its thread: the chairs ranked by score, and Play again.
        It is marked posted once Discord has it, so a restart posts what a stop cut off."""
        if table.channel_id is None:
            return
        locale = self.guild_locale(table.guild_id)
        names = {
            seat.chair: player_name(seat.display_name, seat.is_ai, locale) for seat in table.seats
        }
        lines = [t("table.session_over", locale, title=variant_name(table.variant.value, locale))]
        try:
            rated = await self.services.store.session_ratings(table.id)
        except StoreUnavailableError:
            # The standings matter more than the ratings: post them without.
            rated = {}
        users = {seat.chair: seat.user_id for seat in table.seats}
        order = sorted(range(CHAIRS), key=lambda chair: -scores[chair])
        for place, chair in enumerate(order, start=1):
            change = rated.get(users.get(chair) or 0)
            values = {"place": place, "name": names[chair], "score": f"{scores[chair]:+d}"}
            if change is None:
                lines.append(t("table.standing", locale, **values))
                continue
            before, after = change
            moved = after.shown - (shown_rating(0.0) if before is None else before.shown)
            # One bracket for both the provisional mark and the move: 1620（定级中，+120）.
            key = (
                "table.standing_rated_provisional" if after.provisional else "table.standing_rated"
            )
            lines.append(t(key, locale, rating=after.shown, change=f"{moved:+d}", **values))
        again = GameButton(
            CustomId("again", table.id),
            label=t("controls.play_again", locale),
            style=discord.ButtonStyle.success,
        )
        # The players are in their DMs, where a session's end is only an edit: the
        # mentions tell their phones that the standings and Play again are here.
        people = [seat.user_id for seat in table.seats if seat.user_id is not None]
        lines.append(" ".join(f"<@{user_id}>" for user_id in people))
        channel = self.services.channel(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(
                "\n".join(lines),
                view=view_of(again),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id) for user_id in people]
                ),
            )
        except discord.HTTPException as exc:
            log.warning("table %s: the session summary failed: %s", table.id, exc)
            return
        await self.services.store.mark_summary_posted(table.id)
        self._close_place(table)

    def forget(self, table_id: int) -> None:
        running = self.running.pop(table_id, None)
        if running is None:
            return
        for message_id, (owner, _) in list(self.hand_messages.items()):
            if owner == table_id:
                del self.hand_messages[message_id]

    async def shutdown(self) -> None:
        for running in list(self.running.values()):
            await running.close()
        for vote in self.votes.values():
            if vote.task is not None:
                vote.task.cancel()
        for task in list(self._tasks):
            task.cancel()
