"""REST routes about the bot itself, the gateway, application commands, guilds and members."""

import json
from typing import Any

from aiohttp import web

from fakediscord import errors
from fakediscord.commands import register_commands
from fakediscord.emojis import AppEmoji, check_room, decoded_image
from fakediscord.gateway import Gateway
from fakediscord.models import Channel, ChannelType, Guild, Overwrite
from fakediscord.permissions import flag
from fakediscord.rest_io import json_response, no_content, read_json, snowflake, world_of
from fakediscord.world import World

GATEWAY = web.AppKey("gateway", Gateway)
MAX_NAME = 100


async def get_me(request: web.Request) -> web.Response:
    bot = world_of(request).bot
    return json_response(
        bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
    )


async def get_user(request: web.Request) -> web.Response:
    return json_response(world_of(request).get_user(snowflake(request, "user_id")).payload())


async def get_application(request: web.Request) -> web.Response:
    world = world_of(request)
    return json_response(
        {
            "id": str(world.application_id),
            "name": world.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": world.developer.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": world.bot.payload(),
        }
    )


async def get_gateway(request: web.Request) -> web.Response:
    return json_response({"url": request.app[GATEWAY].url})


async def get_gateway_bot(request: web.Request) -> web.Response:
    gateway = request.app[GATEWAY]
    return json_response(
        {
            "url": gateway.url,
            "shards": gateway.sharding.shards,
            "session_start_limit": gateway.session_start_limit(),
        }
    )


def _check_application(request: web.Request, world: World) -> None:
    if snowflake(request, "application_id") != world.application_id:
        raise errors.APIError(403, 50001, "Missing Access")


def _command_guild(request: web.Request, world: World) -> int | None:
    _check_application(request, world)
    if "guild_id" not in request.match_info:
        return None
    guild = world.get_guild(snowflake(request, "guild_id"))
    if world.bot.id not in guild.members:
        raise errors.missing_access()
    return guild.id


async def get_commands(request: web.Request) -> web.Response:
    world = world_of(request)
    return json_response(world.commands.get(_command_guild(request, world), []))


async def put_commands(request: web.Request) -> web.Response:
    world = world_of(request)
    guild_id = _command_guild(request, world)
    raw = await request.read()
    payloads = json.loads(raw) if raw else []
    if not isinstance(payloads, list):
        raise errors.APIError(400, 50035, "Invalid Form Body")
    return json_response(register_commands(world, guild_id, payloads))


async def list_application_emojis(request: web.Request) -> web.Response:
    world = world_of(request)
    _check_application(request, world)
    owner = world.developer.payload()
    return json_response({"items": [e.payload(owner) for e in world.app_emojis.values()]})


async def create_application_emoji(request: web.Request) -> web.Response:
    world = world_of(request)
    _check_application(request, world)
    fields = await read_json(request)
    check_room(len(world.app_emojis))
    taken = {emoji.name for emoji in world.app_emojis.values()}
    image = decoded_image(fields.get("name"), fields.get("image"), taken)
    emoji = AppEmoji(world.ids.next(), fields["name"], image)
    world.app_emojis[emoji.id] = emoji
    return json_response(emoji.payload(world.developer.payload()), status=201)


def _application_emoji(request: web.Request, world: World) -> AppEmoji:
    _check_application(request, world)
    emoji = world.app_emojis.get(snowflake(request, "emoji_id"))
    if emoji is None:
        raise errors.unknown_emoji()
    return emoji


async def get_application_emoji(request: web.Request) -> web.Response:
    world = world_of(request)
    emoji = _application_emoji(request, world)
    return json_response(emoji.payload(world.developer.payload()))


async def delete_application_emoji(request: web.Request) -> web.Response:
    world = world_of(request)
    del world.app_emojis[_application_emoji(request, world).id]
    return no_content()


async def get_guild(request: web.Request) -> web.Response:
    world = world_of(request)
    guild = world.get_guild(snowflake(request, "guild_id"))
    data = guild.info_payload()
    data["approximate_member_count"] = len(guild.members)
    data["approximate_presence_count"] = 0
    return json_response(data)


async def get_guild_channels(request: web.Request) -> web.Response:
    world = world_of(request)
    guild = world.get_guild(snowflake(request, "guild_id"))
    return json_response([world.channels[cid].payload() for cid in guild.channel_ids])


async def create_guild_channel(request: web.Request) -> web.Response:
    world = world_of(request)
    guild = world.get_guild(snowflake(request, "guild_id"))
    fields = await read_json(request)
    if not world.guild_permissions(world.bot, guild) & flag("manage_channels"):
        raise errors.missing_permissions()
    kind, parent = _checked_channel_fields(world, guild, fields)
    if len(guild.channel_ids) >= world.limits.channels_per_guild:
        raise errors.too_many_channels(world.limits.channels_per_guild)
    overwrites = [
        Overwrite(
            int(entry["id"]),
            int(entry.get("type", 0)),
            int(entry.get("allow") or 0),
            int(entry.get("deny") or 0),
        )
        for entry in fields.get("permission_overwrites") or []
    ]
    channel = world.create_channel(
        guild, fields["name"], kind=kind, parent=parent, overwrites=overwrites
    )
    return json_response(channel.payload(), status=201)


def _checked_channel_fields(
    world: World, guild: Guild, fields: dict[str, Any]
) -> tuple[ChannelType, Channel | None]:
    """The type and category of a new channel, or 400 / 50035 naming what is wrong."""
    kind = fields.get("type", 0)
    name = fields.get("name") or ""
    form = errors.FormErrors()
    if kind not in (ChannelType.TEXT, ChannelType.CATEGORY):
        form.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {0, 4}.")
    if not 1 <= len(name) <= MAX_NAME:
        form.add(("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_NAME} in length.")
    parent = None
    if fields.get("parent_id") is not None:
        parent = world.channels.get(int(fields["parent_id"]))
        limit = world.limits.channels_per_category
        if parent is None or parent.guild_id != guild.id or parent.type != ChannelType.CATEGORY:
            form.add(("parent_id",), "CHANNEL_PARENT_INVALID", "Category does not exist")
        elif _children(world, guild.channel_ids, parent.id) >= limit:
            form.add(
                ("parent_id",),
                "CHANNEL_PARENT_MAX_CHANNELS",
                f"Maximum number of channels in category reached ({limit})",
            )
    form.raise_if_any()
    return ChannelType(kind), parent


def _children(world: World, channel_ids: list[int], parent_id: int) -> int:
    return sum(1 for cid in channel_ids if world.channels[cid].parent_id == parent_id)


async def get_member(request: web.Request) -> web.Response:
    world = world_of(request)
    guild = world.get_guild(snowflake(request, "guild_id"))
    return json_response(world.get_member(guild, snowflake(request, "member_id")).payload())


async def list_members(request: web.Request) -> web.Response:
    world = world_of(request)
    guild = world.get_guild(snowflake(request, "guild_id"))
    limit = int(request.query.get("limit", "1"))
    after = int(request.query.get("after", "0"))
    members = sorted(guild.members.values(), key=lambda member: member.user.id)
    chosen = [member.payload() for member in members if member.user.id > after][:limit]
    return json_response(chosen)


ROUTES = [
    ("GET", "/users/@me", get_me),
    ("GET", "/users/{user_id}", get_user),
    ("GET", "/oauth2/applications/@me", get_application),
    ("GET", "/gateway", get_gateway),
    ("GET", "/gateway/bot", get_gateway_bot),
    ("GET", "/applications/{application_id}/commands", get_commands),
    ("PUT", "/applications/{application_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", get_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/emojis", list_application_emojis),
    ("POST", "/applications/{application_id}/emojis", create_application_emoji),
    ("GET", "/applications/{application_id}/emojis/{emoji_id}", get_application_emoji),
    ("DELETE", "/applications/{application_id}/emojis/{emoji_id}", delete_application_emoji),
    ("GET", "/guilds/{guild_id}", get_guild),
    ("GET", "/guilds/{guild_id}/channels", get_guild_channels),
    ("POST", "/guilds/{guild_id}/channels", create_guild_channel),
    ("GET", "/guilds/{guild_id}/members", list_members),
    ("GET", "/guilds/{guild_id}/members/{member_id}", get_member),
]
