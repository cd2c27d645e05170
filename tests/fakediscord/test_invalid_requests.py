"""Discord's invalid request limit (Rate Limits topic, "Invalid Request Limit aka Cloudflare
bans"): too many 401, 403 and 429 answers in a window, and the API is closed for a while."""

import discord
import pytest

from fakediscord import FakeDiscord, RouteLimit
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest
from tests.fakediscord.table_bot import TableBot

ME = "GET /users/@me"


@pytest.fixture(autouse=True)
def small_limit(fake: FakeDiscord) -> None:
    fake.invalid_requests.limit = 3
    fake.invalid_requests.window = 60.0
    fake.invalid_requests.ban_seconds = 600.0


async def unauthorized(rest: Rest, times: int) -> None:
    for _ in range(times):
        assert (await rest.call("GET", "/users/@me", token=False))[0] == 401


async def test_past_the_limit_every_request_is_refused_at_the_edge(
    fake: FakeDiscord, rest: Rest
) -> None:
    """ "IP addresses that make too many invalid HTTP requests are automatically and
    temporarily restricted from accessing the Discord API. Currently, this limit is 10,000
    per 10 minutes. An invalid request is one that results in 401, 403, or 429 statuses.\""""
    await unauthorized(rest, 3)
    assert (await rest.call("GET", "/users/@me"))[0] == 200
    await unauthorized(rest, 1)
    status, body, headers = await rest.call("GET", "/users/@me")
    assert status == 429 and body is None
    assert "Via" not in headers and "X-RateLimit-Scope" not in headers
    assert headers["Content-Type"].startswith("text/html")
    assert fake.metrics.banned_requests == 1
    fake.clock.advance(600)
    assert (await rest.call("GET", "/users/@me"))[0] == 200


async def test_only_invalid_answers_within_the_window_count(fake: FakeDiscord, rest: Rest) -> None:
    await unauthorized(rest, 3)
    fake.clock.advance(61)
    await unauthorized(rest, 3)
    assert (await rest.call("GET", "/users/@me"))[0] == 200


async def test_shared_scope_429s_are_not_counted(fake: FakeDiscord, rest: Rest) -> None:
    """ "429 errors returned with `X-RateLimit-Scope: shared` are not counted against you.\""""
    fake.rate_limits.time_scale = 1.0
    fake.rate_limits.routes[ME] = RouteLimit(1, 60.0, scope="shared")
    assert (await rest.call("GET", "/users/@me"))[0] == 200
    for _ in range(5):
        status, body, headers = await rest.call("GET", "/users/@me")
        assert status == 429 and headers["X-RateLimit-Scope"] == "shared"
        assert body["message"] == "The resource is being rate limited."
    assert fake.metrics.invalid_requests == 0
    fake.rate_limits.routes[ME] = RouteLimit(1, 60.0)
    fake.clock.advance(60)
    await rest.call("GET", "/users/@me")
    for _ in range(4):
        assert (await rest.call("GET", "/users/@me"))[0] == 429
    assert fake.metrics.invalid_requests == 4
    assert fake.metrics.banned_requests == 0
    assert (await rest.call("GET", "/users/@me"))[2].get("Via") is None


async def test_invalid_requests_per_minute(fake: FakeDiscord, rest: Rest) -> None:
    fake.invalid_requests.enabled = False
    await unauthorized(rest, 2)
    fake.clock.advance(120)
    await rest.call("GET", "/users/@me")
    await unauthorized(rest, 1)
    assert fake.metrics.invalid_requests_per_minute() == [2, 0, 1]
    assert fake.report()["invalid_requests_peak_per_minute"] == 2


async def test_discord_py_gives_up_on_a_banned_request(
    fake: FakeDiscord, guild: Guild, rest: Rest, bot: TableBot
) -> None:
    """discord.py reads a 429 without a `Via` header as a Cloudflare ban: it raises at once
    instead of waiting and retrying."""
    await unauthorized(rest, 4)
    fake.metrics.reset()
    with pytest.raises(discord.HTTPException) as refused:
        await bot.text_channel(guild.channel_ids[0]).send("hello")
    assert refused.value.status == 429
    assert fake.metrics.requests["POST /channels/{channel_id}/messages"] == 1
    assert not fake.world.messages
