"""A cluster of two bot processes (tests/bot/cluster_member.py), one fake Discord with two
shards, one PostgreSQL: one process is killed with SIGKILL mid-hand. Its table waits,
served by nobody (the other process does not take it over), and resumes the same hand
when the process comes back, no action lost or doubled; the other process's table plays
on throughout."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg

from bot.shards import shard_of
from data.store import Store
from fakediscord import FakeDiscord, Sharding
from fakediscord.models import Guild
from tests.bot.harness import TIMEOUT, Harness, running_harness

#: Seconds the killed process stays down.
OUTAGE = 2.5


async def guild_on_shard(fake: FakeDiscord, shard: int, shards: int) -> Guild:
    for _ in range(200):
        guild = fake.world.create_guild(f"Club {shard}")
        if shard_of(guild.id, shards) == shard:
            return guild
        await asyncio.sleep(0.002)
    raise AssertionError(f"no server landed on shard {shard}")


@contextlib.asynccontextmanager
async def member(harness: Harness, shards: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """A bot process of the cluster running ``shards`` of 2, ready; stopped at the end."""
    fake = harness.fake
    assert harness.database_url is not None
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.cluster_member",
        fake.api_url,
        fake.gateway_url,
        fake.token,
        harness.database_url,
        shards,
        "2",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line == b"ready\n", line
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


async def actions(store: Store) -> dict[int, tuple[int, list[dict[str, Any]]]]:
    """Each server's open round: its id and its stored actions."""
    return {
        live.table.guild_id: (live.current_round.info.id, live.current_round.actions)
        for live in await store.live_tables()
        if live.current_round is not None
    }


async def moves_of(db: asyncpg.Connection, guild_id: int) -> int:
    """Every action stored for the server's tables, over all their hands."""
    count: int = await db.fetchval(
        "SELECT count(*) FROM round_actions a JOIN rounds r ON r.id = a.round_id"
        " JOIN tables t ON t.id = r.table_id WHERE t.guild_id = $1",
        guild_id,
    )
    return count


async def until(store: Store, ready: Any, what: str) -> dict[int, tuple[int, list[Any]]]:
    deadline = time.monotonic() + TIMEOUT * 3
    while time.monotonic() < deadline:
        now = await actions(store)
        if ready(now):
            return now
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what}: {await actions(store)}")


async def test_a_killed_process_resumes_its_hand_while_the_others_play_on(
    tmp_path: Path, postgres_url: str
) -> None:
    async with running_harness(
        tmp_path, database_url=postgres_url, start=False, sharding=Sharding(shards=2)
    ) as harness:
        store = harness.store
        far = harness.guild  # on shard 1
        near = await guild_on_shard(harness.fake, 0, 2)
        hosts = [
            harness.driver.person(harness.fake.world.users[g.owner_id], g) for g in (near, far)
        ]
        async with member(harness, "0"), member(harness, "1") as second:
            for host in hosts:
                # The hosts never answer: after a second they are on auto-play (托管) and
                # the tables play by themselves, hand after hand.
                await harness.start_table(
                    host,
                    "guangdong",
                    rounds="4",
                    fill_with_ai="true",
                    turn_timer="1",
                    claim_timer="1",
                )
            before = await until(
                store,
                lambda now: all(len(now.get(g.id, (0, []))[1]) >= 8 for g in (near, far)),
                "both tables should be playing",
            )
            second.send_signal(signal.SIGKILL)
            await second.wait()
            killed_at = await actions(store)
            round_id, stored = killed_at[far.id]
            assert round_id == before[far.id][0]

            # While it is down the other table plays on, and nobody serves the killed
            # process's table.
            db = await asyncpg.connect(postgres_url)
            try:
                counts = [await moves_of(db, near.id)]
                end = time.monotonic() + OUTAGE
                while time.monotonic() < end:
                    await asyncio.sleep(0.25)
                    counts.append(await moves_of(db, near.id))
                    assert (await actions(store))[far.id] == (round_id, stored)
            finally:
                await db.close()
            assert counts[-1] >= counts[0] + 5, counts
            assert max(_gaps(counts)) < 2.0 / 0.25, counts

            async with member(harness, "1"):
                resumed = await until(
                    store,
                    lambda now: len(now.get(far.id, (0, []))[1]) > len(stored) + 3,
                    "the killed process's table should resume",
                )
                again_id, log = resumed[far.id]
                # The same hand, its log kept as it was and continued: nothing lost, no
                # action stored twice.
                assert again_id == round_id
                assert log[: len(stored)] == stored


def _gaps(counts: list[int]) -> list[int]:
    """The longest runs of samples in which the count did not grow."""
    gaps, run = [0], 0
    for earlier, later in itertools.pairwise(counts):
        run = run + 1 if later == earlier else 0
        gaps.append(run)
    return gaps
