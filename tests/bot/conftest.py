from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.harness import Harness, running_harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path) as running:
        yield running
