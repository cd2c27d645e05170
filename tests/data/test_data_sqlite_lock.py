"""One process at a time has a SQLite database open: a second copy of the bot on the same
file stops at open with one sentence naming the file and the pid that has it. The lock goes
when the store closes, and with the process however it ends, kill -9 included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data import SqliteStore
from data.errors import DatabaseInUseError
from tests.bot_process import ROOT, run_bot

# A bot process, as far as the store goes: it opens the database, says so, and keeps it
# open until its input ends.
_HOLD = """
import asyncio, sys
from data import SqliteStore

async def main() -> None:
    store = await SqliteStore.open(sys.argv[1])
    print("open", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    await store.close()

asyncio.run(main())
"""


def in_use(path: Path, pid: int) -> str:
    return (
        f"The database {path} is in use by another copy of the bot (pid {pid}): stop it"
        " first, or use PostgreSQL (DATABASE_URL) to run several processes."
    )


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process with `tmp_path / "bot.sqlite3"` open."""
    with subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(tmp_path / "bot.sqlite3")],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == "open\n"
        yield process
        process.kill()


async def test_a_second_store_on_the_file_is_refused_until_the_first_closes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    first = await SqliteStore.open(path)
    with pytest.raises(DatabaseInUseError) as caught:
        await SqliteStore.open(path)
    assert str(caught.value) == in_use(path, os.getpid())
    # Another name of the same file is the same database.
    link = tmp_path / "link.sqlite3"
    link.symlink_to(path)
    with pytest.raises(DatabaseInUseError, match="in use by another copy"):
        await SqliteStore.open(link)
    assert (await first.touch_member(1, 2, "Ann")).card_balance == 10
    await first.close()
    # Closed, it may be opened again, as a restarted bot does.
    second = await SqliteStore.open(link)
    assert (await second.touch_member(1, 2, "Ann")).card_balance == 10
    await second.close()


async def test_a_database_another_process_has_open_is_refused_with_its_pid(
    tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    with pytest.raises(DatabaseInUseError) as caught:
        await SqliteStore.open(path)
    assert str(caught.value) == in_use(path, holder.pid)
    # Its store closed as the process ends: the file is free.
    assert holder.stdin is not None
    holder.stdin.close()
    assert holder.wait(timeout=30) == 0
    await (await SqliteStore.open(path)).close()


async def test_a_process_killed_with_sigkill_leaves_no_lock(
    tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    with pytest.raises(DatabaseInUseError, match="in use by another copy"):
        await SqliteStore.open(path)
    os.kill(holder.pid, signal.SIGKILL)
    assert holder.wait(timeout=30) == -signal.SIGKILL
    # The lock file stays, with the dead process's pid in it; the lock went with it.
    assert (tmp_path / "bot.sqlite3.lock").read_text() == f"{holder.pid}\n"
    store = await SqliteStore.open(path)
    assert (tmp_path / "bot.sqlite3.lock").read_text() == f"{os.getpid()}\n"
    await store.close()


def test_a_second_bot_on_the_file_stops_with_one_sentence(
    tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    database = tmp_path / "bot.sqlite3"
    done = run_bot(tmp_path, DISCORD_TOKEN="unused", DATABASE_PATH=str(database))
    # Which status it stops with (the other copy's stopping would let it start) is the
    # launcher's to say.
    assert done.returncode != 0
    (line,) = done.stderr.strip().splitlines()
    assert line.endswith(in_use(database, holder.pid))
