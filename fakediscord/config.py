"""Settings tests can change: Discord's platform limits, deadlines, rate limits, the
invalid-request ban, network latency and sharding."""

from dataclasses import dataclass, field

MIB = 1024 * 1024


@dataclass
class Limits:
    """Discord's limits on what a bot may send, and the deadlines on interactions.

    Tests shrink the deadlines (or advance the fake's clock) instead of waiting;
    `enforce` turns payload validation off for tests that want to see raw payloads.
    """

    enforce: bool = True
    content_length: int = 2000
    embeds_per_message: int = 10
    embed_total_chars: int = 6000
    attachments_per_message: int = 10
    upload_bytes: int = 10 * MIB
    action_rows: int = 5
    buttons_per_row: int = 5
    select_options: int = 25
    custom_id_length: int = 100
    button_label_length: int = 80
    select_placeholder_length: int = 150
    select_option_text_length: int = 100
    components_v2_total: int = 40
    channels_per_guild: int = 500
    channels_per_category: int = 50
    first_response_seconds: float = 3.0
    token_lifetime_seconds: float = 15 * 60.0
    # Discord's channel object: "bots, as well as users with the permission
    # BYPASS_SLOWMODE, are unaffected" by `rate_limit_per_user`. False holds the bot to
    # slowmode like a user, for testing a bot against a stricter Discord.
    slowmode_exempts_bots: bool = True


@dataclass(frozen=True)
class RouteLimit:
    """A per-route bucket: `limit` requests per `per` seconds.

    Routes naming the same `bucket` share one counter, as Discord's shared buckets do.
    `scope` is what a 429 on it reports in `X-RateLimit-Scope`: "user" for the bot's own
    limit, "shared" for a limit on the resource that every caller shares.
    """

    limit: int
    per: float
    bucket: str | None = None
    scope: str = "user"


_MESSAGE = "/channels/{channel_id}/messages"
_REACTION = _MESSAGE + "/{message_id}/reactions/{emoji}"
_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_WEBHOOK_LIMIT = RouteLimit(5, 2.0, bucket="webhook")


def default_route_limits() -> dict[str, RouteLimit]:
    """Buckets modelled on what Discord reports for the routes a table bot uses."""
    return {
        f"POST {_MESSAGE}": RouteLimit(5, 5.0),
        f"PATCH {_MESSAGE}/{{message_id}}": RouteLimit(5, 5.0),
        f"DELETE {_MESSAGE}/{{message_id}}": RouteLimit(5, 1.0),
        f"PUT {_REACTION}/@me": RouteLimit(1, 0.25, bucket="reactions"),
        f"DELETE {_REACTION}/@me": RouteLimit(1, 0.25, bucket="reactions"),
        f"DELETE {_REACTION}/{{member_id}}": RouteLimit(1, 0.25, bucket="reactions"),
        "POST /users/@me/channels": RouteLimit(5, 1.0),
        "POST /channels/{channel_id}/threads": RouteLimit(5, 5.0),
        f"POST {_MESSAGE}/{{message_id}}/threads": RouteLimit(5, 5.0),
        "POST /guilds/{guild_id}/channels": RouteLimit(5, 5.0),
        f"POST {_WEBHOOK}": _WEBHOOK_LIMIT,
        f"PATCH {_WEBHOOK}/messages/@original": _WEBHOOK_LIMIT,
        f"PATCH {_WEBHOOK}/messages/{{message_id}}": _WEBHOOK_LIMIT,
        f"DELETE {_WEBHOOK}/messages/@original": _WEBHOOK_LIMIT,
        f"DELETE {_WEBHOOK}/messages/{{message_id}}": _WEBHOOK_LIMIT,
    }


@dataclass
class RateLimits:
    """Per-route buckets and the global per-bot limit.

    `time_scale` multiplies every window (0.01 turns 5 per 5 s into 5 per 50 ms), so a
    test can exhaust and recover from a bucket quickly while headers stay consistent.
    """

    enabled: bool = True
    global_limit: int = 50
    global_per: float = 1.0
    routes: dict[str, RouteLimit] = field(default_factory=default_route_limits)
    default: RouteLimit = field(default_factory=lambda: RouteLimit(50, 1.0))
    time_scale: float = 1.0


@dataclass
class InvalidRequests:
    """Discord's invalid request limit ("Cloudflare bans").

    More than `limit` answers of 401, 403 or 429 (but not 429s of `X-RateLimit-Scope:
    shared`) within `window` seconds, and every request is refused at Discord's edge for
    `ban_seconds`: a 429 without a `Via` header. Discord documents 10,000 per 10 minutes
    and calls the ban temporary without saying for how long; an hour is what bots report.
    """

    enabled: bool = True
    limit: int = 10_000
    window: float = 600.0
    ban_seconds: float = 3600.0


@dataclass
class Latency:
    """Network time between the fake and its clients, in seconds; 0 is loopback.

    `gateway` delays every gateway frame on its way to the client (frames keep their
    order); `rest` delays each REST request on its way in and its answer on its way out.
    Each delay gets up to `jitter` more, drawn from a generator seeded with `seed`, so a
    run can be repeated.
    """

    gateway: float = 0.0
    rest: float = 0.0
    jitter: float = 0.0
    seed: int = 0


@dataclass
class Sharding:
    """What GET /gateway/bot recommends, and the gateway's limits on IDENTIFY.

    A session that would hold more than `max_guilds_per_shard` guilds is closed with 4011
    (Sharding required); `session_start_total` and `max_concurrency` fill the
    session_start_limit object.
    """

    shards: int = 1
    max_guilds_per_shard: int = 2500
    session_start_total: int = 1000
    max_concurrency: int = 1
