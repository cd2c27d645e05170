"""Per-route buckets and the global per-bot limit, answered the way Discord answers them."""

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any

from fakediscord.clock import Clock
from fakediscord.config import RateLimits, RouteLimit

# discord.py treats a 429 without a Via header as a Cloudflare ban and gives up.
VIA = "1.1 google"


@dataclass
class _Window:
    count: int = 0
    reset_at: float = 0.0

    def roll(self, now: float, period: float) -> None:
        if now >= self.reset_at:
            self.count = 0
            self.reset_at = now + period


@dataclass(frozen=True)
class Decision:
    """Whether a request may proceed; the headers go on the answer either way."""

    allowed: bool
    headers: dict[str, str]
    is_global: bool = False
    retry_after: float = 0.0
    scope: str = "user"

    def body(self) -> dict[str, Any]:
        # The wording of Discord's examples in "Exceeding A Rate Limit".
        shared = self.scope == "shared"
        message = "The resource is being rate limited." if shared else "You are being rate limited."
        return {"message": message, "retry_after": self.retry_after, "global": self.is_global}


class RateLimiter:
    def __init__(self, config: RateLimits, clock: Clock) -> None:
        self.config = config
        self._clock = clock
        self._global = _Window()
        self._windows: dict[str, _Window] = {}

    def check(self, route_key: str, major: str, *, global_exempt: bool) -> Decision:
        """Counts one request on `route_key` ("METHOD /path/{template}")."""
        config = self.config
        if not config.enabled:
            return Decision(True, {})
        now = self._clock.now()
        if not global_exempt:
            self._global.roll(now, config.global_per * config.time_scale)
            if self._global.count >= config.global_limit:
                return self._global_refusal(now)
        rule = config.routes.get(route_key, config.default)
        bucket = rule.bucket or route_key
        window = self._windows.setdefault(f"{bucket}:{major}", _Window())
        window.roll(now, rule.per * config.time_scale)
        reset_after = max(window.reset_at - now, 0.0)
        if window.count >= rule.limit:
            headers = _bucket_headers(rule, bucket, 0, reset_after)
            headers.update(refusal_headers(reset_after, scope=rule.scope))
            return Decision(False, headers, retry_after=round(reset_after, 3), scope=rule.scope)
        window.count += 1
        if not global_exempt:
            self._global.count += 1
        remaining = rule.limit - window.count
        return Decision(True, _bucket_headers(rule, bucket, remaining, reset_after))

    def _global_refusal(self, now: float) -> Decision:
        retry_after = max(self._global.reset_at - now, 0.0)
        headers = refusal_headers(retry_after, scope="global")
        headers["X-RateLimit-Global"] = "true"
        return Decision(
            False, headers, is_global=True, retry_after=round(retry_after, 3), scope="global"
        )


def _bucket_headers(
    rule: RouteLimit, bucket: str, remaining: int, reset_after: float
) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(rule.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": hashlib.sha1(bucket.encode()).hexdigest()[:32],
    }


def refusal_headers(retry_after: float, *, scope: str) -> dict[str, str]:
    """What a 429 from Discord's API (not its edge) carries, whichever limit refused."""
    return {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": VIA,
    }
