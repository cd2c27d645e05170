"""The fake's state: users, guilds, channels, messages, commands, interactions.

Every change that Discord would announce goes out through `dispatch` (to the gateway)
and, for messages, through the observers (to the simulated people).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from fakediscord import errors
from fakediscord.clock import Clock
from fakediscord.config import Limits
from fakediscord.emojis import AppEmoji
from fakediscord.models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    Member,
    Message,
    Overwrite,
    Role,
    User,
)
from fakediscord.permissions import (
    BOT_DEFAULT,
    EVERYONE_DEFAULT,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    allow_deny,
    base_permissions,
    channel_permissions,
    flag,
)
from fakediscord.snowflake import SnowflakeFactory

# Gateway intents that gate each family of events.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13

# What a bot may do in a DM: no threads, no channel management.
DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | flag("embed_links")
    | flag("attach_files")
    | flag("read_message_history")
    | flag("add_reactions")
    | flag("use_external_emojis")
    | flag("use_application_commands")
)

Dispatcher = Callable[[str, dict[str, Any], int], None]
ChangeKind = Literal["create", "update", "delete"]


@dataclass(frozen=True)
class MessageChange:
    """A message as it was right after it was created, edited or deleted, and when (on the
    fake's clock)."""

    kind: ChangeKind
    message: Message
    at: float


class World:
    def __init__(self, *, token: str, bot_name: str, limits: Limits, clock: Clock) -> None:
        self.ids = SnowflakeFactory()
        self.token = token
        self.limits = limits
        self.clock = clock
        # Set by the server once it knows its port; attachment URLs start with it.
        self.origin = ""
        self.bot = User(self.ids.next(), bot_name, bot=True)
        # The application's owner, as /oauth2/applications/@me reports it.
        self.developer = User(self.ids.next(), "developer")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.developer.id: self.developer}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: A server's own permissions for a command, by (guild, command name), then by the
        #: id of the user or role they allow or deny (Integrations in the server settings).
        self.command_permissions: dict[tuple[int, str], dict[int, bool]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        #: The application's own emojis by id (fakediscord.emojis).
        self.app_emojis: dict[int, AppEmoji] = {}
        self._dispatch: Dispatcher = _drop
        self._observers: list[Callable[[MessageChange], None]] = []

    @property
    def application_id(self) -> int:
        return self.bot.id

    # Wiring

    def set_dispatcher(self, dispatcher: Dispatcher) -> None:
        self._dispatch = dispatcher

    def observe(self, observer: Callable[[MessageChange], None]) -> None:
        self._observers.append(observer)

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        self._dispatch(event, data, intent)

    # Building the world (tests)

    def create_user(self, name: str, *, locale: str = "en-US", bot: bool = False) -> User:
        user = User(self.ids.next(), name, bot=bot, locale=locale)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str, *, owner: User | None = None, locale: str = "en-US") -> Guild:
        """A guild with @everyone, the bot's managed role, the bot, its owner and #general."""
        owner = owner or self.create_user(f"{name} owner")
        guild = Guild(self.ids.next(), name, owner.id, locale=locale)
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", EVERYONE_DEFAULT)
        bot_role = Role(self.ids.next(), guild.id, self.bot.name, BOT_DEFAULT, 1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.bot_role_id = bot_role.id
        self.guilds[guild.id] = guild
        guild.members[self.bot.id] = Member(self.bot, guild.id, [bot_role.id])
        guild.members[owner.id] = Member(owner, guild.id)
        # #general arrives inside GUILD_CREATE, not as a CHANNEL_CREATE of its own.
        self._add_channel(guild, "general", ChannelType.TEXT, None)
        self.dispatch("GUILD_CREATE", self.guild_create_payload(guild, members=True), GUILDS)
        return guild

    def add_member(self, guild: Guild, user: User, roles: tuple[Role, ...] = ()) -> Member:
        member = Member(user, guild.id, [role.id for role in roles])
        guild.members[user.id] = member
        data = member.payload() | {"guild_id": str(guild.id)}
        self.dispatch("GUILD_MEMBER_ADD", data, GUILD_MEMBERS)
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        """The user leaves the guild (or is kicked): they no longer see its channels."""
        guild.members.pop(user.id, None)
        data = {"guild_id": str(guild.id), "user": user.payload()}
        self.dispatch("GUILD_MEMBER_REMOVE", data, GUILD_MEMBERS)

    def set_command_permission(
        self, guild: Guild, command: str, target: User | Role, allowed: bool
    ) -> None:
        """A server admin allows or denies one of the bot's commands to a member or a role,
        overriding its default_member_permissions, as Discord's Integrations page does."""
        self.command_permissions.setdefault((guild.id, command), {})[target.id] = allowed

    def create_role(self, guild: Guild, name: str, **permissions: bool) -> Role:
        allow, _ = allow_deny(permissions)
        role = Role(self.ids.next(), guild.id, name, allow, len(guild.roles))
        guild.roles[role.id] = role
        self._announce_role(role, "GUILD_ROLE_CREATE")
        return role

    def set_role_permissions(self, role: Role, **permissions: bool) -> None:
        """Grant (True) or take away (False) permissions from a role."""
        allow, deny = allow_deny(permissions)
        role.permissions = (role.permissions & ~deny) | allow
        self._announce_role(role, "GUILD_ROLE_UPDATE")

    def create_channel(
        self,
        guild: Guild,
        name: str,
        *,
        kind: ChannelType = ChannelType.TEXT,
        parent: Channel | None = None,
        overwrites: list[Overwrite] | None = None,
    ) -> Channel:
        channel = self._add_channel(guild, name, kind, parent)
        channel.overwrites = list(overwrites or [])
        self.dispatch("CHANNEL_CREATE", channel.payload(), GUILDS)
        return channel

    def _add_channel(
        self, guild: Guild, name: str, kind: ChannelType, parent: Channel | None
    ) -> Channel:
        channel = Channel(
            self.ids.next(),
            kind,
            name=name,
            guild_id=guild.id,
            parent_id=parent.id if parent else None,
            position=len(guild.channel_ids),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def set_overwrite(
        self, channel: Channel, target: User | Role, **permissions: bool | None
    ) -> None:
        """Allow (True), deny (False) or reset (None) permissions for a role or member."""
        kind = 0 if isinstance(target, Role) else 1
        overwrite = channel.overwrite_for(target.id, kind)
        for name, allowed in permissions.items():
            bit = flag(name)
            overwrite.allow &= ~bit
            overwrite.deny &= ~bit
            if allowed is True:
                overwrite.allow |= bit
            elif allowed is False:
                overwrite.deny |= bit
        self.dispatch("CHANNEL_UPDATE", channel.payload(), GUILDS)

    def update_channel(
        self,
        channel: Channel,
        *,
        rate_limit_per_user: int | None = None,
        default_thread_rate_limit_per_user: int | None = None,
        default_auto_archive_duration: int | None = None,
    ) -> None:
        """Changes a channel's slowmode or thread defaults, as an admin would, and announces it.

        `rate_limit_per_user` is the slowmode of the channel (or thread) itself;
        `default_thread_rate_limit_per_user` is copied onto threads created afterwards.
        """
        if rate_limit_per_user is not None:
            channel.rate_limit_per_user = rate_limit_per_user
        if default_thread_rate_limit_per_user is not None:
            channel.default_thread_rate_limit_per_user = default_thread_rate_limit_per_user
        if default_auto_archive_duration is not None:
            channel.default_auto_archive_duration = default_auto_archive_duration
        self.announce_channel_update(channel)

    def set_bot_permissions(self, where: Guild | Channel, **permissions: bool | None) -> None:
        """Change what the bot may do in a whole guild (its role) or in one channel.

        In a channel, None removes the bot's overwrite for that permission again.
        """
        if isinstance(where, Guild):
            assert where.bot_role_id is not None
            granted = {name: bool(value) for name, value in permissions.items()}
            self.set_role_permissions(where.roles[where.bot_role_id], **granted)
        else:
            self.set_overwrite(where, self.bot, **permissions)

    def close_dms(self, user: User) -> None:
        """The user no longer accepts DMs from the bot: sending one answers 403 / 50007."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        user.dms_open = True

    # Lookups that answer the way the REST API does when something is missing

    def get_user(self, user_id: int) -> User:
        try:
            return self.users[user_id]
        except KeyError:
            raise errors.unknown_user() from None

    def get_guild(self, guild_id: int) -> Guild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise errors.unknown_guild() from None

    def get_member(self, guild: Guild, user_id: int) -> Member:
        try:
            return guild.members[user_id]
        except KeyError:
            raise errors.unknown_member() from None

    def get_channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise errors.unknown_channel() from None

    def get_message(self, channel: Channel, message_id: int) -> Message:
        """A channel message; ephemeral messages are reachable only through webhooks."""
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            raise errors.unknown_message()
        return message

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def permission_source(self, channel: Channel) -> Channel:
        """Threads take their permissions from the channel they live in."""
        if channel.is_thread and channel.parent_id is not None:
            return self.channels[channel.parent_id]
        return channel

    def permissions(self, user: User, channel: Channel) -> int:
        guild = self.guild_of(channel)
        if guild is None:
            return DM_PERMISSIONS
        member = guild.members.get(user.id)
        if member is None:
            return 0
        return channel_permissions(guild, member, self.permission_source(channel))

    def guild_permissions(self, user: User, guild: Guild) -> int:
        member = guild.members.get(user.id)
        return 0 if member is None else base_permissions(guild, member)

    def require_bot(self, channel: Channel, *names: str) -> None:
        """403 like Discord when the bot cannot see the channel or lacks a permission."""
        granted = self.permissions(self.bot, channel)
        if not granted & VIEW_CHANNEL:
            raise errors.missing_access()
        for name in names:
            if not granted & flag(name):
                raise errors.missing_permissions()

    def require_bot_can_send(self, channel: Channel) -> None:
        """Threads need Send Messages in Threads; other channels Send Messages."""
        self.require_bot(
            channel, "send_messages_in_threads" if channel.is_thread else "send_messages"
        )

    def can_see(self, user: User, message: Message) -> bool:
        """Whether a person's Discord client shows this message."""
        if message.ephemeral_for is not None:
            return message.ephemeral_for == user.id
        channel = self.channels.get(message.channel_id)
        if channel is None:
            return False
        if channel.is_dm:
            return channel.recipient is user
        if not self.permissions(user, channel) & VIEW_CHANNEL:
            return False
        if channel.type is ChannelType.PRIVATE_THREAD:
            return user.id in channel.thread_members
        return True

    # DMs and threads

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), ChannelType.DM, recipient=user)
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel
        return channel

    def create_thread(
        self,
        parent: Channel,
        name: str,
        *,
        kind: ChannelType,
        owner: User,
        starter: Message | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        rate_limit_per_user: int = 0,
    ) -> Channel:
        # A thread started from a message shares that message's id, as on Discord.
        thread_id = starter.id if starter is not None else self.ids.next()
        created = self.clock.wall()
        thread = Channel(
            thread_id,
            kind,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            thread_members={owner.id},
            created_at=created,
            archived_at=created,
            rate_limit_per_user=rate_limit_per_user,
            last_activity=self.clock.now(),
        )
        self.channels[thread.id] = thread
        guild = self.guild_of(parent)
        assert guild is not None
        guild.thread_ids.append(thread.id)
        data = thread.payload(bot_id=self.bot.id) | {"newly_created": True}
        self.dispatch("THREAD_CREATE", data, GUILDS)
        if starter is not None:
            starter.thread_id = thread.id
            self.dispatch("MESSAGE_UPDATE", self.message_event(starter), GUILD_MESSAGES)
        return thread

    def announce_channel_update(self, channel: Channel) -> None:
        if channel.is_thread:
            self.dispatch("THREAD_UPDATE", channel.payload(bot_id=self.bot.id), GUILDS)
        else:
            self.dispatch("CHANNEL_UPDATE", channel.payload(), GUILDS)

    def delete_channel(self, channel: Channel) -> None:
        guild = self.guild_of(channel)
        assert guild is not None
        del self.channels[channel.id]
        if channel.is_thread:
            guild.thread_ids.remove(channel.id)
            data = {
                "id": str(channel.id),
                "guild_id": str(guild.id),
                "parent_id": str(channel.parent_id),
                "type": int(channel.type),
            }
            self.dispatch("THREAD_DELETE", data, GUILDS)
        else:
            guild.channel_ids.remove(channel.id)
            self.dispatch("CHANNEL_DELETE", channel.payload(), GUILDS)

    # Messages

    def store_message(self, message: Message) -> None:
        self.messages[message.id] = message
        channel = self.channels[message.channel_id]
        if not message.ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
        self.announce_message(message, "create")

    def announce_message(self, message: Message, kind: ChangeKind) -> None:
        """Tell the bot (unless ephemeral) and every observer about a message change."""
        if not message.ephemeral:
            intent = GUILD_MESSAGES if message.guild_id else DIRECT_MESSAGES
            if kind == "delete":
                data: dict[str, Any] = {
                    "id": str(message.id),
                    "channel_id": str(message.channel_id),
                }
                if message.guild_id:
                    data["guild_id"] = str(message.guild_id)
                self.dispatch("MESSAGE_DELETE", data, intent)
            else:
                event = "MESSAGE_CREATE" if kind == "create" else "MESSAGE_UPDATE"
                self.dispatch(event, self.message_event(message), intent)
        change = MessageChange(kind, message.snapshot(), self.clock.now())
        for observer in self._observers:
            observer(change)

    def message_event(self, message: Message) -> dict[str, Any]:
        """A message as the gateway sends it: with guild_id and the author's member."""
        data = message.payload(bot_id=self.bot.id)
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None and message.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        if message.thread_id is not None and message.thread_id in self.channels:
            data["thread"] = self.channels[message.thread_id].payload(bot_id=self.bot.id)
        return data

    # Payloads

    def guild_create_payload(self, guild: Guild, *, members: bool) -> dict[str, Any]:
        """GUILD_CREATE; without the members intent Discord sends only the bot's member."""
        listed = list(guild.members.values()) if members else [guild.members[self.bot.id]]
        channels = [self.channels[cid] for cid in guild.channel_ids]
        threads = [
            self.channels[tid] for tid in guild.thread_ids if not self.channels[tid].archived
        ]
        data = guild.info_payload()
        data.update(
            {
                "unavailable": False,
                "large": False,
                "member_count": len(guild.members),
                "joined_at": guild.members[self.bot.id].joined_at.isoformat(),
                "channels": [c.payload() for c in channels],
                "threads": [t.payload(bot_id=self.bot.id) for t in threads],
                "members": [m.payload() for m in listed],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "max_members": 500000,
            }
        )
        return data

    def member_payload_with_permissions(
        self, guild: Guild, user: User, channel: Channel
    ) -> dict[str, Any]:
        member = self.get_member(guild, user.id)
        data = member.payload()
        data["permissions"] = str(self.permissions(user, channel))
        return data

    def _announce_role(self, role: Role, event: str) -> None:
        data = {"guild_id": str(role.guild_id), "role": role.payload()}
        self.dispatch(event, data, GUILDS)


def _drop(event: str, data: dict[str, Any], intent: int) -> None:
    """The dispatcher before a gateway is attached: events have nowhere to go."""
