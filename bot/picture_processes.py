"""Processes that draw the bot's pictures (``renderer.worker``), fed from the event loop.

Each process draws one picture at a time; the bot keeps one request in flight per process
and queues the rest, the pictures a click waits for ahead of table pictures, which nobody's
click waits for. A process that dies is started again and its picture asked once more of
the new one, so a crash costs a picture's delay, never the picture. Everything here runs on
the event loop: no thread of the bot's competes with it for Python's lock.
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

    async def ask(self, job: _Job) -> Answer:
        process = self.process
        if process is None or process.stdin is None or process.stdout is None:
            raise ConnectionError("the picture process is not running")
        process.stdin.write(frame((job.kind, job.args)))
        await process.stdin.drain()
        header = await process.stdout.readexactly(HEADER.size)
        body = await process.stdout.readexactly(HEADER.unpack(header)[0])
        answer: Answer = pickle.loads(body)
        return answer

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
            job = await self.pool.queue.get()
            if job.done.done():
                continue
            try:
                answer = await self._answer(job)
            except asyncio.CancelledError:
                job.done.cancel()
                raise
            except (OSError, EOFError, asyncio.IncompleteReadError, pickle.UnpicklingError) as exc:
                log.warning("picture process %d died drawing a %s: %s", self.number, job.kind, exc)
                await self.stop()
                job.attempts += 1
                if job.attempts >= ATTEMPTS:
                    job.done.set_exception(PictureFailed(f"the {job.kind} picture kept failing"))
                else:
                    self.pool.queue.put_nowait(job)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RESTART_DELAY_MAX)
                continue
            delay = RESTART_DELAY
            if not job.done.done():
                job.done.set_result(answer)

    async def _answer(self, job: _Job) -> Answer:
        if self.process is None or self.process.returncode is not None:
            await self.start()
        return await self.ask(job)


class PictureProcesses:
    """``count`` drawing processes, started at once and kept running until :meth:`stop`."""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError("at least one picture process")
        self.queue: asyncio.PriorityQueue[_Job] = asyncio.PriorityQueue()
        self._workers = [_Worker(self, n) for n in range(count)]
        self._seq = itertools.count()

    async def start(self) -> None:
        for worker in self._workers:
            await worker.start()
            worker.task = asyncio.create_task(worker.run(), name=f"pictures-{worker.number}")

    async def draw(self, kind: str, args: tuple[Any, ...], *, background: bool = False) -> Answer:
        """The answer of a process to ``kind(*args)``; ``background`` pictures wait for
        every other."""
        done: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(_Job(1 if background else 0, next(self._seq), kind, args, done))
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
