"""Failures a test asks for: a route answered with an error Discord gives in a bad moment
(503 during an outage, a 400 it does not document), for a number of requests."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from fakediscord import errors


@dataclass(frozen=True)
class Fault:
    status: int
    code: int
    message: str


class Faults:
    """Errors waiting for the next requests of a route (``"POST /channels/{channel_id}/threads"``,
    the route's pattern as metrics name it)."""

    def __init__(self) -> None:
        self._pending: dict[str, deque[Fault]] = {}

    def fail(
        self,
        route_key: str,
        *,
        status: int = 503,
        code: int = 0,
        message: str = "Service Unavailable",
        times: int = 1,
    ) -> None:
        queue = self._pending.setdefault(route_key, deque())
        queue.extend(Fault(status, code, message) for _ in range(times))

    def raise_for(self, route_key: str) -> None:
        """Raise the route's next waiting error, if any."""
        queue = self._pending.get(route_key)
        if queue:
            fault = queue.popleft()
            raise errors.APIError(fault.status, fault.code, fault.message)
