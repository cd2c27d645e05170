"""The table runtime on its own: a real store and the real engine, no Discord at all.

A recording listener stands where the presenters stand; people are played by answering
their controls with clicks built exactly as the controls' custom_ids carry them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.clicks import ACT, AUTO, BACK, PICK, Click, button_arg, chosen_name, select_arg
from bot.runtime.seats import stored_level
from bot.runtime.snapshots import (
    HandStart,
    Notice,
    Outcome,
    Problem,
    SeatState,
    Settled,
)
from bot.runtime.table import Source, TableRuntime, Tempo
from data.models import PlayerSettings, Table, Variant
from data.sqlite import SqliteStore
from engine.actions import Action, Discard, Pass
from engine.ai.strategy import ShantenPlayer
from engine.controls import PickNumbers, PickOne, PickTiles

GUILD = 1_000
PEOPLE = (101, 102, 103, 104)
WAIT = 20.0


class Recorder:
    """The runtime's listener: keeps everything it is told, in order."""

    def __init__(self) -> None:
        self.starts: list[HandStart] = []
        self.outcomes: list[Outcome] = []
        self.settled: list[Settled] = []
        self.over: list[tuple[int, int, int, int]] = []
        self.pauses: list[bool] = []
        self.news = asyncio.Event()

    async def hand_started(self, start: HandStart) -> None:
        self.starts.append(start)
        self.news.set()

    def changed(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.news.set()

    async def hand_settled(self, settled: Settled) -> None:
        self.settled.append(settled)
        self.news.set()

    async def session_over(self, scores: tuple[int, int, int, int]) -> None:
        self.over.append(scores)
        self.news.set()

    def paused(self, paused: bool) -> None:
        self.pauses.append(paused)
        self.news.set()

    async def until(self, done: Callable[[], bool], timeout: float = WAIT) -> None:
        async def wait() -> None:
            while not done():
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(wait(), timeout)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "runtime.sqlite3", synchronous="NORMAL")
    yield opened
    await opened.close()


def seeds() -> Callable[[], str]:
    numbers: Iterator[int] = itertools.count()
    return lambda: f"runtime-seed-{next(numbers)}"


async def make_table(
    store: SqliteStore,
    variant: Variant,
    people: int,
    *,
    ai_level: str = "normal",
    rounds: int = 1,
    **options: Any,
) -> Table:
    """A started table of ``rounds`` hands: ``people`` persons in the first chairs, AI seats
    in the rest."""
    table = await store.create_table(
        guild_id=GUILD,
        channel_id=None,
        creator_id=PEOPLE[0],
        creator_name="P0",
        variant=variant,
        options={"rounds": rounds, **options},
        rounds=rounds,
    )
    for chair in range(1, 4):
        if chair < people:
            await store.take_seat(table.id, display_name=f"P{chair}", user_id=PEOPLE[chair])
        else:
            await store.take_seat(
                table.id, display_name=f"AI {chair}", ai_level=stored_level(ai_level)
            )
    await store.start_table(table.id, key=f"start-{table.id}")
    return await store.get_table(table.id)


def runtime_for(
    table: Table,
    store: SqliteStore,
    recorder: Recorder,
    settings: dict[int, PlayerSettings] | None = None,
) -> TableRuntime:
    return TableRuntime(
        table, store, recorder, tempo=Tempo(0.0, 0.0), settings=settings, seeds=seeds()
    )


async def started(
    store: SqliteStore, variant: Variant, people: int, **options: Any
) -> tuple[TableRuntime, Recorder]:
    """A table of ``people`` persons and AI seats, its first hand dealt and shown."""
    recorder = Recorder()
    runtime = runtime_for(await make_table(store, variant, people, **options), store, recorder)
    await runtime.start()
    return runtime, recorder


def answer_click(state: SeatState) -> Click:
    """The click a person makes on the state's controls: the suggestion where there is one,
    else the first choice (the first tiles, no horses)."""
    assert state.controls is not None
    number = state.facts.number
    for index, control in enumerate(state.controls.controls):
        if isinstance(control, PickNumbers):
            continue
        if isinstance(control, PickTiles):
            picked = control.suggested or tuple(range(control.least))
            arg = select_arg(chosen_name(control), index)
            return Click(PICK, number, state.seq, arg, tuple(str(p) for p in picked))
        assert isinstance(control, PickOne)
        choice = control.suggested or 0
        name = control.choices[choice].action.name
        return Click(ACT, number, state.seq, button_arg(name, index, choice))
    raise AssertionError(f"nothing to answer in {state.controls}")


async def play_people(runtime: TableRuntime, recorder: Recorder, chairs: list[int]) -> None:
    """Answer every prompt of these chairs until the hand is settled."""
    while not recorder.settled:
        await recorder.until(
            lambda: (
                bool(recorder.settled)
                or any(runtime.seat_state(c).asks for c in chairs if runtime.current is not None)
            )
        )
        for chair in chairs:
            if recorder.settled or runtime.current is None:
                break
            state = runtime.seat_state(chair)
            if state.asks and not state.autoplay:
                result = await runtime.click(chair, answer_click(state))
                assert result.problem is None and result.refused is None, result


def stored_actions_match(runtime: TableRuntime, actions: list[dict[str, Any]]) -> bool:
    assert runtime.hand is not None
    return [a.to_json() for a in runtime.hand.actions] == actions


@pytest.mark.parametrize("variant", list(Variant))
async def test_a_whole_hand_of_each_rule_set(store: SqliteStore, variant: Variant) -> None:
    runtime, recorder = await started(store, variant, 2)
    await play_people(runtime, recorder, [0, 1])
    await recorder.until(lambda: bool(recorder.over))
    (settled,) = recorder.settled
    assert settled.last and settled.hand.ended
    script = await store.round_script(settled.round_id)
    assert script["actions"] == [a.to_json() for a in settled.hand.actions]
    assert sum(recorder.over[0]) == 0
    # Everything people were told went through snapshots, in order, each newer than before.
    revisions = [o.revision for o in recorder.outcomes]
    assert revisions == sorted(revisions) and len(set(revisions)) == len(revisions)
    for outcome in recorder.outcomes:
        for state in outcome.seats:
            for info in state.view.seats:
                if info.seat != state.seat and state.view.phase != "end":
                    assert info.concealed is None
    await runtime.close()


async def test_a_stale_click_and_a_second_click_change_nothing(store: SqliteStore) -> None:
    runtime, recorder = await started(store, Variant.SICHUAN, 1)
    await recorder.until(lambda: runtime.seat_state(0).asks)
    first = runtime.seat_state(0)
    click = answer_click(first)
    assert (await runtime.click(0, click)).state is not None
    again = await runtime.click(0, click)
    assert again.problem is Problem.ALREADY
    stale = Click(click.kind, click.hand_no, first.seq - 1, click.arg, click.values)
    assert (await runtime.click(0, stale)).problem is Problem.EXPIRED
    old_hand = Click(click.kind, click.hand_no + 1, first.seq, click.arg, click.values)
    assert (await runtime.click(0, old_hand)).problem is Problem.EXPIRED
    now = runtime.seat_state(0)
    if now.asks:
        forged = Click(ACT, click.hand_no, now.seq, "pong.9.9")
        assert (await runtime.click(0, forged)).problem is Problem.EXPIRED
    live = await store.live_tables()
    assert live[0].current_round is not None
    assert stored_actions_match(runtime, live[0].current_round.actions)
    await runtime.close()


async def test_a_refused_move_is_stored_nowhere_and_told(store: SqliteStore) -> None:
    runtime, recorder = await started(store, Variant.GUANGDONG, 1)
    await recorder.until(lambda: runtime.seat_state(0).kind == "turn")
    seat = runtime.seat_of(0)
    async with runtime.lock:
        assert runtime.hand is not None
        held = runtime.hand.view(seat).seats[seat].concealed
        assert held is not None
        missing = next(k for k, n in enumerate(held) if not n)
        told = len(recorder.outcomes)
        refusal = await runtime.act(seat, Discard(seat, missing), Source.PLAYER)
    assert refusal is not None and refusal.reason
    assert len(recorder.outcomes) == told, "nothing was told"
    (live,) = await store.live_tables()
    assert live.current_round is not None
    assert stored_actions_match(runtime, live.current_round.actions)
    await runtime.close()


async def test_time_outs_play_for_the_person_then_auto_play_until_back(
    store: SqliteStore,
) -> None:
    runtime, recorder = await started(store, Variant.SICHUAN, 1, turn_timer=1, claim_timer=1)
    chair = runtime.chairs[0]
    await recorder.until(lambda: chair.autoplay, timeout=15)
    notices = [n for o in recorder.outcomes for n in o.notices]
    assert [n.notice for n in notices] == [Notice.AUTOPLAY_ON]
    assert (await store.get_table(runtime.id)).seats[0].autoplay
    # Every time-out was an action chosen for the person and stored before it was told.
    live = await store.live_tables()
    assert live[0].current_round is not None and len(live[0].current_round.actions) >= 2
    state = runtime.seat_state(0)
    back = await runtime.click(0, Click(BACK, state.facts.number, 0))
    assert back.state is not None and not back.state.autoplay
    assert not (await store.get_table(runtime.id)).seats[0].autoplay
    assert recorder.outcomes[-1].notices[-1].notice is Notice.AUTOPLAY_OFF
    await runtime.close()


async def prompt_closed(runtime: TableRuntime, recorder: Recorder, chair: int, seq: int) -> None:
    """Wait until the chair's prompt ``seq`` is answered or over."""
    await recorder.until(lambda: runtime.seat_state(chair).seq != seq)


async def time_out_on_a_claim(runtime: TableRuntime, recorder: Recorder) -> int:
    """Play chair 0's turns until one of its claim windows runs out as the person's second
    time-out in a row; how many outcomes were told before that time-out."""
    chair = runtime.chairs[0]
    before = len(recorder.outcomes)
    while chair.timeouts < 2:
        await recorder.until(
            lambda: runtime.seat_state(0).kind in ("turn", "claim") or bool(recorder.settled)
        )
        assert not recorder.settled, "no claim of the person's ran out this hand"
        state = runtime.seat_state(0)
        if state.kind == "turn":
            assert (await runtime.click(0, answer_click(state))).problem is None
            continue
        # A window another seat's claim closes first is no time-out: wait for the next.
        before = len(recorder.outcomes)
        chair.timeouts = 1
        await prompt_closed(runtime, recorder, 0, state.seq)
    return before


async def test_a_second_time_out_on_a_claim_waits_for_the_persons_own_move(
    store: SqliteStore,
) -> None:
    """Auto-play announced as a claim window closes would tell the table that the person
    could claim that discard: it starts with their own next move instead."""
    runtime, recorder = await started(store, Variant.GUANGDONG, 1, turn_timer=300, claim_timer=1)
    chair = runtime.chairs[0]
    seat = runtime.seat_of(0)
    await time_out_on_a_claim(runtime, recorder)
    assert chair.timeouts == 2 and not chair.autoplay
    await recorder.until(lambda: chair.autoplay)
    (told,) = [o for o in recorder.outcomes if o.notices]
    assert [n.notice for n in told.notices] == [Notice.AUTOPLAY_ON]
    assert told.public and getattr(told.public[0], "seat", None) == seat
    assert told.board is not None
    await runtime.close()


async def test_a_switch_held_back_from_a_claim_is_made_before_the_next_prompt_is_shown(
    store: SqliteStore,
) -> None:
    """The person's next own turn is the AI's from the start: shown as theirs to answer, it
    would ring their phone for a move the AI makes a moment later, and ring again for
    auto-play."""
    runtime, recorder = await started(store, Variant.GUANGDONG, 1, turn_timer=300, claim_timer=1)
    chair = runtime.chairs[0]
    before = await time_out_on_a_claim(runtime, recorder)
    await recorder.until(lambda: chair.autoplay)
    mine = [s for o in recorder.outcomes[before:] for s in o.seats if s.chair == 0]
    # Claim windows that open meanwhile are the person's as before (decision 17).
    assert not any(s.waits_for_person for s in mine if s.kind != "claim")
    (told,) = [o for o in recorder.outcomes[before:] if o.notices]
    assert [(n.notice, n.chair) for n in told.notices] == [(Notice.AUTOPLAY_ON, 0)]
    (switched,) = [s for s in told.seats if s.chair == 0]
    assert switched.kind == "turn" and switched.autoplay and switched.deadline is None
    assert (await store.get_table(runtime.id)).seats[0].autoplay
    # The AI plays that turn as it plays every move on auto-play: no time-out.
    timeouts = chair.timeouts
    await prompt_closed(runtime, recorder, 0, switched.seq)
    assert chair.timeouts == timeouts
    await runtime.close()


async def test_a_switch_held_back_at_a_hands_end_is_made_before_the_next_is_shown(
    store: SqliteStore,
) -> None:
    """The hand's last claim window closed on the person's second time-out in a row: the
    next hand's first prompt (换三张, everyone's at once) is shown as the AI's from the
    deal on."""
    runtime: TableRuntime | None = None

    class GoneAtTheEnd(Recorder):
        async def hand_settled(self, settled: Settled) -> None:
            await super().hand_settled(settled)
            assert runtime is not None
            runtime.chairs[0].timeouts = 2

    recorder = GoneAtTheEnd()
    table = await make_table(store, Variant.SICHUAN, 1, rounds=4, turn_timer=300, claim_timer=300)
    runtime = runtime_for(table, store, recorder)
    await runtime.start()
    await play_people(runtime, recorder, [0])
    await recorder.until(lambda: len(recorder.starts) == 2 and runtime.chairs[0].autoplay)
    (dealt,) = [s for s in recorder.starts[1].seats if s.chair == 0]
    assert dealt.kind == "exchange" and dealt.autoplay and not dealt.waits_for_person
    assert dealt.deadline is None
    (told,) = [o for o in recorder.outcomes if o.notices]
    assert [(n.notice, n.chair) for n in told.notices] == [(Notice.AUTOPLAY_ON, 0)]
    assert told.revision > recorder.starts[1].board.revision
    await runtime.close()


async def test_time_outs_in_a_row_run_on_across_the_deal(store: SqliteStore) -> None:
    """Gone at the end of one hand, still gone at the start of the next: the first time-out
    of the new hand is the second in a row."""
    table = await store.create_table(
        guild_id=GUILD,
        channel_id=None,
        creator_id=PEOPLE[0],
        creator_name="P0",
        variant=Variant.GUANGDONG,
        options={"rounds": 4, "turn_timer": 1, "claim_timer": 1},
        rounds=4,
    )
    for number in range(1, 4):
        await store.take_seat(
            table.id, display_name=f"AI {number}", ai_level=stored_level("normal")
        )
    await store.start_table(table.id, key=f"start-{table.id}")
    runtime: TableRuntime | None = None

    class GoneAtTheEnd(Recorder):
        async def hand_settled(self, settled: Settled) -> None:
            await super().hand_settled(settled)
            if len(self.settled) == 1:
                assert runtime is not None
                # The person let the last prompt of the hand run out.
                runtime.chairs[0].timeouts = 1

    recorder = GoneAtTheEnd()
    runtime = runtime_for(await store.get_table(table.id), store, recorder)
    timed_out: list[int] = []
    time_out = runtime._time_out

    async def counted(seat: int) -> None:
        timed_out.append(len(recorder.settled))
        await time_out(seat)

    runtime._time_out = counted  # type: ignore[method-assign]
    await runtime.start()
    await play_people(runtime, recorder, [0])
    chair = runtime.chairs[0]
    await recorder.until(lambda: chair.autoplay, timeout=15)
    assert [n for n in timed_out if n] == [1], "auto-play from the next hand's first time-out"
    await runtime.close()


async def test_time_outs_leave_auto_play_off_for_a_person_who_says_so(
    store: SqliteStore,
) -> None:
    table = await make_table(store, Variant.SICHUAN, people=1, turn_timer=1, claim_timer=1)
    recorder = Recorder()
    settings = {PEOPLE[0]: PlayerSettings(PEOPLE[0], auto_play_on_timeout=False)}
    runtime = runtime_for(table, store, recorder, settings)
    await runtime.start()
    await recorder.until(lambda: runtime.chairs[0].timeouts >= 3, timeout=15)
    assert not runtime.chairs[0].autoplay
    await runtime.close()


async def test_ai_seats_play_a_whole_session_at_their_stored_level(store: SqliteStore) -> None:
    table = await make_table(store, Variant.GUANGDONG, people=1, ai_level="basic")
    # The creator is on auto-play from the start: nobody clicks at all.
    await store.set_autoplay(table.id, PEOPLE[0], True)
    recorder = Recorder()
    runtime = runtime_for(await store.get_table(table.id), store, recorder)
    chairs = runtime.chairs
    assert [c.level for c in chairs] == ["", "basic", "basic", "basic"]
    assert all(isinstance(c.ai, ShantenPlayer) and c.ai.level == "basic" for c in chairs[1:])
    await runtime.start()
    await recorder.until(lambda: bool(recorder.over))
    assert recorder.settled[0].hand.ended
    assert all(o.actor is None for o in recorder.outcomes)
    await runtime.close()


async def test_resume_from_the_stored_log_continues_identically(store: SqliteStore) -> None:
    runtime, recorder = await started(store, Variant.SICHUAN, 2)
    # Play the person's first few prompts, then "stop" the bot.
    for _ in range(3):
        await recorder.until(lambda: runtime.seat_state(0).asks or runtime.seat_state(1).asks)
        chair = 0 if runtime.seat_state(0).asks else 1
        await runtime.click(chair, answer_click(runtime.seat_state(chair)))
    async with runtime.lock:
        assert runtime.hand is not None and runtime.current is not None
        snapshot = runtime.hand.snapshot()
        seqs = [p.seq for p in runtime.current.prompts.open]
        pending = [runtime.seat_state(c) for c in (0, 1)]
    await runtime.close()

    (live,) = await store.live_tables()
    again = Recorder()
    resumed = runtime_for(live.table, store, again)
    await resumed.resume(live)
    (start,) = again.starts
    assert start.resumed
    assert resumed.hand is not None and resumed.current is not None
    assert resumed.hand.snapshot() == snapshot
    assert [p.seq for p in resumed.current.prompts.open] == seqs
    # An old button from before the restart still answers its prompt.
    waiting = next(s for s in pending if s.asks)
    result = await resumed.click(waiting.chair, answer_click(waiting))
    assert result.problem is None and result.refused is None
    await resumed.close()


async def test_spectators_see_hands_only_of_those_who_allow_it_and_never_seated(
    store: SqliteStore,
) -> None:
    table = await make_table(store, Variant.SICHUAN, people=2)
    settings = {PEOPLE[0]: PlayerSettings(PEOPLE[0], spectators_see_hand=True)}
    runtime = runtime_for(table, store, Recorder(), settings)
    await runtime.start()
    shown = runtime.seat_of(0)
    stranger = runtime.watch(999)
    assert stranger.view.seats[shown].concealed is not None
    assert all(stranger.view.seats[s].concealed is None for s in range(4) if s != shown)
    opponent = runtime.watch(PEOPLE[1])
    assert all(info.concealed is None for info in opponent.view.seats)
    await runtime.close()


@pytest.mark.parametrize("variant", list(Variant))
async def test_time_outs_pass_claims_and_discard_the_drawn_tile(
    store: SqliteStore, variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person who never answers: every claim and rob window passes, every turn discards
    the tile just drawn where that is legal, every set-up prompt takes the rule set's
    answer; the AI chooses only the rest, and nothing is claimed for them."""
    table = await make_table(store, variant, people=1)
    recorder = Recorder()
    settings = {PEOPLE[0]: PlayerSettings(PEOPLE[0], auto_play_on_timeout=False)}
    runtime = runtime_for(table, store, recorder, settings)
    # Timers of a few hundredths of a second, so that a whole hand times out quickly.
    runtime.turn_timer = runtime.claim_timer = 0.02
    chosen: list[tuple[str, int | None, Action, list[Action], Action | None]] = []
    act = TableRuntime.act

    async def recording(
        self: TableRuntime, seat: int, action: Action, source: Source, **kwargs: Any
    ) -> Any:
        if source is Source.TIMEOUT:
            hand = self._hand().hand
            prompt = hand.prompt
            default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
            drawn = hand.view(seat).seats[seat].drawn
            chosen.append((hand.phase.value, drawn, action, hand.legal_actions(seat), default))
        return await act(self, seat, action, source, **kwargs)

    monkeypatch.setattr(TableRuntime, "act", recording)
    await runtime.start()
    await recorder.until(lambda: bool(recorder.over))
    assert chosen, "the person timed out"
    kinds = set()
    for phase, drawn, action, legal, default in chosen:
        seat = action.seat
        if phase in ("claim", "rob"):
            assert action == Pass(seat)
        elif phase == "prompt":
            assert action == default
        elif drawn is not None and Discard(seat, drawn) in legal:
            assert action == Discard(seat, drawn)
        else:
            assert isinstance(action, Discard), "no kong or win is taken for them"
        kinds.add(phase)
    assert "turn" in kinds
    await runtime.close()


async def test_a_claim_window_names_nobody_it_waits_for(store: SqliteStore) -> None:
    runtime, recorder = await started(store, Variant.GUANGDONG, 2)
    await play_people(runtime, recorder, [0, 1])
    windows = [o.board for o in recorder.outcomes if o.board.view.phase in ("claim", "rob")]
    assert windows, "the hand had claim windows"
    assert all(board.waiting == () for board in windows)
    turns = [o.board for o in recorder.outcomes if o.board.view.phase == "turn"]
    assert all(len(board.waiting) == 1 for board in turns)
    await runtime.close()


def built_chairs(runtime: TableRuntime, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The chairs whose state the runtime builds from now on, in order."""
    chairs: list[int] = []
    seat_state = runtime.seat_state

    def recording(chair_no: int, facts: Any = None) -> SeatState:
        chairs.append(chair_no)
        return seat_state(chair_no, facts)

    monkeypatch.setattr(runtime, "seat_state", recording)
    return chairs


@pytest.mark.parametrize("variant", list(Variant))
async def test_a_change_carries_the_states_it_shows_and_never_an_ai_chairs(
    store: SqliteStore, variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder()
    runtime = runtime_for(await make_table(store, variant, 2), store, recorder)
    built = built_chairs(runtime, monkeypatch)
    await runtime.start()
    people = [0, 1]
    answers = []
    click = runtime.click

    async def clicking(chair_no: int, made: Click) -> Any:
        result = await click(chair_no, made)
        answers.append(result.state)
        return result

    monkeypatch.setattr(runtime, "click", clicking)
    await play_people(runtime, recorder, people)
    await recorder.until(lambda: bool(recorder.over))
    assert set(built) <= set(people), "a state was built for an AI chair"
    (start,) = recorder.starts
    assert [s.chair for s in start.seats] == people
    assert any(o.actor is not None for o in recorder.outcomes)
    for outcome in recorder.outcomes:
        chairs = [s.chair for s in outcome.seats]
        assert chairs == sorted(set(chairs))
        expected = set(outcome.touched) | ({outcome.actor} if outcome.actor is not None else set())
        if outcome.board.over:
            expected |= set(people)
        assert set(chairs) == expected, outcome.revision
        assert all(s.human and s.revision == outcome.revision for s in outcome.seats)
    # A click's answer is the clicker's state of the change it made, built once.
    states = {id(s) for o in recorder.outcomes for s in o.seats}
    acted = [o for o in recorder.outcomes if o.actor is not None]
    assert acted and all(id(state) in states for state in answers if state is not None)


@pytest.mark.parametrize("variant", list(Variant))
async def test_the_last_change_of_a_hand_carries_every_person(
    store: SqliteStore, variant: Variant
) -> None:
    runtime, recorder = await started(store, variant, 3)
    await play_people(runtime, recorder, [0, 1, 2])
    await recorder.until(lambda: bool(recorder.settled))
    last = recorder.outcomes[-1]
    assert last.board.over
    assert [s.chair for s in last.seats] == [0, 1, 2]
    assert all(s.view.phase == "end" for s in last.seats)


async def test_a_click_answer_is_the_state_of_the_moment(store: SqliteStore) -> None:
    """The answer reused from the change equals a state built afresh."""
    runtime, recorder = await started(store, Variant.SICHUAN, 4)
    for _ in range(6):
        await recorder.until(lambda: any(runtime.seat_state(c).asks for c in range(4)))
        chair = next(c for c in range(4) if runtime.seat_state(c).asks)
        result = await runtime.click(chair, answer_click(runtime.seat_state(chair)))
        assert result.state is not None
        assert result.state == runtime.seat_state(chair)
        assert recorder.outcomes[-1].actor == chair
    # A standing order touches nothing, yet the clicker's answer rides on the change.
    state = runtime.seat_state(1)
    toggled = await runtime.click(1, Click(AUTO, state.facts.number, state.seq, "drawn"))
    last = recorder.outcomes[-1]
    assert (last.actor, last.touched) == (1, frozenset())
    assert [s.chair for s in last.seats] == [1]
    assert toggled.state is last.seats[0] and toggled.state == runtime.seat_state(1)
