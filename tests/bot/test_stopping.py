"""Stopping a table's message tasks never cuts a Discord request short (discord.py would
leave its global rate-limit lock closed if the request was waiting out a global 429)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.budget import RequestBudget
from bot.tables.board import Board, Scene
from bot.tables.scene import SeatText, table_view
from bot.tables.stopping import Requests
from engine.session import Session


async def test_stop_waits_for_the_request_in_flight_then_cancels() -> None:
    requests = Requests()
    answered = asyncio.Event()
    events: list[str] = []

    async def sender() -> None:
        with requests.sending():
            await answered.wait()
            events.append("answered")
        await asyncio.sleep(3600)
        events.append("never")

    task = asyncio.create_task(sender())
    await asyncio.sleep(0)
    stopping = asyncio.create_task(requests.stop(task))
    await asyncio.sleep(0.01)
    assert not task.cancelled() and not stopping.done(), "the request is still in flight"
    answered.set()
    await stopping
    assert events == ["answered"]
    assert task.cancelled()


async def test_stop_cancels_at_once_between_requests() -> None:
    requests = Requests()
    task = asyncio.create_task(asyncio.sleep(3600))
    await asyncio.wait_for(requests.stop(task, None), 1)
    assert task.cancelled()


class SlowChannel:
    """A table message whose edit takes a while, like one waiting out a 429."""

    def __init__(self) -> None:
        self.edits_started = 0
        self.edits_done = 0
        self.release = asyncio.Event()

    async def send(self, content: str, **_: Any) -> SlowChannel:
        return self

    async def edit(self, **_: Any) -> None:
        self.edits_started += 1
        await self.release.wait()
        self.edits_done += 1


@pytest.mark.usefixtures("board_edits_as_calls")
async def test_closing_a_board_lets_its_edit_finish() -> None:
    hand = Session("sichuan", seed=None).start_hand("board")
    view = table_view(hand.view(None), [SeatText(str(s), 0) for s in range(4)], "en", "t")

    def scene() -> Scene:
        return "state", view

    channel = SlowChannel()
    board = Board(channel, 0.0, scene, RequestBudget(50))  # type: ignore[arg-type]
    await board.post()
    board.touch()
    while not channel.edits_started:
        await asyncio.sleep(0.01)
    closing = asyncio.create_task(board.close())
    await asyncio.sleep(0.05)
    assert not closing.done()
    channel.release.set()
    await closing
    assert channel.edits_done == 1
