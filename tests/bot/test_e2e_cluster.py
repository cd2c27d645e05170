"""Two processes of a cluster against one fake Discord with two shards and one PostgreSQL:
the server's tables belong to the process holding its shard, and the DM clicks Discord
sends to shard 0 reach them through the other process, applied once and answered in
time."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import MahjongBot
from bot.ids import CustomId
from bot.launcher import NoShards, take_shards
from bot.shards import shard_of
from data.models import PlayerSettings
from fakediscord import Sharding
from tests.bot.harness import Harness, play_out, player, running_harness
from tests.bot.test_e2e_double_clicks import answer_plainly, enabled
from tests.bot.test_e2e_failures import next_controls

UPDATED, PRIVATE = 7, 4


def counting_clicks(bot: MahjongBot) -> Counter[int]:
    """How many times the bot's tables handle each interaction."""
    handled: Counter[int] = Counter()
    original = bot.tables.on_component

    async def counted(interaction: discord.Interaction, cid: CustomId, values: Any) -> None:
        handled[interaction.id] += 1
        await original(interaction, cid, values)

    bot.tables.on_component = counted  # type: ignore[method-assign]
    return handled


def cluster_harness(tmp_path: Path, postgres_url: str) -> Any:
    """The fake Discord with two shards and no bot yet, the store on PostgreSQL."""
    return running_harness(
        tmp_path, database_url=postgres_url, start=False, sharding=Sharding(shards=2)
    )


async def start_table(harness: Harness) -> None:
    await harness.start_table(
        harness.owner,
        "guangdong",
        rounds="4",
        fill_with_ai="true",
        turn_timer="0",
        claim_timer="0",
    )


async def two_members(harness: Harness) -> tuple[MahjongBot, MahjongBot]:
    first = await harness.start_member((0,), 2)
    second = await harness.start_member((1,), 2)
    assert shard_of(harness.guild.id, 2) == 1, "the server's tables belong to the second"
    return first, second


async def playing_in_the_second(harness: Harness) -> tuple[MahjongBot, MahjongBot]:
    """Two processes, and the owner's table in play in the second, which holds the
    server's shard: the owner has had their first prompt."""
    first, second = await two_members(harness)
    await start_table(harness)
    await next_controls(harness, harness.owner, timeout=10)
    return first, second


async def test_a_dm_click_on_another_processes_table_is_forwarded_applied_once_in_time(
    tmp_path: Path, postgres_url: str
) -> None:
    async with cluster_harness(tmp_path, postgres_url) as harness:
        first, second = await two_members(harness)
        handled_by_first = counting_clicks(first)
        handled_by_second = counting_clicks(second)
        me = harness.owner
        await start_table(harness)
        assert not first.tables.running and len(second.tables.running) == 1
        # A prompt by DM: its clicks reach shard 0, the first process, which forwards them.
        prompt = await next_controls(harness, me, timeout=10)
        handle = await answer_plainly(me, prompt)
        answer = await handle.response()
        assert answer.type in (UPDATED, PRIVATE)
        assert first.cluster is not None and first.cluster.forwarded == 1
        assert second.cluster is not None and second.cluster.received == 1
        assert handled_by_first[handle.id] == 1 and handled_by_second[handle.id] == 1

        # The same click twice at once, the first delivered twice by the gateway: one
        # acts, the other is told the prompt is answered; the doubled delivery is dropped
        # before it is forwarded.
        for _ in range(400):
            prompt = await next_controls(harness, me, timeout=10)
            buttons = enabled(prompt)
            if "pass" in buttons:
                break
            await (await answer_plainly(me, prompt)).response()
        else:
            raise AssertionError("no claim was offered")
        custom_id = str(buttons["pass"]["custom_id"])
        clicked = await me.click(prompt, custom_id=custom_id)
        again = await me.click(prompt, custom_id=custom_id)
        clicked.deliver_again()
        answers = await asyncio.gather(clicked.response(), again.response())
        assert sorted(a.type for a in answers) == [PRIVATE, UPDATED]
        stale = next(a for a in answers if a.type == PRIVATE)
        assert stale.message is not None and "already answered" in stale.message.content
        assert handled_by_second[clicked.id] == 1 and handled_by_second[again.id] == 1

        # A forwarded click delivered twice to the owner is applied once.
        assert first.cluster is not None
        payloads: list[tuple[int, str]] = []
        notify = first.cluster.locks.notify_shard

        async def doubled(shard_id: int, payload: str) -> bool:
            payloads.append((shard_id, payload))
            sent = await notify(shard_id, payload)
            return sent and await notify(shard_id, payload)

        first.cluster.locks.notify_shard = doubled  # type: ignore[method-assign]
        prompt = await next_controls(harness, me, timeout=10)
        handle = await answer_plainly(me, prompt)
        await handle.response()
        await asyncio.sleep(0.3)
        assert len(payloads) == 1 and handled_by_second[handle.id] == 1
        first.cluster.locks.notify_shard = notify  # type: ignore[method-assign]
        # The interactions were answered by the second process, whose gateway never saw
        # them; the harness checks at its end that each was answered within 3 seconds.
        assert harness.fake.interaction_timings()


async def test_four_people_play_a_hand_through_the_other_process_clicks_and_reactions(
    tmp_path: Path, postgres_url: str
) -> None:
    """Every DM click and reaction reaches shard 0's process and is forwarded: a whole
    hand is played that way, claims answered by reaction too."""
    async with cluster_harness(tmp_path, postgres_url) as harness:
        first, second = await two_members(harness)
        applied: list[int] = []
        on_reaction = second.tables.on_reaction

        async def counted(user_id: int, message_id: int, emoji: str, **kwargs: Any) -> None:
            if message_id in second.tables.hand_messages:
                applied.append(user_id)
            await on_reaction(user_id, message_id, emoji, **kwargs)

        second.tables.on_reaction = counted  # type: ignore[method-assign]
        people = [harness.owner, *(harness.join(name) for name in ("Bo", "Cy", "Di"))]
        await harness.start_table(people[0], "guangdong", *people[1:], rounds="1")
        seats = [player(harness, p, react=i % 2 == 1) for i, p in enumerate(people)]
        await play_out(harness, seats, people[0])
        assert all(seat.answers for seat in seats)
        assert sum(seat.reactions for seat in seats) > 0, "some claims were answered by reaction"
        # Each reaction reached the process that sent the hand message, through the other.
        assert len(applied) == sum(seat.reactions for seat in seats)
        assert not any("went wrong" in r for s in seats for r in s.private_replies)
        assert first.cluster is not None and second.cluster is not None
        assert first.cluster.forwarded == second.cluster.received > 20
        assert not first.tables.running


async def test_a_click_for_a_shard_nobody_holds_asks_to_try_again(
    tmp_path: Path, postgres_url: str
) -> None:
    async with cluster_harness(tmp_path, postgres_url) as harness:
        _, second = await two_members(harness)
        await start_table(harness)
        prompt = await next_controls(harness, harness.owner, timeout=10)
        # The table's process is gone as far as the cluster can tell (its locks released,
        # as when it died): the click cannot reach its table.
        assert second.cluster is not None
        await second.cluster.locks.close()
        handle = await answer_plainly(harness.owner, prompt)
        answer = await handle.response()
        assert answer.type == PRIVATE and answer.message is not None
        assert "try again in a moment" in answer.message.content


async def test_a_shard_held_by_another_process_is_not_served(
    tmp_path: Path, postgres_url: str
) -> None:
    async with cluster_harness(tmp_path, postgres_url) as harness:
        first, _ = await two_members(harness)
        # A third process for both shards gets neither and does not start.
        with pytest.raises(NoShards):
            await take_shards(harness.settings(shard_ids=(0, 1), shard_count=2), wait=0.3)
        assert first.cluster is not None and first.cluster.shard_ids == (0,)


async def test_a_process_resumes_only_the_tables_of_its_shards(
    tmp_path: Path, postgres_url: str
) -> None:
    async with cluster_harness(tmp_path, postgres_url) as harness:
        first, second = await playing_in_the_second(harness)
        (table_id,) = second.tables.running
        # Both resume from the same store: only the owner of the server's shard takes
        # the table up.
        await first.tables.resume_all()
        assert not first.tables.running
        assert second.cluster is not None and second.owns_guild(harness.guild.id)
        assert not first.owns_guild(harness.guild.id)
        assert table_id in second.tables.running


async def test_settings_saved_by_another_process_hold_at_once_at_its_tables(
    tmp_path: Path, postgres_url: str
) -> None:
    async with cluster_harness(tmp_path, postgres_url) as harness:
        first, second = await playing_in_the_second(harness)
        me = harness.owner
        (running,) = second.tables.running.values()
        chair = running.runtime.chair_of_user(me.id)
        assert chair is not None and not chair.shows_spectators
        # As /settings in DMs, which reach shard 0: the first process saves and announces.
        await first.save_player_settings(PlayerSettings(me.id, spectators_see_hand=True))
        for _ in range(100):
            if chair.shows_spectators:
                break
            await asyncio.sleep(0.05)
        assert chair.shows_spectators
