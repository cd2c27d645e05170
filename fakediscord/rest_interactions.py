"""REST routes of interactions: the callback and the webhook follow-up routes."""

from aiohttp import web

from fakediscord.interactions import (
    answer,
    follow_up,
    interaction_for_webhook,
    webhook_message,
)
from fakediscord.messaging import delete_message, edit_message
from fakediscord.models import Interaction
from fakediscord.rest_io import (
    flag_param,
    json_response,
    no_content,
    read_message_body,
    snowflake,
    world_of,
)
from fakediscord.world import World


async def callback(request: web.Request) -> web.Response:
    world = world_of(request)
    body = await read_message_body(request)
    result = answer(
        world,
        snowflake(request, "webhook_id"),
        request.match_info["webhook_token"],
        body,
        with_response=flag_param(request, "with_response"),
    )
    return no_content() if result is None else json_response(result)


def _interaction(request: web.Request, world: World) -> Interaction:
    return interaction_for_webhook(
        world, snowflake(request, "webhook_id"), request.match_info["webhook_token"]
    )


async def execute(request: web.Request) -> web.Response:
    """Create Followup Message: "Functions the same as Execute Webhook, but `wait` is
    always true", so the message always comes back."""
    world = world_of(request)
    interaction = _interaction(request, world)
    message = follow_up(world, interaction, await read_message_body(request))
    return json_response(message.payload(bot_id=world.bot.id))


def _message_id(request: web.Request) -> str:
    return request.match_info.get("message_id", "@original")


async def get_webhook_message(request: web.Request) -> web.Response:
    world = world_of(request)
    message = webhook_message(world, _interaction(request, world), _message_id(request))
    return json_response(message.payload(bot_id=world.bot.id))


async def patch_webhook_message(request: web.Request) -> web.Response:
    world = world_of(request)
    message = webhook_message(world, _interaction(request, world), _message_id(request))
    edited = edit_message(world, message, await read_message_body(request))
    return json_response(edited.payload(bot_id=world.bot.id))


async def delete_webhook_message(request: web.Request) -> web.Response:
    world = world_of(request)
    message = webhook_message(world, _interaction(request, world), _message_id(request))
    delete_message(world, message)
    return no_content()


_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"

ROUTES = [
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", callback),
    ("POST", _WEBHOOK, execute),
    ("GET", _WEBHOOK + "/messages/@original", get_webhook_message),
    ("PATCH", _WEBHOOK + "/messages/@original", patch_webhook_message),
    ("DELETE", _WEBHOOK + "/messages/@original", delete_webhook_message),
    ("GET", _WEBHOOK + "/messages/{message_id}", get_webhook_message),
    ("PATCH", _WEBHOOK + "/messages/{message_id}", patch_webhook_message),
    ("DELETE", _WEBHOOK + "/messages/{message_id}", delete_webhook_message),
]
