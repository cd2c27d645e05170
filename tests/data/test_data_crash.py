"""A writer killed with SIGKILL mid-stream loses no acknowledged action and duplicates none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from data import ActionSequenceError
from data.sql_store import SqlStore
from tests.data.crash_writer import action_for
from tests.data.databases import Database
from tests.data.store_support import FakeClock, MakeTable, setup_for

ROOT = Path(__file__).resolve().parents[2]


def _kill_after(database: Database, round_id: int, first_seq: int, acknowledged: int) -> list[int]:
    """Run a writer, SIGKILL it once it has acknowledged that many appends; return them."""
    seen = []
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.data.crash_writer",
            database.location,
            str(round_id),
            str(first_seq),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as writer:
        assert writer.stdout is not None
        for line in writer.stdout:
            seen.append(int(line))
            if len(seen) >= acknowledged:
                os.kill(writer.pid, signal.SIGKILL)
                break
        else:
            writer.kill()
        writer.wait(timeout=10)
    assert writer.returncode == -signal.SIGKILL
    return seen


async def _actions(database: Database, clock: FakeClock) -> list[dict[str, object]]:
    store = await database.open(clock)
    try:
        live = await store.live_tables()
    finally:
        await store.close()
    assert live[0].current_round is not None
    return live[0].current_round.actions


async def test_killed_writer_keeps_every_acknowledged_action(
    store: SqlStore, make_table: MakeTable, database: Database, clock: FakeClock
) -> None:
    table = await make_table()
    round_id = (await store.begin_round(table.id, seed="s", setup=setup_for())).id
    await store.close()

    first = _kill_after(database, round_id, 0, 300)
    stored = await _actions(database, clock)
    assert first == list(range(300))
    assert len(stored) >= 300
    assert stored == [action_for(seq) for seq in range(len(stored))]

    second = _kill_after(database, round_id, len(stored), 200)
    assert second[0] == len(stored)
    stored = await _actions(database, clock)
    assert len(stored) >= second[-1] + 1
    assert stored == [action_for(seq) for seq in range(len(stored))]

    reopened = await database.open(clock)
    try:
        next_seq = len(stored)
        await reopened.append_action(round_id, next_seq, action_for(next_seq))
        with pytest.raises(ActionSequenceError) as refused:
            await reopened.append_action(round_id, next_seq, action_for(next_seq))
        assert refused.value.expected == next_seq + 1
    finally:
        await reopened.close()
