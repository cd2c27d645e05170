"""The load benchmark's split of the event loop's CPU by task (benchmarks/loop_tasks.py)."""

from __future__ import annotations

import asyncio
import asyncio.events
import time
from pathlib import Path

import pytest

from benchmarks import loop_tasks


def busy(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def stored() -> None:
    await asyncio.sleep(0)


async def click() -> None:
    busy(0.002)
    await stored()
    busy(0.004)


def plain_callback() -> None:
    busy(0.001)


async def test_a_tasks_steps_are_counted_by_where_they_resume(tmp_path: Path) -> None:
    original = asyncio.events.Handle._run
    loop = asyncio.get_running_loop()
    select = loop._selector.select  # type: ignore[attr-defined]
    tasks = loop_tasks.install(loop)
    try:
        await asyncio.create_task(click())
        loop.call_soon(plain_callback)
        await asyncio.sleep(0.01)
    finally:
        tasks.stop()
    assert asyncio.events.Handle._run is original
    assert loop._selector.select == select  # type: ignore[attr-defined]

    first = f"{click.__qualname__} <- {click.__qualname__}"
    resumed = f"{click.__qualname__} <- __sleep0"
    assert tasks.runs[first] == 1 and tasks.runs[resumed] == 1
    # Each step's CPU under its own label: the work before the store, then after it.
    assert 0.002 <= tasks.cpu[first] < 0.004 <= tasks.cpu[resumed]
    assert tasks.cpu[plain_callback.__qualname__] >= 0.001
    assert tasks.runs[loop_tasks.SELECT] >= 1

    out = tmp_path / "tasks.txt"
    tasks.write(out)
    lines = loop_tasks.summary(out, actions=2)
    assert "a player action" in lines[0]
    # Dearest first, in ms and callbacks per player action (other callbacks of the
    # test's loop may run meanwhile: a garbage collection can make one of them dearer).
    shown = [line.split() for line in lines[1:]]
    assert [float(row[0]) for row in shown] == sorted(
        (float(row[0]) for row in shown), reverse=True
    )
    (row,) = (row for row in shown if row[3:] == resumed.split())
    assert row[1:3] == ["ms", "0.50"]
    assert float(row[0]) == pytest.approx(tasks.cpu[resumed] / 2 * 1000, abs=0.002)
