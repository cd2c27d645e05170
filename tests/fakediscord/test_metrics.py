"""What a load test reads from the fake: when each request came and how it counted, when
each channel's messages were edited, and short inboxes for many simulated people."""

import discord

from fakediscord import FakeDiscord
from fakediscord.driver import Driver, Person
from fakediscord.models import Guild
from fakediscord.server import pointed_at
from fakediscord.world import MessageChange
from tests.fakediscord.conftest import Rest
from tests.fakediscord.test_interactions import callback
from tests.fakediscord.test_rest import MESSAGES, messages_path, post


async def test_edits_are_timed_by_channel_on_the_fake_clock(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    other = fake.world.create_channel(guild, "other")
    first = await post(rest, guild)
    second = await post(rest, guild)
    elsewhere = (await rest.call("POST", f"/channels/{other.id}/messages", json={"content": "x"}))[
        1
    ]
    before = fake.clock.now()
    for message in (first, second, first):
        path = f"{messages_path(guild)}/{message['id']}"
        assert (await rest.call("PATCH", path, json={"content": "edited"}))[0] == 200
    fake.clock.advance(60)
    path = f"/channels/{other.id}/messages/{elsewhere['id']}"
    assert (await rest.call("PATCH", path, json={"content": "edited"}))[0] == 200

    channel = guild.channel_ids[0]
    times = fake.metrics.edit_times(channel)
    assert len(times) == 3 and times == sorted(times)
    assert before <= times[0] and times[-1] < before + 60
    assert len(fake.metrics.edit_times(channel, int(first["id"]))) == 2
    assert fake.metrics.edit_times(channel, int(second["id"])) == [times[1]]
    assert fake.metrics.edit_times(other.id)[0] >= before + 60
    fake.metrics.reset()
    assert fake.metrics.edit_times(channel) == []


async def test_message_changes_carry_their_time(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    seen: list[MessageChange] = []
    fake.world.observe(seen.append)
    before = fake.clock.now()
    await post(rest, guild)
    fake.clock.advance(5)
    await post(rest, guild)
    assert [change.kind for change in seen] == ["create", "create"]
    assert before <= seen[0].at < before + 5 <= seen[1].at


async def test_the_timeline_tells_which_requests_count_toward_the_global_limit(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person
) -> None:
    path = f"/applications/{fake.world.application_id}/guilds/{guild.id}/commands"
    hand = {"name": "hand", "description": "Show my hand", "type": 1}
    assert (await rest.call("PUT", path, json=[hand]))[0] == 200
    fake.metrics.reset()
    await post(rest, guild)
    handle = await alice.run("/hand")
    assert (await callback(rest, handle, 4, {"content": "ok"}))[0] == 200
    marks = {mark.route: mark for mark in fake.metrics.timeline}
    assert marks[MESSAGES].status == 200 and not marks[MESSAGES].global_exempt
    answered = marks["POST /interactions/{webhook_id}/{webhook_token}/callback"]
    assert answered.global_exempt and answered.at >= marks[MESSAGES].at
    assert len(fake.metrics.timeline) == sum(fake.metrics.requests.values())
    fake.metrics.reset()
    assert fake.metrics.timeline == []


async def test_a_short_inbox_keeps_the_latest_changes(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    person = Driver(fake, inbox_size=2).join(guild, "carol")
    for word in ("one", "two", "three"):
        await post(rest, guild, word)
    assert [change.message.content for change in person.inbox.pending()] == ["two", "three"]
    assert (await person.next_message()).content == "two"


def test_pointed_at_moves_discord_py_and_puts_it_back() -> None:
    def where() -> tuple[str, str]:
        return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)

    real = where()
    with pointed_at("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/ws"):
        assert where() == ("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/ws")
    assert where() == real
