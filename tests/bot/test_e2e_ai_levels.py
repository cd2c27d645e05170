"""AI levels through the fake Discord: the level chosen in the lobby is the level that
plays, a table's own level fills its empty seats, and 托管 plays strong."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.runtime.seats import STAND_IN_LEVEL, STORED_LEVELS, stored_level
from engine.actions import Action
from engine.ai import EasyPlayer, ShantenPlayer, StrongPlayer
from engine.view import View
from tests.bot.harness import Harness
from tests.bot.test_e2e_failures import next_controls


class Spy:
    """Records which strong players chose, and for which seat."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[int, int | None]] = []
        original = StrongPlayer.choose
        spy = self

        def choose(
            self: StrongPlayer, view: View, legal: Sequence[Action], default: Action | None = None
        ) -> Action:
            spy.calls.append((id(self), view.viewer))
            return original(self, view, legal, default)

        monkeypatch.setattr(StrongPlayer, "choose", choose)

    async def until(self, player: object, timeout: float = 15.0) -> None:
        async def wait() -> None:
            while not any(who == id(player) for who, _ in self.calls):
                await asyncio.sleep(0.02)

        await asyncio.wait_for(wait(), timeout)


def test_stored_levels_keep_their_numbers() -> None:
    assert STORED_LEVELS[:3] == ("random", "basic", "normal")
    assert (stored_level("easy"), stored_level("strong")) == (3, 4)
    assert STAND_IN_LEVEL == "strong"


async def test_the_level_chosen_in_the_lobby_is_the_level_that_plays(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan", rounds="1")
    for level in ("strong", "easy", "normal"):
        added = await host.choose(lobby, level, placeholder="Add an AI player…")
        await added.response()
    content = harness.live(lobby).content
    assert "2. AI 1 (strong)" in content
    assert "3. AI 2 (easy)" in content
    assert "4. AI 3 (normal)" in content
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None
    assert [seat.ai_level for seat in table.seats][1:] == [4, 3, 2]
    started = await host.click(lobby, label="Start")
    await started.response()
    chairs = harness.running().chairs
    assert [c.level for c in chairs] == ["", "strong", "easy", "normal"]
    assert isinstance(chairs[1].ai, StrongPlayer)
    assert isinstance(chairs[2].ai, EasyPlayer)
    assert isinstance(chairs[3].ai, ShantenPlayer) and chairs[3].ai.level == "normal"
    # The strong seat makes its own moves (换三张 and 定缺 at least) with its strong player.
    await spy.until(chairs[1].ai)


async def test_a_tables_level_fills_its_empty_seats(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(
        host, "guangdong", rounds="1", fill_with_ai="true", options="ai_level=strong"
    )
    started = await host.click(lobby, label="Start")
    await started.response()
    chairs = harness.running().chairs
    assert [c.level for c in chairs] == ["", "strong", "strong", "strong"]
    assert all(isinstance(c.ai, StrongPlayer) for c in chairs[1:])


async def test_auto_play_plays_strong(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    me = harness.owner
    lobby = await harness.open_table(
        me,
        "sichuan",
        rounds="1",
        fill_with_ai="true",
        turn_timer="1",
        claim_timer="1",
        options="ai_level=easy",
    )
    started = await me.click(lobby, label="Start")
    await started.response()
    await next_controls(
        harness, me, lambda m: any(b.get("label") == "I'm back" for b in m.buttons()), timeout=15
    )
    table = harness.running()
    chair = table.chair_of_user(me.id)
    assert chair is not None and chair.autoplay
    assert isinstance(table.stand_in, StrongPlayer)
    # Only the stand-in is strong at this table: every strong move is one for the person.
    await spy.until(table.stand_in)
    assert all(who == id(table.stand_in) for who, _ in spy.calls)
