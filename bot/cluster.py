"""Run a cluster: ``python -m bot.cluster --processes K [--shard-count N]``.

Starts K bot processes (``python -m bot --shards a-b --shard-count N``), the shards split
in even, contiguous ranges (:func:`bot.shards.split_shards`). Every line a process
writes is shown with its number and shards in front. A process that stops by itself is
started again, after a wait that doubles while it keeps failing soon after its start
(1 s up to a minute); one that stops with status 2 (a setting, the token or the
database must be changed first) stops the whole cluster, since starting it again would
fail the same way. SIGTERM and SIGINT are passed on to every process, which stops
cleanly; one still running after a grace period is killed. The processes share their
tables in PostgreSQL (``DATABASE_URL``), and their shards are fenced by its locks, so a
process killed by anything is replaced by its next start, which resumes its tables
(docs/scaling.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.settings import (
    MAX_SHARD_COUNT,
    MUST_CHANGE,
    Settings,
    SettingsError,
    check_font,
    load_dotenv,
    whole_number,
)
from bot.shards import ShardRangeError, format_shards, split_shards

#: Seconds a process must run to count as started well: a stop after that is a new
#: failure, not one more of a series.
STABLE = 60.0
FIRST_WAIT = 1.0
LONGEST_WAIT = 60.0
#: Seconds the processes get to stop after SIGTERM before they are killed.
GRACE = 30.0


@dataclass
class Backoff:
    """The wait before a process is started again: doubling while it fails soon after
    its starts, from ``first`` up to ``longest``; back to none once it ran ``stable``."""

    first: float = FIRST_WAIT
    longest: float = LONGEST_WAIT
    stable: float = STABLE
    wait: float = 0.0

    def after_stop(self, ran: float) -> float:
        """The wait before the next start of a process that stopped after ``ran`` s."""
        if ran >= self.stable:
            self.wait = 0.0
        self.wait = min(max(self.wait * 2, self.first), self.longest)
        return self.wait


@dataclass
class Member:
    """One process of the cluster: its command, and its runs so far."""

    index: int
    shards: tuple[int, ...]
    command: list[str]
    backoff: Backoff
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    exits: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"[{self.index} shards {format_shards(self.shards)}]"


class Cluster:
    """Runs every member's command until :meth:`stop`, restarting those that stop."""

    def __init__(
        self,
        members: Sequence[Member],
        *,
        env: dict[str, str] | None = None,
        output: TextIO | None = None,
        grace: float = GRACE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.members = list(members)
        self._env = env
        self._output = output or sys.stdout
        self._grace = grace
        self._clock = clock
        self._stopping = asyncio.Event()
        self.status = 0

    def say(self, text: str) -> None:
        print(text, file=self._output, flush=True)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop every process with ``sig`` (clean stop), then the cluster."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self.say(f"[cluster] stopping ({signal.Signals(sig).name})")
        for member in self.members:
            if member.process is not None and member.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    member.process.send_signal(sig)

    async def run(self) -> int:
        """Run until stopped; 0, or the status that stopped the cluster."""
        await asyncio.gather(*(self._keep(member) for member in self.members))
        return self.status

    async def _keep(self, member: Member) -> None:
        while not self._stopping.is_set():
            started = self._clock()
            status = await self._run_once(member)
            member.exits.append(status)
            if self._stopping.is_set():
                break
            if status == MUST_CHANGE:
                self.say(
                    f"{member.label} stopped with status {status}: it will not work until"
                    " something is changed (its line above says what); stopping the cluster"
                )
                self.status = MUST_CHANGE
                self.stop()
                break
            wait = member.backoff.after_stop(self._clock() - started)
            self.say(f"{member.label} stopped with status {status}; starting it in {wait:g} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), wait)

    async def _run_once(self, member: Member) -> int:
        member.starts += 1
        process = await asyncio.create_subprocess_exec(
            *member.command,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=self._env,
            # Its own process group: a Ctrl-C in the terminal reaches the launcher alone,
            # which passes it on once.
            start_new_session=True,
        )
        member.process = process
        self.say(f"{member.label} started (pid {process.pid})")
        copying = asyncio.create_task(self._copy(member, process))
        waiting = asyncio.create_task(process.wait())
        stopping = asyncio.create_task(self._stopping.wait())
        await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            # Stopping: the signal went out; give the process its grace period.
            try:
                await asyncio.wait_for(asyncio.shield(waiting), self._grace)
            except TimeoutError:
                self.say(f"{member.label} did not stop within {self._grace:g} s: killed")
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        stopping.cancel()
        status = await waiting
        await copying
        return status

    async def _copy(self, member: Member, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            self.say(f"{member.label} {line.decode(errors='replace').rstrip()}")


def members_for(
    processes: int,
    shard_count: int,
    *,
    python: str = sys.executable,
    backoff: Callable[[], Backoff] = Backoff,
) -> list[Member]:
    """The K processes of a cluster, each running its range of the shards."""
    return [
        Member(
            index,
            shards,
            [
                python,
                "-m",
                "bot",
                "--shards",
                format_shards(shards),
                "--shard-count",
                str(shard_count),
            ],
            backoff(),
        )
        for index, shards in enumerate(split_shards(shard_count, processes))
    ]


def check_cluster(env: dict[str, str], processes: int, shard_count: int) -> None:
    """Refuse a cluster the settings cannot run: several processes need PostgreSQL."""
    if processes < 1:
        raise SettingsError(f"--processes must be 1 or more, not {processes}")
    if not 1 <= shard_count <= MAX_SHARD_COUNT:
        raise SettingsError(
            f"--shard-count (SHARD_COUNT) must be from 1 to {MAX_SHARD_COUNT:,}, not {shard_count}"
        )
    try:
        split_shards(shard_count, processes)
    except ShardRangeError as exc:
        raise SettingsError(str(exc)) from None
    probe = dict(env)
    probe.pop("SHARDS", None)
    probe["SHARD_COUNT"] = str(shard_count)
    settings = Settings.from_env(probe)
    if processes > 1 and settings.database_url is None:
        raise SettingsError(
            f"{processes} processes can only share the tables in PostgreSQL: set"
            " DATABASE_URL=postgresql://… (docs/scaling.md), or run one process"
            " (python -m bot)"
        )


def _shard_count(env: dict[str, str], processes: int) -> int:
    """``SHARD_COUNT``, else one shard per process."""
    value = env.get("SHARD_COUNT", "").strip()
    if not value:
        return processes
    count = whole_number(value)
    if count is None:
        raise SettingsError(f"SHARD_COUNT must be a whole number, not {value!r}")
    return count


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.cluster",
        description="Run the bot as several processes, each with its range of the shards.",
    )
    parser.add_argument("--processes", type=int, required=True, help="how many processes")
    parser.add_argument(
        "--shard-count",
        type=int,
        help="shards in all (default: SHARD_COUNT, else one per process)",
    )
    return parser.parse_args(argv)


async def serve(cluster: Cluster) -> int:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, cluster.stop, sig)
    return await cluster.run()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    load_dotenv(Path(".env"))
    env = dict(os.environ)
    try:
        count = (
            _shard_count(env, arguments.processes)
            if arguments.shard_count is None
            else arguments.shard_count
        )
        check_cluster(env, arguments.processes, count)
        check_font()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return MUST_CHANGE
    # The processes take their shards from the command line.
    env.pop("SHARDS", None)
    env.pop("SHARD_COUNT", None)
    cluster = Cluster(members_for(arguments.processes, count), env=env)
    return asyncio.run(serve(cluster))


if __name__ == "__main__":
    raise SystemExit(main())
