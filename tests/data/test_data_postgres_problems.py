"""A PostgreSQL server the bot cannot use stops it with one sentence naming the URL, its
password hidden, and what to check: down, unknown, a database never created, a user it
does not know, a database it may not create tables in, a URL whose password or port is
malformed (a schema from a newer bot: test_data_migrations_postgres.py)."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit, urlunsplit

import asyncpg
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


@pytest.mark.parametrize(
    ("credentials", "problem"),
    [
        ("bot:k3J/9xQvT+z8mW2a", "has a /, ? or # in its password as it is"),
        ("bot:Xy?Zq9mW2a", "has a /, ? or # in its password as it is"),
        ("bot:Xy#Zq9mW2a", "has a /, ? or # in its password as it is"),
        ("bot:s3cret@z8mW2a", "has an @ in its user name or password as it is"),
    ],
)
async def test_a_password_with_special_characters_not_encoded(
    credentials: str, problem: str
) -> None:
    """The driver would take part of such a password for the host, the port or an
    option, and show that part in its error."""
    url = f"postgresql://{credentials}@127.0.0.1:{closed_port()}/mahjong"
    text = await refused(url)
    assert "postgresql://bot:***@127.0.0.1:" in text and problem in text
    assert "percent-encode" in text and "DATABASE_URL" in text
    assert "mW2a" not in text


@pytest.mark.parametrize("port", ["notaport", "99999", "0"])
async def test_a_port_that_is_not_one(port: str) -> None:
    text = await refused(f"postgresql://bot:s3cret@127.0.0.1:{port}/mahjong")
    assert f"has the port '{port}', not a number from 1 to 65535" in text
    assert "s3cret" not in text


async def test_a_database_the_bot_may_not_create_tables_in(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    """PostgreSQL 15 and later let only a database's owner create tables in schema
    public: a database made by another user (createdb without --owner) refuses the
    bot's. Revoked here by hand, so that older servers refuse it too."""
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        await admin.execute("DROP ROLE IF EXISTS guest_bot")
        await admin.execute("CREATE ROLE guest_bot LOGIN PASSWORD 'guest-s3cret'")
    finally:
        await admin.close()
    parts = urlsplit(postgres_url)
    host = parts.netloc.rpartition("@")[2]
    guest = urlunsplit(parts._replace(netloc=f"guest_bot:guest-s3cret@{host}"))
    try:
        text = await refused(guest)
    finally:
        admin = await asyncpg.connect(postgres_server.url)
        try:
            await admin.execute("DROP ROLE guest_bot")
        finally:
            await admin.close()
    assert "does not let the bot create or use its tables (permission denied for schema" in text
    database = parts.path.lstrip("/")
    assert f"(ALTER DATABASE {database} OWNER TO guest_bot, or createdb --owner" in text
    assert "guest-s3cret" not in text
