"""The tables' share of Discord's global limit (50 requests a second for the whole bot).

Prompts reach players through their clicks' tokens, which Discord counts apart from the
global limit. Every other request a table makes waits here for a slot
(:meth:`RequestBudget.take`): posts in the thread, new hand messages, prompts whose click
token is gone, reactions, and the edits of the table messages, which gather every change
made while they wait, since a later edit shows the latest state anyway. When all tables
together want more than the budget, each table's picture is redrawn a little less often,
in turn, instead of the bot running into the global limit and making every request of
every table wait. Requests made while a person waits for an answer (opening a lobby) go
out at once and are only counted (:meth:`RequestBudget.spend`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class RequestBudget:
    """A token bucket: ``rate`` requests a second on average, bursts of up to ``burst``
    (by default ``rate``). Discord counts its limit over windows of a second, and any
    second may see a burst and a second's refill: ``burst + rate`` must stay under it.

    Spending may leave the bucket in debt (down to one second's worth), which the
    requests that wait then pay back. Waiters are served in arrival order (asyncio's lock
    is fair), so a busy table cannot starve the others.
    """

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0 or (burst is not None and burst < 1):
            raise ValueError("a request budget needs a positive rate and a burst of one or more")
        self.rate = rate
        self.burst = rate if burst is None else burst
        self._clock = clock
        self._tokens = self.burst
        self._at = clock()
        self._lock = asyncio.Lock()
        #: Requests counted, slots waited for and the seconds spent waiting for them: the
        #: load benchmark reads these.
        self.spent = 0
        self.taken = 0
        self.waited = 0.0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def spend(self) -> None:
        """Count a request that is sent at once."""
        self._refill()
        self._tokens = max(-self.rate, self._tokens - 1)
        self.spent += 1

    async def take(self) -> None:
        """Wait for a slot and use it."""
        async with self._lock:
            self._refill()
            # Requests spent while this one slept push its turn further back.
            while self._tokens < 1:
                wait = (1 - self._tokens) / self.rate
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1
            self.taken += 1
