"""The bot's own HTTP client for Discord's API routes (bot/discord_http.py).

Against servers written here byte by byte (what HTTP/1.1 allows a server to answer:
lengths, chunks, closed connections, early hints, compression, nonsense), against
aiohttp's server over TLS, as Discord is reached, and with discord.py on top against the
fake Discord: its errors, its rate limits and its files as before.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import aiohttp
import discord
import pytest
import trustme
from aiohttp import web

from bot import discord_http
from bot.budget import RequestBudget
from bot.discord_http import DiscordSession
from fakediscord import FakeDiscord
from fakediscord.server import pointed_at

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class RawServer:
    """A server on 127.0.0.1 that runs ``handler`` on each connection it accepts."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.requests: list[bytes] = []
        self.url = ""
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> RawServer:
        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.connections += 1
            task = asyncio.current_task()
            assert task is not None
            self._handlers.add(task)
            try:
                await self.handler(reader, writer)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                writer.close()
                self._handlers.discard(task)

        self._server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    async def read_request(self, reader: asyncio.StreamReader) -> bytes | None:
        """One whole request (head and body by its length), or None at the end."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return None
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        request = head + await reader.readexactly(length)
        self.requests.append(request)
        return request


def answer(body: bytes = b'{"ok": true}', *headers: str, status: str = "200 OK") -> bytes:
    lines = [f"HTTP/1.1 {status}", "Content-Type: application/json", *headers]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def each_request(reply: bytes | Callable[[bytes], bytes]) -> Callable[[RawServer], Handler]:
    """A handler answering every request of a connection with ``reply``."""

    def handler(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while (request := await server.read_request(reader)) is not None:
                writer.write(reply(request) if callable(reply) else reply)
                await writer.drain()

        return serve

    return handler


@asynccontextmanager
async def serving(make: Callable[[RawServer], Handler]) -> AsyncIterator[RawServer]:
    server = RawServer(lambda r, w: asyncio.sleep(0))
    server.handler = make(server)
    async with server:
        yield server


@asynccontextmanager
async def session(
    budget: RequestBudget | None = None, **kwargs: object
) -> AsyncIterator[DiscordSession]:
    ours = DiscordSession(aiohttp.ClientSession(), budget, **kwargs)  # type: ignore[arg-type]
    try:
        yield ours
    finally:
        await ours.close()


async def fetch(ours: DiscordSession, method: str, url: str, **kwargs: object) -> tuple[int, str]:
    async with ours.request(method, url, **kwargs) as response:  # type: ignore[arg-type]
        return response.status, await response.text()


async def test_a_kept_alive_connection_carries_the_next_requests() -> None:
    async with serving(each_request(answer())) as server, session() as ours:
        for _ in range(3):
            assert await fetch(ours, "GET", server.url + "/api/v10/users/@me") == (
                200,
                '{"ok": true}',
            )
    assert server.connections == 1
    assert ours.opened == 1


async def test_what_a_request_says() -> None:
    async with serving(each_request(answer())) as server, session() as ours:
        await fetch(
            ours,
            "PUT",
            server.url + "/api/v10/channels/1/messages/2/reactions/x/@me",
            headers={"Authorization": "Bot token", "User-Agent": "DiscordBot"},
            params={"wait": 1},
        )
        await fetch(
            ours,
            "POST",
            server.url + "/api/v10/channels/1/messages",
            data='{"content": "和"}',
            headers={"Content-Type": "application/json"},
        )
    put, post = server.requests
    head, _, body = put.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "PUT /api/v10/channels/1/messages/2/reactions/x/@me?wait=1 HTTP/1.1"
    port = server.url.rsplit(":", 1)[1]
    assert f"Host: 127.0.0.1:{port}" in lines
    assert "Authorization: Bot token" in lines
    # Discord wants a length even of an empty body.
    assert "Content-Length: 0" in lines
    assert body == b""
    head, _, body = post.partition(b"\r\n\r\n")
    assert "Content-Type: application/json" in head.decode().split("\r\n")
    assert body == '{"content": "和"}'.encode()


async def test_a_header_with_a_line_break_is_refused_before_anything_is_sent() -> None:
    async with serving(each_request(answer())) as server, session() as ours:
        with pytest.raises(ValueError, match="line break"):
            await fetch(ours, "GET", server.url + "/x", headers={"X": "a\r\nEvil: 1"})
    assert server.requests == []


async def test_chunked_answers_with_extensions_and_trailers() -> None:
    body = b"5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: yes\r\n\r\n"
    reply = answer(body, "Transfer-Encoding: chunked")
    async with serving(each_request(reply)) as server, session() as ours:
        assert await fetch(ours, "GET", server.url + "/a") == (200, "hello world")
        assert await fetch(ours, "GET", server.url + "/b") == (200, "hello world")
    assert server.connections == 1


async def test_connection_close_and_answers_without_length_end_the_connection() -> None:
    def close_after_one(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if await server.read_request(reader) is None:
                return
            if server.connections == 1:
                writer.write(answer(b"first", "Connection: close"))
            else:
                # No length and no chunks: the body is all that comes before the end.
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end")
            await writer.drain()

        return serve

    async with serving(close_after_one) as server, session() as ours:
        assert await fetch(ours, "GET", server.url + "/a") == (200, "first")
        assert await fetch(ours, "GET", server.url + "/b") == (200, "to the end")
        assert await fetch(ours, "GET", server.url + "/c") == (200, "to the end")
    assert server.connections == 3


async def test_a_connection_the_server_closed_while_idle_is_not_used_again() -> None:
    def one_request_each(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if await server.read_request(reader) is not None:
                writer.write(answer())
                await writer.drain()

        return serve

    async with serving(one_request_each) as server, session() as ours:
        await fetch(ours, "POST", server.url + "/a")
        await asyncio.sleep(0.05)  # the server's end of the connection reaches the client
        assert await fetch(ours, "POST", server.url + "/b") == (200, '{"ok": true}')
    assert (ours.opened, ours.resent) == (2, 0)


def closes_on_the_second_request(server: RawServer) -> Handler:
    """Answers a connection's first request, then closes it on the next one unanswered,
    as a server whose idle time ran out just as the request came."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if await server.read_request(reader) is None:
            return
        writer.write(answer())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")

    return serve


async def test_an_edit_goes_again_on_a_new_connection_when_the_kept_one_was_closed() -> None:
    async with serving(closes_on_the_second_request) as server, session() as ours:
        await fetch(ours, "PATCH", server.url + "/a")
        assert await fetch(ours, "PATCH", server.url + "/b") == (200, '{"ok": true}')
    assert (ours.opened, ours.resent) == (2, 1)


async def test_a_new_message_is_not_sent_twice_when_the_kept_connection_was_closed() -> None:
    # The server may have taken a POST before closing: sent again it could post twice,
    # so discord.py gets the error aiohttp would raise.
    async with serving(closes_on_the_second_request) as server, session() as ours:
        await fetch(ours, "POST", server.url + "/a")
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await fetch(ours, "POST", server.url + "/b")
        assert ours.resent == 0
        # The next request opens a new connection.
        assert await fetch(ours, "POST", server.url + "/c") == (200, '{"ok": true}')


async def test_early_hints_come_before_the_answer() -> None:
    reply = b"HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" + answer(b"after", status="201 OK")
    async with serving(each_request(reply)) as server, session() as ours:
        assert await fetch(ours, "GET", server.url + "/a") == (201, "after")
        assert await fetch(ours, "GET", server.url + "/a") == (201, "after")
    assert server.connections == 1


async def test_a_compressed_answer_is_read_as_sent() -> None:
    reply = answer(gzip.compress(b'{"big": "answer"}'), "Content-Encoding: gzip")
    async with serving(each_request(reply)) as server, session() as ours:
        assert await fetch(ours, "GET", server.url + "/a") == (200, '{"big": "answer"}')
    (request,) = server.requests
    assert b"Accept-Encoding: identity" in request


@pytest.mark.parametrize(
    "reply",
    [
        b"SPDY/3 200 OK\r\n\r\n",
        b"HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 1\r\n\r\nx",
    ],
)
async def test_a_malformed_answer_is_an_error_and_its_connection_is_dropped(reply: bytes) -> None:
    async with serving(each_request(reply)) as server, session() as ours:
        with pytest.raises(aiohttp.ClientPayloadError):
            await fetch(ours, "GET", server.url + "/a")
        with pytest.raises(aiohttp.ClientPayloadError):
            await fetch(ours, "GET", server.url + "/a")
    assert server.connections == 2


def cut_off(reply: bytes) -> Callable[[RawServer], Handler]:
    """A handler that answers the first request with ``reply`` and closes."""

    def handler(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await server.read_request(reader)
            writer.write(reply)
            await writer.drain()

        return serve

    return handler


async def test_an_answer_cut_off_midway_is_an_error() -> None:
    async with serving(cut_off(b"HTTP/1.1 200 OK\r\nContent-Len")) as server, session() as ours:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await fetch(ours, "GET", server.url + "/a")
    short = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"
    async with serving(cut_off(short)) as server, session() as ours:
        with pytest.raises(aiohttp.ClientPayloadError):
            await fetch(ours, "GET", server.url + "/a")


async def test_a_server_that_never_answers_times_out_and_the_connection_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discord_http, "EXCHANGE_TIMEOUT", 0.2)

    def silent_once(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if server.connections == 1:
                await reader.read()
                return
            await each_request(answer())(server)(reader, writer)

        return serve

    async with serving(silent_once) as server, session() as ours:
        with pytest.raises(TimeoutError):
            await fetch(ours, "GET", server.url + "/a")
        # What the silent connection might still say is never read as the next answer.
        assert await fetch(ours, "GET", server.url + "/b") == (200, '{"ok": true}')
    assert server.connections == 2


async def test_a_request_cancelled_midway_leaves_its_connection_unused() -> None:
    started = asyncio.Event()

    def slow(server: RawServer) -> Handler:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while await server.read_request(reader) is not None:
                started.set()
                await asyncio.sleep(0.2)
                writer.write(answer(b"late"))
                await writer.drain()

        return serve

    async with serving(slow) as server, session() as ours:
        task = asyncio.create_task(fetch(ours, "GET", server.url + "/a"))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await fetch(ours, "GET", server.url + "/b") == (200, "late")
    assert server.connections == 2


async def test_a_refused_connection_is_aiohttps_connector_error() -> None:
    async with serving(each_request(answer())) as server:
        url = server.url
    async with session() as ours:
        with pytest.raises(aiohttp.ClientConnectorError):
            await fetch(ours, "GET", url + "/a")


async def test_requests_toward_the_global_limit_wait_for_the_budget() -> None:
    budget = RequestBudget(rate=1000)
    async with serving(each_request(answer())) as server, session(budget) as ours:
        await fetch(ours, "GET", server.url + "/api/v10/users/@me")
        await fetch(ours, "POST", server.url + "/api/v10/interactions/1/token/callback")
        await fetch(ours, "PATCH", server.url + "/api/v10/webhooks/1/token/messages/@original")
        await fetch(ours, "GET", server.url + "/attachments/1/2/table.png")
    assert budget.taken + budget.spent == 1


async def test_a_closed_session_sends_nothing() -> None:
    async with serving(each_request(answer())) as server:
        async with session() as ours:
            await fetch(ours, "GET", server.url + "/a")
        with pytest.raises(aiohttp.ClientConnectionError):
            await fetch(ours, "GET", server.url + "/a")
    assert ours.closed
    assert len(server.requests) == 1


async def test_forms_as_discord_py_builds_them_reach_a_server_whole() -> None:
    received: list[dict[str, tuple[str | None, str | None, bytes]]] = []

    async def handler(request: web.Request) -> web.Response:
        fields: dict[str, tuple[str | None, str | None, bytes]] = {}
        async for part in await request.multipart():
            assert isinstance(part, aiohttp.BodyPartReader)
            fields[part.name or ""] = (
                part.filename,
                part.headers.get("Content-Type"),
                bytes(await part.read()),
            )
        received.append(fields)
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_post("/api/v10/channels/1/messages", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    picture = bytes(range(256)) * 300
    try:
        async with session() as ours:
            # As discord.py's HTTPClient.request builds it from a message's files.
            params = discord.http.handle_message_parameters(
                content="和了", file=discord.File(io.BytesIO(picture), 'ta"ble.png')
            )
            with params:
                form = aiohttp.FormData(quote_fields=False)
                for field in params.multipart or []:
                    form.add_field(**field)
                async with ours.request(
                    "POST", f"http://127.0.0.1:{port}/api/v10/channels/1/messages", data=form
                ) as response:
                    assert response.status == 200
    finally:
        await runner.cleanup()
    (fields,) = received
    filename, content_type, data = fields["files[0]"]
    assert (filename, data) == ('ta"ble.png', picture)
    assert content_type == "application/octet-stream"
    _, json_type, json_data = fields["payload_json"]
    # As aiohttp types a text field, which Discord has always read.
    assert json_type == "text/plain; charset=utf-8"
    assert json.loads(json_data)["content"] == "和了"


def test_aiohttp_keeps_a_forms_fields_as_the_client_reads_them() -> None:
    # bot/discord_http.py reads FormData._fields: if aiohttp changes it, this fails first.
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", "{}", content_type="application/json")
    form.add_field("files[0]", io.BytesIO(b"png"), filename="t.png", content_type="image/png")
    (json_options, json_headers, json_value), (options, headers, value) = form._fields
    assert json_options["name"] == "payload_json" and json_value == "{}"
    assert dict(json_headers) == {"Content-Type": "application/json"}
    assert (options["name"], options["filename"]) == ("files[0]", "t.png")
    assert dict(headers) == {"Content-Type": "image/png"}
    assert value.read() == b"png"
    assert form.is_multipart


async def test_tls_as_discord_is_reached() -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("localhost")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(server_context)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    connections = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        tls = RawServer(lambda r, w: asyncio.sleep(0))
        while await tls.read_request(reader) is not None:
            writer.write(answer(b'{"tls": true}'))
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=server_context)
    port = server.sockets[0].getsockname()[1]
    try:
        async with session(ssl_context=client_context) as ours:
            for _ in range(2):
                assert await fetch(ours, "GET", f"https://localhost:{port}/api/v10/x") == (
                    200,
                    '{"tls": true}',
                )
        async with session() as strict:
            # Not a certificate the system trusts: refused, as it would be for Discord.
            with pytest.raises(aiohttp.ClientConnectorError):
                await fetch(strict, "GET", f"https://localhost:{port}/api/v10/x")
    finally:
        server.close()
        await server.wait_closed()
    # The refused handshake never became a connection to serve.
    assert connections == 1


async def test_discord_py_through_the_bots_client_against_the_fake() -> None:
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Tables")
        channel_id = guild.channel_ids[0]
        with pointed_at(fake.api_url, fake.gateway_url):
            client = discord.Client(intents=discord.Intents.none())
            await client.login(fake.token)
            ours = discord_http.install(client.http, None)
            assert discord_http.install(client.http, None) is ours
            try:
                channel = await client.fetch_channel(channel_id)
                assert isinstance(channel, discord.TextChannel)
                picture = b"\x89PNG" + bytes(5000)
                message = await channel.send(
                    "东风", file=discord.File(io.BytesIO(picture), "table.png")
                )
                stored = fake.world.messages[message.id]
                assert stored.content == "东风"
                assert [a.filename for a in stored.attachments] == ["table.png"]
                edited = await message.edit(content="南风", attachments=[])
                assert edited.content == "南风"
                with pytest.raises(discord.NotFound):
                    await channel.fetch_message(message.id + 12345)
                await message.delete()
                with pytest.raises(discord.NotFound):
                    await message.delete()
            finally:
                await client.close()
    assert ours.closed
    assert ours.opened == 1


async def test_idle_connections_past_their_time_are_closed_as_others_come_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with serving(each_request(answer())) as server, session() as ours:
        # Three requests at once: three connections, all kept idle afterwards.
        await asyncio.gather(*(fetch(ours, "GET", server.url + "/a") for _ in range(3)))
        assert ours.opened == 3
        monkeypatch.setattr(discord_http, "KEEPALIVE", 0.05)
        await asyncio.sleep(0.1)
        # Drawn, the newest is past its time too: a new one is opened, and coming back
        # it closes the two left waiting.
        await fetch(ours, "GET", server.url + "/b")
        assert ours.opened == 4
        (origin,) = ours._idle
        assert len(ours._idle[origin]) == 1


async def test_headers_are_found_in_any_case_and_repeated_ones_joined() -> None:
    reply = answer(b"{}", "X-RateLimit-Remaining: 4", "Vary: a", "vary: b")
    async with (
        serving(each_request(reply)) as server,
        session() as ours,
        ours.request("GET", server.url + "/a") as response,
    ):
        headers = response.headers
    assert headers["x-ratelimit-remaining"] == headers.get("X-Ratelimit-Remaining") == "4"
    assert "CONTENT-TYPE" in headers and 5 not in headers
    assert headers["Vary"] == "a, b"
    assert "X-RateLimit-Remaining" in list(headers)
    assert headers.get("Via") is None
