"""The bot's event loop CPU, split by task: ``python -m benchmarks.load --tasks FILE``.

Every callback the loop runs is timed on the loop thread's CPU clock. Each time is
labelled by what ran: for a task's step, the task's coroutine and the innermost coroutine
it resumed in (``TableRuntime.click <- append_action``: a click's work after its move was
stored); for any other callback, its name. The loop's wait for events (``<select>``,
epoll and the selector's own bookkeeping) is counted apart.

Neither of the two other ways the benchmark has tells this. py-spy samples wall time, so
a write that wakes another process on the loop's core looks like CPU spent in the write
(benchmarks/sampling.py). cProfile since Python 3.12 sees the calls of every thread of
the process, so a per-thread clock gives it times read on different threads' clocks; on
the process's clock it inflates Python-heavy code several times over. Here the cost is
two clock reads a callback, and the figures are the thread's own CPU.

It wraps ``asyncio.events.Handle._run`` and the running loop's selector: asyncio's own
(pure Python) event loop only.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

SELECT = "<select>"
#: Lines of the summary the benchmark prints.
SHOWN = 12


class LoopTasks:
    """CPU seconds and callbacks run, by label, since :func:`install`."""

    def __init__(self) -> None:
        self.cpu: defaultdict[str, float] = defaultdict(float)
        self.runs: Counter[str] = Counter()
        #: Puts back what :func:`install` wrapped.
        self.stop: Callable[[], None] = lambda: None

    def write(self, path: Path) -> None:
        """One line per label, dearest first: CPU seconds, callbacks, label."""
        with path.open("w") as out:
            for label, spent in sorted(self.cpu.items(), key=lambda item: -item[1]):
                out.write(f"{spent:.6f}\t{self.runs[label]}\t{label}\n")


def label(handle: asyncio.Handle) -> str:
    """What a callback is: a task's coroutine and the coroutine its step resumes in, or
    the callback's own name."""
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if not isinstance(task, asyncio.Task):
        return str(getattr(callback, "__qualname__", type(callback).__name__))
    outer = task.get_coro()
    inner: Any = outer
    while True:
        awaited = getattr(inner, "cr_await", None) or getattr(inner, "gi_yieldfrom", None)
        if awaited is None or not hasattr(awaited, "__qualname__"):
            break
        inner = awaited
    return f"{getattr(outer, '__qualname__', '?')} <- {getattr(inner, '__qualname__', '?')}"


def install(loop: asyncio.AbstractEventLoop) -> LoopTasks:
    """Start counting the callbacks ``loop`` runs, from its own thread. The wrapper is
    asyncio's class's: a loop in another thread of the process would be counted too,
    each callback on its own thread's clock."""
    tasks = LoopTasks()
    clock = time.thread_time
    run: Callable[[asyncio.Handle], None] = asyncio.events.Handle._run

    def timed_run(handle: asyncio.Handle) -> None:
        name = label(handle)
        start = clock()
        run(handle)
        tasks.cpu[name] += clock() - start
        tasks.runs[name] += 1

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
    selector = loop._selector  # type: ignore[attr-defined]
    select = selector.select

    def timed_select(timeout: float | None = None) -> Any:
        start = clock()
        ready = select(timeout)
        tasks.cpu[SELECT] += clock() - start
        tasks.runs[SELECT] += 1
        return ready

    selector.select = timed_select

    def stop() -> None:
        asyncio.events.Handle._run = run  # type: ignore[method-assign,assignment]
        selector.select = select

    tasks.stop = stop
    return tasks


def summary(path: Path, actions: int) -> list[str]:
    """The benchmark's lines for the file :meth:`LoopTasks.write` wrote."""
    rows: list[tuple[float, int, str]] = []
    for line in path.read_text().splitlines():
        cpu, count, name = line.split("\t", 2)
        rows.append((float(cpu), int(count), name))
    total = sum(spent for spent, _, _ in rows)
    per = max(actions, 1)
    lines = [
        f"loop tasks    {path}: {total / per * 1000:.2f} ms of the event loop's CPU a player "
        "action in its callbacks and its wait for events; the dearest, ms a player action "
        "and callbacks a player action:"
    ]
    for spent, runs, name in rows[:SHOWN]:
        lines.append(f"  {spent / per * 1000:6.3f} ms {runs / per:6.2f}  {name}")
    return lines
