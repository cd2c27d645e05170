"""The aiohttp application: REST routes under /api/v10, the gateway socket and the CDN."""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Middleware

from fakediscord import errors, rest_channels, rest_core, rest_interactions, threads
from fakediscord.faults import Faults
from fakediscord.gateway import Gateway
from fakediscord.invalid_requests import InvalidRequestGuard, ban_response, is_invalid
from fakediscord.latency import Delays
from fakediscord.metrics import Metrics
from fakediscord.ratelimit import Decision, RateLimiter
from fakediscord.rest_core import GATEWAY
from fakediscord.rest_io import SLOWMODE, WORLD, json_response, snowflake, world_of
from fakediscord.slowmode import Slowmode
from fakediscord.world import World

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/ws"
# Interaction callbacks and follow-ups carry their own token and skip the global limit.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")
# The URL parameters Discord (and discord.py) use to split one route into many buckets.
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")
MAX_REQUEST_BYTES = 64 * 1024 * 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Services:
    """What the REST API consults besides the world."""

    gateway: Gateway
    limiter: RateLimiter
    metrics: Metrics
    guard: InvalidRequestGuard
    delays: Delays
    slowmode: Slowmode
    faults: Faults


def build_app(world: World, services: Services) -> web.Application:
    """The whole fake; `gateway.url` and `world.origin` must already name the bound port."""
    app = web.Application(
        client_max_size=MAX_REQUEST_BYTES,
        middlewares=[_discord_middleware(world, services)],
    )
    app[WORLD] = world
    app[GATEWAY] = services.gateway
    app[SLOWMODE] = services.slowmode
    app.router.add_get(GATEWAY_PATH, services.gateway.handle)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", _attachment)
    for method, path, handler in (
        *rest_core.ROUTES,
        *rest_channels.ROUTES,
        *rest_interactions.ROUTES,
    ):
        app.router.add_route(method, API_PREFIX + path, handler)
    return app


async def _attachment(request: web.Request) -> web.Response:
    attachment = world_of(request).attachments.get(snowflake(request, "attachment_id"))
    if attachment is None or attachment.filename != request.match_info["filename"]:
        raise web.HTTPNotFound()
    content_type = attachment.content_type or "application/octet-stream"
    return web.Response(body=attachment.data, headers={"Content-Type": content_type})


def _discord_middleware(world: World, services: Services) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        # The request travels to Discord, is answered there, and the answer travels back.
        await _travel(services.delays.rest())
        response = await _answer(world, services, request, handler)
        await _travel(services.delays.rest())
        return response

    return middleware


async def _travel(seconds: float) -> None:
    if seconds > 0:
        await asyncio.sleep(seconds)


async def _answer(
    world: World, services: Services, request: web.Request, handler: Handler
) -> web.StreamResponse:
    """Discord's edge, then the API: the invalid-request ban, auth, rate limits, the route."""
    metrics = services.metrics
    resource = request.match_info.route.resource
    if resource is None or request.match_info.http_exception is not None:
        metrics.record(f"{request.method} (no such route)", 404)
        return _no_route(request)
    route_key = f"{request.method} {resource.canonical.removeprefix(API_PREFIX)}"
    token_route = route_key.split(" ", 1)[1].startswith(TOKEN_ROUTES)
    client = request.remote or ""
    if services.guard.banned(client):
        metrics.record(route_key, 429, global_exempt=token_route, banned=True)
        return ban_response()
    # The fake's clock may have passed threads' auto-archive times since the last look.
    threads.archive_idle(world)
    decision = Decision(True, {})
    try:
        if not token_route and request.headers.get("Authorization") != f"Bot {world.token}":
            raise errors.unauthorized()
        major = "+".join(
            request.match_info[name] for name in MAJOR_PARAMETERS if name in request.match_info
        )
        decision = services.limiter.check(route_key, major, global_exempt=token_route)
        if decision.allowed:
            services.faults.raise_for(route_key)
            response = await handler(request)
        else:
            response = json_response(decision.body(), status=429)
    except errors.APIError as error:
        response = json_response(error.body(), status=error.status)
        response.headers.update(error.headers)
    response.headers.update(decision.headers)
    scope = response.headers.get("X-RateLimit-Scope")
    services.guard.record(client, response.status, scope)
    metrics.record(
        route_key,
        response.status,
        global_limit=decision.is_global,
        global_exempt=token_route,
        channel_id=_channel_of(request),
        invalid=is_invalid(response.status, scope),
    )
    return response


def _channel_of(request: web.Request) -> int | None:
    raw = request.match_info.get("channel_id", "")
    return int(raw) if raw.isdigit() else None


def _no_route(request: web.Request) -> web.Response:
    exception = request.match_info.http_exception
    if exception is not None and exception.status == 405:
        return json_response({"message": "405: Method Not Allowed", "code": 0}, status=405)
    return json_response(errors.not_found().body(), status=404)
