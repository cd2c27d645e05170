from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.picture_messages import PictureMessage
from bot.tables import board
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


@pytest.fixture
def board_edits_as_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table message's edits call the message's ``edit(content=...)``: for tests whose
    channel and message are stand-ins rather than Discord's."""

    async def edit(sent: Any, message: PictureMessage) -> None:
        await sent.edit(content=message.content)

    monkeypatch.setattr(board, "edit_in_channel", edit)
