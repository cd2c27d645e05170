"""Waiting longer after each failure, before trying again.

A thread where the bot lost its permission, or that was deleted, answers every request
with 403 or 404. Discord bans a bot that makes 10,000 such requests in ten minutes, and a
busy table would try on every move; so after a refusal the place is left alone for a
while (30 s, doubling up to 10 minutes) and a request that gets through resets it. A hand
message that failed to reach its player is sent again the same way, with waits of its
own (:mod:`bot.tables.sender`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import discord

FIRST_WAIT = 30.0
LONGEST_WAIT = 600.0


def is_refusal(error: discord.HTTPException) -> bool:
    """Whether the place refuses the bot itself (not a passing failure of the request)."""
    return isinstance(error, discord.Forbidden | discord.NotFound)


class Backoff:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        first: float = FIRST_WAIT,
        longest: float = LONGEST_WAIT,
    ) -> None:
        """``first``: the seconds waited after a first failure, doubled after each
        further one up to ``longest``."""
        self._clock = clock
        self._first = first
        self._longest = longest
        self._wait = 0.0
        self._until = 0.0

    @property
    def open(self) -> bool:
        """Whether the next request may go."""
        return self._clock() >= self._until

    @property
    def wait(self) -> float:
        """Seconds until the next request may go."""
        return max(self._until - self._clock(), 0.0)

    def refused(self) -> None:
        self._wait = min(max(self._wait * 2, self._first), self._longest)
        self._until = self._clock() + self._wait

    def succeeded(self) -> None:
        self._wait = 0.0
        self._until = 0.0
