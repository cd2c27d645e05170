"""One process of a cluster against a fake Discord of another process, for the tests.

Run as: python -m tests.bot.cluster_member API_URL GATEWAY_URL TOKEN DATABASE_URL SHARDS
SHARD_COUNT. It takes its shards' locks, starts the bot (AI seats move after
``AI_DELAY`` seconds), prints "ready" once the bot is, and runs until SIGTERM (a clean
stop) or SIGKILL.
"""

from __future__ import annotations

import asyncio
import itertools
import signal
import sys
from pathlib import Path

from bot.launcher import take_shards
from bot.pacing import Pacing
from bot.settings import Settings
from bot.shards import parse_shards
from data.postgres import PostgresStore
from fakediscord.server import pointed_at
from tests.bot.harness import QuickBot

AI_DELAY = 0.15


async def run(
    api_url: str, gateway_url: str, token: str, url: str, shards: str, count: str
) -> None:
    settings = Settings(
        token=token,
        database=Path("unused.sqlite3"),
        dev_guild_id=None,
        log_level="WARNING",
        turn_timer=20,
        claim_timer=10,
        database_url=url,
        shard_ids=parse_shards(shards),
        shard_count=int(count),
    )
    cluster = await take_shards(settings)
    store = await PostgresStore.open(url)
    pacing = Pacing(ai_delay=AI_DELAY, table_edit_interval=0.05, between_hands=0.05)
    bot = QuickBot(settings, store, pacing=pacing, guild_ready_timeout=0.05, cluster=cluster)
    seeds = itertools.count()
    bot.tables.seeds = lambda: f"cluster-seed-{shards}-{next(seeds)}"
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    try:
        with pointed_at(api_url, gateway_url):
            async with bot:
                running = asyncio.create_task(bot.start(token))
                await bot.wait_until_ready()
                await bot.tile_emoji.ready()
                print("ready", flush=True)
                await stop.wait()
                await bot.close()
                await asyncio.gather(running, return_exceptions=True)
    finally:
        await store.close()
        await cluster.close()


if __name__ == "__main__":
    asyncio.run(run(*sys.argv[1:7]))
