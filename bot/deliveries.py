"""Interactions the bot has already taken in.

Discord may deliver one interaction twice, with the same id and token: a gateway that
replays events after a resume does. Only one delivery can answer it (a second callback
is refused), so the second is dropped before anything handles it; otherwise its answer,
such as "already answered", could take the place of the first delivery's own.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

#: Seconds an interaction can be answered at all (its token's life).
TOKEN_LIFETIME = 15 * 60


class Deliveries:
    """The ids of the interactions taken in during the last :data:`TOKEN_LIFETIME`."""

    def __init__(
        self, keep: float = TOKEN_LIFETIME, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._keep = keep
        self._clock = clock
        self._order: deque[tuple[float, int]] = deque()
        self._seen: set[int] = set()

    def first(self, interaction_id: int) -> bool:
        """Whether this is the first delivery of the interaction (and remember it)."""
        now = self._clock()
        while self._order and self._order[0][0] < now - self._keep:
            self._seen.discard(self._order.popleft()[1])
        if interaction_id in self._seen:
            return False
        self._seen.add(interaction_id)
        self._order.append((now, interaction_id))
        return True
