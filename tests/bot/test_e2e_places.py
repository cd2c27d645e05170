"""Where tables live, as Discord really treats those places: threads that archive after a
day without a message, categories that hold 50 channels, places Discord will not open."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from data.models import CardKind, RoundInfo, TableStatus
from data.sql_store import SqlStore
from fakediscord import Latency, RateLimits, Sharding
from fakediscord.driver import Person
from fakediscord.models import Channel, ChannelType, Message
from tests.bot.harness import FAST, Harness, play_out, player, running_harness
from tests.bot.test_e2e_lobby import answer_text

DAY = 24 * 3600


async def archived_by_discord(harness: Harness, thread: Channel) -> None:
    """A day passes without a message: Discord archives the thread (the fake looks on
    its next request, or within a second)."""
    harness.fake.clock.advance(DAY + 60)
    for _ in range(100):
        if thread.archived:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the thread did not archive")


async def test_a_lobby_whose_thread_archived_still_takes_players(harness: Harness) -> None:
    """Discord archives a thread a day after its last message; a Join click in it must
    still seat the player and redraw the lobby (editing in an archived thread fails until
    it is reopened)."""
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    thread = harness.fake.world.channels[lobby.channel_id]
    await archived_by_discord(harness, thread)
    joined = await guest.click(lobby, label="Join")
    assert (await joined.response()).type == 7, "the click updated the lobby"
    assert "2. Guest" in harness.live(lobby).content
    started = await host.click(lobby, label="Start")
    assert "Four players are needed" in await answer_text(started)


async def test_a_table_message_in_a_thread_archived_mid_hand_keeps_showing_the_table(
    harness: Harness,
) -> None:
    me = harness.owner
    await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    prompt = await me.next_prompt(timeout=20)
    table = harness.playing()
    board = table.presenter.board
    assert board is not None and board.message is not None
    thread = harness.fake.world.channels[board.message.channel.id]
    await archived_by_discord(harness, thread)
    shown = harness.live(board.message.id).edited_at
    await player(harness, me).answer(harness.live(prompt))
    # The move shows on the table message: the thread was reopened for the edit.
    for _ in range(400):
        if harness.live(board.message.id).edited_at != shown:
            break
        await asyncio.sleep(0.05)
    assert harness.live(board.message.id).edited_at != shown
    assert not thread.archived


async def test_table_51_in_a_full_category_opens_as_a_thread(harness: Harness) -> None:
    host = harness.owner
    world = harness.fake.world
    world.limits.channels_per_category = 1
    general = world.channels[harness.guild.channel_ids[0]]
    world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
    configured = await host.run("/admin config", table_category="tables")
    await answer_text(configured, host)
    first = await answer_text(
        await host.run("/table create", variant="sichuan", channel=general), host
    )
    second = await answer_text(
        await host.run("/table create", variant="mcr", channel=general), host
    )
    assert "open" in first and "open" in second, (first, second)
    places = [await harness.store.get_table(n) for n in (1, 2)]
    kinds = [world.channels[t.channel_id].type for t in places if t.channel_id is not None]
    assert kinds == [ChannelType.TEXT, ChannelType.PUBLIC_THREAD], (first, second, places)
    assert all(t.status is TableStatus.LOBBY for t in places)


async def test_a_place_discord_will_not_open_leaves_no_lobby_and_costs_nothing(
    harness: Harness,
) -> None:
    host = harness.owner
    harness.fake.faults.fail("POST /channels/{channel_id}/threads", status=503)
    refused = await host.run("/table create", variant="sichuan")
    text = await answer_text(refused, host)
    assert "try again" in text and "Nothing was charged" in text
    table = await harness.store.get_table(1)
    assert table.status is TableStatus.DISBANDED
    assert harness.fake.world.channels.keys() == {*harness.guild.channel_ids}, "no place left"
    again = await answer_text(await host.run("/table create", variant="sichuan"), host)
    assert "open" in again


async def test_a_table_whose_first_hand_cannot_be_dealt_gives_the_cards_back(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = harness.owner

    async def refused(*_: object, **__: object) -> object:
        # A store that will never take it; one that may later (a full disk, a lock) pauses
        # the table instead, and the hand is dealt when the store is back.
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(type(harness.store), "begin_round", refused)
    lobby = await harness.start_table(host, "sichuan", rounds="4", fill_with_ai="true")
    notice = await host.next_message(
        where=lambda m: m.channel_id == lobby.channel_id and "disbanded" in m.content, timeout=10
    )
    assert "refunded" in notice.content
    assert (await harness.store.get_table(1)).status is TableStatus.DISBANDED
    moves = await harness.store.card_history(harness.guild.id, host.id)
    assert sum(m.delta for m in moves if m.kind is not CardKind.STARTER) == 0
    assert harness.bot is not None and not harness.bot.tables.running


async def test_a_first_hand_the_store_cannot_take_yet_is_dealt_once_it_can(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = harness.owner
    begin_round = type(harness.store).begin_round
    refusals = 2

    async def full_for_a_while(store: SqlStore, *args: Any, **kwargs: Any) -> RoundInfo:
        nonlocal refusals
        if refusals:
            refusals -= 1
            raise OSError(errno.ENOSPC, "No space left on device")
        return await begin_round(store, *args, **kwargs)

    monkeypatch.setattr(type(harness.store), "begin_round", full_for_a_while)
    lobby = await harness.start_table(host, "sichuan", rounds="4", fill_with_ai="true")
    await host.next_message(
        where=lambda m: m.channel_id == lobby.channel_id and "The table goes on" in m.content,
        timeout=10,
    )
    assert (await harness.store.get_table(1)).status is TableStatus.PLAYING
    assert refusals == 0 and harness.running().current is not None


async def test_a_finished_tables_own_channel_goes_after_its_grace(tmp_path: Path) -> None:
    quick = dataclasses.replace(FAST, place_grace=0.2)
    async with running_harness(tmp_path, pacing=quick) as harness:
        host = harness.owner
        world = harness.fake.world
        world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
        await answer_text(await host.run("/admin config", table_category="tables"), host)
        lobby: Message = await harness.start_table(
            host, "guangdong", rounds="1", fill_with_ai="true"
        )
        channel_id = lobby.channel_id
        await play_out(harness, [player(harness, host)], host)
        for _ in range(200):
            if channel_id not in world.channels:
                break
            await asyncio.sleep(0.05)
        assert channel_id not in world.channels


async def test_a_finished_tables_thread_is_archived_after_its_grace(tmp_path: Path) -> None:
    quick = dataclasses.replace(FAST, place_grace=0.2)
    async with running_harness(tmp_path, pacing=quick) as harness:
        host = harness.owner
        lobby = await harness.start_table(host, "guangdong", rounds="1", fill_with_ai="true")
        thread = harness.fake.world.channels[lobby.channel_id]
        await play_out(harness, [player(harness, host)], host)
        for _ in range(200):
            if thread.archived:
                break
            await asyncio.sleep(0.05)
        assert thread.archived


async def test_a_whole_hand_on_two_shards(tmp_path: Path) -> None:
    """Discord's Gateway topic, Sharding: guild events reach the guild's shard, and "DMs
    will only be sent to shard 0": the table's server is on shard 1, every DM click and
    reaction arrives on shard 0, and the one process plays the hand through."""
    async with running_harness(tmp_path, sharding=Sharding(shards=2)) as harness:
        assert harness.bot is not None and harness.bot.shard_count == 2
        assert (harness.guild.id >> 22) % 2 == 1
        me = harness.owner
        await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
        (settlement,) = await play_out(harness, [player(harness, me, react=True)], me)
        assert "seed" in settlement.content


async def test_claims_answered_by_reactions_as_clients_send_them(harness: Harness) -> None:
    """Discord keeps a reaction as the client sent it: keycaps and arrows come with or
    without U+FE0F. With no timers, a reaction the bot did not understand would leave the
    claim open for ever."""
    people = [harness.owner, harness.join("Bei"), harness.join("Chen"), harness.join("Dong")]
    for person in people:
        person.emoji_form = "without_fe0f"
    await harness.start_table(
        people[0], "sichuan", *people[1:], rounds="1", turn_timer="0", claim_timer="0"
    )
    seats = [player(harness, p, react=True) for p in people]
    (settlement,) = await play_out(harness, seats, people[0])
    assert "seed" in settlement.content
    assert sum(seat.reactions for seat in seats) > 0


async def test_a_burst_of_lobby_commands_is_answered_in_time(tmp_path: Path) -> None:
    """Each /table join or leave redraws the lobby, and a thread's message edits share a
    bucket of five per five seconds: the command is answered before its edit, so the
    seventh command of a burst does not wait seconds for its answer (the harness fails
    on any answer past Discord's deadline)."""
    async with running_harness(tmp_path, rate_limits=RateLimits()) as harness:
        host = harness.owner
        guests = [harness.join(f"Guest {n}") for n in range(3)]
        lobby = await harness.open_table(host, "sichuan")
        thread = harness.fake.world.channels[lobby.channel_id]
        for command in ("/table join", "/table leave", "/table join"):
            handles = await asyncio.gather(*(g.run(command, channel=thread) for g in guests))
            answers = await asyncio.gather(*(h.response() for h in handles))
            assert all(a.message is not None and a.message.ephemeral_for for a in answers)
        await host.next_edit(lobby, where=lambda m: "Guest 2" in m.content, timeout=30)


async def test_a_thread_that_refuses_the_bot_is_not_tried_on_every_move(harness: Harness) -> None:
    """Discord bans a bot after 10,000 401/403/429 answers in ten minutes ("Invalid
    Request Limit"): once the table's thread refuses the bot, the table message is left
    alone for a while instead of being edited on every move; the hand goes on by DM."""
    me = harness.owner
    lobby = await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    thread = harness.fake.world.channels[lobby.channel_id]
    prompt = await me.next_prompt(timeout=20)
    parent = harness.fake.world.channels[thread.parent_id or 0]
    harness.fake.world.set_bot_permissions(parent, view_channel=False)
    await player(harness, me).answer(harness.live(prompt))
    (settlement,) = await play_out_in_dms(harness, me)
    refused = [
        mark
        for mark in harness.fake.metrics.timeline
        if mark.channel_id == thread.id and mark.status == 403
    ]
    assert 1 <= len(refused) <= 2, len(refused)
    assert settlement is not None


async def play_out_in_dms(harness: Harness, me: Person) -> list[Message]:
    """Play until the person's DM shows the hand is over (the thread may be out of reach)."""
    stop = asyncio.Event()
    seat = player(harness, me)
    task = asyncio.create_task(seat.play(stop))
    try:
        result = await me.next_message(
            where=lambda m: m.channel_id == me.dm.id and "result" in m.content, timeout=60
        )
        return [result]
    finally:
        stop.set()
        await task


async def test_a_click_that_beats_discords_answer_to_the_lobby_post(tmp_path: Path) -> None:
    """With Discord's answer to posting the lobby on its way back, a player already sees
    the lobby and presses Join: the click itself tells the bot where the lobby is."""
    async with running_harness(tmp_path, latency=Latency(rest=0.3)) as harness:
        host, guest = harness.owner, harness.join("Guest")
        created = await host.run("/table create", variant="sichuan")
        await created.response()
        lobby = await host.next_message(where=lambda m: "table #" in m.content, timeout=10)
        joined = await guest.click(lobby, label="Join")
        assert (await joined.response(timeout=10)).type == 7, "the click updated the lobby"
        assert "2. Guest" in harness.live(lobby).content
