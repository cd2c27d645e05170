"""CPU of the bot's thread per Discord request, by how the request is sent.

    python -m benchmarks.requests [--requests N] [--rounds R] [--pause SECONDS]

Edits one channel message, as the bot edits a table message, N times per way of sending
and per body, against the fake Discord in a process of its own (so the CPU clock of the
sending thread counts the sender alone, the kernel's work for its socket included). The
bodies: the table picture of ``renderer.reference.late_game_table`` with a line of text
(multipart, as every picture of the bot is sent), and the text alone (JSON). The ways:

- discord.py's ``Message.edit``: what the bot calls, a ``Message`` built from the answer,
  sent through aiohttp as discord.py sends it;
- the bot's ``Message.edit``: the same through the bot's own HTTP client
  (:mod:`bot.discord_http`), as the bot sends it;
- discord.py's ``HTTPClient.edit_message``: the same request and rate-limit handling,
  the answer left as JSON;
- ``HTTPClient``, body built: the same through ``HTTPClient.request`` with the multipart
  body built beforehand as one ``bytes`` (discord.py's rate limits and errors kept);
- aiohttp alone: the same request with no discord.py, its multipart body built by
  aiohttp's ``FormData``;
- aiohttp, body built: the same with the body built beforehand as one ``bytes``;
- one write on a stream: the request written whole on a kept-alive connection and the
  answer read by its ``Content-Length``, the least any HTTP client can spend;
- nine writes on a stream: the same request in nine writes, as many as aiohttp makes of
  a request with a picture, to tell the writes' cost from the rest.

Beside each figure, the writes on the socket a request took (``transport.write`` calls,
each one system call on an idle connection): on a loopback connection the kernel's work
for the receiving end is charged to the sender too. Rounds alternate the ways, so a
machine whose speed drifts affects them alike; the figures are the rounds' median. What
the gaps are worth per move: the load benchmark's requests per move (about four: three
with a picture, and the deletion of the prompt a new one replaces) times the gap per
request.

Sent back to back, every request finds the code and data it needs in the processor's
caches. The bot's event loop meets each request some milliseconds after the one before
(in play at ten tables it is idle about nine tenths of the time), and on these machines
work that comes 20 ms after the same work costs several times as much, whether the
thread slept or kept busy meanwhile: ``--pause 0.02`` sleeps 20 ms after each request,
as the loop does between a table's moves, and prices each request alone. The load
benchmark's figures compare with these.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import multiprocessing
import statistics
import time
from asyncio import selector_events
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import aiohttp
import discord

from bot import discord_http
from fakediscord import FakeDiscord, RateLimits
from fakediscord.server import pointed_at
from renderer import render_table
from renderer.reference import late_game_table

#: Requests sent before a way's timing starts (connections opened, caches filled).
WARMUP = 10


@dataclass(frozen=True, slots=True)
class Target:
    """The fake's address and the message the requests edit."""

    api_url: str
    gateway_url: str
    token: str
    channel_id: int


def _serve_fake(conn: Connection) -> None:
    """The fake Discord's process: sends its Target, serves until told to stop."""

    async def serve() -> None:
        async with FakeDiscord(rate_limits=RateLimits(enabled=False)) as fake:
            guild = fake.world.create_guild("Benchmark")
            channel = fake.world.channels[guild.channel_ids[0]]
            conn.send(Target(fake.api_url, fake.gateway_url, fake.token, channel.id))
            await asyncio.to_thread(conn.recv)

    asyncio.run(serve())


def _payload(content: str, picture: bool) -> dict[str, object]:
    if not picture:
        return {"content": content}
    return {"content": content, "attachments": [{"id": 0, "filename": "table.png"}]}


class _Stream:
    """One kept-alive HTTP/1.1 connection: a request written whole, its answer read by
    its length."""

    def __init__(self, api_url: str, token: str) -> None:
        origin, _, self.prefix = api_url.partition("//")[2].partition("/")
        self.host, _, port = origin.partition(":")
        self.port = int(port)
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def patch(self, path: str, content_type: str, body: bytes, writes: int = 1) -> None:
        assert self.reader is not None and self.writer is not None
        head = (
            f"PATCH /{self.prefix}{path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bot {self.token}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        request = head + body
        step = -(-len(request) // writes)
        for start in range(0, len(request), step):
            self.writer.write(request[start : start + step])
        status = await self.reader.readline()
        if not status.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"the fake answered {status!r}")
        length = None
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise RuntimeError("an answer without Content-Length")
        await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


def _multipart(payload: dict[str, object], picture: bytes) -> tuple[str, bytes]:
    boundary = "benchmarkboundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n'
            f"Content-Type: application/json\r\n\r\n{json.dumps(payload)}\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; '
            f'filename="table.png"\r\nContent-Type: image/png\r\n\r\n'
        ).encode()
        + picture
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return f"multipart/form-data; boundary={boundary}", body


#: asyncio's transport of a socket on a selector loop: its ``write`` is where every byte
#: a client sends goes (private to asyncio: typeshed does not declare it).
_SOCKET_TRANSPORT: type[Any] = selector_events._SelectorSocketTransport  # type: ignore[attr-defined]


class _Writes:
    """Counts the socket writes of this process while installed."""

    def __init__(self) -> None:
        self.count = 0
        self._write = _SOCKET_TRANSPORT.write

    def __enter__(self) -> _Writes:
        write = self._write

        def counted(transport: Any, data: bytes) -> None:
            self.count += 1
            write(transport, data)

        _SOCKET_TRANSPORT.write = counted
        return self

    def __exit__(self, *exc: object) -> None:
        _SOCKET_TRANSPORT.write = self._write


#: A way of sending and a body ("picture" or "text").
Case = tuple[str, str]


@dataclass(slots=True)
class Figures:
    """By way and body: CPU ms a request, one per round, and socket writes a request;
    and the size of the picture sent."""

    picture_bytes: int
    cpu: defaultdict[Case, list[float]] = field(default_factory=lambda: defaultdict(list))
    writes: dict[Case, int] = field(default_factory=dict)


async def measure(target: Target, requests: int, rounds: int, pause: float = 0.0) -> Figures:
    """What each way of sending costs, with each body; with ``pause``, each request
    sent that many seconds after the one before, its CPU counted alone."""
    picture = render_table(late_game_table())
    figures = Figures(len(picture))
    with pointed_at(target.api_url, target.gateway_url):
        client = discord.Client(intents=discord.Intents.none())
        await client.login(target.token)
        bots = discord.Client(intents=discord.Intents.none())
        await bots.login(target.token)
        discord_http.install(bots.http, None)
        session = aiohttp.ClientSession()
        stream = _Stream(target.api_url, target.token)
        await stream.open()
        try:
            channel = await client.fetch_channel(target.channel_id)
            assert isinstance(channel, discord.TextChannel)
            message = await channel.send("start")
            bots_channel = await bots.fetch_channel(target.channel_id)
            assert isinstance(bots_channel, discord.TextChannel)
            bots_message = await bots_channel.fetch_message(message.id)
            path = f"/channels/{channel.id}/messages/{message.id}"
            headers = {"Authorization": f"Bot {target.token}"}

            def file() -> discord.File:
                return discord.File(io.BytesIO(picture), "table.png")

            async def edit(i: int, with_picture: bool) -> None:
                if with_picture:
                    await message.edit(content=f"move {i}", attachments=[file()])
                else:
                    await message.edit(content=f"move {i}")

            async def bots_edit(i: int, with_picture: bool) -> None:
                if with_picture:
                    await bots_message.edit(content=f"move {i}", attachments=[file()])
                else:
                    await bots_message.edit(content=f"move {i}")

            async def http(i: int, with_picture: bool) -> None:
                content = f"move {i}"
                params = (
                    discord.http.handle_message_parameters(content=content, attachments=[file()])
                    if with_picture
                    else discord.http.handle_message_parameters(content=content)
                )
                with params:
                    await client.http.edit_message(channel.id, message.id, params=params)

            async def http_built(i: int, with_picture: bool) -> None:
                content_type, data = body(i, with_picture)
                route = discord.http.Route(
                    "PATCH",
                    "/channels/{channel_id}/messages/{message_id}",
                    channel_id=channel.id,
                    message_id=message.id,
                )
                payload = aiohttp.payload.BytesPayload(data, content_type=content_type)
                await client.http.request(route, data=payload)

            async def bare(i: int, with_picture: bool) -> None:
                payload = _payload(f"move {i}", with_picture)
                url = target.api_url + path
                if not with_picture:
                    async with session.patch(url, json=payload, headers=headers) as answer:
                        await answer.read()
                    return
                form = aiohttp.FormData()
                form.add_field("payload_json", json.dumps(payload), content_type="application/json")
                form.add_field("files[0]", picture, filename="table.png", content_type="image/png")
                async with session.patch(url, data=form, headers=headers) as answer:
                    await answer.read()

            def body(i: int, with_picture: bool) -> tuple[str, bytes]:
                payload = _payload(f"move {i}", with_picture)
                if with_picture:
                    return _multipart(payload, picture)
                return "application/json", json.dumps(payload).encode()

            async def built(i: int, with_picture: bool) -> None:
                content_type, data = body(i, with_picture)
                typed = headers | {"Content-Type": content_type}
                async with session.patch(target.api_url + path, data=data, headers=typed) as answer:
                    await answer.read()

            async def raw(i: int, with_picture: bool) -> None:
                await stream.patch(path, *body(i, with_picture))

            async def raw_nine(i: int, with_picture: bool) -> None:
                await stream.patch(path, *body(i, with_picture), writes=9)

            ways: dict[str, Callable[[int, bool], Awaitable[None]]] = {
                "discord.py Message.edit": edit,
                "the bot's Message.edit": bots_edit,
                "discord.py HTTPClient": http,
                "HTTPClient, body built": http_built,
                "aiohttp alone": bare,
                "aiohttp, body built": built,
                "one write on a stream": raw,
                "nine writes on a stream": raw_nine,
            }
            for _ in range(rounds):
                for with_picture in (True, False):
                    for name, send in ways.items():
                        for i in range(WARMUP):
                            await send(i, with_picture)
                        key = (name, "picture" if with_picture else "text")
                        spent = 0.0
                        for i in range(requests):
                            start = time.thread_time()
                            await send(i, with_picture)
                            spent += time.thread_time() - start
                            if pause:
                                await asyncio.sleep(pause)
                        figures.cpu[key].append(spent * 1000 / requests)
                        with _Writes() as writes:
                            await send(0, with_picture)
                        figures.writes[key] = writes.count
        finally:
            await stream.close()
            await session.close()
            await bots.close()
            await client.close()
    return figures


def render(figures: Figures) -> str:
    """A line per way: the median CPU ms a request and the writes a request, by body."""
    head = f"picture ({figures.picture_bytes / 1024:.0f} KB) and text"
    lines = [f"{'CPU ms a request, writes':24} {head:>28} {'text':>18}"]
    for name in dict.fromkeys(name for name, _ in figures.cpu):
        cells = []
        for body in ("picture", "text"):
            key = (name, body)
            cells.append(
                f"{statistics.median(figures.cpu[key]):.3f} ms, {figures.writes[key]} writes"
            )
        lines.append(f"{name:24} {cells[0]:>28} {cells[1]:>18}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.requests", description=__doc__)
    parser.add_argument("--requests", type=int, default=300, help="requests per way and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds the sender sleeps after each request, as the bot's loop does in play",
    )
    args = parser.parse_args(argv)
    ours, theirs = multiprocessing.Pipe()
    fake = multiprocessing.get_context("spawn").Process(target=_serve_fake, args=(theirs,))
    fake.start()
    try:
        if not ours.poll(60):
            raise RuntimeError("the fake Discord did not start")
        figures = asyncio.run(measure(ours.recv(), args.requests, args.rounds, args.pause))
    finally:
        ours.send(None)
        fake.join(10)
    print(render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
