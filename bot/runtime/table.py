"""A table in play, with no Discord in it: its hands, one action at a time.

Every change to a hand happens under the table's lock, in arrival order: the engine checks
the action, the store keeps it, the engine applies it, and only then does the runtime
tell its listener, with frozen snapshots of everybody's state (:mod:`bot.runtime.snapshots`).
The listener (the presenters) shows them and never calls back into the runtime. Timers
and AI seats live here too: a time-out or an AI move is an action like a click, chosen by
the engine's AI. A restarted bot rebuilds the hand by replaying the stored actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bot.runtime.clicks import AUTO, BACK, Answer, Click, reaction_action, read
from bot.runtime.hands import new_seed, round_result, setup
from bot.runtime.notes import SeatNotes
from bot.runtime.prompts import PromptBook
from bot.runtime.seats import STAND_IN_LEVEL, Chair
from bot.runtime.snapshots import (
    BoardState,
    ClickResult,
    HandFacts,
    HandStart,
    Notice,
    Outcome,
    Problem,
    Refused,
    SeatState,
    Settled,
    TableNotice,
    Waiting,
)
from bot.runtime.standing import Order, standing_action
from bot.runtime.timeouts import timeout_action
from bot.runtime.timers import SeatTimers
from bot.variants import COMMON_NAMES
from data.errors import ActionSequenceError, StateError, StoreUnavailableError
from data.models import LiveTable, PlayerSettings, Table
from data.store import Store
from engine.actions import Action
from engine.ai import make_player
from engine.errors import Refusal
from engine.events import Event
from engine.readiness import Readiness, readiness
from engine.round import Phase, Round
from engine.session import Session, StoredHand
from engine.wall import seed_fingerprint

log = logging.getLogger(__name__)

SEATS = 4
CLAIM_PHASES = (Phase.CLAIM, Phase.ROB)
PLAY_PHASES = (Phase.TURN, *CLAIM_PHASES)
CLAIM_KINDS = ("claim", "rob")
#: Seconds between the tries of a store write that failed; the last repeats.
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)

T = TypeVar("T")


class TableStopped(Exception):
    """The table stopped while a move waited for the store; the move was never made."""


class Source(enum.Enum):
    """Who chose an action: the player (a click or a reaction), their timer, or an AI."""

    PLAYER = "player"
    TIMEOUT = "timeout"
    AI = "ai"


class TableListener(Protocol):
    """What a table in play tells the outside, in order. ``changed`` is called with the
    table's lock held and must not wait; the others are awaited without it."""

    async def hand_started(self, start: HandStart) -> None: ...

    def changed(self, outcome: Outcome) -> None: ...

    async def hand_settled(self, settled: Settled) -> None: ...

    async def session_over(self, scores: tuple[int, int, int, int]) -> None: ...

    def paused(self, paused: bool) -> None:
        """The store refused a move (``paused``), or took it after refusing: the table
        waits meanwhile. Called with the table's lock held; must not wait."""


StopTask = Callable[[asyncio.Task[None]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Tempo:
    """How fast a table moves when nobody waits on a person: the seconds before an AI
    seat (or a player on auto-play) acts, and between a settlement and the next deal."""

    ai_delay: float = 1.2
    between_hands: float = 6.0


@dataclass(slots=True)
class HandInPlay:
    """What the runtime keeps about the hand in play besides the engine's own state."""

    hand: Round
    seed: str
    round_id: int
    number: int
    prompts: PromptBook = field(default_factory=PromptBook)
    notes: SeatNotes = field(default_factory=SeatNotes)


class TableRuntime:
    """One table in play, from its first deal to the end of its session."""

    def __init__(
        self,
        table: Table,
        store: Store,
        listener: TableListener,
        *,
        tempo: Tempo = Tempo(),
        settings: Mapping[int, PlayerSettings] | None = None,
        seeds: Callable[[], str] = new_seed,
    ) -> None:
        self.table = table
        self.id = table.id
        self.store = store
        self.listener = listener
        self.tempo = tempo
        self.seeds = seeds
        self.variant = table.variant.value
        self.rules = {k: v for k, v in table.options.items() if k not in COMMON_NAMES}
        # Seconds: whole ones from the options; the timers take any (the tests' are short).
        self.turn_timer: float = int(table.options.get("turn_timer", 0))
        self.claim_timer: float = int(table.options.get("claim_timer", 0))
        self.lock = asyncio.Lock()
        self.timers = SeatTimers(self._expired)
        known = settings or {}
        self.chairs = [
            Chair.from_seat(
                seat,
                table.id + seat.chair,
                known.get(seat.user_id) if seat.user_id is not None else None,
            )
            for seat in sorted(table.seats, key=lambda s: s.chair)
        ]
        # Hands take their seeds from the runtime, which stores each one with its hand.
        self.session = Session(self.variant, self.rules, seed=None)
        self.current: HandInPlay | None = None
        self.stand_in = make_player(STAND_IN_LEVEL, table.id)
        self.finished = False
        self.revision = 0
        #: The actor's state in the latest publish, which answers its click.
        self._actor_state: SeatState | None = None
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._flow: asyncio.Task[None] | None = None
        #: Set while the store refuses moves; clicks are answered "paused" meanwhile.
        self.paused = asyncio.Event()
        self._halt = asyncio.Event()
        #: Chairs whose clocks started again after a pause: their messages show it.
        self._rearmed: set[int] = set()

    # -- seats and chairs ----------------------------------------------------------------

    @property
    def hand(self) -> Round | None:
        return self.current.hand if self.current else None

    def chair_of_user(self, user_id: int) -> Chair | None:
        return next((c for c in self.chairs if c.user_id == user_id), None)

    def _hand(self) -> HandInPlay:
        if self.current is None:
            raise RuntimeError(f"table {self.id} has no hand in play")
        return self.current

    def seat_of(self, chair: int) -> int:
        return (chair - self._hand().hand.dealer) % SEATS

    def chair_at(self, seat: int) -> Chair:
        return self.chairs[(seat + self._hand().hand.dealer) % SEATS]

    # -- starting and resuming -----------------------------------------------------------

    async def start(self) -> None:
        """Deal the first hand and show it."""
        try:
            async with self.lock:
                await self._deal()
        except TableStopped:
            return
        await self._announce(resumed=False)

    async def resume(self, live: LiveTable) -> None:
        """Continue after a restart: replay the hand in play action by action (so every
        prompt keeps its number and old buttons stay valid), or deal the next hand."""
        current = live.current_round
        last = None
        if current is None and live.last_round_id is not None:
            last = await self._stored_hand(live.last_round_id)
        self.session = Session.resume(
            self.variant,
            self.rules,
            hands_played=live.hands_finished,
            scores=live.standings,
            last_hand=last,
            current_hand=None if current is None else StoredHand(current.info.seed, current.setup),
        )
        if current is None:
            await self.start()
            return
        hand = self.session.current
        assert hand is not None
        async with self.lock:
            state = HandInPlay(hand, current.info.seed, current.info.id, current.info.hand_number)
            self.current = state
            state.prompts.renumber(hand)
            for raw in current.actions:
                state.notes.absorb(hand.apply(Action.from_json(raw)))
                state.prompts.renumber(hand)
        await self._announce(resumed=True)

    async def _stored_hand(self, round_id: int) -> StoredHand:
        """A finished hand as the store keeps it: its seed and its whole round script."""
        record = await self.store.round_record(round_id)
        return StoredHand(record.info.seed, await self.store.round_script(round_id))

    async def _deal(self) -> None:
        """Deal, store and adopt the next hand (lock held); nothing is shown yet."""
        seed = self.seeds()
        hand = self.session.start_hand(seed)
        info = await self._store(
            lambda: self.store.begin_round(self.id, seed=seed, setup=setup(hand))
        )
        self.current = HandInPlay(hand, seed, info.id, info.hand_number)
        self.current.prompts.renumber(hand)
        # Time-outs in a row run on across the deal: a person gone at the end of one hand
        # is still gone at the start of the next.
        for chair in self.chairs:
            chair.orders.drawn = False

    async def _announce(self, *, resumed: bool) -> None:
        """Show the hand, then open every seat's prompt (timers, AI moves)."""
        async with self.lock:
            state = self._hand()
            hand = state.hand
            # Time-outs in a row run on across the deal, so the hand's first prompts may be
            # where a switch held back from the last claim window of the hand before falls.
            try:
                notices = await self._switch_held(range(SEATS))
            except TableStopped:
                return
            start = HandStart(
                resumed=resumed,
                seed_fingerprint=seed_fingerprint(state.seed),
                dice=hand.view(None).dice,
                public=tuple(hand.events_for(None)),
                seats=self._seat_states(self._humans()),
                board=self._board(),
            )
        await self.listener.hand_started(start)
        async with self.lock:
            if self.finished:
                return
            for seat in range(SEATS):
                self._open(seat)
            self._publish((), notices, frozenset(self._humans()), None)
            self._settle_when_over()

    def apply_settings(self, settings: PlayerSettings) -> None:
        """A seated person saved their /settings while the table plays: their 旁观看牌 and
        auto-play on time-outs hold from now on, as at every other table."""
        for chair in self.chairs:
            if chair.user_id == settings.user_id:
                chair.shows_spectators = settings.spectators_see_hand
                chair.autoplay_on_timeout = settings.auto_play_on_timeout

    # -- snapshots -----------------------------------------------------------------------

    def _facts(self) -> HandFacts:
        state = self._hand()
        chairs = tuple(self.chair_at(seat).chair for seat in range(SEATS))
        names = tuple(self.chairs[c].name for c in chairs)
        return HandFacts(
            self.id,
            self.variant,
            state.number,
            self.table.rounds,
            (names[0], names[1], names[2], names[3]),
            (chairs[0], chairs[1], chairs[2], chairs[3]),
            _four(not self.chairs[c].human for c in chairs),
            state.hand.view(None).facts.continued,
        )

    def seat_state(self, chair_no: int, facts: HandFacts | None = None) -> SeatState:
        """The chair's situation now. It reads the state without waiting, so it is
        consistent whenever it is called. ``facts``: the hand's, when already known."""
        state = self._hand()
        hand = state.hand
        chair = self.chairs[chair_no]
        seat = self.seat_of(chair_no)
        prompt = state.prompts.open[seat]
        return SeatState(
            facts=facts or self._facts(),
            chair=chair_no,
            seat=seat,
            revision=self.revision,
            view=hand.view(seat),
            legal=tuple(hand.legal_actions(seat)),
            controls=hand.controls(seat),
            seq=prompt.seq,
            deadline=prompt.deadline,
            autoplay=chair.autoplay,
            human=chair.human,
            notes=state.notes.of(seat),
            own_void=state.notes.own_void[seat],
            chosen=prompt.chosen,
            orders=frozenset(order for order in Order if chair.orders.is_on(order)),
            standing=chair.human and standing_action(hand, seat, chair.orders) is not None,
            readiness=self._readiness(hand, seat) if chair.human else None,
        )

    @staticmethod
    def _readiness(hand: Round, seat: int) -> Readiness | None:
        if hand.phase not in PLAY_PHASES or not hand.view(seat).seats[seat].active:
            return None
        return readiness(hand, seat)

    def _seat_states(self, chairs: Iterable[int]) -> tuple[SeatState, ...]:
        """The states of these chairs, in chair order."""
        facts = self._facts()
        return tuple(self.seat_state(chair, facts) for chair in sorted(set(chairs)))

    def _humans(self) -> set[int]:
        return {c.chair for c in self.chairs if c.human}

    def _board(self, reveal: frozenset[int] = frozenset()) -> BoardState:
        state = self._hand()
        hand = state.hand
        seats = [self.chair_at(seat) for seat in range(SEATS)]
        # Who may claim a discard is each claimant's own secret: a claim window waits for
        # nobody by name (docs/bot.md, decision 12).
        waiting = (
            ()
            if hand.phase in CLAIM_PHASES
            else tuple(Waiting(seat, state.prompts.open[seat].deadline) for seat in hand.to_act())
        )
        scores = [self._score(seat) for seat in range(SEATS)]
        return BoardState(
            facts=self._facts(),
            revision=self.revision,
            view=hand.view(None, reveal),
            scores=(scores[0], scores[1], scores[2], scores[3]),
            autoplay=_four(c.autoplay for c in seats),
            ai=_four(c.ai is not None for c in seats),
            waiting=waiting,
        )

    def _score(self, seat: int) -> int:
        hand = self._hand().hand
        # Until the session books the hand, its scores leave out the hand's own nets.
        running = hand.ledger.nets()[seat] if self.session.current is hand else 0
        return self.session.scores[(seat + hand.dealer) % SEATS] + running

    def watch(self, user_id: int) -> BoardState:
        """The table for a spectator, with the hands of players who let spectators see
        them, unless the spectator sits at this table."""
        if self.chair_of_user(user_id) is not None:
            return self._board()
        return self._board(
            frozenset(self.seat_of(c.chair) for c in self.chairs if c.shows_spectators)
        )

    def _publish(
        self,
        public: Sequence[Event],
        notices: Sequence[TableNotice],
        touched: frozenset[int],
        actor: int | None,
    ) -> None:
        """Tell the listener what changed (lock held).

        Only the states a hand message can show from this change are built (a state
        costs an engine view, legal actions and readiness): the touched chairs', the
        actor's (its click's answer), and once the hand is over every person's, which
        the settlement shows. Every other chair's message stays as it is; when it is
        shown later for another reason, the presenter asks for the chair's state then
        (:meth:`seat_state`). AI chairs have no hand message."""
        self.revision += 1
        shown = set(touched)
        if actor is not None:
            shown.add(actor)
        if self._hand().hand.ended:
            shown |= self._humans()
        seats = self._seat_states(shown)
        # The clicker's answer is this state: nothing changes between here and the
        # answer (see _answer_state).
        self._actor_state = next((s for s in seats if s.chair == actor), None)
        self.listener.changed(
            Outcome(
                revision=self.revision,
                public=tuple(public),
                notices=tuple(notices),
                seats=seats,
                touched=touched - {actor} if actor is not None else touched,
                actor=actor,
                board=self._board(),
            )
        )

    def _answer_state(self, chair_no: int) -> SeatState:
        """The clicker's state right after the publish its click made: the one built
        for that publish. Only called with no await since that publish (``act``,
        ``_back`` and ``_toggle`` end with it), so nothing in it can have changed."""
        state, self._actor_state = self._actor_state, None
        if state is not None and state.chair == chair_no and state.revision == self.revision:
            return state
        return self.seat_state(chair_no)

    # -- applying actions ------------------------------------------------------------------

    async def act(
        self,
        seat: int,
        action: Action,
        source: Source,
        *,
        actor: int | None = None,
        notices: Sequence[TableNotice] = (),
    ) -> Refusal | None:
        """Check, store, apply (lock held). Nothing is told before it is stored.

        ``actor`` is the chair whose click the action answers: its state rides on that
        click's answer instead of its hand message being touched."""
        state = self._hand()
        hand = state.hand
        refusal = hand.check(action)
        if refusal is not None:
            return refusal
        await self._append(state, action)
        events = hand.apply(action)
        chair = self.chair_at(seat)
        if source is Source.PLAYER:
            state.prompts.mark_answered(seat)
            chair.timeouts = 0
        state.notes.absorb(events)
        concerned = {self.chair_at(s).chair for e in events if (s := _seat(e)) is not None}
        if source is not Source.AI:
            # A reaction or a time-out has no click to ride on: the message itself changes.
            concerned.add(chair.chair)
        await self._refresh(_public(events), notices, actor, concerned)
        self._settle_when_over()
        return None

    async def _refresh(
        self,
        public: Sequence[Event],
        notices: Sequence[TableNotice],
        actor: int | None,
        concerned: set[int],
    ) -> None:
        """Renumber each seat whose choices changed and open its prompt, then publish
        (lock held). A person whose switch to auto-play was held back from a claim window
        is switched before their new prompt opens, so it is never shown as theirs to
        answer.

        A hand message changes only for a chair that is asked something, whose controls
        go away, or whose own tiles or notes moved (``concerned``: chairs the events
        name); the rest of the table's news is the table message's to show. Chairs that
        see another's tiles (MCR 火眼金睛) follow every change."""
        state = self._hand()
        hand = state.hand
        touched = set()
        renumbered = state.prompts.renumber(hand)
        notices = [*notices, *await self._switch_held(c.seat for c in renumbered)]
        for changed in renumbered:
            chair = self.chair_at(changed.seat).chair
            self._open(changed.seat)
            if state.prompts.open[changed.seat].asks or changed.asked_before:
                touched.add(chair)
        touched |= concerned | self._rearmed
        self._rearmed.clear()
        touched |= {
            self.chair_at(seat).chair
            for seat in range(SEATS)
            if hand.ruleset.visible_hands(hand, seat)
        }
        self._publish(public, notices, frozenset(touched & self._humans()), actor)

    # -- the store ---------------------------------------------------------------------------

    async def _append(self, state: HandInPlay, action: Action) -> None:
        """Store the hand's next action (lock held), however long the store needs."""
        seq = len(state.hand.actions)
        tried = False

        async def append() -> None:
            nonlocal tried
            again, tried = tried, True
            try:
                await self.store.append_action(state.round_id, seq, action.to_json())
            except ActionSequenceError as exc:
                # A try that failed on its way back had stored it after all.
                if not (again and exc.expected == seq + 1):
                    raise

        await self._store(append)

    async def _store(self, write: Callable[[], Awaitable[T]]) -> T:
        """Run a store write (lock held) until the store takes it. While the store refuses
        (locked by another process, a full disk), the table is paused: the listener is
        told, clicks are answered "paused", and the write is tried again with back-off.
        Nothing is applied before the store took it, so nothing is lost or applied
        twice. Raises TableStopped when the table stops meanwhile."""
        delays = iter(RETRY_DELAYS)
        while True:
            try:
                result = await write()
            except (StoreUnavailableError, OSError) as exc:
                if not self.paused.is_set():
                    log.warning("table %s paused: the store refused a write: %s", self.id, exc)
                    self.paused.set()
                    self.listener.paused(True)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._halt.wait(), next(delays, RETRY_DELAYS[-1]))
                    raise TableStopped from exc
                continue
            if self.paused.is_set():
                log.warning("table %s goes on: the store took the write", self.id)
                self.paused.clear()
                self._restart_clocks()
                self.listener.paused(False)
            return result

    def _restart_clocks(self) -> None:
        """After a pause every person's clock starts again: nobody could answer during it."""
        state = self.current
        if state is None or self.finished or state.hand.ended:
            return
        for seat in range(SEATS):
            chair = self.chair_at(seat)
            if state.prompts.open[seat].deadline is not None and chair.ai is None:
                self._open(seat)
                self._rearmed.add(chair.chair)

    async def _locked_unless_paused(self) -> bool:
        """Take the lock for a click, unless the table is paused first (then False, and
        the lock is not held): a click never waits out a pause."""
        if self.paused.is_set():
            return False
        acquiring: asyncio.Future[object] = asyncio.ensure_future(self.lock.acquire())
        pausing: asyncio.Future[object] = asyncio.ensure_future(self.paused.wait())
        try:
            await asyncio.wait({acquiring, pausing}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            if await _settled(acquiring, pausing):
                self.lock.release()
            raise
        if not await _settled(acquiring, pausing):
            return False
        if self.paused.is_set():
            self.lock.release()
            return False
        return True

    def _open(self, seat: int) -> None:
        """Give a seat its current prompt: the move for an AI seat or a player on
        auto-play, a timer for a person."""
        state = self._hand()
        hand = state.hand
        prompt = state.prompts.open[seat]
        self.timers.cancel(seat)
        if self.finished or not hand.legal_actions(seat):
            return
        chair = self.chair_at(seat)
        if chair.ai is not None or chair.autoplay:
            self._schedule_ai(seat, prompt.seq)
            return
        if standing_action(hand, seat, chair.orders) is not None:
            self._schedule_ai(seat, prompt.seq, standing=True)
            return
        seconds = self.claim_timer if hand.phase in CLAIM_PHASES else self.turn_timer
        if not seconds:
            return
        prompt.deadline = self.timers.arm(seat, prompt.seq, seconds)

    @staticmethod
    def _autoplay_due(chair: Chair, phase: Phase) -> bool:
        """Two time-outs in a row put a person on auto-play, announced at once. A claim
        window closing is not the moment: the notice and the badge would tell the table
        that the person could claim the discard or rob the kong. The switch waits for
        the person's next prompt that is not a claim (:meth:`_switch_held`)."""
        return (
            chair.timeouts >= 2
            and chair.autoplay_on_timeout
            and not chair.autoplay
            and phase not in CLAIM_PHASES
        )

    async def _switch_held(self, seats: Iterable[int]) -> list[TableNotice]:
        """Switch to auto-play each person among these seats, whose prompts are about to
        open, whose switch was held back from a claim window; the notices to tell (lock
        held). Before the prompt is shown, not after: shown as theirs to answer, it would
        ring their phone for a move the AI makes a moment later, then ring again for the
        switch. A prompt their standing orders answer is their own move (it ends the
        time-outs in a row), so it switches nobody."""
        if self.finished:
            return []
        hand = self._hand().hand
        notices = []
        for seat in seats:
            chair = self.chair_at(seat)
            if (
                self._autoplay_due(chair, hand.phase)
                and hand.legal_actions(seat)
                and standing_action(hand, seat, chair.orders) is None
            ):
                notices.append(await self._autoplay_on(chair))
        return notices

    async def _autoplay_on(self, chair: Chair) -> TableNotice:
        """The person timed out twice in a row: the AI plays for them from now on (lock
        held), stored before it is told."""
        user_id = chair.user_id
        assert user_id is not None
        await self._store(lambda: self.store.set_autoplay(self.id, user_id, True))
        chair.autoplay = True
        return TableNotice(Notice.AUTOPLAY_ON, chair.chair)

    def _schedule_ai(self, seat: int, seq: int, *, standing: bool = False) -> None:
        """The AI's move for the seat after the tempo's delay; with ``standing``, the
        move of the person's standing orders instead."""
        old = self._ai_tasks.pop(seat, None)
        if old is not None:
            old.cancel()
        self._ai_tasks[seat] = asyncio.create_task(self._ai_move(seat, seq, standing))

    async def _ai_move(self, seat: int, seq: int, standing: bool) -> None:
        await asyncio.sleep(self.tempo.ai_delay)
        async with self.lock:
            if not self._is_current(seat, seq):
                return
            self._ai_tasks.pop(seat, None)
            with contextlib.suppress(TableStopped):
                await self._ai_act(seat, standing)

    async def _ai_act(self, seat: int, standing: bool) -> None:
        """The AI's move for the seat, or the person's standing order (lock held)."""
        if not standing:
            await self.act(seat, self._choose(seat), Source.AI)
            return
        ordered = standing_action(self._hand().hand, seat, self.chair_at(seat).orders)
        if ordered is None:
            # The order was taken back meanwhile: the person is asked as usual.
            self._open(seat)
            return
        await self.act(seat, ordered, Source.PLAYER)

    def _is_current(self, seat: int, seq: int) -> bool:
        state = self.current
        return (
            state is not None
            and not self.finished
            and state.prompts.open[seat].seq == seq
            and bool(state.hand.legal_actions(seat))
        )

    def _choose(self, seat: int) -> Action:
        """The AI's choice for a seat: its own AI, or the stand-in for a person."""
        hand = self._hand().hand
        player = self.chair_at(seat).ai or self.stand_in
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        return player.choose(hand.view(seat), hand.legal_actions(seat), default)

    async def _expired(self, seat: int, seq: int) -> None:
        """A person ran out of time: they pass, discard what they drew or take the rule
        set's answer (the AI's choice where none is legal); two in a row put them on
        auto-play."""
        async with self.lock:
            if not self._is_current(seat, seq):
                return
            with contextlib.suppress(TableStopped):
                await self._time_out(seat)

    async def _time_out(self, seat: int) -> None:
        chair = self.chair_at(seat)
        hand = self._hand().hand
        chair.timeouts += 1
        notices = []
        if self._autoplay_due(chair, hand.phase):
            notices.append(await self._autoplay_on(chair))
        action = timeout_action(hand, seat) or self._choose(seat)
        await self.act(seat, action, Source.TIMEOUT, notices=notices)

    # -- clicks and reactions --------------------------------------------------------------

    async def click(self, chair_no: int, click: Click) -> ClickResult:
        """A click on a chair's controls: what it changed, or why it changed nothing."""
        if not await self._locked_unless_paused():
            return ClickResult(Problem.PAUSED)
        try:
            return await self._click(chair_no, click)
        except TableStopped:
            return ClickResult(Problem.TABLE_OVER)
        finally:
            self.lock.release()

    async def _click(self, chair_no: int, click: Click) -> ClickResult:
        """The click, lock held."""
        chair = self.chairs[chair_no]
        problem = self._click_problem(chair, click)
        if problem is not None:
            return ClickResult(problem)
        if click.kind == BACK:
            try:
                await self._back(chair)
            except StateError:
                # The session's last hand was settled a moment before the click.
                return ClickResult(Problem.TABLE_OVER)
            return ClickResult(state=self._answer_state(chair_no))
        if click.kind == AUTO:
            self._toggle(chair, Order(click.arg))
            return ClickResult(state=self._answer_state(chair_no))
        hand = self._hand().hand
        seat = self.seat_of(chair_no)
        controls = hand.controls(seat)
        intent = read(click, controls, seat) if controls is not None else None
        if intent is None:
            return ClickResult(Problem.EXPIRED)
        if not isinstance(intent, Answer):
            # A part of the answer: shown as chosen until the answer comes.
            self._hand().prompts.open[seat].chosen = intent.numbers
            return ClickResult(state=self.seat_state(chair_no))
        refusal = await self.act(seat, intent.action, Source.PLAYER, actor=chair_no)
        if refusal is not None:
            return ClickResult(refused=self._refused(seat, refusal, intent.action))
        return ClickResult(state=self._answer_state(chair_no))

    def _refused(self, seat: int, refusal: Refusal, action: Action) -> Refused:
        # A refused move changes nothing, so the hand still shows what it was refused in.
        state = self._hand()
        hand = state.hand
        facts = self._facts()
        return Refused(
            refusal,
            action,
            hand.view(seat),
            tuple(hand.legal_actions(seat)),
            facts.names,
            state.notes.own_void[seat],
            facts.ai,
        )

    def _click_problem(self, chair: Chair, click: Click) -> Problem | None:
        """Why a click changes nothing: an old hand, a closed prompt, a second click."""
        state = self.current
        if state is None or self.finished or click.hand_no != state.number:
            return Problem.EXPIRED
        if click.kind == BACK:
            return None if chair.autoplay else Problem.EXPIRED
        if click.kind == AUTO:
            known = click.arg in {order.value for order in Order}
            return None if known and not chair.autoplay else Problem.EXPIRED
        seat = self.seat_of(chair.chair)
        answerable = bool(state.hand.legal_actions(seat)) and not chair.autoplay
        return state.prompts.problem(seat, click.seq, answerable=answerable)

    async def _back(self, chair: Chair) -> None:
        """I'm back: the person takes over from the AI again (lock held)."""
        user_id = chair.user_id
        assert user_id is not None
        await self._store(lambda: self.store.set_autoplay(self.id, user_id, False))
        chair.autoplay = False
        chair.timeouts = 0
        self._hand().prompts.reopen(self.seat_of(chair.chair))
        await self._refresh(
            (), (TableNotice(Notice.AUTOPLAY_OFF, chair.chair),), chair.chair, set()
        )

    def _toggle(self, chair: Chair, order: Order) -> None:
        """A standing order turned on or off (lock held); an order that applies now acts
        at once, and a deadline already running keeps running."""
        chair.orders.toggle(order)
        seat = self.seat_of(chair.chair)
        if standing_action(self._hand().hand, seat, chair.orders) is not None:
            self._open(seat)
        self._publish((), (), frozenset(), chair.chair)

    async def hand_over(self, chair_no: int) -> None:
        """The AI plays for the person from now on (托管): they left the table's server."""
        async with self.lock:
            chair = self.chairs[chair_no]
            user_id = chair.user_id
            if chair.autoplay or user_id is None or self.finished:
                return
            try:
                await self._store(lambda: self.store.set_autoplay(self.id, user_id, True))
            except (TableStopped, StateError):
                return
            chair.autoplay = True
            if self.current is None or self.current.hand.ended:
                return
            self._open(self.seat_of(chair_no))
            notice = TableNotice(Notice.LEFT_SERVER, chair_no)
            await self._refresh((), (notice,), None, {chair_no})

    async def react(self, chair_no: int, emoji: str) -> bool:
        """A reaction on a chair's hand message answers a claim like the matching button;
        whether it did."""
        async with self.lock:
            if self.current is None or self.finished:
                return False
            chair = self.chairs[chair_no]
            hand = self.current.hand
            seat = self.seat_of(chair_no)
            controls = hand.controls(seat)
            if controls is None or controls.kind not in CLAIM_KINDS or chair.autoplay:
                return False
            action = reaction_action(emoji, hand.legal_actions(seat))
            if action is None or self.paused.is_set():
                return False
            try:
                refusal = await self.act(seat, action, Source.PLAYER)
            except TableStopped:
                return False
            return refusal is None

    # -- the end of a hand and of the session -------------------------------------------

    def _settle_when_over(self) -> None:
        hand = self._hand().hand
        if hand.ended and (self._flow is None or self._flow.done()):
            self._flow = asyncio.create_task(self._end_hand())

    async def _end_hand(self) -> None:
        try:
            await self._settle()
        except TableStopped:
            return
        except Exception:
            log.exception("table %s: settling the hand failed", self.id)

    async def _settle(self) -> None:
        async with self.lock:
            state = self._hand()
            self.timers.cancel_all()
            result = round_result(state.hand)
            last = await self._store(lambda: self.store.finish_round(state.round_id, result))
            code = await self._store(lambda: self.store.replay_code(state.round_id))
            settled = Settled(self._facts(), state.hand, state.round_id, state.seed, last, code)
        await self.listener.hand_settled(settled)
        async with self.lock:
            self.session.finish_hand()
        if last:
            self.finished = True
            scores = self.session.scores
            await self.listener.session_over((scores[0], scores[1], scores[2], scores[3]))
            return
        await asyncio.sleep(self.tempo.between_hands)
        async with self.lock:
            if self.finished:
                return
            await self._deal()
        await self._announce(resumed=False)

    async def stop(self) -> None:
        """No more moves (the table is disbanded or the bot stops)."""
        # A move waiting for the store gives up, so the lock comes free.
        self._halt.set()
        async with self.lock:
            self.finished = True
            self.timers.cancel_all()
        self._cancel_ai()

    async def close(self, stop_flow: StopTask | None = None) -> None:
        """Stop, and stop the end of the hand in progress: with ``stop_flow`` when given
        (the listener knows when it is not in the middle of telling someone), else at
        once."""
        await self.stop()
        flow = self._flow
        if flow is None or flow.done() or flow is asyncio.current_task():
            return
        if stop_flow is not None:
            await stop_flow(flow)
            return
        flow.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flow

    def _cancel_ai(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
        self._ai_tasks.clear()


async def _settled(acquiring: asyncio.Future[object], pausing: asyncio.Future[object]) -> bool:
    """Stop waiting for the lock; whether it was taken (a cancelled wait takes nothing)."""
    pausing.cancel()
    if not acquiring.done():
        acquiring.cancel()
    await asyncio.wait({acquiring})
    return not acquiring.cancelled()


def _public(events: Sequence[Event]) -> list[Event]:
    """The events as a spectator sees them: private ones redacted or left out."""
    shown = (e if e.owner() is None else e.redacted() for e in events)
    return [e for e in shown if e is not None]


def _seat(event: Event) -> int | None:
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


def _four(values: Iterable[bool]) -> tuple[bool, bool, bool, bool]:
    a, b, c, d = values
    return (a, b, c, d)
