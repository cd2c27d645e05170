"""Shared test settings, the PostgreSQL server of the tests that run on both backends, and
a running fake Discord."""

from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

from fakediscord import FakeDiscord, RateLimits
from tests.postgres import PostgresServer, server_for_tests

# CI runs on 2 cores: keep property tests deterministic and bounded.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """Started on first use, so a run of SQLite-only tests starts no server."""
    with server_for_tests() as server:
        yield server


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A new empty database of the test's own."""
    url = await postgres_server.create_database()
    yield url
    await postgres_server.drop_database(url)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    # Real buckets, squeezed 100 times so a test never waits long for a window to reset.
    async with FakeDiscord(rate_limits=RateLimits(time_scale=0.01)) as server:
        yield server
