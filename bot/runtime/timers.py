"""Deadlines of open prompts: one timer per seat, replaced whenever its prompt changes."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

Expired = Callable[[int, int], Awaitable[None]]


class SeatTimers:
    """At most one running timer per seat; ``expired(seat, prompt_seq)`` is awaited when
    a timer runs out. The callee checks that the prompt is still the current one."""

    def __init__(self, expired: Expired) -> None:
        self._expired = expired
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, seat: int, prompt_seq: int, seconds: float) -> float:
        """Start the seat's timer; returns the deadline as a Unix time."""
        self.cancel(seat)
        deadline = time.time() + seconds
        self._tasks[seat] = asyncio.create_task(self._run(seat, prompt_seq, seconds))
        return deadline

    async def _run(self, seat: int, prompt_seq: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._tasks.pop(seat, None)
        await self._expired(seat, prompt_seq)

    def cancel(self, seat: int) -> None:
        task = self._tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def cancel_all(self) -> None:
        for seat in list(self._tasks):
            self.cancel(seat)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self.cancel_all()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
