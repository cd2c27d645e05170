"""A real discord.py client against the fake, driven by simulated people."""

import asyncio
import io

import discord
import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import Person
from fakediscord.interactions import CHANNEL_MESSAGE, UPDATE_MESSAGE
from fakediscord.models import Guild
from tests.fakediscord.table_bot import LobbyView, TableBot, bot_intents, tiny_png


async def test_client_logs_in_syncs_commands_and_sees_the_guild(
    fake: FakeDiscord, guild: Guild, alice: Person, bot: TableBot
) -> None:
    assert bot.user is not None and bot.user.id == fake.world.bot.id
    seen = bot.get_guild(guild.id)
    assert seen is not None
    assert {m.id for m in seen.members} >= {alice.id, fake.world.bot.id}
    assert {c["name"] for c in fake.world.commands[guild.id]} == {"table", "admin"}
    assert (
        fake.metrics.requests["PUT /applications/{application_id}/guilds/{guild_id}/commands"] == 1
    )


async def test_slash_command_answer_with_file_button_and_select(
    alice: Person, bob: Person, bot: TableBot
) -> None:
    handle = await alice.run("/table create variant:mcr rounds:4")
    answer = await handle.response()
    assert answer.type == CHANNEL_MESSAGE
    lobby = await alice.next_message()
    assert lobby.content == "mcr table, 4 rounds"
    assert lobby.attachments[0].data == tiny_png()
    assert (lobby.attachments[0].width, lobby.attachments[0].height) == (3, 2)
    assert [b["label"] for b in lobby.buttons()] == ["Join"]
    assert [o["value"] for o in lobby.selects()[0]["options"]] == ["5m", "E"]
    assert (await bob.next_message()).id == lobby.id

    click = await alice.click(lobby, label="Join")
    assert (await click.response()).type == UPDATE_MESSAGE
    assert await asyncio.wait_for(bot.clicks.get(), 5) == alice.id
    edited = await bob.next_edit(lobby)
    assert edited.content == "alice sat down"
    assert edited.buttons()[0]["disabled"] is True

    await alice.choose(lobby, "东")
    private = await alice.next_message()
    assert private.content == "discarded E"
    assert private.ephemeral
    assert all(m.id != private.id for m in bob.messages())


async def test_subcommand_group_with_member_option(
    guild: Guild, fake: FakeDiscord, driver, bot: TableBot
) -> None:
    owner = driver.person(fake.world.users[guild.owner_id], guild)
    carol = driver.join(guild, "carol")
    await owner.run("/admin cards grant", user=carol.user, amount=5)
    reply = await owner.next_message()
    assert reply.content == "carol +5"
    assert reply.ephemeral_for == owner.id


async def test_direct_messages_and_closed_dms(
    fake: FakeDiscord, alice: Person, bob: Person, bot: TableBot
) -> None:
    await bot.known_user(alice.id).send(
        "your hand", file=discord.File(io.BytesIO(tiny_png()), "hand.png")
    )
    hand = await alice.next_message(channel=alice.dm)
    assert hand.content == "your hand"
    assert hand.attachments[0].filename == "hand.png"

    bob.close_dms()
    with pytest.raises(discord.Forbidden) as refused:
        await bot.known_user(bob.id).send("your hand")
    assert refused.value.code == 50007
    assert fake.metrics.invalid_requests == 1


async def test_threads_and_reactions(
    fake: FakeDiscord, guild: Guild, alice: Person, bot: TableBot
) -> None:
    channel = bot.text_channel(alice.home.id)
    lobby = await channel.send("lobby")
    thread = await lobby.create_thread(name="Table 1")
    assert thread.id == lobby.id
    assert fake.world.channels[thread.id].is_thread
    table = await thread.send("table picture")
    assert (await alice.next_message(channel=fake.world.channels[thread.id])).id == table.id

    await table.add_reaction("🀄")
    assert fake.world.messages[table.id].reactions == {"🀄": [fake.world.bot.id]}
    await alice.react(table.id, "👍")
    event = await asyncio.wait_for(bot.reactions.get(), 5)
    assert (event.user_id, str(event.emoji), event.message_id) == (alice.id, "👍", table.id)

    fake.world.set_bot_permissions(fake.world.channels[channel.id], create_public_threads=False)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.create_thread(name="Table 2", type=discord.ChannelType.public_thread)
    assert refused.value.code == 50013


async def test_late_first_answer_is_unknown_interaction(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    handle = await alice.run("/table slow")
    fake.clock.advance(fake.limits.first_response_seconds + 0.1)
    bot.release.set()
    error = await asyncio.wait_for(bot.errors.get(), 5)
    assert isinstance(error, discord.NotFound)
    assert error.code == 10062
    assert not handle.acknowledged
    [timing] = fake.interaction_timings()
    assert timing.latency is not None and timing.latency > 3 and not timing.in_time
    assert fake.report()["interactions_late"] == 1


async def test_deferred_answer_is_filled_by_the_first_follow_up(
    fake: FakeDiscord, alice: Person, bob: Person, bot: TableBot
) -> None:
    """discord.py's `followup.send` after `defer(thinking=True)` takes the deprecated path
    (Create Followup Message "will function as Edit Original Interaction Response for
    backwards compatibility"), which the report counts."""
    handle = await alice.run("/table defer")
    placeholder = (await handle.response()).message
    assert placeholder is not None and placeholder.loading and placeholder.ephemeral
    done = await alice.next_edit(placeholder)
    assert done.content == "done thinking"
    assert not done.loading
    assert all(m.id != done.id for m in bob.messages())
    assert fake.report()["deprecated_follow_ups"] == 1


async def test_global_rate_limit_is_retried_by_discord_py(
    fake: FakeDiscord, guild: Guild, bot: TableBot
) -> None:
    fake.rate_limits.global_limit = 3
    channels = [fake.world.create_channel(guild, f"t{n}") for n in range(8)]
    await asyncio.sleep(0.01)
    sent = await asyncio.gather(*(bot.text_channel(c.id).send("hi") for c in channels))
    assert len(sent) == 8
    report = fake.report()
    assert report["global_rate_limited"] > 0
    assert (
        report["requests"]["POST /channels/{channel_id}/messages"]
        == 8 + report["rate_limited"]["POST /channels/{channel_id}/messages"]
    )


async def test_route_bucket_headers_keep_discord_py_under_the_limit(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    channel = bot.text_channel(alice.home.id)
    await asyncio.gather(*(channel.send(f"m{n}") for n in range(12)))
    assert fake.metrics.requests["POST /channels/{channel_id}/messages"] == 12
    assert not fake.metrics.rate_limited


async def test_reconnect_resumes_and_replays_missed_events(
    fake: FakeDiscord, guild: Guild, alice: Person, bot: TableBot
) -> None:
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    # discord.py calls an event handler found as an `on_<event>` attribute of the client.
    bot.on_resumed = on_resumed  # type: ignore[attr-defined]
    fake.gateway.force_reconnect()
    fresh = fake.world.create_channel(guild, "made-during-reconnect")
    await asyncio.wait_for(resumed.wait(), 5)
    assert bot.get_channel(fresh.id) is not None
    handle = await alice.run("/table create variant:sichuan rounds:1")
    assert (await handle.response()).type == CHANNEL_MESSAGE


async def test_private_prompt_in_a_dm_round_trip(alice: Person, bot: TableBot) -> None:
    sent = await bot.known_user(alice.id).send("your turn", view=LobbyView(bot))
    prompt = await alice.next_prompt()
    assert prompt.id == sent.id
    await alice.click(prompt, label="Join")
    edited = await alice.next_edit(prompt)
    assert edited.content == "alice sat down"
    assert edited.channel_id == alice.dm.id


async def test_sharded_client_uses_gateway_bot(fake: FakeDiscord, guild: Guild) -> None:
    client = discord.AutoShardedClient(intents=bot_intents(), guild_ready_timeout=0.05)
    async with fake.run_client(client):
        assert client.shard_count == 1
        assert client.get_guild(guild.id) is not None
    assert fake.metrics.requests["GET /gateway/bot"] == 1
    assert fake.gateway.identified.is_set()


async def test_table_message_is_edited_in_place_after_the_token_expired(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    handle = await alice.run("/table create variant:mcr rounds:4")
    lobby = (await handle.response()).message
    assert lobby is not None
    fake.clock.advance(fake.limits.token_lifetime_seconds + 60)
    message = await bot.text_channel(lobby.channel_id).fetch_message(lobby.id)
    picture = discord.File(io.BytesIO(tiny_png(9, 9)), "table.png")
    updated = await message.edit(content="round 1", attachments=[picture], view=None)
    assert await updated.attachments[0].read() == tiny_png(9, 9)
    seen = await alice.next_edit(lobby)
    assert (seen.content, seen.components) == ("round 1", [])
    assert [(a.filename, a.width) for a in seen.attachments] == [("table.png", 9)]


async def test_route_429_on_a_shared_bucket_is_retried_by_discord_py(
    fake: FakeDiscord, alice: Person, bot: TableBot
) -> None:
    # Adding and removing reactions share one bucket that discord.py cannot know in advance.
    message = await bot.text_channel(alice.home.id).send("claim?")
    fake.rate_limits.time_scale = 1.0
    assert bot.user is not None
    await asyncio.gather(message.add_reaction("👍"), message.remove_reaction("👎", bot.user))
    assert fake.world.messages[message.id].reactions == {"👍": [fake.world.bot.id]}
    assert sum(fake.metrics.rate_limited.values()) == 1
