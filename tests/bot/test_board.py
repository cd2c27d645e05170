"""The table message shows the latest state and is edited at most once per interval."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

from bot.tables.board import Board, Scene
from bot.tables.scene import SeatText, table_view
from engine.session import Session


class Recorder:
    """A channel and its one message, keeping the time and text of every edit."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edits: list[tuple[float, str]] = []

    async def send(self, content: str, **_: Any) -> Recorder:
        self.sent.append(content)
        return self

    async def edit(self, *, content: str, **_: Any) -> None:
        self.edits.append((time.monotonic(), content))


async def test_edits_are_coalesced_and_end_on_the_latest_state() -> None:
    hand = Session("sichuan", seed=None).start_hand("board")
    view = table_view(hand.view(None), [SeatText(str(s), 0) for s in range(4)], "en", "t")
    state = {"n": 0}

    async def scene() -> Scene:
        return f"state {state['n']}", view

    channel = Recorder()
    board = Board(channel, 0.2, scene)  # type: ignore[arg-type]
    await board.post()
    for n in range(1, 21):
        state["n"] = n
        board.touch()
        await asyncio.sleep(0.02)
    await board.settled()
    times = [at for at, _ in channel.edits]
    assert 1 <= len(channel.edits) <= 4
    assert all(b - a >= 0.19 for a, b in itertools.pairwise(times))
    assert channel.edits[-1][1] == "state 20"
    await board.close()
