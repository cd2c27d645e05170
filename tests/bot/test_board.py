"""The table message shows the latest state and is edited at most once per interval."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from bot.budget import RequestBudget
from bot.tables.board import LAST_EDIT_WITHIN, Board, Scene
from bot.tables.scene import SeatText, table_view
from engine.session import Session

pytestmark = pytest.mark.usefixtures("board_edits_as_calls")


class Recorder:
    """A channel and its one message, keeping the time and text of every edit. Like the
    bot's HTTP session, each request waits for the budget's admission, when given one."""

    def __init__(self, budget: RequestBudget | None = None) -> None:
        self.sent: list[str] = []
        self.edits: list[tuple[float, str]] = []
        self._budget = budget

    async def send(self, content: str, **_: Any) -> Recorder:
        if self._budget is not None:
            await self._budget.admit()
        self.sent.append(content)
        return self

    async def edit(self, *, content: str, **_: Any) -> None:
        if self._budget is not None:
            await self._budget.admit()
        self.edits.append((time.monotonic(), content))


class Table:
    """A table whose message reads "state N"."""

    def __init__(self) -> None:
        hand = Session("sichuan", seed=None).start_hand("board")
        self.view = table_view(hand.view(None), [SeatText(str(s), 0) for s in range(4)], "en", "t")
        self.state = 0

    def scene(self) -> Scene:
        return f"state {self.state}", self.view


async def test_edits_are_coalesced_and_end_on_the_latest_state() -> None:
    table = Table()
    channel = Recorder()
    board = Board(channel, 0.2, table.scene, RequestBudget(50))  # type: ignore[arg-type]
    await board.post()
    for n in range(1, 21):
        table.state = n
        board.touch()
        await asyncio.sleep(0.02)
    await board.settled()
    times = [at for at, _ in channel.edits]
    assert 1 <= len(channel.edits) <= 4
    assert all(b - a >= 0.19 for a, b in itertools.pairwise(times))
    assert channel.edits[-1][1] == "state 20"
    await board.close()


async def test_tables_share_the_budget_and_each_ends_on_its_latest_state() -> None:
    """Ten busy tables wanting 100 edits a second get 20 a second between them, in turn,
    and every table message still ends on its table's latest state."""
    budget = RequestBudget(20)
    tables = [Table() for _ in range(10)]
    channels = [Recorder(budget) for _ in range(10)]
    boards = [Board(channels[n], 0.1, tables[n].scene, budget) for n in range(10)]  # type: ignore[arg-type]
    for board in boards:
        await board.post()
    start = time.monotonic()
    for step in range(1, 11):
        for table, board in zip(tables, boards, strict=True):
            table.state = step
            board.touch()
        await asyncio.sleep(0.1)
    await asyncio.gather(*(board.settled() for board in boards))
    elapsed = time.monotonic() - start
    edits = sorted(at for channel in channels for at, _ in channel.edits)
    # The bucket starts full (one second's worth; the posts took ten), then gives out
    # 20 a second.
    assert len(edits) <= 20 + 20 * elapsed + 1
    assert all(channel.edits[-1][1] == "state 10" for channel in channels)
    assert all(len(channel.edits) >= 2 for channel in channels), "no table was starved"
    for board in boards:
        await board.close()


async def test_an_edit_that_waited_for_its_slot_shows_what_changed_meanwhile() -> None:
    table = Table()
    budget = RequestBudget(5, burst=1)
    channel = Recorder(budget)
    board = Board(channel, 0.0, table.scene, budget)  # type: ignore[arg-type]
    await board.post()  # the one slot there was: the edit waits 0.2 s for the next
    table.state = 1
    board.touch()
    await asyncio.sleep(0.05)
    table.state = 2
    board.touch()
    await board.settled()
    assert [text for _, text in channel.edits] == ["state 2"]
    await board.close()


async def test_a_long_interval_still_shows_the_hands_end_within_a_second() -> None:
    """With table messages edited every 30 s (TABLE_REFRESH_SECONDS), a move waits for the
    next edit; the end of the hand, which the settlement waits for, does not wait 30 s."""
    table = Table()
    channel = Recorder()
    board = Board(channel, 30.0, table.scene, RequestBudget(50))  # type: ignore[arg-type]
    await board.post()
    posted = time.monotonic()
    table.state = 1
    board.touch()
    await asyncio.sleep(0.1)
    assert channel.edits == []  # waiting out the interval
    table.state = 2
    board.touch()
    await asyncio.wait_for(board.settled(), 10)
    ((at, text),) = channel.edits
    assert text == "state 2"
    assert LAST_EDIT_WITHIN - 0.05 <= at - posted < 10
    # Later moves keep the long interval.
    table.state = 3
    board.touch()
    await asyncio.sleep(0.2)
    assert len(channel.edits) == 1
    await board.close()
