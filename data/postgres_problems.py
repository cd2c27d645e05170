"""What keeps the bot from using a PostgreSQL server at start, as one sentence.

A wrong ``DATABASE_URL`` (a password with ``/`` in it as it is, a port that is not one),
a server that is down or not yet up, a database never created, one the bot's user may not
create tables in, a schema from a newer bot: each stops ``python -m bot`` with one line
naming the URL (its password hidden) and what to check
(:class:`~data.errors.UnusableDatabaseError`), as a SQLite file the bot cannot use does,
instead of a traceback from inside asyncpg.
"""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs, unquote, urlsplit

import asyncpg

from data.errors import SchemaError, UnusableDatabaseError

_REACH = (
    "check the host and port in DATABASE_URL, and that PostgreSQL is running and accepts"
    " connections from this machine"
)
_LOGIN = (
    "check the user name and password in DATABASE_URL, the password's special characters"
    " percent-encoded (% as %25, / as %2F)"
)
_CREATE = "create it (createdb), or correct the database name in DATABASE_URL"
_SCHEMA = "update the bot if the database was used by a newer one, else restore a backup"
_ENCODE = (
    "percent-encode the special characters of the password in DATABASE_URL"
    " (/ as %2F, ? as %3F, # as %23, @ as %40, % as %25)"
)
_PORT = "correct the port in DATABASE_URL (PostgreSQL's own is 5432)"
_SHAPE = "write it as postgresql://user:password@host:5432/database"

# A password given as an option: postgresql://bot@db/mahjong?password=…
_QUERY_PASSWORD = re.compile(r"(?i)([?&]password=)[^&#]*")
# user:password@ where the password holds a /, ? or # as it is: URL parsers end the
# host part at that character, and take the rest of the password for the host, the
# port or the database. Unless what follows the colon up to it is a port number: then
# the @ later on is most likely in a database name or an option.
_RAW_PASSWORD = re.compile(r"[^:/?#@]*:(?!\d+[/?#])[^@]*[/?#][^@]*@")


class UnreachableDatabaseError(UnusableDatabaseError):
    """The server could not be reached (down, not yet up, too busy): unlike the other
    problems, starting again later may work."""


def shown_url(url: str) -> str:
    """The URL as it may be logged, without its password: all of it, even when it holds
    a /, ?, # or @ as it is (the host part then looks shorter to a URL parser).

    >>> shown_url("postgresql://bot:s3cret@db.internal:5432/mahjong")
    'postgresql://bot:***@db.internal:5432/mahjong'
    >>> shown_url("postgresql://bot:k3J/9x?Z#q@W@db.internal/mahjong")
    'postgresql://bot:***@db.internal/mahjong'
    >>> shown_url("postgresql://bot@db.internal/mahjong?password=s3cret&sslmode=require")
    'postgresql://bot@db.internal/mahjong?password=***&sslmode=require'
    """
    span = _password_span(url)
    if span is not None:
        url = f"{url[: span[0]]}***{url[span[1] :]}"
    return _QUERY_PASSWORD.sub(r"\1***", url)


def url_password(url: str) -> str | None:
    """The password in the URL's user part, as written, for the log to hide it.

    >>> url_password("postgresql://bot:k3J/9x@db.internal/mahjong")
    'k3J/9x'
    """
    span = _password_span(url)
    return None if span is None else url[span[0] : span[1]]


def _password_span(url: str) -> tuple[int, int] | None:
    """Where the password of the user part lies in the URL: from the user's colon to the
    host part's last @. When that part has no @ but a colon, the password may hold a /,
    ? or # as it is: then it runs to the URL's last @ (if the colon was a port's and the
    @ an option's, a shown URL only looks shorter)."""
    scheme, separator, rest = url.partition("://")
    hosts = _hosts_part(rest)
    end = len(hosts) if "@" in hosts else len(rest) if ":" in hosts else 0
    at = rest.rfind("@", 0, end)
    colon = rest.find(":", 0, max(at, 0))
    if colon < 0:
        return None
    offset = len(scheme) + len(separator)
    return offset + colon + 1, offset + at


def _hosts_part(rest: str) -> str:
    """What a URL parser takes for the user, password, hosts and ports: up to the first
    /, ? or #."""
    return re.split(r"[/?#]", rest, maxsplit=1)[0]


def url_problem(url: str) -> tuple[str, str] | None:
    """What is wrong with the shape of a ``postgresql://`` URL, as (problem, advice), or
    None. The drivers would fail on these with a traceback that shows part of the
    password, or take part of it for the host.

    >>> url_problem("postgresql://bot:s3cret@db.internal:5432/mahjong") is None
    True
    >>> url_problem("postgresql://bot:k3J/9x@db.internal/mahjong")[0]
    'has a /, ? or # in its password as it is'
    >>> url_problem("postgresql://bot@db.internal:99999/mahjong")[0]
    "has the port '99999', not a number from 1 to 65535"
    """
    rest = url.partition("://")[2]
    hosts_part = _hosts_part(rest)
    if hosts_part.count("@") > 1:
        return "has an @ in its user name or password as it is", _ENCODE
    if "@" not in hosts_part and _RAW_PASSWORD.match(rest):
        return "has a /, ? or # in its password as it is", _ENCODE
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"is not a URL ({exc})", _SHAPE
    for host in parts.netloc.rpartition("@")[2].split(","):
        # As asyncpg reads them: [v6 address]:port, else host:port.
        if host.startswith("["):
            port = host.partition("]")[2].removeprefix(":")
        else:
            port = host.partition(":")[2]
        port = unquote(port)
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            return f"has the port {port!r}, not a number from 1 to 65535", _PORT
    if parts.query:
        try:
            parse_qs(parts.query, strict_parsing=True)
        except ValueError:
            return (
                "has malformed options after its ?",
                "write them as name=value joined by &, or percent-encode a ? or # in the password",
            )
    return None


@asynccontextmanager
async def server_problems(url: str) -> AsyncIterator[None]:
    """Connecting to the server at ``url`` and bringing its schema up to date: what goes
    wrong comes out as UnusableDatabaseError."""
    shown = shown_url(url)
    problem = url_problem(url)
    if problem is not None:
        raise UnusableDatabaseError(shown, *problem)
    try:
        yield
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise UnusableDatabaseError(shown, f"refused the bot's login ({exc})", _LOGIN) from exc
    except asyncpg.InvalidCatalogNameError as exc:
        raise UnusableDatabaseError(shown, f"does not exist ({exc})", _CREATE) from exc
    except asyncpg.InsufficientPrivilegeError as exc:
        # PostgreSQL 15 and later let only the database's owner create tables in schema
        # public, where the bot's tables go.
        raise UnusableDatabaseError(
            shown, f"does not let the bot create or use its tables ({exc})", _owner_advice(url)
        ) from exc
    except SchemaError as exc:
        raise UnusableDatabaseError(
            shown, f"cannot be brought up to date ({exc})", _SCHEMA
        ) from exc
    except (
        OSError,
        asyncpg.InterfaceError,
        asyncpg.CannotConnectNowError,
        asyncpg.TooManyConnectionsError,
    ) as exc:
        raise UnreachableDatabaseError(
            shown, f"cannot be reached ({_unreached(exc)})", _REACH
        ) from exc


def _owner_advice(url: str) -> str:
    parts = urlsplit(url)
    user = unquote(parts.username or "") or "USER"
    database = unquote(parts.path.lstrip("/")) or "DATABASE"
    return (
        f"make {user} the database's owner (ALTER DATABASE {database} OWNER TO {user}, or"
        f" createdb --owner {user} {database}): PostgreSQL 15 and later let only the owner"
        " create tables in schema public"
    )


def _unreached(error: Exception) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, socket.gaierror):
        return "no such host"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    return str(error) or type(error).__name__
