"""Fixtures: a running fake, a guild with people, a connected test bot, a raw REST client."""

import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord, RateLimits
from fakediscord.driver import Driver, Person
from fakediscord.models import Guild
from tests.fakediscord.table_bot import TableBot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    # Real buckets, squeezed 100 times so a test never waits long for a window to reset.
    async with FakeDiscord(rate_limits=RateLimits(time_scale=0.01)) as server:
        yield server


@pytest.fixture
def guild(fake: FakeDiscord) -> Guild:
    return fake.world.create_guild("Mahjong Club", locale="zh-CN")


@pytest.fixture
def driver(fake: FakeDiscord) -> Driver:
    return Driver(fake)


@pytest.fixture
def alice(driver: Driver, guild: Guild) -> Person:
    return driver.join(guild, "alice", locale="zh-CN")


@pytest.fixture
def bob(driver: Driver, guild: Guild) -> Person:
    return driver.join(guild, "bob")


@pytest.fixture
async def bot(
    fake: FakeDiscord, guild: Guild, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[TableBot]:
    client = TableBot(guild.id)
    async with fake.run_client(client):
        yield client
    # discord.py logs and swallows exceptions raised in handlers; they are failures here.
    records = caplog.get_records("setup") + caplog.get_records("call")
    failures = [r for r in records if r.name.startswith("discord") and r.levelno >= logging.ERROR]
    assert not failures, failures[0].getMessage()


class Rest:
    """Raw REST calls with the bot's token, for checks discord.py would refuse to send."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(
        self, method: str, path: str, *, json: Any = None, data: Any = None, token: bool = True
    ) -> tuple[int, Any, dict[str, str]]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if token else {}
        async with self.session.request(
            method, self.fake.api_url + path, json=json, data=data, headers=headers
        ) as response:
            body = await response.json() if response.content_type == "application/json" else None
            return response.status, body, dict(response.headers)


@pytest.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(fake, session)
