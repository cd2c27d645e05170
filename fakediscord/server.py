"""FakeDiscord: the local Discord that an unmodified discord.py client talks to."""

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import yarl
from aiohttp import web

from fakediscord import threads
from fakediscord.clock import Clock
from fakediscord.config import InvalidRequests, Latency, Limits, RateLimits, Sharding
from fakediscord.faults import Faults
from fakediscord.gateway import Gateway
from fakediscord.invalid_requests import InvalidRequestGuard
from fakediscord.latency import Delays
from fakediscord.metrics import InteractionTiming, Metrics, interaction_timings
from fakediscord.ratelimit import RateLimiter
from fakediscord.rest import API_PREFIX, GATEWAY_PATH, Services, build_app
from fakediscord.slowmode import Slowmode
from fakediscord.world import World

DEFAULT_TOKEN = "fake-bot-token"
# How often, in real seconds, threads are checked for their auto-archive time between
# requests; moving the clock checks them at once.
ARCHIVE_SWEEP_SECONDS = 1.0


@contextlib.contextmanager
def pointed_at(api_url: str, gateway_url: str) -> Iterator[None]:
    """Points discord.py's REST base and default gateway at a fake, then restores them.

    A client in another process than the fake uses this with the fake's `api_url` and
    `gateway_url`.
    """
    route_base = discord.http.Route.BASE
    default_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = route_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = default_gateway


class FakeDiscord:
    """A Discord on 127.0.0.1 with REST, gateway and CDN; use as an async context manager.

    `world` holds the guilds, users, channels and messages, and is where tests build the
    scene; `limits`, `rate_limits`, `invalid_requests`, `latency` and `sharding` are live
    settings; `clock` can be advanced.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "Mahjong Bot",
        limits: Limits | None = None,
        rate_limits: RateLimits | None = None,
        invalid_requests: InvalidRequests | None = None,
        latency: Latency | None = None,
        sharding: Sharding | None = None,
        heartbeat_interval: float = 41.25,
        host: str = "127.0.0.1",
    ) -> None:
        self.host = host
        self.clock = Clock()
        self.limits = limits or Limits()
        self.world = World(token=token, bot_name=bot_name, limits=self.limits, clock=self.clock)
        self.delays = Delays(latency or Latency())
        self.gateway = Gateway(
            self.world,
            heartbeat_interval=heartbeat_interval,
            sharding=sharding or Sharding(),
            delays=self.delays,
        )
        self.rate_limiter = RateLimiter(rate_limits or RateLimits(), self.clock)
        self.guard = InvalidRequestGuard(invalid_requests or InvalidRequests(), self.clock)
        self.metrics = Metrics(self.clock)
        #: Errors a test asks for on a route's next requests.
        self.faults = Faults()
        self.world.observe(self.metrics.record_change)
        self.clock.on_advance(lambda: threads.archive_idle(self.world))
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def rate_limits(self) -> RateLimits:
        return self.rate_limiter.config

    @property
    def invalid_requests(self) -> InvalidRequests:
        return self.guard.config

    @property
    def latency(self) -> Latency:
        return self.delays.config

    @property
    def sharding(self) -> Sharding:
        return self.gateway.sharding

    @property
    def api_url(self) -> str:
        return f"{self.world.origin}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return self.gateway.url

    async def start(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, 0))
        self.port = listener.getsockname()[1]
        self.world.origin = f"http://{self.host}:{self.port}"
        self.gateway.url = f"ws://{self.host}:{self.port}{GATEWAY_PATH}"
        services = Services(
            gateway=self.gateway,
            limiter=self.rate_limiter,
            metrics=self.metrics,
            guard=self.guard,
            delays=self.delays,
            slowmode=Slowmode(self.world, self.clock),
            faults=self.faults,
        )
        app = build_app(self.world, services)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.SockSite(self._runner, listener).start()
        self._sweeper = asyncio.create_task(self._sweep_threads())

    async def _sweep_threads(self) -> None:
        """Archives idle threads as real time passes, so THREAD_UPDATE goes out on time
        even when no request comes in."""
        while True:
            await asyncio.sleep(ARCHIVE_SWEEP_SECONDS)
            threads.archive_idle(self.world)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    def patch_discord(self) -> contextlib.AbstractContextManager[None]:
        """Points discord.py's REST base and default gateway at this fake, then restores them."""
        return pointed_at(self.api_url, self.gateway_url)

    @contextlib.asynccontextmanager
    async def run_client(
        self, client: discord.Client, *, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Starts `client` against the fake, waits for on_ready, and closes it afterwards.

        Give the client a small `guild_ready_timeout` (e.g. 0.05): discord.py waits that
        long after the last GUILD_CREATE before it calls itself ready.
        """
        with self.patch_discord():
            running = asyncio.create_task(client.start(self.token))
            ready = asyncio.create_task(client.wait_until_ready())
            done, _ = await asyncio.wait(
                {running, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            try:
                if running in done:
                    running.result()
                    raise RuntimeError("the client stopped before it was ready")
                if ready not in done:
                    raise TimeoutError("the client did not become ready")
                yield client
            finally:
                ready.cancel()
                await client.close()
                await asyncio.gather(running, return_exceptions=True)

    def interaction_timings(self) -> list[InteractionTiming]:
        interactions = list(self.world.interactions.values())
        return interaction_timings(interactions, self.limits.first_response_seconds)

    def report(self) -> dict[str, Any]:
        """Requests and 429s by route, invalid requests, first-answer latencies, and how
        many deferred answers were filled by a follow-up (deprecated by Discord)."""
        interactions = self.world.interactions.values()
        deprecated = sum(1 for interaction in interactions if interaction.deferral_followed_up)
        return self.metrics.report(self.interaction_timings()) | {
            "deprecated_follow_ups": deprecated
        }
