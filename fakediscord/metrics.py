"""What a load test reports: requests per route, 429s, invalid requests per minute, how fast
interactions were answered, and when each channel's messages were edited."""

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from fakediscord.clock import Clock
from fakediscord.models import Interaction
from fakediscord.world import MessageChange

SECONDS_PER_MINUTE = 60.0


@dataclass(frozen=True)
class InteractionTiming:
    """From INTERACTION_CREATE to the bot's first callback, on the fake's clock."""

    interaction_id: int
    type: int
    name: str | None
    latency: float | None
    in_time: bool


@dataclass(frozen=True)
class RequestMark:
    """One request as the fake answered it, on the fake's clock.

    `global_exempt` requests (interaction callbacks and follow-ups) do not count toward
    the global limit, so a rate over time needs to tell them apart. `channel_id` is the
    channel a channel route names, so a test can tell DMs from table channels. `invalid`
    answers count toward Discord's invalid request limit; `banned` ones were refused at
    Discord's edge because that limit was passed; `global_limit` 429s were refused by the
    global limit rather than by their route's bucket.
    """

    at: float
    route: str
    status: int
    global_exempt: bool
    channel_id: int | None = None
    invalid: bool = False
    banned: bool = False
    global_limit: bool = False


@dataclass(frozen=True)
class MessageEdit:
    """A message edit landing, on the fake's clock."""

    at: float
    message_id: int


class Metrics:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self.requests: Counter[str] = Counter()
        self.rate_limited: Counter[str] = Counter()
        self.global_rate_limited = 0
        # Discord bans a bot for a while after 10,000 of these in 10 minutes.
        self.invalid_requests = 0
        self.banned_requests = 0
        self.timeline: list[RequestMark] = []
        # By channel: a load test times how long a click takes to show on a shared message.
        self.edits: dict[int, list[MessageEdit]] = {}

    def record(
        self,
        route_key: str,
        status: int,
        *,
        global_limit: bool = False,
        global_exempt: bool = False,
        channel_id: int | None = None,
        invalid: bool = False,
        banned: bool = False,
    ) -> None:
        self.requests[route_key] += 1
        mark = RequestMark(
            self._clock.now(),
            route_key,
            status,
            global_exempt,
            channel_id,
            invalid,
            banned,
            global_limit and status == 429,
        )
        self.timeline.append(mark)
        if status == 429:
            self.rate_limited[route_key] += 1
            if global_limit:
                self.global_rate_limited += 1
        if invalid:
            self.invalid_requests += 1
        if banned:
            self.banned_requests += 1

    def invalid_requests_per_minute(self) -> list[int]:
        """Invalid answers in each minute since the first request recorded, on the fake's
        clock, up to the last one: the rate to keep far below 10,000 per 10 minutes."""
        if not self.timeline:
            return []
        start = self.timeline[0].at
        minutes = [0] * (int((self.timeline[-1].at - start) // SECONDS_PER_MINUTE) + 1)
        for mark in self.timeline:
            if mark.invalid:
                minutes[int((mark.at - start) // SECONDS_PER_MINUTE)] += 1
        return minutes

    def record_change(self, change: MessageChange) -> None:
        """A world observer: notes every edit by channel."""
        if change.kind == "update":
            edit = MessageEdit(change.at, change.message.id)
            self.edits.setdefault(change.message.channel_id, []).append(edit)

    def edit_times(self, channel_id: int, message_id: int | None = None) -> list[float]:
        """When the channel's messages (or one of them) were edited, oldest first."""
        return [
            edit.at
            for edit in self.edits.get(channel_id, [])
            if message_id is None or edit.message_id == message_id
        ]

    def reset(self) -> None:
        self.requests.clear()
        self.rate_limited.clear()
        self.global_rate_limited = 0
        self.invalid_requests = 0
        self.banned_requests = 0
        self.timeline.clear()
        self.edits.clear()

    def report(self, timings: list[InteractionTiming]) -> dict[str, Any]:
        latencies = sorted(t.latency for t in timings if t.latency is not None)
        return {
            "requests": dict(self.requests),
            "total_requests": sum(self.requests.values()),
            "rate_limited": dict(self.rate_limited),
            "global_rate_limited": self.global_rate_limited,
            "invalid_requests": self.invalid_requests,
            "invalid_requests_peak_per_minute": max(self.invalid_requests_per_minute(), default=0),
            "banned_requests": self.banned_requests,
            "interactions": len(timings),
            "interactions_unanswered": sum(1 for t in timings if t.latency is None),
            "interactions_late": sum(1 for t in timings if t.latency is not None and not t.in_time),
            "first_response_seconds": _summary(latencies),
        }


def interaction_timings(
    interactions: list[Interaction], deadline: float
) -> list[InteractionTiming]:
    timings = []
    for interaction in interactions:
        latency = None
        if interaction.first_callback_at is not None:
            latency = interaction.first_callback_at - interaction.created_at
        timings.append(
            InteractionTiming(
                interaction.id,
                interaction.type,
                interaction.command_name,
                latency,
                latency is not None and latency <= deadline,
            )
        )
    return timings


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "min": values[0],
        "median": statistics.median(values),
        "p95": values[min(len(values) - 1, int(len(values) * 0.95))],
        "max": values[-1],
    }
