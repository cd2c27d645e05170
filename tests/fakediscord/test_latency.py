"""Network latency between the fake and its clients, and what it does to the 3-second
deadline of interactions."""

import asyncio

import discord

from fakediscord import FakeDiscord, Latency
from fakediscord.driver import Person
from fakediscord.latency import Delays
from fakediscord.models import Guild
from fakediscord.world import GUILDS
from tests.fakediscord.conftest import Rest, Socket
from tests.fakediscord.table_bot import TableBot


def test_delays_repeat_under_a_seed() -> None:
    config = Latency(gateway=0.1, rest=0.02, jitter=0.05, seed=3)
    first = Delays(config)
    drawn = [first.gateway() for _ in range(20)]
    assert all(0.1 <= delay <= 0.15 for delay in drawn)
    assert len(set(drawn)) > 1
    again = Delays(config)
    # REST draws do not disturb the gateway's sequence.
    assert [again.rest() for _ in range(5)] and [again.gateway() for _ in range(20)] == drawn
    other = Delays(Latency(gateway=0.1, jitter=0.05, seed=4))
    assert [other.gateway() for _ in range(20)] != drawn
    assert Delays(Latency()).gateway() == Delays(Latency()).rest() == 0.0


async def test_gateway_frames_arrive_late_and_in_order(
    fake: FakeDiscord, guild: Guild, socket: Socket
) -> None:
    await socket.identify(fake.token, GUILDS)
    await socket.receive_event("GUILD_CREATE")
    fake.latency.gateway = 0.15
    fake.latency.jitter = 0.1
    loop = asyncio.get_running_loop()
    sent = loop.time()
    for n in range(5):
        fake.world.create_channel(guild, f"t{n}")
    frames = [await socket.receive() for _ in range(5)]
    assert loop.time() - sent >= 0.15
    assert [frame["d"]["name"] for frame in frames] == [f"t{n}" for n in range(5)]
    assert [frame["s"] for frame in frames] == sorted(frame["s"] for frame in frames)


async def test_rest_requests_and_answers_each_take_the_delay(fake: FakeDiscord, rest: Rest) -> None:
    fake.latency.rest = 0.1
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert (await rest.call("GET", "/users/@me"))[0] == 200
    assert loop.time() - started >= 0.2


async def test_latency_counts_against_the_first_answer_deadline(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    """Receiving and Responding: "you must send an initial response within 3 seconds of
    receiving the event", counted from when Discord sends it, so the time the event takes
    to reach the bot and the answer to come back is spent from the same 3 seconds. A late
    answer is 404 / 10062 (Unknown interaction) and is recorded as late."""
    fake.limits.first_response_seconds = 0.5
    bot.release.set()
    fake.latency.gateway = 0.1
    fake.latency.rest = 0.1
    in_time = await alice.run("/table slow")
    assert (await in_time.response()).message is not None

    fake.latency.gateway = 0.3
    fake.latency.rest = 0.3
    late = await alice.run("/table slow")
    error = await asyncio.wait_for(bot.errors.get(), 5)
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert not late.acknowledged
    timings = {timing.interaction_id: timing for timing in fake.interaction_timings()}
    assert timings[in_time.id].in_time
    late_timing = timings[late.id]
    assert late_timing.latency is not None and late_timing.latency >= 0.6
    assert not late_timing.in_time
    assert fake.report()["interactions_late"] == 1
