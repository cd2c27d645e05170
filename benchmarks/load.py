"""Load benchmark: many tables of four simulated people played at once through the real bot
and the fake Discord.

    python -m benchmarks.load [--tables 50 | --sweep 10,50,100] [--think 2.5]
                              [--variants mcr,sichuan] [--release-global-lock]
    python -m benchmarks.load --tables 20 --attentive

The bot runs in a process of its own, as it does in production, and talks over HTTP and
the gateway to the fake Discord in this process, which keeps Discord's rate limits at
their real windows. Every seat is a person who answers the prompts in their DMs by
clicking and choosing, after a human pause; each table plays one hand, in a server of its
own. For each number of tables it prints:

- click->answer: from a click to the bot's first answer to it, on the fake's clock;
- click->table: from a click to the first edit of the table message that shows it (the
  bot process notes the state each edit draws);
- requests per player action, answered ones only (429s left out), and those toward the
  global limit (interaction answers and follow-ups are exempt); requests per second by
  route and toward the global limit while every table is in play; 429s;
- DM edits by purpose: asking for a move, taking controls away, or news only;
- the bot's CPU time per player action by kind of thread, its event loop's lag, and its
  memory per table (peak RSS in play over RSS before, by tables);
- capacity, at one action per table every HUMAN_PACE seconds: the tables one bot could
  host with every move drawn on its table's picture (GLOBAL_LIMIT x HUMAN_PACE / requests
  per action toward the global limit); and the tables it can host with the table edits
  and reactions waiting for the bot's budget (bot/budget.py), when only the
  other requests must fit in it, with how often each table's picture is then redrawn at
  TARGET_TABLES tables.

The rest cover the whole play, from the first Start to the end of the last hand.

First it prints how long this machine takes for a fixed piece of work (20 seeded Sichuan
hands of AI seats): machines of one kind differ by half again in speed, and the CPU
figures scale with it.

``--sample FILE`` samples the bot process and its picture processes with py-spy while the
tables play and prints, for the event loop and the picture processes, the share of
their CPU by package (ours, discord.py, aiohttp, asyncio, ...) and the busiest functions
(benchmarks/sampling.py); ``--tasks FILE`` writes the event loop's CPU by task and where
each step resumed, and prints the dearest (benchmarks/loop_tasks.py); ``--profile FILE``
writes a cProfile of the process instead, exact in calls but inflating Python-heavy code.
``--record-pictures FILE`` keeps every picture the bot drew in play, in order, for
``python -m benchmarks.render --replay FILE`` to draw again alone: what the pictures of
play cost, apart from the machine's other work.

With ``--attentive`` each table is one person and three AI seats playing a four-hand
session at the default timers, and the person plays as on a phone: they notice only new
messages and mentions, and look after 2 to 8 seconds (``SimulatedPlayer(attentive=True)``).
It then also prints how often such people timed out (a prompt that reached them only
as an edit would go unnoticed until its timer ran out), the requests per move of any
seat toward the global limit, and what the hand messages cost per hand.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import cProfile
import gc
import logging
import math
import multiprocessing
import os
import pickle
import random
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import discord

from benchmarks import loop_tasks, sampling
from benchmarks.load_cluster import (
    BotCluster,
    ProcessFigures,
    ProcessRun,
    append_percentiles,
    bench_database,
    open_bot_store,
    process_figures,
    render_cluster,
    spread_guild,
    timed_appends,
)
from bot import collector
from bot import pictures as bot_pictures
from bot.budget import RequestBudget
from bot.demo import SimulatedPlayer, open_table, play_session
from bot.ids import CustomId, CustomIdError
from bot.pacing import Pacing
from engine.rules.registry import find_ruleset
from engine.simulate import simulate
from fakediscord import Driver, FakeDiscord, Latency, Person, RateLimits, Sharding
from fakediscord.clock import Clock
from fakediscord.interactions import (
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    UPDATE_MESSAGE,
)
from fakediscord.metrics import RequestMark
from fakediscord.models import Interaction, Message
from fakediscord.server import pointed_at
from fakediscord.world import MessageChange

# Discord's global limit: requests per second per bot, interaction answers exempt.
T = TypeVar("T")
GLOBAL_LIMIT = RateLimits().global_limit
BUDGET = Pacing().requests_per_second
#: Least seconds between two edits of a table message, as the bot runs by default.
TABLE_EDIT_INTERVAL = Pacing().table_edit_interval
REACTION_ROUTE = "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
# The pace the capacity figure assumes: one action per table every this many seconds.
HUMAN_PACE = 3.0
# The attentive run: a four-hand session, people who look 2 to 8 s after a notification.
ATTENTIVE_HANDS = 4
ATTENTIVE_GLANCE = (2.0, 8.0)
ATTENTIVE_GLOBAL_PER_MOVE = 2.0
TARGET_TABLES = 300
TARGET_P99 = 0.3
TARGET_AT = 100
DEADLINE = 3.0
#: Hands of the reference work (:func:`reference_work`).
REFERENCE_HANDS = 20
LOCALES = ("zh-CN", "zh-TW", "en-US", "zh-CN")
# People keep only their latest unread changes: the simulated players read prompts as
# they come, and scanning thousands of old table edits would load this process instead.
INBOX_SIZE = 64
# Tables opened at once: creating one takes several requests, and the load of interest
# is play, not a burst of lobbies.
OPENING = 10
TOP_ROUTES = 8
LOG_LINES = 10
SAMPLE = "sample"
START = "start"
STOP = "stop"
WATCH_INTERVAL = 0.25
#: CPython's generations are 0, 1 and 2.
OLDEST_GENERATION = 2
AUTOPLAY = "autoplay"
HEARTBEAT_ARTEFACT = "Can't keep up, shard ID %s websocket is %.1fs behind."
BOT_TIMEOUT = 120.0
# discord.py 2.7 closes its global lock while it waits out a global 429 and reopens it
# after the wait without a finally: a request cancelled in that wait (the bot cancels the
# tasks of a table's messages when a hand ends) leaves every later request waiting for
# ever. Each wait follows a logged global 429 and lasts at most a second, so a lock still
# closed this long after the last one is stuck.
GLOBAL_LOCK_GRACE = 5.0
GLOBAL_429 = "Global rate limit has been hit"
# With no request reaching the fake for this long while tables are unfinished, the bot
# has stopped sending and the run ends.
STALL = 60.0


# -- the bot process -----------------------------------------------------------------------


@dataclass(frozen=True)
class BotConfig:
    """What the bot process needs to reach the fake and keep its tables."""

    api_url: str
    gateway_url: str
    token: str
    database: Path
    turn_timer: int
    claim_timer: int
    release_global_lock: bool
    ai_delay: float
    #: Where the bot process writes a cProfile of its event loop in play (None: no profile).
    profile: Path | None = None
    #: The store on this PostgreSQL database instead of the SQLite file ``database``.
    database_url: str | None = None
    #: The shards this bot process runs, of ``shard_count`` (None: every shard), as one
    #: process of a cluster (benchmarks/load_cluster.py).
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    #: Processes that draw the bot's pictures (0: threads of the bot process).
    picture_processes: int = 1
    #: Least seconds between two edits of a table message (Pacing.table_edit_interval).
    table_edit_interval: float = TABLE_EDIT_INTERVAL
    #: Where the bot process writes the pictures it drew in play, for
    #: ``benchmarks.render --replay`` (None: not recorded).
    record_pictures: Path | None = None
    #: Where the bot process writes its event loop's CPU by task (benchmarks/loop_tasks.py).
    tasks: Path | None = None


@dataclass(frozen=True)
class Scene:
    """What a table message showed: taken when the bot read the table for an edit.

    ``answered`` gives, by person, the number of the last prompt they answered, so a click
    is on screen from the first edit whose scene has answered its prompt.
    """

    at: float
    channel_id: int
    hand_no: int
    answered: dict[int, int]


@dataclass(frozen=True)
class BotSample:
    cpu: float
    rss: int
    peak_rss: int
    #: CPU seconds by kind of thread: the event loop, the picture processes and worker
    #: threads that draw the pictures, the store's thread.
    threads: dict[str, float]


@dataclass(frozen=True)
class BotReport:
    sample: BotSample
    scenes: list[Scene]
    actions: Counter[str]
    warnings: Counter[str]
    tracebacks: dict[str, str]
    #: How late the bot's event loop woke from each quarter-second sleep, in play.
    loop_lags: list[float]
    #: Times discord.py's global lock stayed closed past GLOBAL_LOCK_GRACE.
    stuck_locks: int
    #: In play, the bot's budget (bot/budget.py): requests sent at once,
    #: slots waited for, and the seconds spent waiting for them.
    budget_spent: int
    budget_taken: int
    budget_waited: float
    budget_lapsed: int
    #: Pictures drawn in play by kind, and the CPU seconds they took where they were drawn.
    pictures: Counter[str]
    picture_cpu: dict[str, float]
    #: Seconds each append of a move to the store took, in play.
    appends: list[float] = field(default_factory=list)
    #: The bot process's garbage collections in play (GcPauses).
    gc_pauses: list[tuple[int, float, float]] = field(default_factory=list)


class GcPauses:
    """Python's garbage collections in this process, each as its generation, the seconds
    it held the process up and the CPU seconds it took: while one runs, no other Python
    code of the process does (the event loop included), and the oldest generation walks
    every object the process holds."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float, float]] = []
        self._started = (0.0, 0.0)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._started
            self.pauses.append(
                (info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)
            )

    def install(self) -> None:
        gc.callbacks.append(self)

    def uninstall(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


class BotRecorder(logging.Handler):
    """What the bot process notes for the benchmark: each table message's scene and who
    chose each action (by wrapping the presenter's scene and the runtime's act, where each
    is known), its warnings and errors, its memory and its event loop's lag."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.scenes: list[Scene] = []
        self.actions: Counter[str] = Counter()
        self.warnings: Counter[str] = Counter()
        #: The first traceback of each error, so a rare one can be read after the run.
        self.tracebacks: dict[str, str] = {}
        self.peak_rss = 0
        self.loop_lags: list[float] = []
        self.appends: list[float] = []
        self.collections = GcPauses()
        self.stuck_locks = 0
        self.last_global_429 = 0.0
        self.budget: RequestBudget | None = None
        self._budget_start = self._budget_counts()

    def emit(self, record: logging.LogRecord) -> None:
        # discord.py notes a heartbeat's send time only once the send has returned; a fake
        # that acknowledges within microseconds then often beats it, and the whole
        # heartbeat interval is reported as lag. The event-loop lag below is the real one.
        if record.msg == HEARTBEAT_ARTEFACT:
            return
        if str(record.msg).startswith(GLOBAL_429):
            self.last_global_429 = time.monotonic()
        what = f"{record.name}: {record.msg}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            what += f" ({type(error).__name__}: {str(error)[:60]})"
            if record.levelno >= logging.ERROR:
                self.tracebacks.setdefault(what, "".join(traceback.format_exception(error)))
        self.warnings[what] += 1

    def install(self) -> None:
        from bot.runtime.table import TableRuntime
        from bot.tables.playing import PlayingTable
        from bot.tables.presenter import TablePresenter

        opened = PlayingTable.__init__
        scene = TablePresenter._scene
        act = TableRuntime.act
        recorder = self
        # Each table's runtime by its presenter, which draws the scenes.
        runtimes: dict[int, TableRuntime] = {}

        def recorded_init(table: PlayingTable, *args: Any, **kwargs: Any) -> None:
            opened(table, *args, **kwargs)
            runtimes[id(table.presenter)] = table.runtime

        def recorded_scene(presenter: TablePresenter) -> Any:
            drawn = scene(presenter)
            # The presenter draws the state the runtime told it last, and the runtime
            # tells every change as it makes it: its prompts now are the scene's.
            runtime = runtimes.get(id(presenter))
            state = runtime.current if runtime is not None else None
            if runtime is not None and state is not None and runtime.table.channel_id:
                answered = {
                    chair.user_id: state.prompts.answered[runtime.seat_of(chair.chair)]
                    for chair in runtime.chairs
                    if chair.user_id is not None
                }
                recorder.scenes.append(
                    Scene(time.monotonic(), runtime.table.channel_id, state.number, answered)
                )
            return drawn

        async def recorded_act(
            table: TableRuntime, seat: int, action: Any, source: Any, **kwargs: Any
        ) -> Any:
            refusal = await act(table, seat, action, source, **kwargs)
            if refusal is None:
                # The AI playing for a person on auto-play (托管) is told apart from AI seats.
                person = table.chair_at(seat).human
                recorder.actions[AUTOPLAY if source.value == "ai" and person else source.value] += 1
            return refusal

        PlayingTable.__init__ = recorded_init  # type: ignore[method-assign, assignment]
        TablePresenter._scene = recorded_scene  # type: ignore[method-assign, assignment]
        TableRuntime.act = recorded_act  # type: ignore[method-assign, assignment]

    def sample(self) -> BotSample:
        drawing, drawing_rss = _picture_processes()
        rss = _rss() + drawing_rss
        self.peak_rss = max(self.peak_rss, rss)
        threads = _thread_cpu()
        threads["pictures"] = threads.get("pictures", 0.0) + drawing
        return BotSample(time.process_time() + drawing, rss, self.peak_rss, threads)

    async def watch(self, client: discord.Client, release_global_lock: bool) -> None:
        """Samples memory and event-loop lag every WATCH_INTERVAL, and watches
        discord.py's global lock (see GLOBAL_LOCK_GRACE)."""
        stuck = False
        while True:
            # Only the memory: the CPU figures are read at the ends of play, and reading
            # every thread's and picture process's times here would add to them.
            self.peak_rss = max(self.peak_rss, _rss() + _picture_rss())
            asleep = time.monotonic()
            await asyncio.sleep(WATCH_INTERVAL)
            now = time.monotonic()
            self.loop_lags.append(now - asleep - WATCH_INTERVAL)
            lock = client.http._global_over
            if lock.is_set():
                stuck = False
            elif not stuck and now - self.last_global_429 > GLOBAL_LOCK_GRACE:
                stuck = True
                self.stuck_locks += 1
                if release_global_lock:
                    lock.set()

    def start_play(self) -> None:
        self.loop_lags.clear()
        self.collections.pauses.clear()
        self.warnings.clear()
        self.tracebacks.clear()
        self.peak_rss = _rss() + _picture_processes()[1]
        self._budget_start = self._budget_counts()
        bot_pictures.COSTS.clear()
        self.appends.clear()

    def _budget_counts(self) -> tuple[float, ...]:
        """The budget's running counts, in BotReport's order: sent at once, waited for,
        seconds waited, reservations lapsed."""
        budget = self.budget
        if budget is None:
            return (0, 0, 0.0, 0)
        return (budget.spent, budget.taken, budget.waited, budget.reservations_lapsed)

    def report(self) -> BotReport:
        spent, taken, waited, lapsed = (
            now - start
            for now, start in zip(self._budget_counts(), self._budget_start, strict=True)
        )
        return BotReport(
            self.sample(),
            self.scenes,
            self.actions,
            self.warnings,
            self.tracebacks,
            self.loop_lags,
            self.stuck_locks,
            int(spent),
            int(taken),
            waited,
            int(lapsed),
            Counter(bot_pictures.COSTS.drawn),
            dict(bot_pictures.COSTS.cpu),
            self.appends,
            self.collections.pauses,
        )


#: Each measured process's /proc/<pid>/statm, kept open: the watch reads them four times
#: a second inside the bot process, whose CPU is what is measured, and reading an open
#: file again costs a tenth of opening it.
_STATM: dict[int | str, int] = {}


def _rss(pid: int | str = "self") -> int:
    """Resident bytes of a process (0 once it has ended), from /proc."""
    fd = _STATM.get(pid)
    try:
        if fd is None:
            fd = _STATM[pid] = os.open(f"/proc/{pid}/statm", os.O_RDONLY)
        return int(os.pread(fd, 128, 0).split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError):
        if fd is not None:
            os.close(_STATM.pop(pid))
        return 0


def _picture_processes() -> tuple[float, int]:
    """CPU seconds and resident bytes of the bot's picture processes, from /proc."""
    cpu = 0.0
    for pid in bot_pictures.process_ids():
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return cpu, _picture_rss()


def _picture_rss() -> int:
    """Resident bytes of the bot's picture processes, from /proc."""
    return sum(_rss(pid) for pid in bot_pictures.process_ids())


def _thread_cpu() -> dict[str, float]:
    """CPU seconds of the live threads by kind, from /proc (Linux)."""
    kinds: dict[str, float] = defaultdict(float)
    main = threading.main_thread().native_id
    for thread in threading.enumerate():
        if thread.native_id is None:
            continue
        if thread.native_id == main:
            kind = "event loop"
        elif thread.name.startswith(("asyncio_", "pictures")):
            kind = "pictures"
        elif "_connection_worker_thread" in thread.name:
            kind = "store"
        else:
            kind = "other"
        try:
            with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                # utime and stime follow the parenthesised command name.
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        kinds[kind] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return dict(kinds)


def _record_draws(into: list[tuple[str, tuple[Any, ...]]]) -> None:
    """Keep every picture the bot draws, in the order they are drawn, as the renderer's
    kind and arguments (``--record-pictures``). Kept once drawn, as the pictures are
    counted: a picture asked for before play starts and drawn after it is in both."""
    draw = bot_pictures._draw

    async def recorded(kind: str, *args: Any, background: bool = False) -> bytes:
        png = await draw(kind, *args, background=background)
        into.append((kind, args))
        return png

    bot_pictures._draw = recorded


def _bot_process(config: BotConfig, conn: Connection) -> None:
    """The bot process: answers SAMPLE and START (play begins: its records start afresh)
    with a BotSample until STOP, then sends a BotReport."""
    asyncio.run(_serve_bot(config, conn))


async def _serve_bot(config: BotConfig, conn: Connection) -> None:
    from benchmarks.render import sample_hand
    from bot.client import MahjongBot
    from bot.launcher import take_shards
    from bot.settings import Settings
    from renderer import render_hand, render_table
    from renderer.reference import late_game_table

    # Fonts and tile art load on the first picture; memory per table should not count them.
    render_hand(sample_hand())
    render_table(late_game_table())
    # As `python -m bot` does before the bot starts (bot/__main__.py).
    collector.settle()
    recorder = BotRecorder()
    recorder.install()
    recorder.collections.install()
    drawn: list[tuple[str, tuple[Any, ...]]] = []
    if config.record_pictures is not None:
        _record_draws(drawn)
    # Counted and summed up in the report rather than printed: under overload the same
    # few messages come thousands of times.
    logging.basicConfig(level=logging.WARNING, handlers=[recorder], force=True)
    settings = Settings(
        token=config.token,
        database=config.database,
        dev_guild_id=None,
        log_level="WARNING",
        turn_timer=config.turn_timer,
        claim_timer=config.claim_timer,
        database_url=config.database_url,
        shard_ids=config.shard_ids,
        shard_count=config.shard_count,
        picture_processes=config.picture_processes,
    )
    cluster = await take_shards(settings) if settings.fenced else None
    store = await open_bot_store(config)
    timed_appends(store, recorder.appends)
    pacing = Pacing(ai_delay=config.ai_delay, table_edit_interval=config.table_edit_interval)
    bot = MahjongBot(settings, store, pacing=pacing, guild_ready_timeout=0.05, cluster=cluster)
    recorder.budget = bot.budget
    try:
        with pointed_at(config.api_url, config.gateway_url):
            running = asyncio.create_task(bot.start(config.token))
            ready = asyncio.create_task(bot.wait_until_ready())
            await asyncio.wait({running, ready}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                running.result()
                raise RuntimeError("the bot stopped before it was ready")
            # A first start uploads the tile emojis; play is measured after that.
            await bot.tile_emoji.ready()
            watcher = asyncio.create_task(recorder.watch(bot, config.release_global_lock))
            # CPU time, not wall time: a profile of a loop that waits is a profile of its
            # waits. The process's clock, not the thread's: since Python 3.12 cProfile
            # sees the calls of every thread, each timed on the clock of the thread that
            # read it, and a thread's clock read in another thread means nothing.
            profiler = cProfile.Profile(time.process_time) if config.profile else None
            tasks: loop_tasks.LoopTasks | None = None
            conn.send(recorder.sample())
            while (command := await asyncio.to_thread(conn.recv)) != STOP:
                if command == START:
                    recorder.start_play()
                    drawn.clear()
                    if profiler:
                        profiler.enable()
                    if config.tasks is not None:
                        tasks = loop_tasks.install(asyncio.get_running_loop())
                conn.send(recorder.sample())
            if tasks is not None and config.tasks is not None:
                tasks.stop()
                tasks.write(config.tasks)
            if profiler and config.profile:
                profiler.disable()
                profiler.dump_stats(config.profile)
            if config.record_pictures is not None:
                with config.record_pictures.open("wb") as out:
                    pickle.dump(drawn, out, protocol=pickle.HIGHEST_PROTOCOL)
            watcher.cancel()
            await bot.close()
            await asyncio.gather(running, return_exceptions=True)
    finally:
        await store.close()
        if cluster is not None:
            await cluster.close()
    conn.send(recorder.report())


class BotProcess:
    """The real bot in a child process, started against this process's fake."""

    def __init__(self, config: BotConfig) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_bot_process, args=(config, child), name="load-bot", daemon=True
        )

    async def start(self) -> BotSample:
        self._process.start()
        return await self._receive(BotSample)

    @property
    def pid(self) -> int:
        pid = self._process.pid
        if pid is None:
            raise RuntimeError("the bot process has not started")
        return pid

    async def sample(self, command: str = SAMPLE) -> BotSample:
        self._conn.send(command)
        return await self._receive(BotSample)

    async def stop(self) -> BotReport:
        self._conn.send(STOP)
        report = await self._receive(BotReport)
        await asyncio.to_thread(self._process.join, BOT_TIMEOUT)
        return report

    def kill(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(5)

    async def _receive(self, kind: type[T]) -> T:
        try:
            if await asyncio.to_thread(self._conn.poll, BOT_TIMEOUT):
                received = self._conn.recv()
                if not isinstance(received, kind):
                    raise RuntimeError(f"the bot process sent {received!r}, not a {kind.__name__}")
                return received
        except EOFError:
            pass
        raise RuntimeError(
            f"the bot process stopped answering (exit code {self._process.exitcode})"
        )


# -- driving the tables --------------------------------------------------------------------


@dataclass(frozen=True)
class LoadConfig:
    tables: int
    variants: tuple[str, ...]
    #: Mean seconds a person takes over a prompt (0: answer at once).
    think: float = 2.5
    #: Seconds over which the tables press Start, as tables do not all open at once.
    ramp: float = 10.0
    turn_timer: int = 20
    claim_timer: int = 10
    seed: int = 0
    #: Shrinks every rate-limit window (1: Discord's own); a quick check of the benchmark
    #: itself plays faster with them small.
    rate_scale: float = 1.0
    #: Reopen discord.py's global rate-limit lock when a cancelled request left it closed
    #: (see GLOBAL_LOCK_GRACE), to measure past that bug instead of stopping at it.
    release_global_lock: bool = False
    #: Milliseconds each way between Discord and the bot, and the spread around it.
    latency_ms: float = 0.0
    jitter_ms: float = 0.0
    #: Shards Discord asks the bot to run (the bot runs them all in its process).
    shards: int = 1
    #: One attentive person and three AI seats per table, a session of ``hands`` hands.
    attentive: bool = False
    hands: int = 1
    #: Seconds an attentive person takes to look after a notification.
    glance: tuple[float, float] = ATTENTIVE_GLANCE
    #: Where the bot process writes a cProfile of its event loop in play.
    profile: Path | None = None
    #: Where py-spy's samples of the bot in play go (None: not sampled; benchmarks.sampling).
    sample: Path | None = None
    #: Where the bot process writes its event loop's CPU by task (benchmarks/loop_tasks.py).
    tasks: Path | None = None
    #: Where the bot process writes the pictures it drew in play (benchmarks.render).
    record_pictures: Path | None = None
    #: Seconds the bot's AI seats take over a move.
    ai_delay: float = Pacing().ai_delay
    #: The store: ``sqlite``, ``postgresql`` (a server started for the run) or a
    #: PostgreSQL URL; and how many bot processes share the shards (benchmarks/load_cluster.py).
    database: str = "sqlite"
    processes: int = 1
    #: Processes that draw each bot process's pictures (0: its threads).
    picture_processes: int = 1
    #: Least seconds between two edits of a table message; a long one leaves the table
    #: messages out of play, to measure what they cost.
    table_edit_interval: float = TABLE_EDIT_INTERVAL


@dataclass
class TableRun:
    variant: str
    people: list[Person]
    lobby: Message | None = None
    players: list[SimulatedPlayer] = field(default_factory=list)
    started: float | None = None
    finished: float | None = None
    error: str | None = None


@dataclass
class Outcome:
    """Everything measured for one number of tables."""

    config: LoadConfig
    tables: list[TableRun]
    play_start: float
    play_end: float
    bot_before: BotSample
    bot_after: BotSample
    bot: BotReport
    driver_cpu: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    timeline: list[RequestMark]
    interactions: list[Interaction]
    table_edits: dict[int, list[float]]
    #: The thread of each person's table.
    threads: dict[int, int]
    global_rate_limited: int
    dm_edits: Counter[str]
    #: The bot stopped sending before every table had finished.
    stalled: bool
    #: The people's DM channels, and the hands settled in all.
    dm_channels: frozenset[int]
    hands_played: int
    #: Each bot process's own samples and report, with several processes.
    process_runs: list[ProcessRun] = field(default_factory=list)
    #: How late this process's event loop (the fake's and the people's) woke, on the
    #: fake's clock: (when it woke, seconds late).
    driver_lags: list[tuple[float, float]] = field(default_factory=list)
    #: This process's garbage collections in play (GcPauses).
    driver_gc: list[tuple[int, float, float]] = field(default_factory=list)


async def _watch_lag(clock: Clock, lags: list[tuple[float, float]]) -> None:
    """Note every WATCH_INTERVAL how late this event loop woke. The fake counts a request
    toward the global limit when its loop gets to it: requests that arrived while the loop
    was held up are all counted at once, so its lag tells a burst the bot sent from one
    the fake only saw."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(WATCH_INTERVAL)
        lags.append((clock.now(), time.monotonic() - asleep - WATCH_INTERVAL))


async def run_load(config: LoadConfig) -> Outcome:
    """Open the tables, play them all at once, and collect the measurements."""
    rng = random.Random(config.seed)
    latency = Latency(
        gateway=config.latency_ms / 1000,
        rest=config.latency_ms / 1000,
        jitter=config.jitter_ms / 1000,
        seed=config.seed,
    )
    async with FakeDiscord(
        rate_limits=RateLimits(time_scale=config.rate_scale),
        latency=latency,
        sharding=Sharding(shards=max(config.shards, config.processes)),
    ) as fake:
        driver = Driver(fake, inbox_size=INBOX_SIZE)
        runs = []
        for index in range(config.tables):
            # One server per table: a bot hosting many tables is in many servers, and
            # each person then sees only their own table's thread.
            guild = await spread_guild(fake, f"Club {index}", LOCALES[index % 3], index)
            seated = 1 if config.attentive else 4
            people = [
                driver.join(guild, f"p{index}-{chair}", locale=LOCALES[chair])
                for chair in range(seated)
            ]
            runs.append(TableRun(config.variants[index % len(config.variants)], people))
        with (
            tempfile.TemporaryDirectory() as scratch,
            bench_database(config.database) as database_url,
        ):
            bot_config = BotConfig(
                fake.api_url,
                fake.gateway_url,
                fake.token,
                Path(scratch) / "load.sqlite3",
                config.turn_timer,
                config.claim_timer,
                config.release_global_lock,
                config.ai_delay,
                config.profile,
                database_url=database_url,
                picture_processes=config.picture_processes,
                table_edit_interval=config.table_edit_interval,
                record_pictures=config.record_pictures,
                tasks=config.tasks,
            )
            bot: BotProcess | BotCluster = (
                BotProcess(bot_config)
                if config.processes == 1
                else BotCluster(bot_config, config.processes, fake.gateway.sharding.shards)
            )
            threshold = gc.get_threshold()
            driver_gc = GcPauses()
            try:
                await bot.start()
                opening = asyncio.Semaphore(OPENING)
                await asyncio.gather(*(_open(run, opening, config) for run in runs))
                for run in runs:
                    run.players = [
                        SimulatedPlayer(
                            person,
                            fake.world.messages,
                            seed=rng.randrange(2**32),
                            think=config.think,
                            attentive=config.attentive,
                            glance=config.glance,
                        )
                        for person in run.people
                    ]
                fake.metrics.reset()
                dm_edits = DmEdits(fake)
                fake.world.observe(dm_edits)
                load_before = os.getloadavg()
                bot_before = await bot.sample(START)
                sampler = (
                    await sampling.Sampler.start(bot.pid, config.sample)
                    if config.sample is not None and isinstance(bot, BotProcess)
                    else None
                )
                driver_cpu = time.process_time()
                play_start = fake.clock.now()
                driver_lags: list[tuple[float, float]] = []
                watching = asyncio.create_task(_watch_lag(fake.clock, driver_lags))
                # This process stands in for Discord, whose servers no collection holds
                # up: what the tables' opening left is frozen, as the bot freezes what it
                # loaded (bot/collector.py).
                collector.settle()
                driver_gc.install()
                delays = sorted(rng.uniform(0, config.ramp) for _ in runs)
                plays = [
                    asyncio.create_task(_play(fake, run, delay))
                    for run, delay in zip(runs, delays, strict=True)
                ]
                stalled = await _until_done_or_stalled(fake, plays, play_start)
                watching.cancel()
                driver_gc.uninstall()
                play_end = fake.clock.now()
                driver_cpu = time.process_time() - driver_cpu
                if sampler is not None:
                    await sampler.stop()
                bot_after = await bot.sample()
                load_after = os.getloadavg()
                report = await bot.stop()
            finally:
                bot.kill()
                # A sweep's next run, or the test that ran this one, starts afresh (also
                # after a run that failed in play).
                driver_gc.uninstall()
                gc.unfreeze()
                gc.set_threshold(*threshold)
        table_edits = _table_edits(fake, runs)
        return Outcome(
            config,
            runs,
            play_start,
            play_end,
            bot_before,
            bot_after,
            report,
            driver_cpu,
            load_before,
            load_after,
            list(fake.metrics.timeline),
            [i for i in fake.world.interactions.values() if i.created_at >= play_start],
            table_edits,
            {p.id: r.lobby.channel_id for r in runs if r.lobby is not None for p in r.people},
            fake.metrics.global_rate_limited,
            dm_edits.by_purpose(list(fake.world.interactions.values())),
            stalled,
            frozenset(fake.world.dm_channel(p.user).id for r in runs for p in r.people),
            _settlements(fake, runs),
            bot.runs if isinstance(bot, BotCluster) else [],
            driver_lags,
            driver_gc.pauses,
        )


async def measure(config: LoadConfig) -> Figures:
    """One run's figures. They are worked out before the event loop closes: asyncio.run
    spells out its task's result when it ends, and a whole run's outcome (every request,
    message and picture) takes gigabytes to spell out."""
    return figures(await run_load(config))


async def _open(run: TableRun, opening: asyncio.Semaphore, config: LoadConfig) -> None:
    options: dict[str, Any] = {"fill_with_ai": "true"} if config.attentive else {}
    async with opening:
        run.lobby = await open_table(run.people, run.variant, config.hands, **options)


async def _until_done_or_stalled(
    fake: FakeDiscord, plays: list[asyncio.Task[None]], since: float
) -> bool:
    """Wait for every table; True when the bot stopped sending first (see STALL), in
    which case the unfinished tables are given up."""
    pending = set(plays)
    while pending:
        _, pending = await asyncio.wait(pending, timeout=STALL / 4)
        timeline = fake.metrics.timeline
        last = timeline[-1].at if timeline else since
        if pending and fake.clock.now() - last > STALL:
            for play in pending:
                play.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            return True
    return False


async def _play(fake: FakeDiscord, run: TableRun, delay: float) -> None:
    await asyncio.sleep(delay)
    assert run.lobby is not None
    run.started = fake.clock.now()
    try:
        # A hand at a human pace takes minutes; an hour means the table is stuck.
        await play_session(run.lobby, run.players, timeout=3600)
    except Exception as exc:
        run.error = f"{type(exc).__name__}: {exc}"
        return
    run.finished = fake.clock.now()


class DmEdits:
    """Classifies every edit of a DM by what it does for its reader: ``asks`` (shows new
    controls), ``clears`` (takes controls away) or ``news`` (same controls, or none, with
    a new text or picture). A world observer; the clicks' own answers are told apart
    afterwards (:meth:`by_purpose`)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._world = fake.world
        self._controls: dict[int, tuple[str, ...]] = {}
        self.edits: dict[int, list[tuple[float, str]]] = {}

    def __call__(self, change: MessageChange) -> None:
        message = change.message
        channel = self._world.channels.get(message.channel_id)
        if channel is None or not channel.is_dm or change.kind == "delete":
            return
        controls = tuple(
            str(c.get("custom_id"))
            for c in [*message.buttons(), *message.selects()]
            if not c.get("disabled")
        )
        before = self._controls.get(message.id, ())
        self._controls[message.id] = controls
        if change.kind != "update":
            return
        if controls and controls != before:
            purpose = "asks"
        elif before and not controls:
            purpose = "clears"
        else:
            purpose = "news"
        self.edits.setdefault(message.id, []).append((change.at, purpose))

    def by_purpose(self, interactions: Sequence[Interaction]) -> Counter[str]:
        """The bot's own DM edits by purpose, leaving out the edits that answered a click
        (those ride on the interaction and do not count toward the global limit)."""
        answered: dict[int, list[float]] = {}
        for interaction in interactions:
            if interaction.response_type == UPDATE_MESSAGE and interaction.message_id:
                at = interaction.first_callback_at
                if at is not None:
                    answered.setdefault(interaction.message_id, []).append(at)
        counts: Counter[str] = Counter()
        for message_id, edits in self.edits.items():
            skipped = set()
            times = [at for at, _ in edits]
            for at in answered.get(message_id, []):
                # The answer's edit lands in the same step as the answer itself.
                skipped.add(bisect.bisect_left(times, at))
            counts.update(purpose for i, (_, purpose) in enumerate(edits) if i not in skipped)
        return counts


def _table_edits(fake: FakeDiscord, runs: Sequence[TableRun]) -> dict[int, list[float]]:
    """By thread: when the table message (the one carrying the table picture) was edited."""
    edits: dict[int, list[float]] = {}
    for run in runs:
        if run.lobby is None:
            continue
        thread = run.lobby.channel_id
        edits[thread] = [
            edit.at
            for edit in fake.metrics.edits.get(thread, [])
            if _is_table_message(fake.world.messages.get(edit.message_id))
        ]
    return edits


def _settlements(fake: FakeDiscord, runs: Sequence[TableRun]) -> int:
    threads = {r.lobby.channel_id for r in runs if r.lobby is not None}
    return sum(
        1
        for m in fake.world.messages.values()
        if m.channel_id in threads and any(a.filename == "settlement.png" for a in m.attachments)
    )


def _is_table_message(message: Message | None) -> bool:
    return message is not None and any(a.filename == "table.png" for a in message.attachments)


# -- the figures -------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    #: Answers of 401, 403 and 429 (not of a shared limit) a minute: Discord bans a bot
    #: for a while past 10,000 in ten minutes.
    invalid_per_minute: float
    tables: int
    finished: int
    errors: list[str]
    full_house: float
    seconds: float
    clicks: int
    answer: tuple[float, float, float]
    late: int
    unanswered: int
    #: Clicks answered by deferring: the update came later, as an edit.
    deferred: int
    table_update: tuple[float, float, float]
    shown: int
    player_actions: int
    timeouts: int
    pace: float
    requests: int
    requests_per_turn: float
    global_per_turn: float
    table_edits_per_turn: float
    dm_edits_per_turn: dict[str, float]
    route_rates: list[tuple[str, float, int]]
    #: Requests per second toward the global limit while all tables play: answered, and
    #: attempted (429s included).
    global_rate: tuple[float, float]
    rate_limited: int
    global_rate_limited: int
    cpu_per_turn: float
    #: CPU per action of any kind, timers' and auto-play's included.
    cpu_per_action: float
    #: CPU per action by kind of thread.
    thread_cpu_per_turn: dict[str, float]
    #: Pictures per player action by kind, and the CPU each took on average.
    pictures_per_turn: dict[str, tuple[float, float]]
    loop_lag: tuple[float, float]
    #: The fake's event loop's lag (p99, most), and its most in the second around each
    #: global 429.
    driver_lag: tuple[float, float]
    lag_at_global_429s: list[float]
    #: Garbage collections in play of the bot process(es) and of the fake's: collections,
    #: of the oldest generation, CPU seconds in all, the longest hold-up.
    bot_gc: tuple[int, int, float, float]
    driver_gc: tuple[int, int, float, float]
    bot_cpu_share: float
    driver_cpu_share: float
    memory_per_table: float
    load: tuple[float, float]
    reactions_per_turn: float
    capacity: float
    #: Tables hosted with the table edits and reactions inside their budget, and the
    #: seconds between two drawings of a table's picture at TARGET_TABLES tables.
    shared_capacity: float
    refresh_at_target: float
    budget_spent: int
    budget_taken: int
    budget_waited: float
    budget_lapsed: int
    warnings: list[tuple[str, int]]
    tracebacks: dict[str, str]
    stalled: bool
    stuck_locks: int
    released_locks: bool
    #: Moves by anyone (people, timers, auto-play, AI seats), and those toward the limit.
    moves: int = 0
    global_per_move: float = 0.0
    #: Time-outs of people, and moves the AI made for them on auto-play.
    person_timeouts: int = 0
    autoplay_moves: int = 0
    hands_played: int = 0
    #: What the hand messages cost per hand settled, by kind of request.
    hand_requests: dict[str, float] = field(default_factory=dict)
    attentive: bool = False
    #: Each bot process's figures (several processes), and the store's time per append.
    processes: list[ProcessFigures] = field(default_factory=list)
    appends: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    append_count: int = 0


def figures(outcome: Outcome) -> Figures:
    config = outcome.config
    runs = outcome.tables
    starts = [r.started for r in runs if r.started is not None]
    ends = [r.finished for r in runs if r.finished is not None]
    # While every table is in play: from the last Start to the first end of a hand.
    full_from = max(starts, default=outcome.play_start)
    full_to = min(ends, default=outcome.play_end)
    if full_to <= full_from:
        full_from, full_to = outcome.play_start, outcome.play_end
    seconds = outcome.play_end - outcome.play_start
    clicks = [i for i in outcome.interactions if i.type == MESSAGE_COMPONENT]
    latencies = sorted(
        i.first_callback_at - i.created_at for i in clicks if i.first_callback_at is not None
    )
    late = sum(1 for value in latencies if value > DEADLINE)
    invalid = sum(1 for m in outcome.timeline if m.invalid)
    unanswered = sum(1 for i in clicks if i.first_callback_at is None)
    shown = _table_update_latencies(
        clicks, outcome.bot.scenes, outcome.table_edits, outcome.threads
    )
    actions = outcome.bot.actions
    player_actions = actions["player"]
    timeline = outcome.timeline
    done = [m for m in timeline if m.status != 429]
    requests = len(done)
    global_requests = sum(1 for m in done if not m.global_exempt)
    window = [m for m in timeline if full_from <= m.at <= full_to]
    span = max(full_to - full_from, 1e-9)
    by_route = Counter(m.route for m in window)
    refused = Counter(m.route for m in window if m.status == 429)
    route_rates = [
        (route, count / span, refused[route]) for route, count in by_route.most_common(TOP_ROUTES)
    ]
    counted = [m for m in window if not m.global_exempt]
    global_rate = (sum(1 for m in counted if m.status != 429) / span, len(counted) / span)
    bot_cpu = outcome.bot_after.cpu - outcome.bot_before.cpu
    turns = max(player_actions, 1)
    global_per_turn = global_requests / turns
    table_edits_per_turn = sum(map(len, outcome.table_edits.values())) / turns
    reactions_per_turn = sum(1 for m in done if m.route == REACTION_ROUTE) / turns
    shared, refresh = shared_capacity(global_per_turn, table_edits_per_turn, reactions_per_turn)
    return Figures(
        invalid_per_minute=invalid / max(seconds / 60, 1e-9),
        tables=config.tables,
        finished=len(ends),
        errors=[r.error for r in runs if r.error is not None],
        full_house=full_to - full_from,
        seconds=seconds,
        clicks=len(clicks),
        answer=_percentiles(latencies),
        late=late,
        unanswered=unanswered,
        deferred=sum(1 for i in clicks if i.response_type == DEFERRED_UPDATE_MESSAGE),
        table_update=_percentiles(sorted(shown)),
        shown=len(shown),
        player_actions=player_actions,
        timeouts=actions["timeout"] + actions[AUTOPLAY],
        pace=sum(
            (r.finished or outcome.play_end) - r.started for r in runs if r.started is not None
        )
        / turns,
        requests=requests,
        requests_per_turn=requests / turns,
        global_per_turn=global_per_turn,
        table_edits_per_turn=table_edits_per_turn,
        dm_edits_per_turn={
            purpose: outcome.dm_edits[purpose] / turns for purpose in ("asks", "clears", "news")
        },
        route_rates=route_rates,
        global_rate=global_rate,
        rate_limited=sum(1 for m in timeline if m.status == 429),
        global_rate_limited=outcome.global_rate_limited,
        cpu_per_turn=bot_cpu / turns,
        cpu_per_action=bot_cpu / max(sum(actions.values()), 1),
        thread_cpu_per_turn={
            kind: (spent - outcome.bot_before.threads.get(kind, 0.0)) / turns
            for kind, spent in sorted(outcome.bot_after.threads.items())
        },
        pictures_per_turn={
            kind: (drawn / turns, outcome.bot.picture_cpu[kind] / drawn)
            for kind, drawn in sorted(outcome.bot.pictures.items())
        },
        loop_lag=(
            _percentiles(sorted(outcome.bot.loop_lags))[2],
            max(outcome.bot.loop_lags, default=0),
        ),
        driver_lag=(
            _percentiles(sorted(lag for _, lag in outcome.driver_lags))[2],
            max((lag for _, lag in outcome.driver_lags), default=0),
        ),
        lag_at_global_429s=_lag_around(
            outcome.driver_lags, [m.at for m in timeline if m.global_limit]
        ),
        bot_gc=_collections(outcome.bot.gc_pauses),
        driver_gc=_collections(outcome.driver_gc),
        bot_cpu_share=bot_cpu / max(seconds, 1e-9),
        driver_cpu_share=outcome.driver_cpu / max(seconds, 1e-9),
        memory_per_table=(outcome.bot_after.peak_rss - outcome.bot_before.rss) / config.tables,
        load=(outcome.load_before[0], outcome.load_after[0]),
        reactions_per_turn=reactions_per_turn,
        capacity=capacity(global_per_turn),
        shared_capacity=shared,
        refresh_at_target=refresh,
        budget_spent=outcome.bot.budget_spent,
        budget_taken=outcome.bot.budget_taken,
        budget_waited=outcome.bot.budget_waited,
        budget_lapsed=outcome.bot.budget_lapsed,
        warnings=outcome.bot.warnings.most_common(LOG_LINES),
        tracebacks=outcome.bot.tracebacks,
        stalled=outcome.stalled,
        stuck_locks=outcome.bot.stuck_locks,
        released_locks=config.release_global_lock,
        moves=sum(actions.values()),
        global_per_move=global_requests / max(sum(actions.values()), 1),
        person_timeouts=actions["timeout"],
        autoplay_moves=actions[AUTOPLAY],
        hands_played=outcome.hands_played,
        hand_requests=_hand_requests(done, outcome.dm_channels, outcome.hands_played),
        attentive=config.attentive,
        processes=process_figures(outcome.process_runs, seconds),
        appends=append_percentiles(outcome.bot.appends),
        append_count=len(outcome.bot.appends),
    )


# What a hand message's requests are, by route; none of them counts toward the global
# limit but those on the DM channels' own routes.
_HAND_ROUTES = {
    "new prompt messages (follow-ups)": ("POST /webhooks/{webhook_id}/{webhook_token}",),
    "deletes through tokens": (
        "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ),
    "edits through tokens": (
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ),
    "click answers": ("POST /interactions/{webhook_id}/{webhook_token}/callback",),
}
DM_ROUTES = "DM requests toward the limit"


def _hand_requests(
    done: Sequence[RequestMark], dm_channels: frozenset[int], hands: int
) -> dict[str, float]:
    by_route = Counter(m.route for m in done)
    out = {
        kind: sum(by_route[r] for r in routes) / max(hands, 1)
        for kind, routes in _HAND_ROUTES.items()
    }
    out[DM_ROUTES] = sum(1 for m in done if m.channel_id in dm_channels) / max(hands, 1)
    return out


def capacity(global_per_turn: float, pace: float = HUMAN_PACE) -> float:
    """Tables one bot process can host inside the global limit, each table taking one
    action every ``pace`` seconds and each action costing ``global_per_turn`` requests
    that count toward the limit."""
    if global_per_turn <= 0:
        return math.inf
    return GLOBAL_LIMIT * pace / global_per_turn


def shared_capacity(
    global_per_turn: float,
    table_edits_per_turn: float,
    reactions_per_turn: float,
    pace: float = HUMAN_PACE,
) -> tuple[float, float]:
    """Tables one bot process can host when table edits and reactions wait for slots of
    the bot's budget (BUDGET requests a second) and only the other requests, which
    play cannot do without, must fit in it. Also the seconds between two drawings of one
    table's picture at TARGET_TABLES tables: as often as its moves come while the budget
    suffices, else in turn with every other table, from what the other requests and the
    reactions leave of the budget."""
    rest = global_per_turn - table_edits_per_turn - reactions_per_turn
    tables = math.inf if rest <= 0 else BUDGET * pace / rest
    wanted = pace / table_edits_per_turn if table_edits_per_turn > 0 else math.inf
    left = BUDGET - TARGET_TABLES * (rest + reactions_per_turn) / pace
    refresh = math.inf if left <= 0 else max(wanted, TARGET_TABLES / left)
    return tables, refresh


def _table_update_latencies(
    clicks: Sequence[Interaction],
    scenes: Sequence[Scene],
    edits: dict[int, list[float]],
    threads: dict[int, int],
) -> list[float]:
    """For each accepted click: from the click to the first edit of its table message that
    shows it.

    An edit shows the scene the bot drew last before sending it (a table's edits are sent
    one after another, each drawn just before); a scene shows a click once the person's
    last answered prompt has reached the click's.
    """
    drawn: dict[int, list[Scene]] = {}
    for scene in scenes:
        drawn.setdefault(scene.channel_id, []).append(scene)
    shown: dict[int, tuple[list[float], list[Scene]]] = {}
    for thread, times in edits.items():
        table_scenes = drawn.get(thread, [])
        drawn_at = [s.at for s in table_scenes]
        pairs = [
            (at, table_scenes[index])
            for at in times
            if (index := bisect.bisect_left(drawn_at, at) - 1) >= 0
        ]
        shown[thread] = ([at for at, _ in pairs], [scene for _, scene in pairs])
    latencies = []
    seen: set[tuple[int, int, int]] = set()
    for click in sorted(clicks, key=lambda i: i.created_at):
        if click.response_type not in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            continue
        try:
            cid = CustomId.decode(str(click.data.get("custom_id", "")))
        except CustomIdError:
            continue
        if cid.hand_no == 0:
            # Start and the other lobby controls belong to no hand.
            continue
        # A second click on one prompt is answered but changes nothing.
        key = (click.user.id, cid.hand_no, cid.prompt_seq)
        if key in seen or click.user.id not in threads:
            continue
        seen.add(key)
        times, table_scenes = shown.get(threads[click.user.id], ([], []))
        for index in range(bisect.bisect_left(times, click.created_at), len(times)):
            scene = table_scenes[index]
            if (scene.hand_no, scene.answered.get(click.user.id, -1)) >= key[1:]:
                latencies.append(times[index] - click.created_at)
                break
    return latencies


def _gc_text(collections: tuple[int, int, float, float], actions: int) -> str:
    count, oldest, seconds, longest = collections
    return (
        f"{count} collections ({oldest} of the oldest generation), "
        f"{seconds / max(actions, 1) * 1000:.2f} ms of CPU per player action, the longest "
        f"held it up {_ms(longest)}"
    )


def _collections(pauses: Sequence[tuple[int, float, float]]) -> tuple[int, int, float, float]:
    """Collections, of the oldest generation, CPU seconds in all, the longest hold-up."""
    oldest = sum(1 for generation, _, _ in pauses if generation == OLDEST_GENERATION)
    cpu = sum(spent for _, _, spent in pauses)
    return len(pauses), oldest, cpu, max((held for _, held, _ in pauses), default=0.0)


def _lag_around(lags: Sequence[tuple[float, float]], moments: Sequence[float]) -> list[float]:
    """The most a loop was late by in the second before and after each moment (a hold-up
    is noted when it ends)."""
    return [
        max((lag for at, lag in lags if moment - 1 <= at <= moment + 1), default=0.0)
        for moment in moments
    ]


def _percentiles(values: Sequence[float]) -> tuple[float, float, float]:
    """p50, p95 and p99 of sorted values (nearest rank)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    p50, p95, p99 = (
        values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]
        for q in (0.5, 0.95, 0.99)
    )
    return p50, p95, p99


# -- the report ------------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.0f} ms"


def _s(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds:.2f} s"


def reference_work() -> float:
    """Milliseconds of CPU this machine takes for a fixed piece of the bot's kind of work:
    20 seeded Sichuan hands of four normal AI seats, the least of three runs after one
    that fills the caches. Machines of one kind differ by half again in speed, and
    every figure here scales with it: runs on two machines compare through it."""
    ruleset = find_ruleset("sichuan")
    simulate(ruleset, REFERENCE_HANDS, 0, ["normal"] * 4, check=False)
    runs = []
    for _ in range(3):
        start = time.process_time()
        simulate(ruleset, REFERENCE_HANDS, 0, ["normal"] * 4, check=False)
        runs.append(time.process_time() - start)
    return min(runs) * 1000


def render(config: LoadConfig, result: Figures) -> str:
    def share(count: int) -> str:
        return f"{100 * count / max(result.requests + result.rate_limited, 1):.2f} %"

    p50, p95, p99 = result.answer
    u50, u95, u99 = result.table_update
    network = (
        f", {config.latency_ms:g} ± {config.jitter_ms:g} ms each way"
        if config.latency_ms or config.jitter_ms
        else ""
    )
    people = (
        f"one attentive person (looks {config.glance[0]:g}-{config.glance[1]:g} s after a "
        f"notification) and three AI seats each, {config.hands}-hand sessions"
        if config.attentive
        else f"people think {config.think:g} s on average"
    )
    edits = (
        f", table messages edited {config.table_edit_interval:g} s apart at least"
        if config.table_edit_interval != TABLE_EDIT_INTERVAL
        else ""
    )
    lines = [
        f"== {result.tables} tables ({', '.join(config.variants)}), {people}{network}{edits}, "
        f"{max(config.shards, config.processes)} shard(s) in {config.processes} bot "
        f"process(es), load average "
        f"{result.load[0]:.2f} -> {result.load[1]:.2f} on {os.cpu_count()} cores ==",
        f"played        {result.seconds:.1f} s; all {result.tables} tables in play for "
        f"{result.full_house:.1f} s; {result.finished} of {result.tables} hands finished",
        f"actions       {result.player_actions} by players (one per table every "
        f"{result.pace:.1f} s), {result.timeouts} by timers and auto-play",
        *_attentive_lines(result),
        f"click->answer p50 {_ms(p50)}  p95 {_ms(p95)}  p99 {_ms(p99)}  ({result.clicks} "
        f"clicks; {result.late} answered past {DEADLINE:g} s, {result.unanswered} unanswered, "
        f"{result.deferred} deferred)",
        f"click->table  p50 {_s(u50)}  p95 {_s(u95)}  p99 {_s(u99)}  ({result.shown} clicks "
        "until the table message showed them)",
        f"requests      {result.requests} answered: {result.requests_per_turn:.2f} per action, "
        f"{result.global_per_turn:.2f} of them toward the global limit; while all tables "
        f"play {result.global_rate[0]:.1f}/s toward it answered, {result.global_rate[1]:.1f}/s "
        f"tried (limit {GLOBAL_LIMIT})",
        f"edits         per action: table message {result.table_edits_per_turn:.2f}; DMs "
        + ", ".join(f"{k} {v:.2f}" for k, v in result.dm_edits_per_turn.items())
        + " (news: only the text or picture changed)",
        f"invalid       {result.invalid_per_minute:.1f} a minute (401, 403 and 429 answers; "
        "Discord bans a bot past 10,000 in ten minutes)",
        f"429s          {result.rate_limited} ({share(result.rate_limited)} of requests made): "
        f"{result.rate_limited - result.global_rate_limited} from route buckets "
        f"({share(result.rate_limited - result.global_rate_limited)}), "
        f"{result.global_rate_limited} from the global limit "
        f"({share(result.global_rate_limited)})",
        "routes        while all tables play: requests/s, 429s, route",
    ]
    lines += [f"  {rate:7.1f} {refused:5d}  {route}" for route, rate, refused in result.route_rates]
    lines += [
        f"CPU           bot {result.cpu_per_turn * 1000:.1f} ms per player action ("
        + ", ".join(f"{k} {v * 1000:.1f}" for k, v in result.thread_cpu_per_turn.items())
        + f"; {result.cpu_per_action * 1000:.1f} ms per action of any kind), "
        f"{100 * result.bot_cpu_share:.0f} % of a core; fake Discord and people "
        f"{100 * result.driver_cpu_share:.0f} % of a core",
        "pictures      per action: "
        + (
            ", ".join(
                f"{kind} {drawn:.2f} ({cpu * 1000:.1f} ms each)"
                for kind, (drawn, cpu) in result.pictures_per_turn.items()
            )
            or "none"
        ),
        f"bot loop      woke late by p99 {_ms(result.loop_lag[0])}, at most "
        f"{_ms(result.loop_lag[1])}",
        f"fake loop     woke late by p99 {_ms(result.driver_lag[0])}, at most "
        f"{_ms(result.driver_lag[1])}"
        + (
            "; around each global 429 at most "
            + ", ".join(_ms(lag) for lag in result.lag_at_global_429s)
            if result.lag_at_global_429s
            else ""
        ),
        f"gc            bot {_gc_text(result.bot_gc, result.player_actions)}; fake and "
        f"people {_gc_text(result.driver_gc, result.player_actions)}",
        f"memory        bot {result.memory_per_table / 2**20:.2f} MiB per table "
        "(peak RSS in play over RSS before it, by tables)",
        f"budget        {BUDGET:g}/s for the bot: {result.budget_spent} requests sent "
        f"at once, {result.budget_taken} that waited for a slot, "
        f"{result.budget_waited:.1f} s in all ({result.budget_lapsed} table edits left too "
        f"late for the slot they waited for); reactions {result.reactions_per_turn:.2f} "
        "per action",
        f"capacity      at one action per table every {HUMAN_PACE:g} s: every move drawn, "
        f"{GLOBAL_LIMIT} x {HUMAN_PACE:g} / {result.global_per_turn:.2f} requests per action "
        f"= {result.capacity:.0f} tables; with table edits and reactions waiting for the "
        f"bot's budget, {BUDGET:g} x {HUMAN_PACE:g} / "
        f"{result.global_per_turn - result.table_edits_per_turn - result.reactions_per_turn:.2f}"
        f" other requests per action = {result.shared_capacity:.0f} tables, each table's "
        f"picture redrawn every {result.refresh_at_target:.1f} s at {TARGET_TABLES} tables",
    ]
    lines += render_cluster(config.database, result.processes, result.appends, result.append_count)
    if config.sample is not None:
        lines += sampling.summary(config.sample, result.player_actions)
    if config.tasks is not None:
        lines += loop_tasks.summary(config.tasks, result.player_actions)
    if result.stuck_locks:
        after = (
            f"reopened by the benchmark after {GLOBAL_LOCK_GRACE:g} s each time"
            if result.released_locks
            else "the bot could send nothing more"
        )
        lines.append(
            f"global lock   discord.py left its global rate-limit lock closed "
            f"{result.stuck_locks} time(s), a request having been cancelled while it waited "
            f"out a global 429; {after}"
        )
    if result.stalled:
        lines.append(
            f"stalled       no request for {STALL:g} s while {result.tables - result.finished} "
            "tables had not finished: the run stopped there, its figures cover what came "
            "before (the bot's log below says why)"
        )
    if result.errors:
        lines.append(f"failed tables {len(result.errors)}: {result.errors[0]}")
    for warning, count in result.warnings:
        lines.append(f"bot log       {count} x {warning[:160]}")
    for error, trace in result.tracebacks.items():
        lines.append(f"bot error     {error[:160]}, first seen:")
        lines.extend(f"    {line}" for line in trace.rstrip().splitlines())
    return "\n".join(lines)


def _attentive_lines(result: Figures) -> list[str]:
    if not result.attentive:
        return []
    costs = ", ".join(f"{kind} {count:.1f}" for kind, count in result.hand_requests.items())
    return [
        f"attentive     {result.hands_played} hands; attentive people timed out "
        f"{result.person_timeouts} times ({result.autoplay_moves} moves on 托管); "
        f"{result.moves} moves by anyone: {result.global_per_move:.2f} requests per move "
        "toward the global limit",
        f"hand messages per hand: {costs}",
    ]


def verdict(results: Sequence[Figures]) -> str:
    """The targets, checked on the run at TARGET_AT tables (or the largest one)."""
    at = next((r for r in results if r.tables == TARGET_AT), max(results, key=lambda r: r.tables))
    checks = [
        (
            f"p99 click->answer under {_ms(TARGET_P99)}",
            _ms(at.answer[2]),
            at.answer[2] < TARGET_P99,
        ),
        (
            f"no first answer past {DEADLINE:g} s",
            str(at.late + at.unanswered),
            not at.late + at.unanswered,
        ),
        ("no 429 from the global limit", str(at.global_rate_limited), not at.global_rate_limited),
        (
            f"one process could host {TARGET_TABLES} tables",
            f"{at.shared_capacity:.0f} (every move drawn up to {at.capacity:.0f}; pictures "
            f"every {at.refresh_at_target:.1f} s at {TARGET_TABLES})",
            at.shared_capacity >= TARGET_TABLES,
        ),
    ]
    if at.attentive:
        checks += [
            ("attentive people never time out", str(at.person_timeouts), not at.person_timeouts),
            (
                f"at most {ATTENTIVE_GLOBAL_PER_MOVE:g} requests per move toward the global limit",
                f"{at.global_per_move:.2f}",
                at.global_per_move <= ATTENTIVE_GLOBAL_PER_MOVE,
            ),
        ]
    lines = [f"targets at {at.tables} tables:"]
    lines += [f"  {'met   ' if ok else 'missed'} {what}: {value}" for what, value, ok in checks]
    return "\n".join(lines)


def summary(results: Sequence[Figures]) -> str:
    """One line per table count; memory also as the growth from the previous count, which
    leaves out what the process holds however many tables it has."""
    lines = [
        "tables  answer p50/p99  table p50/p99  late  req/action  global/action  "
        "429s  global 429s  invalid/min  CPU ms/action  MiB/table  marginal  capacity  shared"
    ]
    previous: Figures | None = None
    for r in results:
        marginal = "-"
        if previous is not None and r.tables != previous.tables:
            grown = r.memory_per_table * r.tables - previous.memory_per_table * previous.tables
            marginal = f"{grown / (r.tables - previous.tables) / 2**20:.2f}"
        lines.append(
            f"{r.tables:6d}  {_ms(r.answer[0]):>6} {_ms(r.answer[2]):>7}  "
            f"{_s(r.table_update[0]):>6} {_s(r.table_update[2]):>6}  "
            f"{r.late + r.unanswered:4d}  {r.requests_per_turn:10.2f}  "
            f"{r.global_per_turn:13.2f}  {r.rate_limited:4d}  {r.global_rate_limited:11d}  "
            f"{r.invalid_per_minute:11.1f}  "
            f"{r.cpu_per_turn * 1000:13.1f}  {r.memory_per_table / 2**20:9.2f}  {marginal:>8}  "
            f"{r.capacity:8.0f}  {r.shared_capacity:6.0f}"
        )
        previous = r
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from bot.variants import playable_variants

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--tables", type=int, default=50, help="tables played at once")
    parser.add_argument("--sweep", help="several table counts, one after another: 10,50,100")
    parser.add_argument(
        "--think",
        type=float,
        default=LoadConfig.think,
        help="mean seconds a person takes over a prompt (2.5 makes about one action per "
        "table every 3 s)",
    )
    parser.add_argument(
        "--ramp", type=float, default=LoadConfig.ramp, help="seconds over which tables start"
    )
    parser.add_argument(
        "--variants", help="rule sets, given to the tables in turn (default: every playable one)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="milliseconds each way to and from Discord"
    )
    parser.add_argument("--jitter", type=float, default=0.0, help="milliseconds of spread")
    parser.add_argument("--shards", type=int, default=1, help="shards Discord asks for")
    parser.add_argument(
        "--database",
        default="sqlite",
        help="the bot's store: sqlite, postgresql (a server started for the run) or the URL "
        "of an empty PostgreSQL database",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, each its range of the shards (needs --database postgresql)",
    )
    parser.add_argument(
        "--picture-processes",
        type=int,
        default=1,
        help="processes that draw each bot process's pictures (0: threads of the bot process)",
    )
    parser.add_argument(
        "--attentive",
        action="store_true",
        help=f"one person and three AI seats per table, {ATTENTIVE_HANDS}-hand sessions, the "
        "person noticing only new messages and mentions, as on a phone",
    )
    parser.add_argument(
        "--release-global-lock",
        action="store_true",
        help="reopen discord.py's global rate-limit lock when a cancelled request leaves it "
        "closed, to measure past that bug",
    )
    parser.add_argument(
        "--table-edit-interval",
        type=float,
        default=TABLE_EDIT_INTERVAL,
        help="least seconds between two edits of a table message; one longer than a hand "
        "leaves the table messages out, which shows what they cost per move",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="write a cProfile of the bot process in play, in CPU time, to this file "
        "(read it with python -m pstats); the profile adds to the CPU figures",
    )
    parser.add_argument(
        "--tasks",
        type=Path,
        help="write the bot's event loop CPU in play by task and where each step resumed "
        "to this file, and print the dearest (benchmarks/loop_tasks.py); one bot process only",
    )
    parser.add_argument(
        "--record-pictures",
        type=Path,
        help="write every picture the bot drew in play to this file, to draw them again "
        "alone with python -m benchmarks.render --replay FILE (the views kept add to the "
        "memory figure); one bot process only",
    )
    parser.add_argument(
        "--sample",
        type=Path,
        help="sample the bot process and its picture processes in play with py-spy, write "
        "the stacks to this file and print where the CPU went (benchmarks/sampling.py); "
        "one bot process only",
    )
    args = parser.parse_args(argv)
    if args.sample is not None and args.processes > 1:
        parser.error("--sample samples one bot process: leave --processes at 1")
    if args.tasks is not None and args.processes > 1:
        parser.error("--tasks measures one bot process: leave --processes at 1")
    if args.record_pictures is not None and args.processes > 1:
        parser.error("--record-pictures records one bot process: leave --processes at 1")
    counts = [int(n) for n in args.sweep.split(",")] if args.sweep else [args.tables]
    variants = tuple(args.variants.split(",")) if args.variants else playable_variants()
    print(f"machine       {reference_work():.0f} ms of CPU for the reference work", flush=True)
    results = []
    for count in counts:
        config = LoadConfig(
            count,
            variants,
            args.think,
            args.ramp,
            seed=args.seed,
            release_global_lock=args.release_global_lock,
            latency_ms=args.latency,
            jitter_ms=args.jitter,
            shards=args.shards,
            attentive=args.attentive,
            hands=ATTENTIVE_HANDS if args.attentive else 1,
            profile=args.profile,
            sample=args.sample,
            record_pictures=args.record_pictures,
            tasks=args.tasks,
            database=args.database,
            picture_processes=args.picture_processes,
            processes=args.processes,
            table_edit_interval=args.table_edit_interval,
        )
        if config.processes > 1 and config.database == "sqlite":
            parser.error("--processes above 1 needs --database postgresql (or a URL)")
        result = asyncio.run(measure(config))
        results.append(result)
        print(render(config, result), flush=True)
        print(flush=True)
    if len(results) > 1:
        print(summary(results))
        print()
    print(verdict(results))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main())
