from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.harness import Harness, running_harness


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str | None:
    """None for the SQLite store, else a PostgreSQL database: a test taking it runs on both."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return None


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path) as running:
        yield running
