"""A store that refuses writes for a while (a database locked by another process, a
full disk) pauses a table instead of killing its tasks; the table goes on by itself, and
its stored actions are exactly those applied, in order, each once."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.snapshots import Problem
from bot.runtime.table import TableRuntime
from data.models import Variant
from data.sqlite import SqliteStore
from tests.runtime.test_table_runtime import (
    PEOPLE,
    Recorder,
    answer_click,
    make_table,
    runtime_for,
)


class FullDisk(SqliteStore):
    """The real store, whose appends fail with a full disk while ``failures`` lasts;
    ``after`` makes a failing append store its row first, as a write whose answer was
    lost on the way back."""

    failures = 0
    after = False
    refused = 0

    async def append_action(self, round_id: int, seq: int, action: Mapping[str, Any]) -> None:
        if self.failures:
            self.failures -= 1
            self.refused += 1
            if self.after:
                await super().append_action(round_id, seq, action)
            raise OSError(errno.ENOSPC, "No space left on device")
        await super().append_action(round_id, seq, action)


@pytest.fixture
async def path(tmp_path: Path) -> Path:
    return tmp_path / "paused.sqlite3"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[FullDisk]:
    # A short busy timeout: a lock held longer than this fails the write.
    opened = await FullDisk.open(path, synchronous="NORMAL", busy_timeout=0.1)
    assert isinstance(opened, FullDisk)
    yield opened
    await opened.close()


def lock(path: Path) -> sqlite3.Connection:
    """Another process's write lock on the file, as a sqlite3 shell holds it."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    return other


async def ai_table(store: SqliteStore) -> tuple[TableRuntime, Recorder]:
    """A hand only AI seats play: the one person is on auto-play from the start."""
    table = await make_table(store, Variant.GUANGDONG, people=1)
    await store.set_autoplay(table.id, PEOPLE[0], True)
    recorder = Recorder()
    return runtime_for(await store.get_table(table.id), store, recorder), recorder


def stored_seqs(path: Path) -> list[int]:
    with sqlite3.connect(path) as reader:
        return [row[0] for row in reader.execute("SELECT seq FROM round_actions ORDER BY seq")]


async def assert_whole(runtime: TableRuntime, store: SqliteStore, path: Path) -> None:
    """Every applied action is stored once, in order, with no gap."""
    (settled,) = runtime.listener.settled  # type: ignore[attr-defined]
    script = await store.round_script(settled.round_id)
    assert script["actions"] == [a.to_json() for a in settled.hand.actions]
    assert stored_seqs(path) == list(range(len(settled.hand.actions)))


async def test_a_locked_database_pauses_ai_moves_until_it_is_free(
    store: FullDisk, path: Path
) -> None:
    runtime, recorder = await ai_table(store)
    await runtime.start()
    # Locked before the first AI move runs: it waits for the store, the table pauses.
    other = lock(path)
    try:
        await recorder.until(lambda: recorder.pauses == [True])
        await asyncio.sleep(2.0)
        assert recorder.pauses == [True] and not recorder.settled
    finally:
        other.execute("ROLLBACK")
        other.close()
    await recorder.until(lambda: bool(recorder.over))
    assert recorder.pauses == [True, False]
    assert not runtime.paused.is_set()
    await assert_whole(runtime, store, path)
    await runtime.close()


@pytest.mark.parametrize("after", [False, True], ids=["refused", "stored-then-refused"])
async def test_a_full_disk_pauses_the_table_and_nothing_is_applied_twice(
    store: FullDisk, path: Path, after: bool
) -> None:
    runtime, recorder = await ai_table(store)
    # A lost answer is one failure: the next try finds the action stored and goes on.
    failures = 1 if after else 3
    store.failures, store.after = failures, after
    await runtime.start()
    await recorder.until(lambda: bool(recorder.over))
    assert store.refused == failures
    assert recorder.pauses == [True, False]
    await assert_whole(runtime, store, path)
    await runtime.close()


async def test_a_click_during_a_pause_is_told_so_and_the_waiting_one_goes_through(
    store: FullDisk, path: Path
) -> None:
    table = await make_table(store, Variant.SICHUAN, people=2)
    recorder = Recorder()
    runtime = runtime_for(table, store, recorder)
    await runtime.start()
    # The AI seats answer 换三张 at once; then only the two people are asked.
    await recorder.until(lambda: all(runtime.seat_state(c).asks == (c < 2) for c in range(4)))
    mine, theirs = answer_click(runtime.seat_state(0)), answer_click(runtime.seat_state(1))
    other = lock(path)
    try:
        first = asyncio.create_task(runtime.click(0, mine))
        await recorder.until(lambda: recorder.pauses == [True])
        assert (await runtime.click(1, theirs)).problem is Problem.PAUSED
        assert not first.done()
    finally:
        other.execute("ROLLBACK")
        other.close()
    done = await first
    assert done.problem is None and done.state is not None
    assert (await runtime.click(1, theirs)).problem is None
    assert recorder.pauses == [True, False]
    async with runtime.lock:
        assert runtime.hand is not None
        assert stored_seqs(path) == list(range(len(runtime.hand.actions)))
    await runtime.close()


async def test_a_table_stopped_during_a_pause_stops_at_once(store: FullDisk, path: Path) -> None:
    runtime, recorder = await ai_table(store)
    await runtime.start()
    other = lock(path)
    try:
        await recorder.until(lambda: recorder.pauses == [True])
        await asyncio.wait_for(runtime.close(), 2.0)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert stored_seqs(path) == []
