"""The bot's HTTP/1.1 client for Discord's API routes, under discord.py.

discord.py sends every API request, interaction answers included, through
``session.request(method, url, ...)`` of its aiohttp session, and keeps its own rate
limits, retries and errors above that call. :class:`DiscordSession` takes that session's
place: API requests go out here, each written whole in one write on a kept-alive
connection and its answer read in a few reads, while the gateway's websocket and CDN
downloads still go through aiohttp. A request through aiohttp's client costs the bot's
thread two to three times as much (its request and response objects, its multipart
writer's many small writes, its signals), and requests are a large part of a move's CPU
(docs/scaling.md, "What it costs").

It answers what discord.py reads of a response (``status``, ``reason``, ``headers``,
``text()``) and raises aiohttp's own connection errors, so discord.py and the bot see
what they saw before. Requests toward Discord's global limit each wait for the bot's
budget as they leave (:mod:`bot.budget`), discord.py's retries included.
"""

from __future__ import annotations

import asyncio
import io
import secrets
import ssl
import time
import zlib
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
import discord
from aiohttp.client_reqrep import ConnectionKey

from bot.budget import RequestBudget, counts_toward_global_limit

#: Seconds an idle connection is kept for the next request: aiohttp's own default, well
#: under what servers keep an idle connection open, so a server seldom closes one just
#: as a request goes out on it.
KEEPALIVE = 15.0
#: Seconds to open a connection, and for a whole exchange once it is open: aiohttp's
#: defaults for discord.py's session.
CONNECT_TIMEOUT = 30.0
EXCHANGE_TIMEOUT = 300.0
#: Seconds before trying the next of a name's addresses while one is slow to connect
#: (RFC 8305), as aiohttp does.
HAPPY_EYEBALLS_DELAY = 0.25
#: The longest head of an answer read (status line and headers).
HEAD_LIMIT = 64 * 1024

#: Methods whose request may go out again on a new connection when a kept-alive one
#: turns out to be closed before any answer came: sent twice they do what they did once.
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"})


class Headers(Mapping[str, str]):
    """An answer's headers, looked up in any case as HTTP wants (discord.py asks for
    ``content-type`` and ``X-Ratelimit-Remaining``). A header sent more than once keeps
    its values joined by commas, as HTTP allows for all the headers Discord sends."""

    __slots__ = ("_items",)

    def __init__(self, items: dict[str, tuple[str, str]]) -> None:
        #: lower-case name → (name as sent, value)
        self._items = items

    def __getitem__(self, name: str) -> str:
        return self._items[name.lower()][1]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._items

    def __iter__(self) -> Iterator[str]:
        return (sent for sent, _ in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Headers({dict(self.items())!r})"


class Response:
    """An answer read whole: what discord.py reads of aiohttp's ``ClientResponse``."""

    __slots__ = ("_body", "headers", "method", "reason", "status", "url")

    def __init__(
        self,
        method: str,
        url: str,
        status: int,
        reason: str,
        headers: Headers,
        body: bytes,
    ) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self._body = body

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        return self._body.decode(encoding, errors)

    def __repr__(self) -> str:
        return f"<Response {self.method} {self.url} {self.status} {self.reason}>"


class _Connection:
    __slots__ = ("idle_since", "reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0

    def usable(self, now: float) -> bool:
        return (
            not self.reader.at_eof()
            and not self.writer.transport.is_closing()
            and now - self.idle_since < KEEPALIVE
        )

    def close(self) -> None:
        self.writer.close()


class _Exchange:
    """What ``session.request(...)`` returns: entered, it sends the request and reads
    its answer whole (so leaving it has nothing to release)."""

    __slots__ = ("_args", "_session")

    def __init__(self, session: DiscordSession, args: tuple[Any, ...]) -> None:
        self._session = session
        self._args = args

    async def __aenter__(self) -> Response:
        return await self._session._send(*self._args)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


Origin = tuple[str, str, int]


class DiscordSession:
    """Stands for discord.py's aiohttp session: API requests are sent here, the rest
    (the gateway's websocket, CDN downloads) by ``session``."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        budget: RequestBudget | None,
        *,
        ssl_context: ssl.SSLContext | None = None,
        user_agent: str | None = None,
    ) -> None:
        """``user_agent`` goes with every request that names none: discord.py names
        itself on its own routes but not on interactions' and webhooks', and Discord asks
        every request of a bot for one."""
        self._session = session
        self._budget = budget
        self._user_agent = user_agent
        self._idle: dict[Origin, list[_Connection]] = {}
        #: Made when first needed; by default it trusts what the system trusts.
        self._ssl = ssl_context
        self._closed = False
        #: Connections opened, and requests sent again after a kept-alive connection
        #: turned out closed: tests and the load benchmark read these.
        self.opened = 0
        self.resent = 0

    # What discord.py uses of its session besides ``request``.

    @property
    def closed(self) -> bool:
        return self._closed

    def ws_connect(self, url: str, **kwargs: Any) -> Any:
        return self._session.ws_connect(url, **kwargs)

    def get(self, url: str, **kwargs: Any) -> Any:
        return self._session.get(url, **kwargs)

    async def close(self) -> None:
        self._closed = True
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()
        await self._session.close()

    def request(
        self,
        method: str,
        url: str,
        *,
        data: Any = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        proxy: str | None = None,
        proxy_auth: Any = None,
    ) -> _Exchange:
        if proxy is not None or proxy_auth is not None:
            raise ValueError("the bot's Discord client sends no request through a proxy")
        return _Exchange(self, (method, url, data, headers or {}, params))

    async def _send(
        self,
        method: str,
        url: str,
        data: Any,
        headers: Mapping[str, str],
        params: Mapping[str, Any] | None,
    ) -> Response:
        if self._closed:
            raise aiohttp.ClientConnectionError("the session is closed")
        parts = urlsplit(url)
        scheme = parts.scheme
        host = parts.hostname or ""
        port = parts.port or (443 if scheme == "https" else 80)
        target = parts.path or "/"
        query = parts.query
        if params:
            query = f"{query}&{urlencode(params)}" if query else urlencode(params)
        if query:
            target = f"{target}?{query}"
        content_type, body = _body(data)
        default_port = 443 if scheme == "https" else 80
        host_header = host if port == default_port else f"{host}:{port}"
        if self._user_agent is not None and not any(
            name.lower() == "user-agent" for name in headers
        ):
            headers = {"User-Agent": self._user_agent, **headers}
        request = _request_bytes(method, target, host_header, headers, content_type, body)
        if self._budget is not None and counts_toward_global_limit(parts.path):
            await self._budget.admit()
        origin = (scheme, host, port)
        async with asyncio.timeout(EXCHANGE_TIMEOUT):
            connection, reused = await self._connection(origin)
            try:
                return await self._exchange(connection, origin, method, url, request)
            except _ClosedBeforeAnswer as closed:
                if not reused or method not in IDEMPOTENT:
                    raise aiohttp.ServerDisconnectedError() from closed.__cause__
            # A kept-alive connection the server had closed: the request never reached
            # it, so it goes once more on a new one.
            self.resent += 1
            connection, _ = await self._connection(origin, fresh=True)
            try:
                return await self._exchange(connection, origin, method, url, request)
            except _ClosedBeforeAnswer as closed:
                raise aiohttp.ServerDisconnectedError() from closed.__cause__

    async def _connection(self, origin: Origin, fresh: bool = False) -> tuple[_Connection, bool]:
        if not fresh:
            idle = self._idle.get(origin)
            now = time.monotonic()
            while idle:
                connection = idle.pop()
                if connection.usable(now):
                    return connection, True
                connection.close()
        scheme, host, port = origin
        context: ssl.SSLContext | None
        if scheme == "https":
            if self._ssl is None:
                self._ssl = ssl.create_default_context()
            context = self._ssl
        else:
            context = None
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                reader, writer = await asyncio.open_connection(
                    host,
                    port,
                    ssl=context,
                    limit=HEAD_LIMIT,
                    happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY,
                )
        except OSError as exc:
            key = ConnectionKey(
                host, port, context is not None, context or True, None, None, None, None
            )
            raise aiohttp.ClientConnectorError(key, exc) from exc
        self.opened += 1
        return _Connection(reader, writer), False

    async def _exchange(
        self, connection: _Connection, origin: Origin, method: str, url: str, request: bytes
    ) -> Response:
        reader = connection.reader
        try:
            connection.writer.write(request)
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as exc:
                connection.close()
                if not exc.partial:
                    raise _ClosedBeforeAnswer() from exc
                raise aiohttp.ServerDisconnectedError() from exc
            except ConnectionResetError as exc:
                connection.close()
                raise _ClosedBeforeAnswer() from exc
            status, reason, response_headers, keep = _head(head)
            while 100 <= status < 200:
                # An informational answer (103 Early Hints): the real one follows.
                head = await reader.readuntil(b"\r\n\r\n")
                status, reason, response_headers, keep = _head(head)
            body, keep = await _read_body(reader, method, status, response_headers, keep)
        except ConnectionError as exc:
            connection.close()
            raise aiohttp.ClientOSError(exc.errno, str(exc)) from exc
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            connection.close()
            raise aiohttp.ClientPayloadError(f"a malformed answer from {url}: {exc}") from exc
        except BaseException:
            # Cancelled or timed out mid-answer: what is left of it would be read as the
            # next request's answer.
            connection.close()
            raise
        if keep and not self._closed:
            now = time.monotonic()
            idle = self._idle.setdefault(origin, [])
            # The pool is used last in, first out: those at the bottom have waited
            # longest, and go once past their time rather than wait to be drawn.
            while idle and now - idle[0].idle_since >= KEEPALIVE:
                idle.pop(0).close()
            connection.idle_since = now
            idle.append(connection)
        else:
            connection.close()
        return Response(method, url, status, reason, response_headers, body)


class _ClosedBeforeAnswer(Exception):
    """The connection closed before a single byte of the answer came."""


class Body:
    """A request's body written beforehand, with its content type: what the bot's own
    requests send (:mod:`bot.picture_messages`), through discord.py or not."""

    __slots__ = ("content_type", "data")

    def __init__(self, content_type: str, data: bytes) -> None:
        self.content_type = content_type
        self.data = data


def _body(data: Any) -> tuple[str | None, bytes]:
    """The content type (when the body brings its own) and the bytes of ``data``: what
    discord.py sends, a JSON text or an aiohttp ``FormData``, or a :class:`Body`."""
    if data is None:
        return None, b""
    if isinstance(data, Body):
        return data.content_type, data.data
    if isinstance(data, str):
        return None, data.encode()
    if isinstance(data, bytes | bytearray | memoryview):
        return None, bytes(data)
    if isinstance(data, aiohttp.FormData):
        return _form(data)
    raise TypeError(f"the bot's Discord client cannot send a {type(data).__name__}")


def _form(form: aiohttp.FormData) -> tuple[str, bytes]:
    """A form as discord.py builds it (its fields read from ``FormData._fields``, which
    aiohttp has kept the same since its 2.x: tests/bot/test_discord_http.py checks it),
    written as one multipart body."""
    fields: list[tuple[Any, Mapping[str, str], Any]] = form._fields
    if not form.is_multipart:
        return "application/x-www-form-urlencoded", urlencode(
            [(options["name"], value) for options, _, value in fields]
        ).encode()
    boundary = secrets.token_hex(16)
    parts: list[bytes] = []
    for options, field_headers, value in fields:
        disposition = f'form-data; name="{_quoted(options["name"])}"'
        if "filename" in options:
            disposition += f'; filename="{_quoted(options["filename"])}"'
        head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
        for name, field_value in field_headers.items():
            head += f"{name}: {_header_value(field_value)}\r\n"
        if not field_headers:
            # What aiohttp says of a field without a type, so Discord reads the same.
            head += f"Content-Type: {_default_type(value)}\r\n"
        parts.append(head.encode() + b"\r\n")
        parts.append(_field_bytes(value))
        parts.append(b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)


def _default_type(value: Any) -> str:
    return "text/plain; charset=utf-8" if isinstance(value, str) else "application/octet-stream"


def _field_bytes(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, io.IOBase):
        # discord.py's files: it has put each at the start of what is to be sent.
        read = value.read()
        return read.encode() if isinstance(read, str) else bytes(read)
    raise TypeError(f"a form field of type {type(value).__name__}")


def _quoted(text: str) -> str:
    return _header_value(text).replace("\\", "\\\\").replace('"', '\\"')


def _header_value(value: str) -> str:
    if "\r" in value or "\n" in value:
        raise ValueError(f"a header value with a line break: {value!r}")
    return value


def _request_bytes(
    method: str,
    target: str,
    host: str,
    headers: Mapping[str, str],
    content_type: str | None,
    body: bytes,
) -> bytes:
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", "Accept-Encoding: identity"]
    for name, value in headers.items():
        if content_type is not None and name.lower() == "content-type":
            continue
        lines.append(f"{name}: {_header_value(value)}")
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    if body or method not in ("GET", "HEAD"):
        # Discord wants a length even of an empty body (a reaction's PUT).
        lines.append(f"Content-Length: {len(body)}")
    lines.append("\r\n")
    return "\r\n".join(lines).encode() + body


def _head(head: bytes) -> tuple[int, str, Headers, bool]:
    """The status, reason and headers of an answer's head, and whether its connection
    may carry another request once the body is read."""
    lines = head[:-4].decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or len(code) != 3 or not code.isdigit():
        raise ValueError(f"not an HTTP/1 status line: {lines[0]!r}")
    items: dict[str, tuple[str, str]] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise ValueError(f"a malformed header line: {line!r}")
        key = name.lower()
        value = value.strip()
        if key in items:
            value = f"{items[key][1]}, {value}"
        items[key] = (name, value)
    headers = Headers(items)
    connection = headers.get("Connection", "").lower()
    keep = version == "HTTP/1.1" and "close" not in connection
    return int(code), reason, headers, keep


async def _read_body(
    reader: asyncio.StreamReader,
    method: str,
    status: int,
    headers: Headers,
    keep: bool,
) -> tuple[bytes, bool]:
    if method == "HEAD" or status in (204, 304):
        return b"", keep
    if "chunked" in headers.get("Transfer-Encoding", "").lower():
        body = await _read_chunks(reader)
    elif (length := headers.get("Content-Length")) is not None:
        if not length.isdigit():
            raise ValueError(f"a Content-Length of {length!r}")
        body = await reader.readexactly(int(length))
    else:
        # Neither length nor chunks: the body runs to the connection's end.
        return _decoded(await reader.read(), headers), False
    return _decoded(body, headers), keep


async def _read_chunks(reader: asyncio.StreamReader) -> bytes:
    chunks: list[bytes] = []
    while True:
        line = await reader.readuntil(b"\r\n")
        size = int(line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            # Trailers, if any, end with an empty line.
            while await reader.readuntil(b"\r\n") != b"\r\n":
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(size))
        if await reader.readexactly(2) != b"\r\n":
            raise ValueError("a chunk not followed by its line break")


def _decoded(body: bytes, headers: Headers) -> bytes:
    """The body as sent before any content coding: the bot asks for none, but a server
    may still compress."""
    coding = headers.get("Content-Encoding", "identity").lower()
    if coding == "gzip":
        return zlib.decompress(body, 16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return zlib.decompress(body)
    if coding != "identity":
        raise ValueError(f"an answer in {coding!r}")
    return body


#: Where discord.py keeps its session (a private, name-mangled attribute, which the
#: library's own webhook and interaction code reads the same way).
_SESSION_ATTRIBUTE = "_HTTPClient__session"


def session_of(http: discord.http.HTTPClient) -> DiscordSession:
    """The bot's client in ``http``, once :func:`install` put it there."""
    session = getattr(http, _SESSION_ATTRIBUTE, None)
    if not isinstance(session, DiscordSession):
        raise RuntimeError("the bot's Discord client is not installed (bot.discord_http.install)")
    return session


def install(http: discord.http.HTTPClient, budget: RequestBudget | None) -> DiscordSession:
    """Puts a :class:`DiscordSession` in the place of ``http``'s aiohttp session, once
    discord.py has opened it (at login): the interactions received from then on answer
    through it too."""
    session = getattr(http, _SESSION_ATTRIBUTE)
    if isinstance(session, DiscordSession):
        return session
    ours = DiscordSession(session, budget, user_agent=http.user_agent)
    setattr(http, _SESSION_ATTRIBUTE, ours)
    return ours
