"""Fixtures: a running fake, a guild with people, a connected test bot, a raw REST client
and a raw gateway socket."""

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import Driver, Person
from fakediscord.models import Guild
from tests.fakediscord.table_bot import TableBot


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


TIMEOUT = 5


class Socket:
    """The gateway spoken by hand."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket

    async def receive(self) -> dict[str, Any]:
        message = await self.socket.receive(timeout=TIMEOUT)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        return json.loads(message.data)

    async def receive_event(self, name: str) -> dict[str, Any]:
        """The next dispatch called `name`, skipping others."""
        while (frame := await self.receive())["t"] != name:
            pass
        return frame

    async def send(self, op: int, data: Any) -> None:
        await self.socket.send_str(json.dumps({"op": op, "d": data}))

    async def identify(
        self, token: str, intents: int, shard: list[int] | None = None
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"token": token, "intents": intents, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await self.send(2, data)
        ready = await self.receive()
        assert ready["t"] == "READY"
        return ready

    async def close_code(self) -> int:
        """The code the fake closed this socket with."""
        message = await self.socket.receive(timeout=TIMEOUT)
        assert message.type is aiohttp.WSMsgType.CLOSE, message
        return int(message.data)


@contextlib.asynccontextmanager
async def gateway_socket(fake: FakeDiscord) -> AsyncIterator[Socket]:
    """A connection to the fake's gateway, past HELLO."""
    async with aiohttp.ClientSession() as session:
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with session.ws_connect(url) as connection:
            opened = Socket(connection)
            hello = await opened.receive()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            yield opened


@pytest.fixture
async def socket(fake: FakeDiscord) -> AsyncIterator[Socket]:
    async with gateway_socket(fake) as opened:
        yield opened
