"""What keeps the bot from using a PostgreSQL server at start, as one sentence.

A wrong ``DATABASE_URL``, a server that is down or not yet up, a database never created,
a schema from a newer bot: each stops ``python -m bot`` with one line naming the URL (its
password hidden) and what to check (:class:`~data.errors.UnusableDatabaseError`), as a
SQLite file the bot cannot use does, instead of a traceback from inside asyncpg.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from data.errors import SchemaError, UnusableDatabaseError

_REACH = (
    "check the host and port in DATABASE_URL, and that PostgreSQL is running and accepts"
    " connections from this machine"
)
_LOGIN = "check the user name and password in DATABASE_URL"
_CREATE = "create it (createdb), or correct the database name in DATABASE_URL"
_SCHEMA = "update the bot if the database was used by a newer one, else restore a backup"


def shown_url(url: str) -> str:
    """The URL as it may be logged, without its password.

    >>> shown_url("postgresql://bot:s3cret@db.internal:5432/mahjong")
    'postgresql://bot:***@db.internal:5432/mahjong'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{user.partition(':')[0]}:***@{host}"))


@asynccontextmanager
async def server_problems(url: str) -> AsyncIterator[None]:
    """Connecting to the server at ``url`` and bringing its schema up to date: what goes
    wrong comes out as UnusableDatabaseError."""
    shown = shown_url(url)
    try:
        yield
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise UnusableDatabaseError(shown, f"refused the bot's login ({exc})", _LOGIN) from exc
    except asyncpg.InvalidCatalogNameError as exc:
        raise UnusableDatabaseError(shown, f"does not exist ({exc})", _CREATE) from exc
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
        raise UnusableDatabaseError(
            shown, f"cannot be reached ({_unreached(exc)})", _REACH
        ) from exc


def _unreached(error: Exception) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, socket.gaierror):
        return "no such host"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    return str(error) or type(error).__name__
