"""The gateway protocol, spoken by hand over a websocket."""

import aiohttp

from fakediscord import FakeDiscord
from fakediscord.driver import Person
from fakediscord.models import Guild
from fakediscord.world import GUILD_MESSAGES, GUILDS
from tests.fakediscord.conftest import TIMEOUT, Socket


async def test_heartbeat_is_acknowledged(socket: Socket) -> None:
    await socket.send(1, None)
    assert (await socket.receive())["op"] == 11


async def test_bad_token_closes_with_4004(socket: Socket) -> None:
    await socket.send(2, {"token": "wrong", "intents": 0, "properties": {}})
    message = await socket.socket.receive(timeout=TIMEOUT)
    assert message.type is aiohttp.WSMsgType.CLOSE and message.data == 4004


async def test_frames_that_are_not_json_close_with_4002(socket: Socket) -> None:
    await socket.socket.send_str("not json")
    message = await socket.socket.receive(timeout=TIMEOUT)
    assert message.type is aiohttp.WSMsgType.CLOSE and message.data == 4002


async def test_an_identify_without_its_data_closes_with_4002(socket: Socket) -> None:
    """Discord closes with 4002 (decode error) on "an invalid payload": an identify,
    resume or member request whose ``d`` is not an object is one."""
    await socket.send(2, None)
    message = await socket.socket.receive(timeout=TIMEOUT)
    assert message.type is aiohttp.WSMsgType.CLOSE and message.data == 4002


async def test_ready_then_guild_create(
    fake: FakeDiscord, socket: Socket, guild: Guild, alice: Person
) -> None:
    ready = await socket.identify(fake.token, GUILDS)
    assert ready["s"] == 1
    assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
    assert ready["d"]["user"]["id"] == str(fake.world.bot.id)
    assert ready["d"]["resume_gateway_url"] == fake.gateway_url
    created = await socket.receive()
    assert created["t"] == "GUILD_CREATE" and created["s"] == 2
    data = created["d"]
    assert [c["name"] for c in data["channels"]] == ["general"]
    assert {r["name"] for r in data["roles"]} == {"@everyone", fake.world.bot.name}
    # Without the members intent only the bot's own member comes with the guild.
    assert [m["user"]["id"] for m in data["members"]] == [str(fake.world.bot.id)]
    assert data["members"][0]["flags"] == 0


async def test_member_chunks_answer_the_nonce(
    fake: FakeDiscord, socket: Socket, guild: Guild, alice: Person
) -> None:
    await socket.identify(fake.token, GUILDS)
    await socket.receive()
    await socket.send(8, {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n1"})
    chunk = await socket.receive()
    assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["nonce"] == "n1"
    assert str(alice.id) in {m["user"]["id"] for m in chunk["d"]["members"]}
    assert (chunk["d"]["chunk_index"], chunk["d"]["chunk_count"]) == (0, 1)


async def test_events_follow_intents(fake: FakeDiscord, socket: Socket, guild: Guild) -> None:
    await socket.identify(fake.token, GUILDS | GUILD_MESSAGES)
    await socket.receive()
    fake.world.create_channel(guild, "tables")
    assert (await socket.receive())["t"] == "CHANNEL_CREATE"
    fake.world.set_bot_permissions(guild, manage_channels=False)
    assert (await socket.receive())["t"] == "GUILD_ROLE_UPDATE"
    # Reactions were not asked for, so the next event is the channel update, not the reaction.
    channel = fake.world.channels[guild.channel_ids[0]]
    fake.world.dispatch("MESSAGE_REACTION_ADD", {}, 1 << 10)
    fake.world.set_overwrite(channel, fake.world.bot, add_reactions=False)
    assert (await socket.receive())["t"] == "CHANNEL_UPDATE"


async def test_resume_of_unknown_session_is_invalid(fake: FakeDiscord, socket: Socket) -> None:
    await socket.send(6, {"token": fake.token, "session_id": "nope", "seq": 3})
    assert await socket.receive() == {"op": 9, "d": False}


async def test_resume_replays_missed_events(
    fake: FakeDiscord, socket: Socket, guild: Guild
) -> None:
    ready = await socket.identify(fake.token, GUILDS)
    await socket.receive()
    await socket.socket.close(code=4000)
    fake.world.create_channel(guild, "missed")
    resume = {"token": fake.token, "session_id": ready["d"]["session_id"], "seq": 2}
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake.gateway_url) as connection,
    ):
        again = Socket(connection)
        await again.receive()
        await again.send(6, resume)
        missed = await again.receive()
        assert (missed["t"], missed["s"]) == ("CHANNEL_CREATE", 3)
        assert missed["d"]["name"] == "missed"
        assert (await again.receive())["t"] == "RESUMED"
