"""Discord-style snowflake ids."""

import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Makes unique, increasing snowflakes whose timestamp part is the wall clock.

    discord.py reads the creation time out of message ids (for example to pick the
    delete sub-rate-limit), so the timestamp bits must be real.
    """

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        stamp = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (stamp << 22) | (next(self._counter) & 0xFFF)
        # Keep ids strictly increasing even when many are made within one millisecond.
        self._last = max(value, self._last + 1)
        return self._last
