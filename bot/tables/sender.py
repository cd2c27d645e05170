"""The one coalescing sender: a message that shows the latest of a stream of changes.

Both the table message and each player's hand message change far more often than they
can be sent. A :class:`Coalescer` sends whenever something changed, one send at a time,
never more often than its interval, and each send shows what is newest when it is made,
so changes made while one send is on its way are shown together by the next. A send that
fails is logged; the next change tries again. When nothing may change before the player
sees it (a hand message's prompt, which waits for them), the send asks for another try
(:meth:`Coalescer.retry`): it goes again after a backoff, ever longer while it keeps
failing, unless a change is sent first, which shows the newest state in its place.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.tables.backoff import Backoff
from bot.tables.stopping import Requests

log = logging.getLogger(__name__)

#: Seconds before the first try again of a failed send, as discord.py waits before it
#: sends again a request Discord answered with a 500; doubled after each failure, up to a
#: minute, so a long outage costs a request a minute for each message waiting.
RETRY_FIRST = 1.0
RETRY_LONGEST = 60.0

Send = Callable[[], Awaitable[None]]


class Coalescer:
    def __init__(
        self,
        send: Send,
        what: str,
        *,
        interval: float = 0.0,
        before: Send | None = None,
    ) -> None:
        """``send`` shows the newest state; ``before`` is awaited ahead of each send
        (a slot of the request budget), so the send shows what changed meanwhile."""
        self._send = send
        self._what = what
        self._interval = interval
        self._before = before
        #: The sender's requests in flight: stopping waits for them (see ``stopping``).
        self.requests = Requests()
        self._dirty = False
        self._last = 0.0
        #: The longest a send waits after the one before while someone waits for it to
        #: settle, however long the interval.
        self._within: float | None = None
        #: Resolved to cut short the wait before the next send.
        self._wake: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._backoff = Backoff(first=RETRY_FIRST, longest=RETRY_LONGEST)
        #: The send in progress asked to be tried again (:meth:`retry`).
        self._again = False
        #: The next try of a failed send, waiting out the backoff.
        self._retry: asyncio.TimerHandle | None = None
        #: Once closed, a failed send is not tried again.
        self._closed = False

    def touch(self) -> None:
        """Something changed: show it at the next allowed send."""
        self._dirty = True
        if self._retry is not None:
            # The newest state goes now, in place of the one that failed.
            self._retry.cancel()
            self._retry = None
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.create_task(self._run())

    def retry(self) -> None:
        """Called by a send that failed to show what no later change may bring (a prompt
        that waits for the player): it goes again after the backoff's wait, unless a
        change is sent first."""
        self._again = True

    def sent_now(self) -> None:
        """The message was just written by someone else: the interval counts from now."""
        self._last = time.monotonic()

    async def settled(self, *, within: float | None = None) -> None:
        """Wait until the latest change is on screen (or its send failed: a try again
        after the backoff's wait does not hold this up); with ``within``, a send waits
        no longer than that after the one before, however long the interval (the end of
        a hand does not wait out a long one)."""
        if within is not None and not self._idle.is_set():
            self._within = within
            if self._wake is not None and not self._wake.done():
                self._wake.set_result(None)
        try:
            await self._idle.wait()
        finally:
            self._within = None

    def _wait(self) -> float:
        interval = self._interval if self._within is None else min(self._interval, self._within)
        return self._last + interval - time.monotonic()

    async def _pause(self) -> None:
        """Until the next send may go, or :meth:`settled` shortens the wait."""
        loop = asyncio.get_running_loop()
        while (wait := self._wait()) > 0:
            self._wake = wake = loop.create_future()
            timer = loop.call_later(wait, _resolve, wake)
            try:
                await wake
            finally:
                timer.cancel()
                self._wake = None

    async def _run(self) -> None:
        try:
            while self._dirty:
                await self._pause()
                if self._before is not None:
                    await self._before()
                self._dirty = False
                self._again = False
                try:
                    with self.requests.sending():
                        await self._send()
                except Exception:
                    log.exception("%s: a send failed", self._what)
                self._last = time.monotonic()
                if self._again:
                    self._backoff.refused()
                else:
                    self._backoff.succeeded()
            if self._again and not self._closed:
                self._retry = asyncio.get_running_loop().call_later(self._backoff.wait, self.touch)
        finally:
            self._idle.set()

    async def close(self) -> None:
        self._closed = True
        await self.requests.stop(self._task)
        if self._retry is not None:
            self._retry.cancel()
        self._idle.set()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
