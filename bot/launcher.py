"""Run the bot: logging, the store (opened and migrated), then the client until it stops."""

from __future__ import annotations

import asyncio
import logging
import logging.handlers

import discord

from bot.client import MahjongBot
from bot.redaction import SecretFilter
from bot.settings import Settings
from data.backend import describe, open_store
from data.errors import DatabaseFileError

log = logging.getLogger(__name__)


def setup_logging(level: str, token: str = "") -> None:
    handler = logging.StreamHandler()
    # On the handler, so that records of every logger are rewritten before they show.
    handler.addFilter(SecretFilter([token]))
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    # discord.py's HTTP debug lines drown everything else.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))


async def serve(settings: Settings) -> None:
    store = await open_store(settings.store_database)
    log.info("store ready at %s", describe(settings.store_database))
    try:
        async with MahjongBot(settings, store) as bot:
            await bot.start(settings.token)
    finally:
        await store.close()


def run(settings: Settings) -> int:
    """Start the bot and block until it stops; the process exit status."""
    setup_logging(settings.log_level, settings.token)
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in .env")
        return 1
    except DatabaseFileError as exc:
        # The sentence says which file and what to do; a traceback would only hide it.
        log.error("%s", exc)
        return 1
    except KeyboardInterrupt:
        log.info("stopped")
    return 0
