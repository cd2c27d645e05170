"""Stopping a task that talks to Discord without cutting a request short.

discord.py closes a lock for the whole bot while it waits out a global 429 and reopens it
when the wait is over, outside any ``finally``: a request cancelled during that wait
leaves every later request of the process waiting forever, while the gateway stays up and
the bot looks alive. A table stops its message tasks when it closes, so those tasks mark
their requests here, and stopping waits for a request in flight instead of cancelling it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Requests:
    """The Discord requests in flight of one owner's tasks."""

    def __init__(self) -> None:
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.contextmanager
    def sending(self) -> Iterator[None]:
        """Around one request: stopping waits until it is answered."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def stop(self, *tasks: asyncio.Task[None] | None) -> None:
        """Cancel each of ``tasks`` at a moment none of them is inside a request, and wait
        for it to end."""
        current = asyncio.current_task()
        for task in tasks:
            if task is None or task.done() or task is current:
                continue
            while self._busy:
                await self._idle.wait()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
