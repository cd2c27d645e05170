"""摸切 and 自动胡: the person's toggles, and the moves they make without a click."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.clicks import ACT, AUTO, Click, button_arg
from bot.runtime.snapshots import Problem, SeatState
from bot.runtime.standing import Order, StandingOrders, standing_action
from bot.runtime.table import Source, TableRuntime, Tempo
from data.models import Variant
from data.sqlite import SqliteStore
from engine.actions import Action, Discard, Pass, Win
from engine.controls import PickOne
from engine.round import Phase, Round
from engine.rules.registry import find_ruleset
from engine.tiles import parse_tile
from tests.engine.round.helpers import deal
from tests.runtime.test_table_runtime import Recorder, make_table, started

GUANGDONG = find_ruleset("guangdong")
# The dealer holds a complete hand; seat 1 draws 5筒 after the dealer's 东.
WINNING = ("234567m789p55999s", "1112345678999m", "1234567p123456s", "7899p3456789sE1p")
READY = ("234567m789p5599sE", "1112345678999m", "1234567p123456s", "7899p3456789sES")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "orders.sqlite3", synchronous="NORMAL")
    yield opened
    await opened.close()


def test_auto_win_takes_a_win_and_mo_qie_leaves_it_to_the_person() -> None:
    hand = deal(GUANGDONG, WINNING)
    assert standing_action(hand, 0, StandingOrders(win=True)) == Win(0)
    assert standing_action(hand, 0, StandingOrders(drawn=True)) is None
    assert standing_action(hand, 0, StandingOrders()) is None


def test_mo_qie_discards_the_drawn_tile_only() -> None:
    hand = deal(GUANGDONG, READY, front="5p")
    # The dealer was dealt 14 tiles: none of them is drawn.
    assert standing_action(hand, 0, StandingOrders(drawn=True)) is None
    hand.apply(Discard(0, parse_tile("E")))
    while hand.to_act() and hand.to_act()[0] != 1:
        hand.apply(Pass(hand.to_act()[0]))
    assert hand.view(1).seats[1].drawn == parse_tile("5p")
    assert standing_action(hand, 1, StandingOrders(drawn=True)) == Discard(1, parse_tile("5p"))
    assert standing_action(hand, 1, StandingOrders(win=True)) is None


async def asked(runtime: TableRuntime, recorder: Recorder) -> AsyncIterator[SeatState]:
    """Each state in which chair 0 waits for the person, until the hand is settled."""
    while True:
        await recorder.until(
            lambda: bool(recorder.settled) or runtime.seat_state(0).waits_for_person
        )
        if recorder.settled:
            return
        yield runtime.seat_state(0)


def pass_click(runtime: TableRuntime, chair: int) -> Click:
    state = runtime.seat_state(chair)
    assert state.controls is not None
    (control,) = state.controls.controls
    assert isinstance(control, PickOne)
    index = next(i for i, c in enumerate(control.choices) if c.action.name == "pass")
    return Click(ACT, state.facts.number, state.seq, button_arg("pass", 0, index))


async def test_mo_qie_plays_the_persons_turns_until_the_hand_ends(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime, recorder = await started(store, Variant.GUANGDONG, 1)
    turns: list[tuple[Action, Source, int | None, bool]] = []
    act = TableRuntime.act

    async def recording(
        self: TableRuntime, seat: int, action: Action, source: Source, **kwargs: Any
    ) -> Any:
        hand = self._hand().hand
        if self.chair_at(seat).chair == 0 and hand.phase.value == "turn":
            legal = hand.legal_actions(seat)
            only_discards = all(isinstance(a, Discard) for a in legal)
            turns.append((action, source, hand.view(seat).seats[seat].drawn, only_discards))
        return await act(self, seat, action, source, **kwargs)

    monkeypatch.setattr(TableRuntime, "act", recording)
    await recorder.until(lambda: runtime.seat_state(0).asks)
    first = runtime.seat_state(0)
    bad = Click(AUTO, first.facts.number, first.seq, "everything")
    assert (await runtime.click(0, bad)).problem is Problem.EXPIRED
    toggled = await runtime.click(0, Click(AUTO, first.facts.number, first.seq, "drawn"))
    assert toggled.state is not None and toggled.state.orders == {Order.DRAWN}
    async for state in asked(runtime, recorder):
        if state.kind == "turn":
            # Asked only when the turn offers more than a discard, or nothing was drawn.
            assert state.view.seats[state.seat].drawn is None or any(
                not isinstance(a, Discard) for a in state.legal
            )
            discard = next(a for a in state.legal if isinstance(a, Discard))
            async with runtime.lock:
                await runtime.act(state.seat, discard, Source.PLAYER, actor=0)
        else:
            await runtime.click(0, pass_click(runtime, 0))
    ordered = [t for t in turns if t[2] is not None and t[3]]
    assert ordered, "some turns were played by the order"
    for action, source, drawn, _ in ordered:
        assert drawn is not None
        assert action == Discard(action.seat, drawn) and source is Source.PLAYER
    await runtime.close()


# MCR's 报听: the dealer declares ready on 5筒 by discarding 东; the others hold nothing
# that claims what goes round.
MCR = find_ruleset("mcr")
DECLARING = ("123m456m789m123p5pE", "1469m258p369sSWN", "1469m147p369sSWN", "2578m369p147sSWN")
PLAIN = {"min_fan": 0, "dice_modes": [], "doubling": False, "horses": False, "wildcard": False}


def _to_the_dealers_turn(hand: Round) -> None:
    while not (hand.phase is Phase.TURN and hand.to_act() == [0]):
        seat = hand.to_act()[0]
        drawn = hand.view(seat).seats[seat].drawn
        hand.apply(
            Discard(seat, drawn) if hand.phase is Phase.TURN and drawn is not None else Pass(seat)
        )


@pytest.mark.parametrize(("drawn", "ordered"), [("9s", Discard(0, parse_tile("9s"))), ("5p", None)])
def test_a_declared_ready_hand_lets_each_drawn_tile_go_unless_it_wins(
    drawn: str, ordered: Action | None
) -> None:
    hand = deal(MCR, DECLARING, front=f"1s2s3s{drawn}", options=PLAIN)
    hand.apply(Discard(0, parse_tile("E"), declare_ready=True))
    _to_the_dealers_turn(hand)
    # No toggle is on: the declaration itself is the order (mcr.md §2.4); a winning tile
    # is the player's to take or pass.
    assert standing_action(hand, 0, StandingOrders()) == ordered


async def test_a_person_who_declared_ready_is_never_asked_for_a_discard_again(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await make_table(store, Variant.MCR, 1, min_fan=0, dice_modes=[], turn_timer=20)
    numbers = itertools.count()
    recorder = Recorder()
    runtime = TableRuntime(
        table, store, recorder, tempo=Tempo(0.0, 0.0), seeds=lambda: f"ready-{next(numbers)}"
    )
    locked: list[tuple[Action, Source]] = []
    act = TableRuntime.act

    async def recording(
        self: TableRuntime, seat: int, action: Action, source: Source, **kwargs: Any
    ) -> Any:
        hand = self._hand().hand
        if self.chair_at(seat).chair == 0 and hand.phase is Phase.TURN and hand.ready(seat):
            locked.append((action, source))
        return await act(self, seat, action, source, **kwargs)

    monkeypatch.setattr(TableRuntime, "act", recording)
    await runtime.start()
    declared = False
    async for state in asked(runtime, recorder):
        hand = runtime._hand().hand
        if state.kind == "turn" and hand.ready(state.seat) is not None:
            # Asked only to take or pass a win.
            assert any(isinstance(a, Win) for a in state.legal)
        ready = [a for a in state.legal if isinstance(a, Discard) and a.declare_ready]
        declared = declared or bool(ready)
        action = ready[0] if ready else runtime._choose(state.seat)
        async with runtime.lock:
            await runtime.act(state.seat, action, Source.PLAYER, actor=0)
    assert declared and locked, "the person declared ready and drew again"
    assert all(isinstance(a, Discard) and s is Source.PLAYER for a, s in locked)
    assert runtime.chairs[0].timeouts == 0 and not runtime.chairs[0].autoplay
    await runtime.close()
