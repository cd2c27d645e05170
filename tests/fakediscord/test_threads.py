"""Threads archive on their own, as Discord's Threads topic describes ("Active & Archived
Threads"): after `auto_archive_duration` minutes without activity, on the fake's clock."""

import asyncio
from datetime import datetime
from typing import Any

import discord
import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import DriverError, Person
from fakediscord.models import Guild
from fakediscord.world import GUILD_MESSAGES, GUILDS
from tests.fakediscord.conftest import Rest, Socket, gateway_socket
from tests.fakediscord.table_bot import TableBot
from tests.fakediscord.test_interactions import callback, webhook
from tests.fakediscord.test_rest import messages_path, post

HOUR = 3600
PASS_BUTTON = {
    "type": 1,
    "components": [{"type": 2, "style": 1, "label": "Pass", "custom_id": "claim:pass"}],
}


async def start_thread(rest: Rest, guild: Guild, **fields: Any) -> dict[str, Any]:
    """A public thread started from a new message in #general."""
    message = await post(rest, guild, "lobby")
    path = f"{messages_path(guild)}/{message['id']}/threads"
    status, thread, _ = await rest.call("POST", path, json={"name": "Table 1"} | fields)
    assert status == 201, thread
    return thread


async def get_thread(rest: Rest, thread: dict[str, Any]) -> dict[str, Any]:
    return (await rest.call("GET", f"/channels/{thread['id']}"))[1]


async def say(rest: Rest, thread: dict[str, Any], content: str) -> tuple[int, Any]:
    path = f"/channels/{thread['id']}/messages"
    status, body, _ = await rest.call("POST", path, json={"content": content})
    return status, body


def stamp(value: str) -> datetime:
    return datetime.fromisoformat(value)


async def test_a_thread_archives_after_its_duration_without_a_message(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    """Threads topic: "Threads automatically archive after a period of inactivity";
    channel resource, thread metadata: `auto_archive_duration` is minutes "of inactivity",
    and `archive_timestamp` is when "the thread's archive status was last changed"."""
    thread = await start_thread(rest, guild, auto_archive_duration=60)
    metadata = thread["thread_metadata"]
    assert (metadata["archived"], metadata["auto_archive_duration"]) == (False, 60)
    assert metadata["archive_timestamp"] == metadata["create_timestamp"]
    fake.clock.advance(59 * 60)
    assert (await say(rest, thread, "still here"))[0] == 200
    fake.clock.advance(59 * 60)
    assert (await get_thread(rest, thread))["thread_metadata"]["archived"] is False
    fake.clock.advance(60)
    archived = (await get_thread(rest, thread))["thread_metadata"]
    assert archived["archived"] is True and archived["locked"] is False
    waited = stamp(archived["archive_timestamp"]) - stamp(metadata["archive_timestamp"])
    assert waited.total_seconds() >= 2 * HOUR - 60


async def test_a_thread_takes_the_parent_default_duration(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    """Channel object: `default_auto_archive_duration` is the "default duration, copied
    onto newly created threads"; Start Thread accepts 60, 1440, 4320 or 10080 only."""
    parent = f"/channels/{guild.channel_ids[0]}"
    status, channel, _ = await rest.call(
        "PATCH", parent, json={"default_auto_archive_duration": 60}
    )
    assert status == 200 and channel["default_auto_archive_duration"] == 60
    status, thread, _ = await rest.call(
        "POST", f"{parent}/threads", json={"name": "Table 2", "type": 11}
    )
    assert thread["thread_metadata"]["auto_archive_duration"] == 60
    status, error, _ = await rest.call(
        "POST", f"{parent}/threads", json={"name": "Table 3", "auto_archive_duration": 30}
    )
    assert (status, error["code"]) == (400, 50035)
    fake.clock.advance(HOUR)
    assert (await get_thread(rest, thread))["thread_metadata"]["archived"] is True


async def test_what_fails_in_an_archived_thread_and_what_reopens_it(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    """Threads topic: "Users cannot edit messages, add reactions [...] in archived
    threads", "Sending a message will automatically unarchive the thread, unless the thread
    has been locked"; error 50083: "Tried to perform an operation on an archived thread,
    such as editing a message"; Modify Channel (Thread): setting `archived` to false
    unarchives it."""
    fake.rate_limits.enabled = False
    thread = await start_thread(rest, guild, auto_archive_duration=60)
    old = (await say(rest, thread, "table picture"))[1]
    message_path = f"/channels/{thread['id']}/messages/{old['id']}"
    fake.clock.advance(HOUR)

    status, error, _ = await rest.call("PATCH", message_path, json={"content": "edited"})
    assert (status, error["code"]) == (400, 50083)
    status, error, _ = await rest.call("PUT", f"{message_path}/reactions/%F0%9F%80%84/@me")
    assert (status, error["code"]) == (400, 50083)
    assert (await rest.call("DELETE", message_path))[0] == 204

    status, _ = await say(rest, thread, "back again")
    assert status == 200
    assert (await get_thread(rest, thread))["thread_metadata"]["archived"] is False

    path = f"/channels/{thread['id']}"
    await rest.call("PATCH", path, json={"archived": True, "locked": True})
    status, error = await say(rest, thread, "locked out")
    assert (status, error["code"]) == (400, 50083)
    status, reopened, _ = await rest.call("PATCH", path, json={"archived": False})
    assert status == 200 and reopened["thread_metadata"]["archived"] is False
    # Unarchiving is activity: the hour starts again.
    fake.clock.advance(HOUR - 60)
    assert (await get_thread(rest, thread))["thread_metadata"]["archived"] is False


async def test_component_updates_in_an_archived_thread_fail(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person
) -> None:
    """Error 50083 for an UPDATE_MESSAGE answer, and for editing the message through the
    interaction's webhook ("Edit Original Interaction Response"), in an archived thread."""
    thread = await start_thread(rest, guild, auto_archive_duration=60)
    body = {"content": "claim?", "components": [PASS_BUTTON]}
    _, prompt, _ = await rest.call("POST", f"/channels/{thread['id']}/messages", json=body)
    fake.clock.advance(HOUR)

    click = await alice.click(int(prompt["id"]), label="Pass")
    status, error = await callback(rest, click, 7, {"content": "passed", "components": []})
    assert (status, error["code"]) == (400, 50083)
    again = await alice.click(int(prompt["id"]), label="Pass")
    assert (await callback(rest, again, 6))[0] == 200
    path = webhook(fake, again, "/messages/@original")
    status, error, _ = await rest.call("PATCH", path, json={"content": "passed"})
    assert (status, error["code"]) == (400, 50083)


async def test_people_cannot_react_or_run_commands_in_an_archived_thread(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person
) -> None:
    """Threads topic: "Users cannot edit messages, add reactions, use application commands,
    or join archived threads"; Discord's client does not offer them."""
    path = f"/applications/{fake.world.application_id}/guilds/{guild.id}/commands"
    await rest.call("PUT", path, json=[{"name": "hand", "description": "Show my hand"}])
    thread = await start_thread(rest, guild, auto_archive_duration=60)
    message = (await say(rest, thread, "claim?"))[1]
    channel = fake.world.channels[int(thread["id"])]
    await alice.run("/hand", channel=channel)
    fake.clock.advance(HOUR)
    with pytest.raises(DriverError):
        await alice.react(int(message["id"]), "👍")
    with pytest.raises(DriverError):
        await alice.run("/hand", channel=channel)


async def test_archiving_is_announced_to_guilds_intent_only(
    fake: FakeDiscord, rest: Rest, guild: Guild, socket: Socket
) -> None:
    """Gateway intents: THREAD_UPDATE belongs to GUILDS (1 << 0); Threads topic: "When a
    thread is created, updated, or deleted, a Thread Create, Thread Update, or Thread Delete
    event is sent"."""
    await socket.identify(fake.token, GUILDS)
    async with gateway_socket(fake) as messages_only:
        await messages_only.identify(fake.token, GUILD_MESSAGES)
        thread = await start_thread(rest, guild, auto_archive_duration=60)
        fake.clock.advance(HOUR)
        update = await socket.receive_event("THREAD_UPDATE")
        assert update["d"]["id"] == thread["id"]
        assert update["d"]["thread_metadata"]["archived"] is True
        await say(rest, thread, "back")
        reopened = await socket.receive_event("THREAD_UPDATE")
        assert reopened["d"]["thread_metadata"]["archived"] is False
        # The GUILD_MESSAGES session saw the messages and no thread updates.
        seen = [(await messages_only.receive())["t"] for _ in range(3)]
        assert seen == ["MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_CREATE"]


async def test_discord_py_drops_an_archived_thread_and_gets_it_back_by_sending(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    """discord.py removes a thread from its cache on a THREAD_UPDATE that archives it, so
    `get_channel` no longer finds it; a message sent there reopens it."""
    lobby = await bot.text_channel(alice.home.id).send("lobby")
    thread = await lobby.create_thread(name="Table 1")
    picture = await thread.send("table picture")
    assert thread.auto_archive_duration == 1440
    archived = asyncio.create_task(bot.wait_for("raw_thread_update", timeout=5))
    await asyncio.sleep(0)
    fake.clock.advance(24 * HOUR)
    assert (await archived).data["thread_metadata"]["archived"] is True
    assert bot.get_channel(thread.id) is None
    with pytest.raises(discord.HTTPException) as refused:
        await picture.edit(content="round 2")
    assert refused.value.code == 50083
    reopened = asyncio.create_task(bot.wait_for("thread_join", timeout=5))
    await thread.send("round 2")
    assert (await reopened).id == thread.id
    assert bot.get_channel(thread.id) is not None
