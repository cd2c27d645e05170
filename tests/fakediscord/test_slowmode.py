"""Slowmode, as Discord's channel object documents `rate_limit_per_user` and
`default_thread_rate_limit_per_user`."""

import asyncio
from typing import Any

import pytest

from fakediscord import FakeDiscord
from fakediscord.models import Channel, Guild
from tests.fakediscord.conftest import Rest
from tests.fakediscord.table_bot import TableBot

MESSAGES = "POST /channels/{channel_id}/messages"


@pytest.fixture
def general(fake: FakeDiscord, guild: Guild) -> Channel:
    fake.rate_limits.enabled = False
    return fake.world.channels[guild.channel_ids[0]]


async def send(rest: Rest, channel_id: int | str, content: str = "x") -> tuple[int, Any, dict]:
    return await rest.call("POST", f"/channels/{channel_id}/messages", json={"content": content})


async def test_bots_are_unaffected_by_slowmode(
    fake: FakeDiscord, rest: Rest, general: Channel
) -> None:
    """Channel object, `rate_limit_per_user`: "bots, as well as users with the permission
    BYPASS_SLOWMODE, are unaffected"; change log, "New BYPASS_SLOWMODE Permission": "bots
    are not affected by slowmode restrictions"."""
    fake.world.update_channel(general, rate_limit_per_user=10)
    for _ in range(3):
        assert (await send(rest, general.id))[0] == 200


async def test_a_bot_held_to_slowmode_gets_429_with_code_20016(
    fake: FakeDiscord, rest: Rest, general: Channel
) -> None:
    """With `slowmode_exempts_bots` off, the bot is treated like a user: error 20016 ("This
    action cannot be performed due to slowmode rate limit") as a 429 with `retry_after`
    ("Rate Limit Response Structure": "code? An error code for some limits"), which counts
    as an invalid request; BYPASS_SLOWMODE lifts it."""
    fake.limits.slowmode_exempts_bots = False
    fake.world.update_channel(general, rate_limit_per_user=10)
    assert (await send(rest, general.id))[0] == 200
    status, body, headers = await send(rest, general.id)
    assert (status, body["code"], body["global"]) == (429, 20016, False)
    assert 9 < body["retry_after"] <= 10
    assert headers["Via"] and headers["X-RateLimit-Scope"] == "user"
    assert headers["Retry-After"] == "10"
    assert fake.metrics.invalid_requests == 1
    fake.clock.advance(10)
    assert (await send(rest, general.id))[0] == 200
    fake.world.set_bot_permissions(general, bypass_slowmode=True)
    assert (await send(rest, general.id))[0] == 200


async def test_threads_copy_the_parent_default_and_keep_it(
    fake: FakeDiscord, rest: Rest, general: Channel
) -> None:
    """`default_thread_rate_limit_per_user`: "the initial rate_limit_per_user to set on
    newly created threads in a channel. this field is copied to the thread at creation time
    and does not live update"; the parent's own slowmode does not govern the thread."""
    fake.limits.slowmode_exempts_bots = False
    fake.world.update_channel(general, rate_limit_per_user=60, default_thread_rate_limit_per_user=5)
    status, thread, _ = await rest.call(
        "POST", f"/channels/{general.id}/threads", json={"name": "Table 1", "type": 11}
    )
    assert status == 201 and thread["rate_limit_per_user"] == 5
    fake.world.update_channel(general, default_thread_rate_limit_per_user=0)
    assert (await send(rest, thread["id"]))[0] == 200
    status, body, _ = await send(rest, thread["id"])
    assert (status, body["code"]) == (429, 20016) and body["retry_after"] <= 5
    fake.clock.advance(5)
    assert (await send(rest, thread["id"]))[0] == 200
    _, fetched, _ = await rest.call("GET", f"/channels/{thread['id']}")
    assert fetched["rate_limit_per_user"] == 5


async def test_thread_creation_has_its_own_slowmode(
    fake: FakeDiscord, rest: Rest, general: Channel
) -> None:
    """ "rate_limit_per_user also applies to thread creation. Users can send one message and
    create one thread during each rate_limit_per_user interval.\""""
    fake.limits.slowmode_exempts_bots = False
    fake.world.update_channel(general, rate_limit_per_user=30)
    path = f"/channels/{general.id}/threads"
    assert (await send(rest, general.id))[0] == 200
    assert (await rest.call("POST", path, json={"name": "Table 1", "type": 11}))[0] == 201
    status, body, _ = await rest.call("POST", path, json={"name": "Table 2", "type": 11})
    assert (status, body["code"]) == (429, 20016)
    _, message, _ = await rest.call("GET", f"/channels/{general.id}/messages?limit=1")
    from_message = f"/channels/{general.id}/messages/{message[0]['id']}/threads"
    assert (await rest.call("POST", from_message, json={"name": "Table 3"}))[1]["code"] == 20016
    fake.clock.advance(30)
    assert (await rest.call("POST", path, json={"name": "Table 4", "type": 11}))[0] == 201


async def test_changing_slowmode_is_checked(
    fake: FakeDiscord, rest: Rest, general: Channel
) -> None:
    """Modify Channel: `rate_limit_per_user` is 0-21600 seconds; on a thread, changing it
    "requires MANAGE_THREADS" (Threads topic, "Editing & Deleting Threads")."""
    path = f"/channels/{general.id}"
    status, error, _ = await rest.call("PATCH", path, json={"rate_limit_per_user": 21601})
    assert (status, error["code"]) == (400, 50035)
    status, channel, _ = await rest.call("PATCH", path, json={"rate_limit_per_user": 21600})
    assert status == 200 and channel["rate_limit_per_user"] == 21600
    _, thread, _ = await rest.call("POST", f"{path}/threads", json={"name": "Table 1", "type": 11})
    fake.world.set_bot_permissions(general, manage_threads=False)
    thread_path = f"/channels/{thread['id']}"
    status, error, _ = await rest.call("PATCH", thread_path, json={"rate_limit_per_user": 5})
    assert (status, error["code"]) == (403, 50013)
    # The bot created the thread, so it may rename it without Manage Threads.
    assert (await rest.call("PATCH", thread_path, json={"name": "Table 1b"}))[0] == 200


async def test_discord_py_waits_out_slowmode_and_retries(
    fake: FakeDiscord, guild: Guild, bot: TableBot
) -> None:
    fake.limits.slowmode_exempts_bots = False
    channel = fake.world.channels[guild.channel_ids[0]]
    fake.world.update_channel(channel, rate_limit_per_user=1)
    sendable = bot.text_channel(channel.id)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await sendable.send("one")
    await sendable.send("two")
    assert loop.time() - started >= 0.9
    assert fake.metrics.rate_limited[MESSAGES] == 1
    assert [m.content for m in fake.world.messages.values()] == ["one", "two"]
