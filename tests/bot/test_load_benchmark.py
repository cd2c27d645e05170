"""The load benchmark: its core on two tables, with Discord's rate-limit windows shrunk so
a hand takes seconds (so it keeps working as the bot changes), and its watch on
discord.py's global rate-limit lock."""

import asyncio
import gc
import logging
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path

import discord
import pytest

from benchmarks import load
from benchmarks.load import BotRecorder, LoadConfig, figures, render, run_load
from benchmarks.render import replay
from bot.variants import playable_variants
from fakediscord import FakeDiscord, RateLimits


async def test_two_tables_each_play_a_hand_through_the_bot_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = tmp_path / "pictures.pickle"
    tasks = tmp_path / "tasks.txt"
    config = LoadConfig(
        2,
        playable_variants(),
        think=0,
        ramp=0,
        rate_scale=0.01,
        record_pictures=recorded,
        tasks=tasks,
    )
    threshold = gc.get_threshold()
    outcome = await run_load(config)
    result = figures(outcome)
    # The fake's process froze what the opening left for play, and is itself again.
    assert gc.get_threshold() == threshold and gc.get_freeze_count() == 0

    assert result.finished == 2 and not result.errors and not result.stalled
    assert result.player_actions > 20 and result.timeouts == 0
    # Every accepted click reached the table message, and every click was answered.
    assert result.shown == result.player_actions
    assert result.clicks >= result.player_actions
    assert result.late == result.unanswered == 0
    assert 0 < result.global_per_turn < result.requests_per_turn
    assert result.table_edits_per_turn > 0 and sum(result.dm_edits_per_turn.values()) > 0
    assert result.cpu_per_turn > 0 and result.memory_per_table >= 0
    assert 0 < result.capacity < float("inf")
    text = render(config, result)
    assert "capacity" in text
    # How late the fake's loop woke, and the collections of both processes.
    assert outcome.driver_lags
    assert "fake loop     woke late by p99" in text and "gc            bot " in text
    # The event loop's CPU by task: a move's own step after the store is among them.
    labels = {line.split("\t")[2] for line in tasks.read_text().splitlines()}
    assert "TableRuntime.click <- append_action" in labels
    assert "loop tasks    " in text

    # The pictures of play, recorded in the order drawn, are the ones the figures count,
    # and benchmarks.render draws them again.
    with recorded.open("rb") as file:
        pictures = pickle.load(file)
    assert Counter(kind for kind, _ in pictures) == outcome.bot.pictures
    assert {"desk", "table"} <= outcome.bot.pictures.keys()
    capsys.readouterr()
    replay(recorded)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"replayed {len(pictures)} pictures of play")
    assert {line.split()[0] for line in lines[1:]} == set(outcome.bot.pictures)


def test_an_ended_process_has_no_resident_memory(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE)
    assert load._rss(process.pid) > 0
    process.communicate(b"\n")
    assert load._rss(process.pid) == 0
    # Its file was closed, not kept for a process that will not come back.
    assert process.pid not in load._STATM


async def test_two_bot_processes_share_the_shards_and_a_postgresql_store(
    postgres_url: str,
) -> None:
    config = LoadConfig(
        4, ("guangdong",), think=0, ramp=0, rate_scale=0.01, database=postgres_url, processes=2
    )
    outcome = await run_load(config)
    result = figures(outcome)

    assert result.finished == 4 and not result.errors and not result.stalled
    assert result.late == result.unanswered == 0 and result.global_rate_limited == 0
    assert [p.shards for p in result.processes] == ["0", "1"]
    # Each server's table is played by the process holding its shard.
    assert all(p.moves > 0 and p.cpu_per_move > 0 for p in result.processes)
    assert result.append_count > 0 and 0 < result.appends[0] <= result.appends[2]
    text = render(config, result)
    assert "PostgreSQL: each append" in text and "process       shards 1:" in text


async def test_a_global_lock_left_closed_is_noticed_and_can_be_reopened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(load, "GLOBAL_LOCK_GRACE", 0.5)
    recorder = BotRecorder()
    logger = logging.getLogger("discord.http")
    logger.addHandler(recorder)
    # A long global window: the refused sends are still waiting when they are cancelled.
    async with FakeDiscord(rate_limits=RateLimits(global_limit=3, global_per=60)) as fake:
        guild = fake.world.create_guild("Club")
        client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.05)
        try:
            async with fake.run_client(client):
                watcher = asyncio.create_task(recorder.watch(client, release_global_lock=False))
                channel = client.get_partial_messageable(guild.channel_ids[0])
                sends = [asyncio.create_task(channel.send(str(n))) for n in range(6)]
                await asyncio.sleep(0.3)
                for send in sends:
                    send.cancel()
                await asyncio.gather(*sends, return_exceptions=True)
                # discord.py's own bug: nothing reopens the lock, so nothing is sent again.
                assert recorder.stuck_locks == 1 and not client.http._global_over.is_set()
                watcher.cancel()
                fake.rate_limits.enabled = False
                watcher = asyncio.create_task(recorder.watch(client, release_global_lock=True))
                await asyncio.wait_for(channel.send("after"), 5)
                watcher.cancel()
        finally:
            logger.removeHandler(recorder)
    assert recorder.stuck_locks == 2


async def test_an_attentive_person_never_times_out() -> None:
    """One person and three AI seats, the person noticing only new messages (quickly
    here, and the AI seats quick too, so a hand takes seconds)."""
    config = LoadConfig(
        1,
        ("guangdong",),
        ramp=0,
        rate_scale=0.01,
        attentive=True,
        glance=(0.05, 0.2),
        ai_delay=0.05,
    )
    result = figures(await run_load(config))

    assert result.finished == 1 and not result.errors and result.hands_played == 1
    # The deal is random: an AI seat may win after a few turns, so the person may have had
    # only a few prompts; none of them timed out.
    assert result.player_actions > 0 and result.person_timeouts == result.autoplay_moves == 0
    assert result.moves > result.player_actions
    assert 0 < result.global_per_move <= 2
    assert result.hand_requests["new prompt messages (follow-ups)"] > 0
    assert "attentive people timed out 0 times" in render(config, result)
