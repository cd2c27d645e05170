"""Time as the store sees it: an injectable clock, stored as UTC milliseconds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]

MS_PER_DAY = 86_400_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def utc_now() -> datetime:
    """The wall clock, the default for a store outside tests."""
    return datetime.now(UTC)


def to_ms(moment: datetime) -> int:
    """Milliseconds since the Unix epoch; naive datetimes are refused as ambiguous."""
    if moment.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return (moment - _EPOCH) // _ONE_MS


def from_ms(ms: int) -> datetime:
    return _EPOCH + ms * _ONE_MS


def day_of(ms: int) -> int:
    """The UTC day number (days since the epoch) of a stored timestamp."""
    return ms // MS_PER_DAY
