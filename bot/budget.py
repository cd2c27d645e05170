"""The bot's share of Discord's global limit (50 requests a second for the whole bot).

Prompts reach players through their clicks' tokens, which Discord counts apart from the
global limit. Every other request waits for a slot of one budget as it leaves the bot
(:mod:`bot.discord_http`, the client that sends discord.py's requests), since Discord
counts a request when it arrives: posts in the thread, new hand messages, prompts whose click
token is gone, reactions, the edits of the table messages, and what no table code sees,
discord.py's retries after a 429 and requests it held back for their route's own limit.
A table message's edit waits for its slot before its picture is drawn
(:meth:`RequestBudget.reserve`), so it shows every change made while it waited; when all
tables together want more than the budget, each table's picture is redrawn a little less
often, in turn, instead of the bot running into the global limit and making every
request of every table wait. Requests made while a person waits for an answer (opening a
lobby) go out at once and are only counted (:meth:`RequestBudget.at_once`); those a
click waits for take the next free slot ahead of the line (:meth:`RequestBudget.first`).
In a cluster each process spends its shards' part of the limit (:func:`cluster_share`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: Set while the current task's requests are ones a person is waiting for.
_at_once: ContextVar[bool] = ContextVar("requests_at_once", default=False)
#: Set while the current task's requests are ones a person is waiting for that must
#: still keep within the budget: each takes the next free slot, ahead of those waiting.
_first: ContextVar[bool] = ContextVar("requests_first", default=False)
#: When the current task reserved the slot its next request goes out on.
_reserved: ContextVar[float | None] = ContextVar("request_reserved_at", default=None)
#: Seconds a reserved slot stays good. The budget counted the slot when it was reserved,
#: so a request leaving much later would reach Discord in a second the budget did not
#: count it in; it waits for a slot of its own instead.
RESERVED_FOR = 0.05


class RequestBudget:
    """A token bucket: ``rate`` requests a second on average, bursts of up to ``burst``
    (by default ``rate``). Discord counts its limit over windows of a second, and any
    second may see a burst and a second's refill: ``burst + rate`` must stay under it.

    Requests sent at once may leave the bucket in debt (down to one second's worth),
    which the requests that wait then pay back. Waiters are served in arrival order
    (asyncio's lock is fair), so a busy table cannot starve the others.
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
        #: Requests waiting for a slot ahead of the line (:meth:`first`).
        self._first_waiting = 0
        #: Requests sent at once, requests that waited for a slot and the seconds they
        #: spent waiting: the load benchmark reads these.
        self.spent = 0
        self.taken = 0
        self.waited = 0.0
        #: Reserved slots that went unused because their request left too late.
        self.reservations_lapsed = 0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """Within this block the current task's requests go out without waiting and are
        only counted: for requests a person's click is waiting for."""
        token = _at_once.set(True)
        try:
            yield
        finally:
            _at_once.reset(token)

    @contextmanager
    def first(self) -> Iterator[None]:
        """Within this block the current task's requests take the next free slot, ahead
        of the requests waiting in line: for requests a click waits for, which must not
        queue behind table pictures nor go past the budget (a membership lookup)."""
        token = _first.set(True)
        try:
            yield
        finally:
            _first.reset(token)

    async def reserve(self) -> None:
        """Wait for a slot for the current task's next request, which is about to be
        prepared: what it shows can then be taken after the wait, not before it."""
        await self._take()
        _reserved.set(self._clock())

    async def admit(self) -> None:
        """A request toward the global limit is leaving: count it, waiting for a slot
        unless it is one to send at once or its slot was reserved moments ago."""
        reserved = _reserved.get()
        if reserved is not None:
            _reserved.set(None)
            if self._clock() - reserved <= RESERVED_FOR:
                return
            self.reservations_lapsed += 1
        if _at_once.get():
            self._spend()
        elif _first.get():
            await self._take_first()
        else:
            await self._take()

    def _spend(self) -> None:
        self._refill()
        self._tokens = max(-self.rate, self._tokens - 1)
        self.spent += 1

    async def _take_first(self) -> None:
        """The next free slot, without waiting in line: the line leaves the slots these
        requests wait for to them."""
        self._first_waiting += 1
        try:
            self._refill()
            while self._tokens < 1:
                wait = (1 - self._tokens) / self.rate
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1
            self.taken += 1
        finally:
            self._first_waiting -= 1

    async def take(self) -> None:
        """Wait for a slot of this bucket, for something other than a request toward the
        global limit (opening DM channels, bot/client.py)."""
        await self._take()

    async def _take(self) -> None:
        async with self._lock:
            self._refill()
            # Requests spent while this one slept push its turn further back, and so do
            # requests taking the next slots first.
            while self._tokens < 1 + self._first_waiting:
                wait = (1 + self._first_waiting - self._tokens) / self.rate
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1
            self.taken += 1


def cluster_share(shards: int, shard_count: int) -> float:
    """The part of the global limit a process of a cluster running ``shards`` of
    ``shard_count`` shards may spend: its shards' part, 1/K each of K processes with even
    ranges, so that all together never pass the limit.

    Split evenly rather than leased through the database: it costs no round trip per
    request and holds while the database is slow, and the servers (so the tables) spread
    about evenly over the shards. Its cost is that a process with little to send leaves
    its share unused while another waits (docs/scaling.md).

    >>> cluster_share(4, 8), cluster_share(3, 3)
    (0.5, 1.0)
    """
    return shards / shard_count


def counts_toward_global_limit(path: str) -> bool:
    """Whether Discord counts a request to ``path`` toward the bot's global limit: every
    API route but the interaction answers and follow-ups, which carry their own token
    (the gateway connection and attachment downloads are not API routes)."""
    return path.startswith("/api/") and not ("/interactions/" in path or "/webhooks/" in path)
