"""REST routes on channels: messages, reactions, threads, DMs, channel get/edit/delete."""

from typing import Any

from aiohttp import web

from fakediscord import errors, threads
from fakediscord.messaging import (
    MessageBody,
    add_reaction,
    create_message,
    delete_message,
    edit_message,
    parse_emoji,
    remove_reaction,
)
from fakediscord.models import Channel, ChannelType, Message, iso, utcnow
from fakediscord.permissions import VIEW_CHANNEL, flag
from fakediscord.rest_io import (
    json_response,
    no_content,
    read_json,
    read_message_body,
    slowmode_of,
    snowflake,
    world_of,
)
from fakediscord.threads import ARCHIVE_DURATIONS
from fakediscord.world import GUILD_MESSAGE_REACTIONS, GUILDS, World

MAX_HISTORY = 100
MAX_SLOWMODE = 21600


def _channel(request: web.Request, world: World) -> Channel:
    """The channel in the URL, if the bot can see it."""
    channel = world.get_channel(snowflake(request, "channel_id"))
    if not world.permissions(world.bot, channel) & VIEW_CHANNEL:
        raise errors.missing_access()
    return channel


def _message(request: web.Request, world: World) -> tuple[Channel, Message]:
    channel = _channel(request, world)
    return channel, world.get_message(channel, snowflake(request, "message_id"))


async def get_channel(request: web.Request) -> web.Response:
    world = world_of(request)
    return json_response(_channel(request, world).payload(bot_id=world.bot.id))


async def edit_channel(request: web.Request) -> web.Response:
    world = world_of(request)
    channel = _channel(request, world)
    fields = await read_json(request)
    if channel.is_dm:
        raise errors.APIError(400, 50003, "Cannot execute action on a DM channel")
    _check_channel_fields(fields)
    if channel.is_thread:
        _edit_thread(world, channel, fields)
    else:
        _edit_text_channel(world, channel, fields)
    world.announce_channel_update(channel)
    return json_response(channel.payload(bot_id=world.bot.id))


def _check_channel_fields(fields: dict[str, Any]) -> None:
    """400 / 50035 for a slowmode or auto-archive time Discord does not accept."""
    form = errors.FormErrors()
    for key in ("rate_limit_per_user", "default_thread_rate_limit_per_user"):
        value = fields.get(key)
        if value is not None and not 0 <= int(value) <= MAX_SLOWMODE:
            form.add((key,), "NUMBER_TYPE_MAX", f"int value should be <= {MAX_SLOWMODE}.")
    for key in ("auto_archive_duration", "default_auto_archive_duration"):
        value = fields.get(key)
        if value is not None and int(value) not in ARCHIVE_DURATIONS:
            form.add((key,), "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
    form.raise_if_any()


def _edit_text_channel(world: World, channel: Channel, fields: dict[str, Any]) -> None:
    world.require_bot(channel, "manage_channels")
    if "name" in fields:
        channel.name = fields["name"]
    if "position" in fields:
        channel.position = int(fields["position"])
    if fields.get("rate_limit_per_user") is not None:
        channel.rate_limit_per_user = int(fields["rate_limit_per_user"])
    if fields.get("default_thread_rate_limit_per_user") is not None:
        channel.default_thread_rate_limit_per_user = int(
            fields["default_thread_rate_limit_per_user"]
        )
    if fields.get("default_auto_archive_duration") is not None:
        channel.default_auto_archive_duration = int(fields["default_auto_archive_duration"])


def _edit_thread(world: World, thread: Channel, fields: dict[str, Any]) -> None:
    """Modify Channel (Thread) and the Threads topic, "Editing & Deleting Threads".

    The thread must be active or be unarchived by this request. Unarchiving an unlocked
    thread needs only Send Messages; name, archived and auto_archive_duration need Manage
    Threads or being the thread's creator; locked and rate_limit_per_user need Manage
    Threads.
    """
    unarchiving = fields.get("archived") is False
    if thread.archived and not unarchiving:
        raise errors.thread_archived()
    _check_thread_edit_permissions(world, thread, fields)
    if unarchiving:
        threads.set_archived(world, thread, False)
    if "name" in fields:
        thread.name = fields["name"]
    if fields.get("auto_archive_duration") is not None:
        threads.set_auto_archive_duration(world, thread, int(fields["auto_archive_duration"]))
    if "locked" in fields:
        thread.locked = bool(fields["locked"])
    if "invitable" in fields:
        thread.invitable = bool(fields["invitable"])
    if fields.get("rate_limit_per_user") is not None:
        thread.rate_limit_per_user = int(fields["rate_limit_per_user"])
    if fields.get("archived") is True:
        threads.set_archived(world, thread, True)


def _check_thread_edit_permissions(world: World, thread: Channel, fields: dict[str, Any]) -> None:
    manages = bool(world.permissions(world.bot, thread) & flag("manage_threads"))
    if manages:
        return
    owns = thread.owner_id == world.bot.id
    if "locked" in fields or fields.get("rate_limit_per_user") is not None:
        raise errors.missing_permissions()
    if fields.get("archived") is False and thread.locked:
        raise errors.missing_permissions()
    if fields.get("archived") is False:
        world.require_bot_can_send(thread)
    owner_fields = ("name", "auto_archive_duration")
    archiving = fields.get("archived") is True
    if (archiving or any(key in fields for key in owner_fields)) and not owns:
        raise errors.missing_permissions()


async def delete_channel(request: web.Request) -> web.Response:
    world = world_of(request)
    channel = _channel(request, world)
    if channel.is_dm:
        return json_response(channel.payload())
    world.require_bot(channel, "manage_threads" if channel.is_thread else "manage_channels")
    world.delete_channel(channel)
    return json_response(channel.payload(bot_id=world.bot.id))


async def post_message(request: web.Request) -> web.Response:
    world = world_of(request)
    slowmode = slowmode_of(request)
    channel = _channel(request, world)
    body = await read_message_body(request)
    _check_can_post(world, channel, body)
    slowmode.check_message(world.bot, channel)
    message = create_message(world, channel, world.bot, body)
    slowmode.note_message(world.bot, channel)
    return json_response(message.payload(bot_id=world.bot.id))


def _check_can_post(world: World, channel: Channel, body: MessageBody) -> None:
    if channel.type is ChannelType.CATEGORY:
        raise errors.APIError(400, 50008, "Cannot send messages in a non-text channel")
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.dms_open:
            raise errors.cannot_message_user()
        return
    world.require_bot_can_send(channel)
    if body.uploads:
        world.require_bot(channel, "attach_files")


async def list_messages(request: web.Request) -> web.Response:
    """resources/message, Get Channel Messages: newest first; "If the current user is
    missing the READ_MESSAGE_HISTORY permission in the channel, then no messages will be
    returned" (an empty list, not an error)."""
    world = world_of(request)
    channel = _channel(request, world)
    if not world.permissions(world.bot, channel) & flag("read_message_history"):
        return json_response([])
    limit = min(int(request.query.get("limit", "50")), MAX_HISTORY)
    before = int(request.query.get("before", "0")) or None
    after = int(request.query.get("after", "0"))
    found = [
        message
        for message in world.messages.values()
        if message.channel_id == channel.id
        and not message.deleted
        and not message.ephemeral
        and message.id > after
        and (before is None or message.id < before)
    ]
    found.sort(key=lambda message: message.id, reverse=True)
    if after and before is None:
        found = found[-limit:]
    return json_response([message.payload(bot_id=world.bot.id) for message in found[:limit]])


async def get_message(request: web.Request) -> web.Response:
    world = world_of(request)
    channel, message = _message(request, world)
    world.require_bot(channel, "read_message_history")
    return json_response(message.payload(bot_id=world.bot.id))


async def patch_message(request: web.Request) -> web.Response:
    world = world_of(request)
    _, message = _message(request, world)
    body = await read_message_body(request)
    return json_response(edit_message(world, message, body).payload(bot_id=world.bot.id))


async def remove_message(request: web.Request) -> web.Response:
    world = world_of(request)
    _, message = _message(request, world)
    delete_message(world, message)
    return no_content()


def _emoji(request: web.Request) -> str:
    return parse_emoji(request.match_info["emoji"])


async def put_own_reaction(request: web.Request) -> web.Response:
    world = world_of(request)
    channel, message = _message(request, world)
    emoji = _emoji(request)
    world.require_bot(channel, "read_message_history")
    if emoji not in message.reactions:
        world.require_bot(channel, "add_reactions")
    add_reaction(world, message, world.bot, emoji)
    return no_content()


async def delete_own_reaction(request: web.Request) -> web.Response:
    world = world_of(request)
    _, message = _message(request, world)
    remove_reaction(world, message, world.bot, _emoji(request))
    return no_content()


async def delete_user_reaction(request: web.Request) -> web.Response:
    world = world_of(request)
    channel, message = _message(request, world)
    if channel.is_dm:
        raise errors.APIError(403, 50003, "Cannot execute action on a DM channel")
    world.require_bot(channel, "manage_messages")
    user = world.get_user(snowflake(request, "member_id"))
    remove_reaction(world, message, user, _emoji(request))
    return no_content()


async def get_reaction_users(request: web.Request) -> web.Response:
    world = world_of(request)
    _, message = _message(request, world)
    limit = int(request.query.get("limit", "25"))
    after = int(request.query.get("after", "0"))
    user_ids = sorted(uid for uid in message.reactions.get(_emoji(request), []) if uid > after)
    return json_response([world.users[uid].payload() for uid in user_ids[:limit]])


async def clear_reactions(request: web.Request) -> web.Response:
    world = world_of(request)
    channel, message = _message(request, world)
    if channel.is_dm:
        raise errors.APIError(403, 50003, "Cannot execute action on a DM channel")
    world.require_bot(channel, "manage_messages")
    message.reactions.clear()
    data = {"channel_id": str(channel.id), "message_id": str(message.id)}
    data["guild_id"] = str(channel.guild_id)
    world.dispatch("MESSAGE_REACTION_REMOVE_ALL", data, GUILD_MESSAGE_REACTIONS)
    return no_content()


async def create_dm(request: web.Request) -> web.Response:
    world = world_of(request)
    fields = await read_json(request)
    if "recipient_id" not in fields:
        form = errors.FormErrors()
        form.add(("recipient_id",), "BASE_TYPE_REQUIRED", "This field is required")
        form.raise_if_any()
    user = world.get_user(int(fields["recipient_id"]))
    if user.bot:
        raise errors.cannot_message_user()
    return json_response(world.dm_channel(user).payload())


def _thread_fields(parent: Channel, fields: dict[str, Any]) -> tuple[str, int, int]:
    """Name, auto-archive time and slowmode of a new thread; the parent's defaults fill in
    what the request leaves out ("default duration, copied onto newly created threads")."""
    name = fields.get("name") or ""
    duration = int(fields.get("auto_archive_duration") or parent.default_auto_archive_duration)
    slowmode = fields.get("rate_limit_per_user")
    if slowmode is None:
        slowmode = parent.default_thread_rate_limit_per_user
    form = errors.FormErrors()
    if not 1 <= len(name) <= 100:
        form.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    form.raise_if_any()
    _check_channel_fields({"auto_archive_duration": duration, "rate_limit_per_user": slowmode})
    return name, duration, int(slowmode)


def _check_thread_parent(channel: Channel) -> None:
    if channel.type is not ChannelType.TEXT:
        raise errors.APIError(400, 50024, "Cannot execute action on this channel type")


async def start_thread_from_message(request: web.Request) -> web.Response:
    world = world_of(request)
    channel, message = _message(request, world)
    _check_thread_parent(channel)
    world.require_bot(channel, "create_public_threads", "read_message_history")
    if message.thread_id is not None:
        raise errors.APIError(400, 160004, "A thread has already been created for this message")
    name, duration, slowmode = _thread_fields(channel, await read_json(request))
    slowmode_of(request).check_thread_creation(world.bot, channel)
    thread = world.create_thread(
        channel,
        name,
        kind=ChannelType.PUBLIC_THREAD,
        owner=world.bot,
        starter=message,
        auto_archive_duration=duration,
        rate_limit_per_user=slowmode,
    )
    slowmode_of(request).note_thread_creation(world.bot, channel)
    return json_response(thread.payload(bot_id=world.bot.id), status=201)


async def start_thread(request: web.Request) -> web.Response:
    world = world_of(request)
    channel = _channel(request, world)
    _check_thread_parent(channel)
    fields = await read_json(request)
    raw_kind = int(fields.get("type") or ChannelType.PRIVATE_THREAD)
    if raw_kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
        raise errors.APIError(400, 50024, "Cannot execute action on this channel type")
    kind = ChannelType(raw_kind)
    needed = (
        "create_public_threads" if kind is ChannelType.PUBLIC_THREAD else "create_private_threads"
    )
    world.require_bot(channel, needed)
    name, duration, slowmode = _thread_fields(channel, fields)
    slowmode_of(request).check_thread_creation(world.bot, channel)
    thread = world.create_thread(
        channel,
        name,
        kind=kind,
        owner=world.bot,
        auto_archive_duration=duration,
        invitable=fields.get("invitable", True) is not False,
        rate_limit_per_user=slowmode,
    )
    slowmode_of(request).note_thread_creation(world.bot, channel)
    return json_response(thread.payload(bot_id=world.bot.id), status=201)


def _thread(request: web.Request, world: World) -> Channel:
    thread = _channel(request, world)
    if not thread.is_thread:
        raise errors.APIError(400, 50024, "Cannot execute action on this channel type")
    return thread


async def add_thread_member(request: web.Request) -> web.Response:
    world = world_of(request)
    thread = _thread(request, world)
    raw = request.match_info.get("user_id")
    user = world.bot if raw is None else world.get_user(snowflake(request, "user_id"))
    threads.require_active(world, thread)
    world.require_bot_can_send(thread)
    guild = world.guild_of(thread)
    assert guild is not None
    world.get_member(guild, user.id)
    if user.id not in thread.thread_members:
        thread.thread_members.add(user.id)
        _announce_members(world, thread, added=user.id)
    return no_content()


async def remove_thread_member(request: web.Request) -> web.Response:
    world = world_of(request)
    thread = _thread(request, world)
    raw = request.match_info.get("user_id")
    user_id = world.bot.id if raw is None else snowflake(request, "user_id")
    if raw is not None:
        world.require_bot(thread, "manage_threads")
    if user_id in thread.thread_members:
        thread.thread_members.discard(user_id)
        _announce_members(world, thread, removed=user_id)
    return no_content()


def _announce_members(
    world: World, thread: Channel, *, added: int | None = None, removed: int | None = None
) -> None:
    data: dict[str, Any] = {
        "id": str(thread.id),
        "guild_id": str(thread.guild_id),
        "member_count": len(thread.thread_members),
    }
    if added is not None:
        data["added_members"] = [
            {
                "id": str(thread.id),
                "user_id": str(added),
                "join_timestamp": iso(utcnow()),
                "flags": 0,
            }
        ]
    if removed is not None:
        data["removed_member_ids"] = [str(removed)]
    world.dispatch("THREAD_MEMBERS_UPDATE", data, GUILDS)


async def trigger_typing(request: web.Request) -> web.Response:
    world = world_of(request)
    _channel(request, world)
    return no_content()


_MESSAGES = "/channels/{channel_id}/messages"
_MESSAGE = _MESSAGES + "/{message_id}"
_REACTIONS = _MESSAGE + "/reactions"

ROUTES = [
    ("POST", "/users/@me/channels", create_dm),
    ("GET", "/channels/{channel_id}", get_channel),
    ("PATCH", "/channels/{channel_id}", edit_channel),
    ("DELETE", "/channels/{channel_id}", delete_channel),
    ("POST", "/channels/{channel_id}/typing", trigger_typing),
    ("GET", _MESSAGES, list_messages),
    ("POST", _MESSAGES, post_message),
    ("GET", _MESSAGE, get_message),
    ("PATCH", _MESSAGE, patch_message),
    ("DELETE", _MESSAGE, remove_message),
    ("DELETE", _REACTIONS, clear_reactions),
    ("PUT", _REACTIONS + "/{emoji}/@me", put_own_reaction),
    ("DELETE", _REACTIONS + "/{emoji}/@me", delete_own_reaction),
    ("DELETE", _REACTIONS + "/{emoji}/{member_id}", delete_user_reaction),
    ("GET", _REACTIONS + "/{emoji}", get_reaction_users),
    ("POST", _MESSAGE + "/threads", start_thread_from_message),
    ("POST", "/channels/{channel_id}/threads", start_thread),
    ("PUT", "/channels/{channel_id}/thread-members/@me", add_thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/@me", remove_thread_member),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", add_thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", remove_thread_member),
]
