"""Discord's invalid request limit, enforced at its edge (Rate Limits topic, "Invalid
Request Limit aka Cloudflare bans").

"IP addresses that make too many invalid HTTP requests are automatically and temporarily
restricted from accessing the Discord API. Currently, this limit is 10,000 per 10 minutes.
An invalid request is one that results in 401, 403, or 429 statuses." and "429 errors
returned with `X-RateLimit-Scope: shared` are not counted against you." Every client of the
fake comes from loopback with the one bot token, so the count is kept per client address.
A restricted client gets a 429 without a `Via` header, which discord.py reports as a
probable Cloudflare ban and does not retry.
"""

from collections import deque

from aiohttp import web

from fakediscord.clock import Clock
from fakediscord.config import InvalidRequests

INVALID_STATUSES = frozenset({401, 403, 429})
# What Cloudflare shows for its rate-limit block, error 1015.
BAN_BODY = "<html><body>error code: 1015</body></html>"


def is_invalid(status: int, scope: str | None) -> bool:
    """Whether an answer counts toward the limit."""
    return status in INVALID_STATUSES and not (status == 429 and scope == "shared")


def ban_response() -> web.Response:
    return web.Response(status=429, text=BAN_BODY, content_type="text/html")


class InvalidRequestGuard:
    """Invalid answers per client within the window, and the bans they earned."""

    def __init__(self, config: InvalidRequests, clock: Clock) -> None:
        self.config = config
        self._clock = clock
        self._invalid: dict[str, deque[float]] = {}
        self._banned_until: dict[str, float] = {}

    def banned(self, client: str) -> bool:
        return self.config.enabled and self._clock.now() < self._banned_until.get(client, 0.0)

    def record(self, client: str, status: int, scope: str | None) -> None:
        """Counts one answer the API gave `client`; past the limit, bans it."""
        if not self.config.enabled or not is_invalid(status, scope):
            return
        now = self._clock.now()
        marks = self._invalid.setdefault(client, deque())
        marks.append(now)
        while marks and marks[0] <= now - self.config.window:
            marks.popleft()
        if len(marks) > self.config.limit:
            self._banned_until[client] = now + self.config.ban_seconds
            marks.clear()
