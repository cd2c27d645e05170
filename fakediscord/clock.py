"""The fake's sense of time, which tests can move forward without waiting."""

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta


class Clock:
    """Monotonic seconds plus an offset that tests advance.

    Deadlines (the 3-second first answer, the 15-minute token life), rate-limit windows and
    thread auto-archiving are measured on this clock, so a test can jump past them
    instantly. Whatever depends on the clock's passing time registers with `on_advance`
    to be told at once when a test moves it.
    """

    def __init__(self) -> None:
        self._offset = 0.0
        self._started = time.monotonic()
        self._started_wall = datetime.now(UTC)
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        return time.monotonic() + self._offset

    def wall(self) -> datetime:
        """The date and time on this clock, for timestamps that must follow `advance`."""
        return self._started_wall + timedelta(seconds=self.now() - self._started)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        for listener in list(self._listeners):
            listener()

    def on_advance(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)
