"""Processes that draw the bot's pictures (``renderer.worker``), fed from the event loop.

Each process draws one picture at a time, in the order asked; the bot queues the pictures,
those a click waits for ahead of table pictures, which nobody's click waits for. A process
that is free takes every picture queued when it wakes (but those left for other free
processes) and is sent them in one write: a move asks for two or three pictures at once
(the clicker's answer, the next player's prompt, the table), and a process that finds the
next request waiting draws it while its caches are warm, instead of sleeping until the
bot's event loop has read one answer and sent the next request (in play on a virtual
machine, a desk drawn right after another picture cost about a quarter less than one
drawn after a wait).

A process that dies is started again and the pictures it had not answered asked once more
of the new one, so a crash costs a picture's delay, never the picture. Everything here runs
on the event loop: no thread of the bot's competes with it for Python's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import pickle
import sys
from dataclasses import dataclass, field
from typing import Any

from renderer.worker import HEADER, Answer, frame

log = logging.getLogger(__name__)

#: Pictures asked of a process that died while drawing them, before giving up on one.
ATTEMPTS = 2
#: Pictures sent to a process at once at most: a move's few, and a table's pictures
#: queued behind them, without one process taking a long queue from the others.
BATCH = 8
#: Queue priorities: pictures a click waits for, then table pictures.
FOREGROUND, BACKGROUND = 0, 1
#: Seconds before starting a process again after one died (doubling to the maximum), so
#: a process that cannot start does not spin.
RESTART_DELAY = 0.2
RESTART_DELAY_MAX = 10.0


class PictureFailed(RuntimeError):
    """A picture could not be drawn: the renderer's error, or processes that kept dying."""


@dataclass(order=True)
class _Job:
    priority: int
    seq: int
    kind: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    done: asyncio.Future[Answer] = field(compare=False)
    attempts: int = field(default=0, compare=False)
    answered: bool = field(default=False, compare=False)


class _Worker:
    """One drawing process and the task that feeds it."""

    def __init__(self, pool: PictureProcesses, number: int) -> None:
        self.pool = pool
        self.number = number
        self.process: asyncio.subprocess.Process | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "renderer.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )

    async def ask(self, jobs: list[_Job]) -> None:
        """Send ``jobs`` in one write and settle each with its answer as it comes."""
        process = self.process
        if process is None or process.stdin is None or process.stdout is None:
            raise ConnectionError("the picture process is not running")
        process.stdin.write(b"".join(frame((job.kind, job.args)) for job in jobs))
        await process.stdin.drain()
        for job in jobs:
            header = await process.stdout.readexactly(HEADER.size)
            body = await process.stdout.readexactly(HEADER.unpack(header)[0])
            answer: Answer = pickle.loads(body)
            job.answered = True
            if not job.done.done():
                job.done.set_result(answer)

    async def stop(self) -> None:
        process = self.process
        self.process = None
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 2.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()

    async def run(self) -> None:
        delay = RESTART_DELAY
        while True:
            jobs = await self.pool.take()
            if not jobs:
                continue
            try:
                await self._answer(jobs)
            except asyncio.CancelledError:
                for job in jobs:
                    job.done.cancel()
                raise
            except (OSError, EOFError, asyncio.IncompleteReadError, pickle.UnpicklingError) as exc:
                left = [job for job in jobs if not job.answered]
                log.warning(
                    "picture process %d died drawing a %s: %s", self.number, left[0].kind, exc
                )
                await self.stop()
                self._ask_again(left)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RESTART_DELAY_MAX)
                continue
            delay = RESTART_DELAY

    def _ask_again(self, left: list[_Job]) -> None:
        """Queue again the pictures a dead process had not answered. It draws in order,
        so it died on the first of them (or before reading it): that one counts an
        attempt, the others were never begun."""
        first = left[0]
        first.attempts += 1
        if first.attempts >= ATTEMPTS:
            if not first.done.done():
                first.done.set_exception(PictureFailed(f"the {first.kind} picture kept failing"))
            left = left[1:]
        for job in left:
            self.pool.queue.put_nowait(job)

    async def _answer(self, jobs: list[_Job]) -> None:
        if self.process is None or self.process.returncode is not None:
            await self.start()
        await self.ask(jobs)


class PictureProcesses:
    """``count`` drawing processes, started at once and kept running until :meth:`stop`."""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError("at least one picture process")
        self.queue: asyncio.PriorityQueue[_Job] = asyncio.PriorityQueue()
        self._workers = [_Worker(self, n) for n in range(count)]
        self._seq = itertools.count()
        #: Processes waiting for a picture to draw.
        self._free = 0

    async def take(self) -> list[_Job]:
        """The pictures for a free process to draw next, in order: the first queued and,
        after the event loop's other ready work has had its turn to ask for the rest of
        a move's pictures, those queued then, up to :data:`BATCH`, leaving one for each
        other free process. At most one table picture goes in a batch, last: a click's
        picture asked meanwhile waits behind no more than one. Pictures whose asker gave
        up are left out."""
        self._free += 1
        try:
            first = await self.queue.get()
        finally:
            self._free -= 1
        jobs = [first]
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            first.done.cancel()
            raise
        while (
            jobs[-1].priority == FOREGROUND
            and len(jobs) < BATCH
            and self.queue.qsize() > self._free
        ):
            jobs.append(self.queue.get_nowait())
        return [job for job in jobs if not job.done.done()]

    async def start(self) -> None:
        for worker in self._workers:
            await worker.start()
            worker.task = asyncio.create_task(worker.run(), name=f"pictures-{worker.number}")

    async def draw(self, kind: str, args: tuple[Any, ...], *, background: bool = False) -> Answer:
        """The answer of a process to ``kind(*args)``; ``background`` pictures wait for
        every other."""
        done: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        priority = BACKGROUND if background else FOREGROUND
        self.queue.put_nowait(_Job(priority, next(self._seq), kind, args, done))
        return await done

    def pids(self) -> list[int]:
        """The processes running now (to read their CPU time)."""
        return [w.process.pid for w in self._workers if w.process is not None]

    async def stop(self) -> None:
        for worker in self._workers:
            if worker.task is not None:
                worker.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await worker.task
            await worker.stop()
        while not self.queue.empty():
            job = self.queue.get_nowait()
            if not job.done.done():
                job.done.set_exception(PictureFailed("the bot is stopping"))
