"""Sharding, as the Gateway topic's "Sharding" section documents it."""

import asyncio
import json
from typing import Any

import aiohttp
import discord
import pytest
from discord.errors import ConnectionClosed

from fakediscord import FakeDiscord, Sharding
from fakediscord.driver import Driver
from fakediscord.gateway import Session, shard_of
from fakediscord.models import Guild
from fakediscord.world import (
    DIRECT_MESSAGE_REACTIONS,
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    GUILDS,
    World,
)
from tests.fakediscord.conftest import Rest, Socket, gateway_socket
from tests.fakediscord.table_bot import bot_intents

INTENTS = GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | DIRECT_MESSAGE_REACTIONS
BUTTON_ROW = {
    "type": 1,
    "components": [{"type": 2, "style": 1, "label": "Pass", "custom_id": "claim:pass"}],
}


async def guilds_on_both_shards(world: World) -> dict[int, Guild]:
    """A guild on shard 0 and one on shard 1 of two; ids follow the clock, so keep
    creating guilds until both shards have one, and take the extras away again: each
    shard then holds exactly one of them."""
    found: dict[int, Guild] = {}
    for n in range(100):
        guild = world.create_guild(f"Club {n}")
        if found.setdefault(shard_of(guild.id, 2), guild) is not guild:
            del world.guilds[guild.id]
        if len(found) == 2:
            return found
        await asyncio.sleep(0.001)
    raise AssertionError("every guild landed on one shard")


def events(session: Session) -> list[tuple[str, dict[str, Any]]]:
    """Every dispatch a session was sent, in order."""
    frames = [json.loads(frame) for _, frame in session.buffer]
    return [(frame["t"], frame["d"]) for frame in frames]


def session_of(fake: FakeDiscord, shard: list[int]) -> Session:
    (found,) = [s for s in fake.gateway.sessions.values() if s.shard == shard]
    return found


class ShardedBot(discord.AutoShardedClient):
    """discord.py's sharded client, without its 5-second pause between IDENTIFYs."""

    def __init__(self) -> None:
        super().__init__(intents=bot_intents(), guild_ready_timeout=0.05)
        self.interactions: asyncio.Queue[discord.Interaction] = asyncio.Queue()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.put_nowait(interaction)


async def test_gateway_bot_recommends_the_configured_shards(fake: FakeDiscord, rest: Rest) -> None:
    """Get Gateway Bot: `shards` is the "Recommended number of shards to use when
    connecting", and `session_start_limit.remaining` the session starts left."""
    fake.sharding.shards = 4
    _, gateway, _ = await rest.call("GET", "/gateway/bot")
    assert gateway["shards"] == 4
    assert gateway["session_start_limit"] == {
        "total": 1000,
        "remaining": 1000,
        "reset_after": 86_400_000,
        "max_concurrency": 1,
    }
    async with gateway_socket(fake) as socket:
        await socket.identify(fake.token, GUILDS, shard=[0, 4])
    _, gateway, _ = await rest.call("GET", "/gateway/bot")
    assert gateway["session_start_limit"]["remaining"] == 999


async def test_events_go_to_the_shard_of_their_guild_and_dms_to_shard_zero(
    fake: FakeDiscord, rest: Rest
) -> None:
    """ "shard_id = (guild_id >> 22) % num_shards"; "Gateway events that do not contain a
    guild_id will only be sent to the first shard (shard_id: 0). This includes Direct
    Message (DM) [...] events.\""""
    guilds = await guilds_on_both_shards(fake.world)
    people = Driver(fake)
    alice = people.join(guilds[1], "alice")
    async with gateway_socket(fake) as first, gateway_socket(fake) as second:
        ready = [
            await first.identify(fake.token, INTENTS, shard=[0, 2]),
            await second.identify(fake.token, INTENTS, shard=[1, 2]),
        ]
        for shard, socket in enumerate((first, second)):
            listed = {int(g["id"]) for g in ready[shard]["d"]["guilds"]}
            assert listed and all(shard_of(guild_id, 2) == shard for guild_id in listed)
            created = await socket.receive_event("GUILD_CREATE")
            assert shard_of(int(created["d"]["id"]), 2) == shard
        channel = guilds[1].channel_ids[0]
        await rest.call("POST", f"/channels/{channel}/messages", json={"content": "shard 1"})
        dm = fake.world.dm_channel(alice.user)
        _, hand, _ = await rest.call(
            "POST", f"/channels/{dm.id}/messages", json={"content": "in a DM"}
        )
        await alice.react(int(hand["id"]), "👍")
        await first.receive_event("MESSAGE_REACTION_ADD")
        await second.receive_event("MESSAGE_CREATE")
        by_shard = [events(session_of(fake, [shard, 2])) for shard in (0, 1)]
    contents = [[d["content"] for t, d in sent if t == "MESSAGE_CREATE"] for sent in by_shard]
    assert contents == [["in a DM"], ["shard 1"]]
    reactions = [[t for t, _ in sent if t == "MESSAGE_REACTION_ADD"] for sent in by_shard]
    assert reactions == [["MESSAGE_REACTION_ADD"], []]


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,1"])
async def test_an_impossible_shard_closes_with_4010(
    fake: FakeDiscord, socket: Socket, shard: Any
) -> None:
    """Close code 4010, Invalid shard: "You sent us an invalid shard when identifying"."""
    await socket.send(2, {"token": fake.token, "intents": 0, "properties": {}, "shard": shard})
    assert await socket.close_code() == 4010


async def test_too_many_guilds_for_one_shard_closes_with_4011(
    fake: FakeDiscord, socket: Socket
) -> None:
    """ "Each shard can only support a maximum of 2500 guilds, and apps that are in 2500+
    guilds must enable sharding"; close code 4011, Sharding required."""
    fake.sharding.max_guilds_per_shard = 1
    guilds = await guilds_on_both_shards(fake.world)
    await socket.send(2, {"token": fake.token, "intents": GUILDS, "properties": {}})
    assert await socket.close_code() == 4011
    async with gateway_socket(fake) as sharded:
        ready = await sharded.identify(fake.token, GUILDS, shard=[1, 2])
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(guilds[1].id)]


async def test_discord_py_stops_on_4011(fake: FakeDiscord) -> None:
    fake.sharding.max_guilds_per_shard = 1
    await guilds_on_both_shards(fake.world)
    client = discord.Client(intents=bot_intents(), guild_ready_timeout=0.05)
    with pytest.raises(ConnectionClosed) as closed:
        async with fake.run_client(client):
            pass
    assert closed.value.code == 4011


async def test_auto_sharded_client_with_two_shards() -> None:
    """discord.py's AutoShardedClient asks GET /gateway/bot for the shard count and opens
    one session per shard; each interaction reaches the bot on its guild's shard, a DM
    interaction on shard 0."""
    async with (
        FakeDiscord(sharding=Sharding(shards=2)) as fake,
        aiohttp.ClientSession() as session,
    ):
        await two_shards_of_one_bot(fake, Rest(fake, session))


async def two_shards_of_one_bot(fake: FakeDiscord, rest: Rest) -> None:
    guilds = await guilds_on_both_shards(fake.world)
    people = Driver(fake)
    alice = people.join(guilds[1], "alice")
    client = ShardedBot()
    async with fake.run_client(client):
        assert client.shard_count == 2
        assert {guild.id for guild in client.guilds} == set(fake.world.guilds)
        assert all(events(session_of(fake, [shard, 2])) for shard in (0, 1))
        body = {"content": "claim?", "components": [BUTTON_ROW]}
        channel = guilds[1].channel_ids[0]
        _, in_guild, _ = await rest.call("POST", f"/channels/{channel}/messages", json=body)
        dm = fake.world.dm_channel(alice.user)
        _, in_dm, _ = await rest.call("POST", f"/channels/{dm.id}/messages", json=body)
        guild_click = await alice.click(int(in_guild["id"]), label="Pass")
        dm_click = await alice.click(int(in_dm["id"]), label="Pass")
        received = [await asyncio.wait_for(client.interactions.get(), 5) for _ in range(2)]
        assert {interaction.id for interaction in received} == {guild_click.id, dm_click.id}
        by_shard = [
            {
                int(d["id"])
                for t, d in events(session_of(fake, [shard, 2]))
                if t == "INTERACTION_CREATE"
            }
            for shard in (0, 1)
        ]
        assert by_shard == [{dm_click.id}, {guild_click.id}]
