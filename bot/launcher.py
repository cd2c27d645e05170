"""Run the bot: logging, the store (opened and migrated), then the client until it stops."""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import signal
import threading
from collections.abc import Iterable
from urllib.parse import unquote

import discord

from bot.client import DevGuildRefused, DiscordUnreachable, MahjongBot
from bot.forwarding import ClusterMember
from bot.redaction import SecretFilter
from bot.settings import MUST_CHANGE, TRY_AGAIN, Settings
from bot.shards import format_shards
from data.backend import describe, open_store
from data.errors import DatabaseInUseError, UnusableDatabaseError
from data.postgres_problems import UnreachableDatabaseError, url_password
from data.postgres_shards import ShardLocks

log = logging.getLogger(__name__)


#: A database password shorter than this is not hidden in the log: hiding it would
#: blank out common words and numbers in every line.
SHORTEST_HIDDEN_PASSWORD = 4


def setup_logging(level: str, secrets: Iterable[str] = ()) -> None:
    handler = logging.StreamHandler()
    # On the handler, so that records of every logger are rewritten before they show.
    handler.addFilter(SecretFilter(secrets))
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    # discord.py's HTTP debug lines drown everything else.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))


#: Seconds a starting process of a cluster waits for its shards' locks: a process that
#: died a moment ago holds them until the server notices its connection closed.
SHARD_LOCK_WAIT = 15.0


class ShardsLost(RuntimeError):
    """This process lost its shards' locks (the database session holding them ended), so
    another process may serve them now: it stops."""


class NoShards(RuntimeError):
    """Every shard this process was to run is served by another process."""


async def take_shards(settings: Settings, wait: float = SHARD_LOCK_WAIT) -> ClusterMember:
    """Take the locks of this process's shards (``SHARDS``); serve only those it gets."""
    assert settings.database_url is not None and settings.shard_ids is not None
    assert settings.shard_count is not None
    locks = await ShardLocks.connect(settings.database_url)
    held = await locks.take(settings.shard_ids, wait=wait)
    missing = sorted(set(settings.shard_ids) - set(held))
    if not held:
        await locks.close()
        raise NoShards(
            f"shards {format_shards(settings.shard_ids)} are all served by another process"
            " (their PostgreSQL locks are held): this process stops"
        )
    if missing:
        log.warning(
            "shards %s are served by another process; this one serves %s only",
            format_shards(missing),
            format_shards(held),
        )
    log.info("holding shards %s of %d", format_shards(held), settings.shard_count)
    return ClusterMember(locks, settings.shard_count)


async def serve(settings: Settings, *, shard_lock_wait: float = SHARD_LOCK_WAIT) -> None:
    cluster = await take_shards(settings, shard_lock_wait) if settings.fenced else None
    try:
        store = await open_store(settings.store_database)
        log.info("store ready at %s", describe(settings.store_database))
        try:
            async with MahjongBot(settings, store, cluster=cluster) as bot:
                if cluster is None:
                    await bot.start(settings.token)
                else:
                    await _start_fenced(bot, cluster, settings.token)
        finally:
            await store.close()
    finally:
        if cluster is not None:
            await cluster.close()


async def _start_fenced(bot: MahjongBot, cluster: ClusterMember, token: str) -> None:
    """Run the bot while its shards' locks hold; stop it at once when they are lost."""
    lost = asyncio.Event()
    cluster.locks.on_lost(lost.set)
    running = asyncio.create_task(bot.start(token))
    watching = asyncio.create_task(lost.wait())
    try:
        await asyncio.wait({running, watching}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watching.cancel()
    # A statement of the starting bot on the lost session (its LISTEN) may fail before
    # the session's end is told: that is the same loss.
    failed = running.done() and not running.cancelled() and running.exception() is not None
    if lost.is_set() or (failed and cluster.locks.ended):
        log.error("the database session holding shards %s ended: stopping", cluster.shard_ids)
        # Nothing more may be sent for these shards' tables: another process may now
        # serve them.
        running.cancel()
        await bot.close()
        raise ShardsLost("the shards' locks were lost")
    running.result()


def secrets_of(settings: Settings) -> list[str]:
    """What the log must never show: the token, and the database's password as written
    in DATABASE_URL and as the server reads it."""
    secrets = [settings.token]
    password = url_password(settings.database_url or "")
    if password is not None and len(password) >= SHORTEST_HIDDEN_PASSWORD:
        secrets += [password, unquote(password)]
    return secrets


def run(settings: Settings) -> int:
    """Start the bot and block until it stops; the process exit status: 0, TRY_AGAIN
    (the same start may work later) or MUST_CHANGE (it will not work until the operator
    changes something), with the one line that says why."""
    setup_logging(settings.log_level, secrets_of(settings))
    # SIGTERM (systemd, docker, the cluster launcher) stops the bot as Ctrl-C does: the
    # tables and the store close, and a cluster's shard locks are released.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in .env")
        return MUST_CHANGE
    except (DiscordUnreachable, UnreachableDatabaseError, DatabaseInUseError, NoShards) as exc:
        # The sentence says what and where; a traceback would only hide it. Each of these
        # may pass by itself: a network or server back, another copy of the bot stopped.
        log.error("%s", exc)
        return TRY_AGAIN
    except (UnusableDatabaseError, DevGuildRefused) as exc:
        log.error("%s", exc)
        return MUST_CHANGE
    except ShardsLost:
        return TRY_AGAIN
    except KeyboardInterrupt:
        log.info("stopped")
    return 0
