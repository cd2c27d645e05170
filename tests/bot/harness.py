"""The real bot against the fake Discord, and simulated players who act on what they see."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot import answers
from bot.client import MahjongBot
from bot.demo import SimulatedPlayer
from bot.launcher import take_shards
from bot.pacing import Pacing
from bot.runtime.snapshots import SeatState
from bot.runtime.table import TableRuntime
from bot.settings import Settings
from bot.tables.handmail import Rendered
from bot.tables.playing import PlayingTable
from bot.tables.presenter import TablePresenter
from bot.tile_emoji import emoji_name
from data.postgres import PostgresStore
from data.sql_store import SqlStore
from data.sqlite import SqliteStore
from engine.tiles import NUM_KINDS
from fakediscord import FakeDiscord, RateLimits
from fakediscord.driver import Driver as FakeDriver
from fakediscord.driver import Person
from fakediscord.emojis import AppEmoji
from fakediscord.models import Guild, Message
from renderer.hand import render_tile_emoji


class QuickBot(MahjongBot):
    """The bot, identifying its shards one right after the other (discord.py waits five
    seconds between them, as Discord asks of a real bot)."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


FAST = Pacing(ai_delay=0.0, table_edit_interval=0.05, between_hands=0.05, vote_seconds=2.0)
TIMEOUT = 20.0


@dataclass
class Harness:
    fake: FakeDiscord
    driver: FakeDriver
    guild: Guild
    store: SqlStore
    path: Path
    pacing: Pacing = FAST
    #: The PostgreSQL database the store is on, or None for the SQLite file at ``path``.
    database_url: str | None = None
    bot: MahjongBot | None = None
    #: The processes of a cluster (:meth:`start_member`), each with its own store.
    members: list[MahjongBot] = field(default_factory=list)
    shown: list[tuple[int | None, SeatState]] = field(default_factory=list)
    #: Fixed seeds make every hand of a test the same on every run.
    seeds: Iterator[int] = field(default_factory=itertools.count)
    #: Picture processes of the bots started (0: pictures drawn in threads, quicker to
    #: start for a test's one hand).
    picture_processes: int = 0
    _stack: contextlib.AsyncExitStack | None = None

    def settings(self, **changes: Any) -> Settings:
        values: dict[str, Any] = {
            "token": self.fake.token,
            "database": self.path,
            "database_url": self.database_url,
            "dev_guild_id": self.guild.id,
            "log_level": "WARNING",
            "turn_timer": 20,
            "claim_timer": 10,
            "picture_processes": self.picture_processes,
        }
        return Settings(**(values | changes))

    async def start_bot(self) -> MahjongBot:
        bot = QuickBot(self.settings(), self.store, pacing=self.pacing, guild_ready_timeout=0.05)
        bot.tables.seeds = lambda: f"test-seed-{next(self.seeds)}"
        self._stack = contextlib.AsyncExitStack()
        await self._stack.enter_async_context(self.fake.run_client(bot))
        self.bot = bot
        # The application's tile emojis are listed at every start; wait for them, so a
        # test's requests are its own.
        await bot.tile_emoji.ready()
        return bot

    async def stop_bot(self) -> None:
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = None
        self.bot = None
        self.members.clear()

    async def start_member(self, shards: tuple[int, ...], shard_count: int) -> MahjongBot:
        """One process of a cluster, running ``shards`` under their locks, with a store
        of its own on the harness's PostgreSQL database (as a process of its own has)."""
        assert self.database_url is not None, "a cluster needs PostgreSQL"
        settings = self.settings(shard_ids=shards, shard_count=shard_count)
        if self._stack is None:
            self._stack = contextlib.AsyncExitStack()
        cluster = await take_shards(settings, wait=0)
        self._stack.push_async_callback(cluster.close)
        store = await PostgresStore.open(self.database_url)
        self._stack.push_async_callback(store.close)
        bot = QuickBot(
            settings, store, pacing=self.pacing, guild_ready_timeout=0.05, cluster=cluster
        )
        bot.tables.seeds = lambda: f"test-seed-{next(self.seeds)}"
        await self._stack.enter_async_context(self.fake.run_client(bot))
        await bot.tile_emoji.ready()
        self.members.append(bot)
        return bot

    @property
    def owner(self) -> Person:
        return self.driver.people.get(self.guild.owner_id) or self.driver.person(
            self.fake.world.users[self.guild.owner_id], self.guild
        )

    def join(self, name: str, locale: str = "en-US") -> Person:
        return self.driver.join(self.guild, name, locale=locale)

    def live(self, message: Message | int) -> Message:
        return self.fake.world.messages[message if isinstance(message, int) else message.id]

    def deadlines(self, monkeypatch: pytest.MonkeyPatch, *, discord: float, bot: float) -> None:
        """Discord's first-answer deadline as the fake keeps it, and the bot's wait before
        it acknowledges an interaction (``bot.answers.ANSWER_WAIT``), for tests of work
        slower than one or both."""
        monkeypatch.setattr(answers, "ANSWER_WAIT", bot)
        self.fake.limits.first_response_seconds = discord

    def playing(self) -> PlayingTable:
        assert self.bot is not None
        (table,) = self.bot.tables.running.values()
        return table

    def running(self) -> TableRuntime:
        """The runtime of the one table in play."""
        return self.playing().runtime

    def pace_ai(self, seconds: float) -> TableRuntime:
        """AI seats and auto-play of the table in play take ``seconds`` a move: slow
        enough that a hand on auto-play is still on when a person clicks back, however
        busy the machine."""
        runtime = self.running()
        runtime.tempo = replace(runtime.tempo, ai_delay=seconds)
        return runtime

    async def open_table(
        self, creator: Person, variant: str, *players: Person, **options: Any
    ) -> Message:
        """``/table create``, the others join by button; returns the lobby message."""
        handle = await creator.run("/table create", variant=variant, **options)
        thinking = (await handle.response()).message
        assert thinking is not None
        # The command's answer replaces "thinking…" once the lobby is up.
        await creator.next_edit(thinking, timeout=TIMEOUT)
        lobby = await creator.next_message(where=lambda m: "table #" in m.content, timeout=TIMEOUT)
        for player in players:
            joined = await player.click(lobby, label="Join")
            await joined.response()
        return lobby

    async def start_table(
        self, creator: Person, variant: str, *players: Person, **options: Any
    ) -> Message:
        """:meth:`open_table`, then the creator presses Start; returns the lobby message."""
        lobby = await self.open_table(creator, variant, *players, **options)
        started = await creator.click(lobby, label="Start")
        await started.response()
        return lobby

    async def options_panel(self, host: Person, lobby: Message) -> Message:
        """The host presses the lobby's Options; returns the private panel it answers with."""
        opened = await host.click(lobby, label="Options")
        panel = (await opened.response()).message
        assert panel is not None and panel.ephemeral_for == host.id
        return panel

    async def until_settled(self, person: Person, count: int = 1) -> list[Message]:
        """The next ``count`` settlement posts ``person`` sees in the thread."""
        posts = []
        for _ in range(count):
            posts.append(
                await person.next_message(
                    where=lambda m: any(a.filename == "settlement.png" for a in m.attachments),
                    timeout=TIMEOUT * 3,
                )
            )
        return posts


@contextlib.asynccontextmanager
async def running_harness(
    tmp_path: Path,
    pacing: Pacing = FAST,
    *,
    database_url: str | None = None,
    start: bool = True,
    **fake_options: Any,
) -> AsyncIterator[Harness]:
    """The bot on the fake Discord, its store on a SQLite file in ``tmp_path`` or, given
    ``database_url``, on that PostgreSQL database; with ``start`` false, no bot yet (a
    test of a cluster starts its members)."""
    rate_limits = fake_options.pop("rate_limits", RateLimits(time_scale=0.01))
    # Seconds the store waits for another process's lock before a write fails.
    lock_timeout = fake_options.pop("lock_timeout", 5.0)
    async with FakeDiscord(rate_limits=rate_limits, **fake_options) as fake:
        guild = await club(fake)
        # The bot uploaded its tile emojis once, long before (tests/bot/test_tile_emoji.py
        # starts without them).
        for kind in range(NUM_KINDS):
            emoji = AppEmoji(fake.world.ids.next(), emoji_name(kind), tile_emoji_png(kind))
            fake.world.app_emojis[emoji.id] = emoji
        driver = FakeDriver(fake)
        path = tmp_path / "bot.sqlite3"
        store: SqlStore
        if database_url is None:
            store = await SqliteStore.open(path, synchronous="NORMAL", busy_timeout=lock_timeout)
        else:
            store = await PostgresStore.open(database_url, lock_timeout=lock_timeout)
        harness = Harness(fake, driver, guild, store, path, pacing, database_url=database_url)
        original = TablePresenter.render

        async def spy(self: TablePresenter, state: SeatState) -> Rendered:
            person = self.people.get(state.chair)
            harness.shown.append((person.user_id if person else None, state))
            return await original(self, state)

        TablePresenter.render = spy  # type: ignore[method-assign]
        try:
            if start:
                await harness.start_bot()
            yield harness
            late = [t for t in fake.interaction_timings() if not t.in_time]
            assert not late, f"interactions answered after Discord's deadline: {late}"
            # Discord completes a deferred answer by an edit; a follow-up there is kept
            # only for backwards compatibility.
            assert fake.report()["deprecated_follow_ups"] == 0
        finally:
            TablePresenter.render = original  # type: ignore[method-assign]
            await harness.stop_bot()
            await store.close()


async def club(fake: FakeDiscord) -> Guild:
    """The test's server; with several shards, one away from shard 0, where Discord sends
    every event without a server (DM clicks and reactions)."""
    shards = fake.sharding.shards
    for _ in range(200):
        # Ids follow the clock: the servers passed over stay, with nobody in them.
        guild = fake.world.create_guild("Mahjong Club")
        if shards == 1 or (guild.id >> 22) % shards != 0:
            return guild
        await asyncio.sleep(0.002)
    raise AssertionError("every server landed on shard 0")


@functools.cache
def tile_emoji_png(kind: int) -> bytes:
    return render_tile_emoji(kind)


# -- simulated players --------------------------------------------------------------------


def player(harness: Harness, person: Person, *, react: bool = False) -> SimulatedPlayer:
    return SimulatedPlayer(person, harness.fake.world.messages, react=react)


async def play_out(
    harness: Harness, players: list[SimulatedPlayer], watcher: Person, hands: int = 1
) -> list[Message]:
    """Let the simulated players play until ``hands`` settlements are posted."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    try:
        return await harness.until_settled(watcher, hands)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
