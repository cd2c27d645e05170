"""The fake's sense of time, which tests can move forward without waiting."""

import time


class Clock:
    """Monotonic seconds plus an offset that tests advance.

    Deadlines (the 3-second first answer, the 15-minute token life) and rate-limit
    windows are measured on this clock, so a test can jump past them instantly.
    """

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
