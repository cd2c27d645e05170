"""A PostgreSQL server the bot cannot use stops it with one sentence naming the URL, its
password hidden, and what to check: down, unknown, a database never created, a user it
does not know (a schema from a newer bot: test_data_migrations_postgres.py)."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit, urlunsplit

import pytest

from data import PostgresStore, UnusableDatabaseError
from data.postgres_shards import ShardLocks
from tests.postgres import PostgresServer


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def refused(url: str) -> str:
    with pytest.raises(UnusableDatabaseError) as caught:
        await PostgresStore.open(url)
    text = str(caught.value)
    assert text.startswith("The database postgresql://") and text.endswith(".")
    assert "\n" not in text
    return text


async def test_a_server_that_is_not_running() -> None:
    url = f"postgresql://bot:s3cret@127.0.0.1:{closed_port()}/mahjong"
    text = await refused(url)
    assert "cannot be reached (connection refused)" in text and "DATABASE_URL" in text
    assert "s3cret" not in text and "bot:***@127.0.0.1" in text


async def test_a_host_that_does_not_exist() -> None:
    assert "no such host" in await refused("postgresql://bot@no-such-host.invalid/mahjong")


async def test_a_database_never_created(postgres_server: PostgresServer) -> None:
    text = await refused(postgres_server.database_url("never_created"))
    assert "does not exist" in text and "createdb" in text


async def test_a_user_the_server_does_not_know(postgres_server: PostgresServer) -> None:
    parts = urlsplit(postgres_server.url)
    host = parts.netloc.rpartition("@")[2]
    stranger = parts._replace(netloc=f"nobody_here@{host}")
    text = await refused(urlunsplit(stranger))
    assert "refused the bot's login" in text and "user name and password" in text


async def test_a_cluster_process_names_the_server_it_cannot_reach() -> None:
    with pytest.raises(UnusableDatabaseError, match="cannot be reached"):
        await ShardLocks.connect(f"postgresql://bot@127.0.0.1:{closed_port()}/mahjong")
