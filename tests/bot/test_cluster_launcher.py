"""The cluster launcher: its processes' commands and logs, restarts with back-off, a clean
stop passed on to every process, and the settings it refuses."""

from __future__ import annotations

import asyncio
import io
import signal
import sys
from pathlib import Path

import pytest

from bot import cluster as cluster_launcher
from bot.cluster import Backoff, Cluster, Member, check_cluster, members_for
from bot.settings import MAX_SHARD_COUNT, MUST_CHANGE, SettingsError

# A stand-in for a bot process: fails at its first start (status 1, or the status given),
# then runs until SIGTERM, which it answers by stopping cleanly (or ignores).
CHILD = """
import pathlib, signal, sys, time
marker = pathlib.Path(sys.argv[1])
print("hello", flush=True)
if not marker.exists():
    marker.write_text("")
    sys.exit(int(sys.argv[2]))
def bye(*_):
    print("bye", flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[3] == "stubborn" else bye)
print("running", flush=True)
while True:
    time.sleep(0.05)
"""


def member(tmp_path: Path, index: int, status: int = 1, mode: str = "polite") -> Member:
    command = [sys.executable, "-c", CHILD, str(tmp_path / f"started-{index}"), str(status), mode]
    return Member(index, (index * 2, index * 2 + 1), command, Backoff(first=0.05, stable=5.0))


async def until(output: io.StringIO, text: str, count: int = 1) -> None:
    for _ in range(400):
        if output.getvalue().count(text) >= count:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"{text!r} not seen {count} time(s) in:\n{output.getvalue()}")


async def test_a_process_that_stops_is_started_again_and_sigterm_stops_all(
    tmp_path: Path,
) -> None:
    output = io.StringIO()
    cluster = Cluster([member(tmp_path, 0), member(tmp_path, 1)], output=output)
    running = asyncio.create_task(cluster.run())
    await until(output, "running", 2)
    assert [m.starts for m in cluster.members] == [2, 2]
    assert [m.exits for m in cluster.members] == [[1], [1]]
    assert "[0 shards 0-1] hello" in output.getvalue()
    assert "[1 shards 2-3] stopped with status 1; starting it in 0.05 s" in output.getvalue()
    cluster.stop(signal.SIGTERM)
    assert await asyncio.wait_for(running, 10) == 0
    assert "[0 shards 0-1] bye" in output.getvalue() and "[1 shards 2-3] bye" in output.getvalue()
    assert [m.exits for m in cluster.members] == [[1, 0], [1, 0]]


async def test_a_process_that_ignores_sigterm_is_killed_after_the_grace(tmp_path: Path) -> None:
    output = io.StringIO()
    cluster = Cluster([member(tmp_path, 0, mode="stubborn")], output=output, grace=0.3)
    running = asyncio.create_task(cluster.run())
    await until(output, "running")
    cluster.stop()
    assert await asyncio.wait_for(running, 10) == 0
    assert "did not stop within 0.3 s: killed" in output.getvalue()
    assert cluster.members[0].exits[-1] == -signal.SIGKILL


async def test_wrong_settings_stop_the_cluster(tmp_path: Path) -> None:
    """Status 2: a setting, the token or the database must change first (bot/launcher.py)."""
    output = io.StringIO()
    cluster = Cluster([member(tmp_path, 0, status=MUST_CHANGE), member(tmp_path, 1)], output=output)
    assert await asyncio.wait_for(cluster.run(), 10) == MUST_CHANGE
    assert cluster.members[0].starts == 1
    assert "it will not work until something is changed" in output.getvalue()
    assert "stopping the cluster" in output.getvalue()


def test_the_wait_doubles_while_a_process_keeps_failing() -> None:
    backoff = Backoff(first=1, longest=8, stable=60)
    assert [backoff.after_stop(2) for _ in range(5)] == [1, 2, 4, 8, 8]
    assert backoff.after_stop(61) == 1


def test_each_process_runs_its_range() -> None:
    commands = [m.command[1:] for m in members_for(3, 8, python="py")]
    assert commands == [
        ["-m", "bot", "--shards", "0-2", "--shard-count", "8"],
        ["-m", "bot", "--shards", "3-5", "--shard-count", "8"],
        ["-m", "bot", "--shards", "6-7", "--shard-count", "8"],
    ]


def test_several_processes_need_postgresql() -> None:
    env = {"DISCORD_TOKEN": "t"}
    with pytest.raises(SettingsError, match="only share the tables in PostgreSQL"):
        check_cluster(env, 2, 2)
    check_cluster(env, 1, 4)
    check_cluster(env | {"DATABASE_URL": "postgresql://bot@db/mahjong"}, 2, 8)
    with pytest.raises(SettingsError, match="each process needs a shard"):
        check_cluster(env | {"DATABASE_URL": "postgresql://bot@db/mahjong"}, 3, 2)


def test_the_shard_count_is_bounded() -> None:
    env = {"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://bot@db/mahjong"}
    check_cluster(env, 2, MAX_SHARD_COUNT)
    for bad in (0, MAX_SHARD_COUNT + 1):
        with pytest.raises(SettingsError, match=f"--shard-count .* not {bad}$"):
            check_cluster(env, 1, bad)


@pytest.mark.parametrize("given", [["--shard-count", "0"], ["--shard-count", "-2"]])
def test_a_shard_count_below_one_is_refused_not_replaced(
    given: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As python -m bot refuses it: not quietly one shard per process instead."""
    started: list[Cluster] = []

    async def serve(cluster: Cluster) -> int:
        started.append(cluster)
        return 0

    monkeypatch.setattr(cluster_launcher, "serve", serve)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@127.0.0.1:1/mahjong")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    assert cluster_launcher.main(["--processes", "1", *given]) == MUST_CHANGE
    assert not started
    message = capsys.readouterr().err.strip()
    assert message == f"--shard-count (SHARD_COUNT) must be from 1 to 10,000, not {given[1]}"
