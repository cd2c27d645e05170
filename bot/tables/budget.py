"""The share of Discord's global limit (50 requests a second for the whole bot) that
requests nobody waits for may use.

Prompts reach players through their clicks' tokens, which Discord counts apart from the
global limit. What remains are a few messages per hand and two kinds of request that can
wait without anyone waiting on them: edits of the table messages, where a later edit shows
the latest state anyway, and the reactions put on hand messages. Those take a slot here
first. When every table together wants more than the budget, each table's picture
refreshes a little less often, in turn, instead of the bot running into the global limit
and making every request of every table wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class RequestBudget:
    """A token bucket: ``rate`` requests a second on average, bursts of up to ``rate``.

    Waiters are served in arrival order (asyncio's lock is fair), so a busy table cannot
    starve the others.
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a positive rate")
        self.rate = rate
        self._clock = clock
        self._tokens = rate
        self._at = clock()
        self._lock = asyncio.Lock()
        #: Slots given out, and seconds spent waiting for them: the load benchmark reads these.
        self.taken = 0
        self.waited = 0.0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.rate, self._tokens + (now - self._at) * self.rate)
        self._at = now

    async def take(self) -> None:
        """Wait for a slot and use it."""
        async with self._lock:
            self._refill()
            if self._tokens < 1:
                wait = (1 - self._tokens) / self.rate
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1
            self.taken += 1
