"""A process killed mid-hand restarts and resumes the same hand with identical state.

A child process plays a hand with AI seats through the engine, storing every action
before applying it (as the bot does), and is killed with SIGKILL partway. The restarted
side rebuilds the hand from the store alone and must reach exactly the state of an
uninterrupted hand after the same actions, then play on to the end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from data import Variant
from data.sql_store import SqlStore
from engine.round import Round
from tests.data.crash_player import next_actions, players
from tests.data.databases import Database
from tests.data.store_support import FakeClock, MakeTable

ROOT = Path(__file__).resolve().parents[2]
SEED = "crash-resume"


def _kill_after(database: Database, round_id: int, acknowledged: int) -> int:
    with subprocess.Popen(
        [sys.executable, "-m", "tests.data.crash_player", database.location, str(round_id), SEED],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None
        last = -1
        for line in child.stdout:
            last = int(line)
            if last + 1 >= acknowledged:
                os.kill(child.pid, signal.SIGKILL)
                break
        child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    return last + 1


@pytest.mark.parametrize("variant", [Variant.SICHUAN, Variant.GUANGDONG, Variant.MCR])
async def test_a_killed_hand_resumes_identically(
    store: SqlStore,
    make_table: MakeTable,
    database: Database,
    clock: FakeClock,
    variant: Variant,
) -> None:
    table = await make_table(variant=variant)
    fresh = Round.new(variant.value, {}, SEED)
    setup = fresh.to_script()
    setup.pop("actions")
    round_id = (await store.begin_round(table.id, seed=SEED, setup=setup)).id
    await store.close()

    acknowledged = _kill_after(database, round_id, 25)

    reopened = await database.open(clock)
    try:
        (live,) = await reopened.live_tables()
        assert live.current_round is not None
        stored = live.current_round.actions
        # Every action the child reported was stored. It plays on while its report is
        # read and the signal is sent, so a few more may be stored too: the replay
        # below checks that they are the ones it took, each once and in order.
        assert acknowledged <= len(stored)
        resumed = Round.from_script({**setup, "actions": stored}, seed=SEED)

        uninterrupted = Round.from_script({**setup, "actions": []}, seed=SEED)
        reference = next_actions(uninterrupted, players())
        for _ in stored:
            uninterrupted.apply(next(reference))
        assert resumed.snapshot() == uninterrupted.snapshot()

        # Play on from the restored state: the sequence continues where it stopped.
        seq = len(stored)
        # A restarted bot has fresh AI objects too.
        for action in next_actions(resumed, players()):
            await reopened.append_action(round_id, seq, action.to_json())
            resumed.apply(action)
            seq += 1
        assert resumed.ended
        assert sum(resumed.ledger.nets()) == 0
    finally:
        await reopened.close()
