"""A local fake Discord for tests, the offline demo and the load benchmark.

The real, unmodified discord.py client talks to it over HTTP and a websocket:

    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club", locale="zh-CN")
        people = Driver(fake)
        alice = people.join(guild, "alice", locale="zh-CN")
        client = MyBot(intents=..., guild_ready_timeout=0.05)
        async with fake.run_client(client):
            handle = await alice.run("/table create variant:mcr rounds:4")
            lobby = await alice.next_message()
            await alice.click(lobby, label="Join")
            prompt = await alice.next_prompt()
        print(fake.report())

`fake.world` builds the scene and holds every object for inspection; `fake.limits`,
`fake.rate_limits`, `fake.invalid_requests`, `fake.latency` and `fake.sharding` are live
settings; `fake.clock.advance(s)` jumps past deadlines and thread auto-archive times.
"""

from fakediscord.config import InvalidRequests, Latency, Limits, RateLimits, RouteLimit, Sharding
from fakediscord.driver import Driver, DriverError, DriverTimeout, InteractionHandle, Person
from fakediscord.server import FakeDiscord

__all__ = [
    "Driver",
    "DriverError",
    "DriverTimeout",
    "FakeDiscord",
    "InteractionHandle",
    "InvalidRequests",
    "Latency",
    "Limits",
    "Person",
    "RateLimits",
    "RouteLimit",
    "Sharding",
]
