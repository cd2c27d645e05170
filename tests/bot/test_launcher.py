"""The launcher against the fake Discord: it opens the store, logs in and registers the
commands (localized) in the development server; what stops it at start says why in one
line, and exits with status 2 when the operator must change something (a refused token,
a database it cannot use), 1 when a later start may work (Discord not reachable)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
from collections.abc import Callable
from pathlib import Path

import asyncpg
import discord
import pytest

from bot.forwarding import ClusterMember
from bot.launcher import ShardsLost, _start_fenced, run, secrets_of, serve
from bot.redaction import SecretFilter
from bot.settings import MUST_CHANGE, TRY_AGAIN, Settings
from data.postgres_locks import shard_lock
from data.postgres_migrate import load_migrations
from data.postgres_shards import ShardLocks, shard_channel
from data.sqlite import SqliteStore
from fakediscord import FakeDiscord
from fakediscord.server import pointed_at
from tests.bot_process import run_bot


def settings_for(fake: FakeDiscord, path: Path, guild_id: int, token: str) -> Settings:
    return Settings(
        token=token,
        database=path,
        dev_guild_id=guild_id,
        log_level="WARNING",
        turn_timer=20,
        claim_timer=10,
    )


async def serve_until_registered(settings: Settings, fake: FakeDiscord, where: int | None) -> None:
    """Run the bot until its commands are registered at ``where`` (None: globally)."""
    with fake.patch_discord():
        task = asyncio.create_task(serve(settings))
        for _ in range(200):
            if fake.world.commands.get(where):
                break
            await asyncio.sleep(0.02)
        # The global commands are cleared right after a development server's are set.
        await asyncio.sleep(0.2)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_serve_registers_localized_commands(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        database = tmp_path / "bot.sqlite3"
        await serve_until_registered(
            settings_for(fake, database, guild.id, fake.token), fake, guild.id
        )
        commands = {c["name"]: c for c in fake.world.commands[guild.id]}
        assert {"table", "hand", "fan", "leaderboard", "stats", "history", "replay"} <= set(
            commands
        )
        assert {"cards", "admin", "settings", "rules"} <= set(commands)
        assert commands["table"]["name_localizations"]["zh-CN"] == "牌桌"
        assert commands["settings"]["name_localizations"]["zh-TW"] == "設定"
        assert database.exists()


async def serve_until(settings: Settings, fake: FakeDiscord, done: Callable[[], bool]) -> None:
    """Run the bot until ``done()``."""
    with fake.patch_discord():
        task = asyncio.create_task(serve(settings))
        for _ in range(500):
            if done():
                break
            await asyncio.sleep(0.02)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert done()


async def test_a_development_server_leaves_the_other_servers_their_commands(
    tmp_path: Path,
) -> None:
    """Setting DEV_GUILD_ID on a bot that is in other servers takes nothing from them."""
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        fake.world.create_guild("Another club")
        database = tmp_path / "bot.sqlite3"
        everywhere = dataclasses.replace(
            settings_for(fake, database, guild.id, fake.token), dev_guild_id=None
        )
        await serve_until_registered(everywhere, fake, None)
        global_commands = fake.world.commands[None]
        assert global_commands
        await serve_until_registered(
            settings_for(fake, database, guild.id, fake.token), fake, guild.id
        )
        assert fake.world.commands[guild.id]
        assert fake.world.commands[None] == global_commands


async def test_a_development_server_loses_its_copies_once_the_setting_is_cleared(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord keeps a server's own commands until told otherwise: once DEV_GUILD_ID is
    left empty, the test server's copies go, or it would list every command twice."""
    caplog.set_level(logging.INFO, "bot.client")
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        database = tmp_path / "bot.sqlite3"
        testing = settings_for(fake, database, guild.id, fake.token)
        await serve_until_registered(testing, fake, guild.id)
        assert fake.world.commands[guild.id]
        done_testing = dataclasses.replace(testing, dev_guild_id=None)
        await serve_until(
            done_testing,
            fake,
            lambda: bool(fake.world.commands.get(None)) and not fake.world.commands[guild.id],
        )
    assert f"left in the server {guild.id}" in caplog.text
    # Only the servers given a copy are asked at a later start: none now.
    store = await SqliteStore.open(database)
    try:
        assert await store.test_command_guilds() == []
    finally:
        await store.close()


@pytest.mark.parametrize("where", ["a server the bot left", "no server at all"])
async def test_a_development_server_the_bot_is_not_in_stops_it_with_one_sentence(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        if where == "a server the bot left":
            del guild.members[fake.world.bot.id]
            guild_id = guild.id
        else:
            guild_id = guild.id + 12345
        settings = settings_for(fake, tmp_path / "bot.sqlite3", guild_id, fake.token)
        with fake.patch_discord():
            status = await asyncio.to_thread(run, settings)
    assert status == MUST_CHANGE
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.exc_info is None
    assert record.getMessage().startswith(f"DEV_GUILD_ID={guild_id} is not a server the bot")
    assert "Copy Server ID" in record.getMessage()


@pytest.mark.parametrize(
    ("host", "reason"),
    [("127.0.0.1:{port}", "connection refused"), ("no-such-host.invalid", "no such host")],
)
async def test_discord_out_of_reach_stops_the_bot_with_one_sentence(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, host: str, reason: str
) -> None:
    """No network, no DNS, a firewall: one line, and a status that asks to start again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        host = host.format(port=probe.getsockname()[1])
    settings = Settings(
        token="unreachable-test-token",
        database=tmp_path / "bot.sqlite3",
        dev_guild_id=None,
        log_level="WARNING",
        turn_timer=20,
        claim_timer=10,
    )
    with pointed_at(f"http://{host}/api/v10", f"ws://{host}/"):
        status = await asyncio.to_thread(run, settings)
    assert status == TRY_AGAIN
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.exc_info is None
    message = record.getMessage()
    assert message.startswith(f"cannot reach Discord at {host}")
    assert f"({reason}" in message and "firewall" in message


async def test_the_log_says_when_the_bot_is_ready_and_nothing_of_voice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    # discord.py warns once a process, as its first client is made.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        fake.world.create_guild("Another club")
        settings = settings_for(fake, tmp_path / "bot.sqlite3", guild.id, fake.token)
        await serve_until(settings, fake, lambda: "ready: logged in" in caplog.text)
        bot = fake.world.bot
    assert (
        f"ready: logged in as {bot.name} (id {bot.id}) in 2 servers, shards 0 of 1" in caplog.text
    )
    assert "voice will NOT be supported" not in caplog.text


async def test_refused_token_exits_with_status_two(tmp_path: Path) -> None:
    """A token Discord refuses stays refused: the launcher must not start it again."""
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        settings = settings_for(fake, tmp_path / "bot.sqlite3", guild.id, "wrong-token")
        with fake.patch_discord():
            status = await asyncio.to_thread(run, settings)
        assert status == MUST_CHANGE


def test_an_unusable_database_stops_the_bot_with_one_sentence(tmp_path: Path) -> None:
    database = tmp_path / "broken.sqlite3"
    database.write_bytes(b"not a database at all " * 100)
    done = run_bot(tmp_path, DISCORD_TOKEN="unused", DATABASE_PATH=str(database))
    assert done.returncode == MUST_CHANGE
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert str(database) in line and "backup" in line


def test_a_postgresql_server_that_cannot_be_reached_stops_the_bot_with_one_sentence(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://bot:s3cret@127.0.0.1:{port}/mahjong"
    done = run_bot(tmp_path, DISCORD_TOKEN="unused-token", DATABASE_URL=url)
    # The server may be up at the next start.
    assert done.returncode == TRY_AGAIN
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"postgresql://bot:***@127.0.0.1:{port}/mahjong cannot be reached" in line
    assert "s3cret" not in line


async def serving(settings: Settings, fake: FakeDiscord, guild_id: int) -> asyncio.Task[None]:
    """The bot serving, once its commands are registered in the server."""
    task = asyncio.create_task(serve(settings))
    for _ in range(200):
        if fake.world.commands.get(guild_id):
            break
        await asyncio.sleep(0.02)
    return task


async def test_database_url_puts_the_store_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        sqlite_file = tmp_path / "bot.sqlite3"
        settings = dataclasses.replace(
            settings_for(fake, sqlite_file, guild.id, fake.token), database_url=postgres_url
        )
        with fake.patch_discord():
            task = await serving(settings, fake, guild.id)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        assert fake.world.commands.get(guild.id)
    assert not sqlite_file.exists()
    db = await asyncpg.connect(postgres_url)
    try:
        assert await db.fetchval("SELECT max(version) FROM schema_version") == len(
            load_migrations()
        )
    finally:
        await db.close()


async def test_a_cluster_process_stops_when_its_shard_locks_are_lost(
    tmp_path: Path, postgres_url: str
) -> None:
    """Another process may serve the shards once their locks are gone: this one stops
    at once, to be started again by its launcher."""
    async with FakeDiscord() as fake:
        guild = fake.world.create_guild("Club")
        settings = dataclasses.replace(
            settings_for(fake, tmp_path / "bot.sqlite3", guild.id, fake.token),
            database_url=postgres_url,
            shard_ids=(0,),
            shard_count=1,
        )
        admin = await asyncpg.connect(postgres_url)
        try:
            with fake.patch_discord():
                task = await serving(settings, fake, guild.id)
                assert fake.world.commands.get(guild.id), "the bot is up"
                # The shard's lock session ends (a network cut, a restarted server).
                ended = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_locks"
                    " WHERE locktype = 'advisory' AND objsubid = 2 AND objid = $1"
                    " AND database = (SELECT oid FROM pg_database"
                    " WHERE datname = current_database())",
                    shard_lock(0)[1],
                )
                assert ended == 1
                with pytest.raises(ShardsLost):
                    await asyncio.wait_for(task, 10)
        finally:
            await admin.close()


class _ListeningBot:
    """What a fenced bot's start does on the shards' session: LISTEN on it (the bot's
    setup_hook, bot/forwarding.py), here once the session was cut."""

    def __init__(self, locks: ShardLocks) -> None:
        self.locks = locks
        self.closed = False

    async def start(self, token: str) -> None:
        await self.locks.listen(shard_channel(0), lambda payload: None)

    async def close(self) -> None:
        self.closed = True


async def test_a_start_that_fails_on_a_cut_session_is_the_shards_loss(postgres_url: str) -> None:
    """The session may be cut while the bot starts, its LISTEN failing before the
    session's end is told (its termination listener not yet run): the process stops as
    for any loss of its shards, not with the database driver's error."""
    locks = await ShardLocks.connect(postgres_url)
    try:
        await locks.take([0])
        # Cut, and not told yet: the listener that would tell it is not called.
        locks._connection.remove_termination_listener(locks._terminated)
        locks._connection.terminate()
        bot = _ListeningBot(locks)
        with pytest.raises(ShardsLost):
            await _start_fenced(bot, ClusterMember(locks, 1), "token")  # type: ignore[arg-type]
        assert bot.closed and not locks.lost
    finally:
        await locks.close()


def test_the_log_never_shows_the_database_password(tmp_path: Path) -> None:
    """Nor the token; the password as written in DATABASE_URL, and as it is meant."""
    settings = Settings(
        token="the-token",
        database=tmp_path / "bot.sqlite3",
        dev_guild_id=None,
        log_level="INFO",
        turn_timer=20,
        claim_timer=10,
        database_url="postgresql://bot:k3J%2F9xQvT@db.internal/mahjong",
    )
    line = SecretFilter(secrets_of(settings)).redact("the-token, k3J%2F9xQvT and k3J/9xQvT refused")
    assert line == "<redacted>, <redacted> and <redacted> refused"
