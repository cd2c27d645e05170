"""The fake's in-memory Discord objects and their JSON payloads as Discord sends them."""

import asyncio
import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum
from typing import Any

EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7
COMPONENTS_V2_FLAG = 1 << 15

BUTTON = 2
STRING_SELECT = 3
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
ACTION_ROW = 1


def iso(moment: datetime) -> str:
    return moment.isoformat()


def utcnow() -> datetime:
    return datetime.now(UTC)


class ChannelType(IntEnum):
    TEXT = 0
    DM = 1
    CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


THREAD_TYPES = frozenset({ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD})


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: datetime = field(default_factory=utcnow)
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(role) for role in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (kind 0) or a member (kind 1)."""

    target_id: int
    kind: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.target_id),
            "type": self.kind,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: ChannelType
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: User | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    thread_members: set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: int | None = None
    created_at: datetime = field(default_factory=utcnow)
    archived_at: datetime = field(default_factory=utcnow)
    # Slowmode, in seconds; a text channel copies its thread default onto new threads.
    rate_limit_per_user: int = 0
    default_thread_rate_limit_per_user: int = 0
    # Copied onto new threads that do not ask for an auto-archive time of their own.
    default_auto_archive_duration: int = 1440
    # When a thread last saw activity, on the fake's clock: it archives after
    # `auto_archive_duration` minutes without any.
    last_activity: float = 0.0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type is ChannelType.DM

    def overwrite_for(self, target_id: int, kind: int) -> Overwrite:
        for overwrite in self.overwrites:
            if overwrite.target_id == target_id:
                return overwrite
        overwrite = Overwrite(target_id, kind)
        self.overwrites.append(overwrite)
        return overwrite

    def payload(self, *, bot_id: int | None = None) -> dict[str, Any]:
        """The channel object; `bot_id` adds the bot's thread membership to threads."""
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "last_message_id": _optional_id(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": _optional_id(self.parent_id),
            "last_message_id": _optional_id(self.last_message_id),
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            data.update(self._thread_fields(bot_id))
        else:
            data["position"] = self.position
            data["permission_overwrites"] = [o.payload() for o in self.overwrites]
            if self.type is ChannelType.TEXT:
                data["topic"] = None
                data["default_auto_archive_duration"] = self.default_auto_archive_duration
                data["default_thread_rate_limit_per_user"] = self.default_thread_rate_limit_per_user
        return data

    def _thread_fields(self, bot_id: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "owner_id": str(self.owner_id),
            "message_count": self.message_count,
            "total_message_sent": self.message_count,
            "member_count": len(self.thread_members),
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.archived_at),
                "locked": self.locked,
                "invitable": self.invitable,
                "create_timestamp": iso(self.created_at),
            },
        }
        if bot_id is not None and bot_id in self.thread_members:
            data["member"] = {
                "id": str(self.id),
                "user_id": str(bot_id),
                "join_timestamp": iso(self.created_at),
                "flags": 1,
            }
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)
    bot_role_id: int | None = None
    premium_tier: int = 0

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def info_payload(self) -> dict[str, Any]:
        """The guild fields shared by GUILD_CREATE and GET /guilds/{id}."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": self.premium_tier,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    # Pictures run to tens of kilobytes; a message's repr should not spell them out.
    data: bytes = field(repr=False)
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type is not None:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        if self.width is not None and self.height is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data


@dataclass(frozen=True)
class InteractionLink:
    """What a message created by an interaction answer records about that interaction."""

    id: int
    type: int
    user: User
    name: str | None
    guild_id: int | None

    def metadata_payload(self) -> dict[str, Any]:
        owners = {"0": str(self.guild_id)} if self.guild_id else {"1": str(self.user.id)}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": owners,
        }
        if self.name is not None:
            data["name"] = self.name
            data["command_type"] = 1
        return data

    def legacy_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "name": self.name or "",
            "user": self.user.payload(),
        }


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: datetime = field(default_factory=utcnow)
    edited_at: datetime | None = None
    webhook_id: int | None = None
    interaction: InteractionLink | None = None
    ephemeral_for: int | None = None
    reactions: dict[str, list[int]] = field(default_factory=dict)
    thread_id: int | None = None
    deleted: bool = False
    #: The users the message mentions (resources/message: "mentions"), as Discord parses
    #: them from the content under the request's allowed_mentions: the users it pings.
    mentions: list[User] = field(default_factory=list)
    #: The roles and @everyone / @here it pinged when it was sent (``fakediscord.mentions``).
    pinged_roles: list[int] = field(default_factory=list)
    pinged_everyone: bool = False

    @property
    def pinged_users(self) -> list[int]:
        """The ids of the users the message pinged."""
        return [user.id for user in self.mentions]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL_FLAG)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING_FLAG)

    def snapshot(self) -> "Message":
        """A copy frozen at this moment; attachment bytes are shared, not copied."""
        clone = copy.copy(self)
        clone.embeds = copy.deepcopy(self.embeds)
        clone.components = copy.deepcopy(self.components)
        clone.attachments = list(self.attachments)
        clone.reactions = {emoji: list(users) for emoji, users in self.reactions.items()}
        clone.mentions = list(self.mentions)
        return clone

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component at any depth, rows and containers included."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            yield component
            children = list(component.get("components", []))
            accessory = component.get("accessory")
            if accessory is not None:
                children.append(accessory)
            stack.extend(reversed(children))

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == BUTTON]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") in SELECT_TYPES]

    def has_controls(self) -> bool:
        return any(
            c.get("type") == BUTTON or c.get("type") in SELECT_TYPES for c in self.iter_components()
        )

    def payload(self, *, bot_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [user.payload() for user in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.reactions:
            data["reactions"] = [
                _reaction_payload(emoji, users, bot_id) for emoji, users in self.reactions.items()
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata_payload()
            data["interaction"] = self.interaction.legacy_payload()
        return data


def emoji_payload(emoji: str) -> dict[str, Any]:
    """A reaction emoji: unicode as its name, custom emoji written `name:id`."""
    name, _, emoji_id = emoji.partition(":")
    if emoji_id:
        return {"id": emoji_id, "name": name}
    return {"id": None, "name": emoji}


def _reaction_payload(emoji: str, users: list[int], bot_id: int) -> dict[str, Any]:
    return {
        "emoji": emoji_payload(emoji),
        "count": len(users),
        "count_details": {"burst": 0, "normal": len(users)},
        "me": bot_id in users,
        "me_burst": False,
        "burst_colors": [],
    }


def _optional_id(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class Callback:
    """The first answer to an interaction, as the person who triggered it sees it."""

    type: int
    message: Message | None
    latency: float


@dataclass(eq=False)
class Interaction:
    """An interaction the fake sent to the bot, and how the bot has answered it so far."""

    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    data: dict[str, Any]
    created_at: float
    answered: asyncio.Future[Callback]
    command_name: str | None = None
    message_id: int | None = None
    response_type: int | None = None
    first_callback_at: float | None = None
    original_message_id: int | None = None
    modal: dict[str, Any] | None = None
    # A follow-up filled the "thinking…" placeholder of a deferred answer, which Discord
    # keeps for backwards compatibility but documents as deprecated.
    deferral_followed_up: bool = False
    #: The INTERACTION_CREATE payload as sent, so it can be sent again (a double delivery).
    payload: dict[str, Any] = field(default_factory=dict)
    #: How many times INTERACTION_CREATE was sent for it.
    deliveries: int = 0

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    def link(self) -> InteractionLink:
        return InteractionLink(self.id, self.type, self.user, self.command_name, self.guild_id)
