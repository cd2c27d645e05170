"""The hand state machine: options + seed (or an explicit deal and wall) + actions.

A :class:`Round` is one hand (局). It runs set-up prompts before and after the deal, then
play: the turn seat draws (implicitly), may win, kong or discard; every discard opens a
claim window in which each seat that can claim is asked; an added kong opens a rob
window; the hand ends at a win (or, in 血战到底, when the rule set says so) or when a draw
is due and the live wall is empty; then come the prompts after play and the settlement.
Everything that differs between rule sets is asked of the hand's
:class:`~engine.rules.play.RuleSet`.

The public surface: :meth:`Round.new` / :meth:`Round.from_script` build a hand,
:meth:`legal_actions` lists exactly what a seat may do now and :meth:`controls`
describes it, :meth:`apply` validates an action (raising :class:`IllegalActionError`)
and carries it out, :meth:`view` and :meth:`events_for` are the only ways private
information leaves the engine, and :meth:`to_script` gives the round script that
rebuilds the hand.

Beside the machine: what claim and rob windows offer (``engine.windows``), why a refused
action is refused (``engine.refusals``), who sees what (``engine.visibility``, building
``engine.view.View``) and round scripts (``engine.scripts``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar, cast

from engine.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from engine.controls import Controls, pick_actions
from engine.errors import IllegalActionError, Refusal, ScriptError
from engine.events import (
    Claimed,
    ClaimOffered,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Konged,
    KongRobbed,
    Paid,
    Passed,
    PromptAnswered,
    PromptClosed,
    PromptOpened,
    RestrictionCleared,
    SeatOut,
    TilesAside,
    WallExhausted,
    Won,
)
from engine.ledger import Ledger
from engine.phase import Phase, TurnMode
from engine.refusals import ANSWERS, diagnose
from engine.rules.base import TableOptions
from engine.rules.play import (
    DiscardRecord,
    EndReason,
    KongRecord,
    KongType,
    Prompt,
    ReadyDeclaration,
    RuleSet,
    ScoredWin,
    Stage,
    WinContext,
    WinHow,
    seats_after,
)
from engine.rules.registry import find_ruleset
from engine.scripts import read_script, write_script
from engine.tiles import (
    NUM_KINDS,
    HandSpec,
    Meld,
    MeldType,
    counts_of,
    format_tiles,
    kinds_of,
    tile_str,
)
from engine.view import SeatInfo, View
from engine.visibility import build_view, events_for, visible_copies
from engine.wall import Deal, deal, roll_dice, shuffled
from engine.windows import PassLocks, Window, discard_offer, rob_offer

T = TypeVar("T")

__all__ = ["Phase", "Round", "SeatInfo", "TurnMode", "View"]


class Round:
    """One hand. Build it with :meth:`new` or :meth:`from_script`."""

    # -- construction --------------------------------------------------------------------

    def __init__(
        self,
        ruleset: RuleSet[Any],
        options: TableOptions,
        dealer: int,
        fields: Mapping[str, Any],
        dice: tuple[int, int],
        *,
        rng: random.Random | None,
    ) -> None:
        self.ruleset = ruleset
        self.variant = ruleset.variant
        self.options = options
        # The options as the table gave them (round scripts store these, not defaults).
        self.raw_options: dict[str, Any] = {}
        self.dealer = dealer
        self.fields: dict[str, Any] = dict(fields)
        self.dice = dice
        self._rng = rng
        # Chance values a round script fixes, handed out by ``chance``.
        self._fixed: dict[str, Any] = {}
        # The names of the chance values the rule set has asked for: never announced.
        self._chance_names: set[str] = set()
        self.ledger = Ledger()
        self.set_aside: dict[str, tuple[int, ...]] = {}
        self._aside_face_up: dict[str, bool] = {}
        # The dice and the face-up set-aside tiles are public (see dice_after_prompts).
        self._dice_shown = not ruleset.dice_after_prompts
        self.wins: list[ScoredWin] = []
        self.kongs: list[KongRecord] = []
        self.end_reason: EndReason | None = None
        self.turn_number = 0
        self.prompts_done: list[tuple[Prompt, Mapping[int, Action]]] = []
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.dealt: tuple[tuple[int, ...], ...] = ()
        self.undealt: tuple[int, ...] = ()
        self.next_dealer_seat: int | None = None
        self._hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self._melds: list[list[Meld]] = [[], [], [], []]
        self._rivers: list[list[DiscardRecord]] = [[], [], [], []]
        self._last_discard: tuple[int, int] | None = None
        self._wall: list[int] = []
        self._front = 0
        self._back = 0
        self._active = [True] * 4
        self._ready: list[ReadyDeclaration | None] = [None] * 4
        self._won_tiles: list[int] = []
        self._last_drawn: list[int | None] = [None] * 4
        self._draws = [0] * 4
        self._discards_total = 0
        self._melds_total = 0
        self._locks = PassLocks()
        self.phase = Phase.PROMPT
        self._stage = Stage.BEFORE_DEAL
        self._prompt: Prompt | None = None
        self._prompt_answers: dict[int, Action] = {}
        self.turn: int | None = None
        self._mode = TurnMode.START
        self._after_kong: KongRecord | None = None
        self._turn_kongs: list[KongRecord] = []
        self._window: Window | None = None
        # The last discard's (or added kong's) window, kept once closed while its tile
        # lies unclaimed, so that a late claim is refused for the rule that withheld it.
        self._last_window: Window | None = None
        self._pending_kong: tuple[int, int, int] | None = None  # seat, kind, meld index
        # Odd while the hand changes (inside apply, close_window and the start), even
        # between changes: what is cached by version is only cached when it is even.
        self._version = 0
        self._derived: dict[Hashable, Any] = {}
        self._derived_version = -1
        self._kept: dict[Hashable, Any] = {}
        self._legal_cache: dict[int, list[Action]] = {}
        self._legal_version = -1
        self._ready_cache: list[tuple[tuple[Any, ...], bool] | None] = [None] * 4
        # Made last: the rule set may read the hand as it starts (its dice).
        self.rule_notes = ruleset.new_notes(self)

    @classmethod
    def new(
        cls,
        variant: str | RuleSet[Any],
        options: Mapping[str, Any] | None = None,
        seed: int | str = 0,
        *,
        dealer: int = 0,
        fields: Mapping[str, Any] | None = None,
        hand_number: int = 1,
    ) -> Round:
        """A hand from a seed: the dice, the shuffle and every chance value come from
        ``random.Random(seed)``. ``dealer`` is the dealer's chair; ``fields`` the
        session-derived script fields (defaults: the rule set's first-hand fields)."""
        ruleset = find_ruleset(variant) if isinstance(variant, str) else variant
        opts = ruleset.read_options(options or {})
        given = ruleset.first_fields(opts) if fields is None else dict(fields)
        rng = random.Random(seed)
        if ruleset.separate_dealer_roll and hand_number == 1:
            roll_dice(rng)
        rnd = cls(ruleset, opts, dealer, given, roll_dice(rng), rng=rng)
        rnd.raw_options = dict(options or {})
        built = ruleset.build_deal(rnd, rng)
        if built is None:
            built = deal(shuffled(ruleset.tiles, rng))
        rnd._start(built)
        return rnd

    @classmethod
    def from_script(
        cls,
        script: Mapping[str, Any],
        *,
        play: bool = True,
        ruleset: RuleSet[Any] | None = None,
        seed: int | str | None = None,
        hand_number: int = 1,
    ) -> Round:
        """A hand from a round script (Contract 2). Raises ScriptError when the script is
        not valid; with ``play`` its actions are applied (an IllegalActionError then
        carries the action's index). ``ruleset`` overrides the registry's rule set for
        the script's variant.

        A script fixes the chance values drawn so far. Given the hand's ``seed`` (and
        ``hand_number`` in its session), the rebuilt hand also draws the values still to
        come exactly as live play would: use it to resume a hand that goes on."""
        read = read_script(script, ruleset)
        rnd = cls(read.ruleset, read.options, read.dealer, read.fields, read.dice, rng=None)
        rnd._fixed = read.fixed
        rnd.raw_options = read.raw_options
        if seed is not None:
            rnd._resume_generator(seed, hand_number, read.deal)
        rnd._start(read.deal)
        if play:
            for index, action in enumerate(read.actions):
                try:
                    rnd.apply(action, close_windows=True)
                except IllegalActionError as exc:
                    raise exc.at(index) from None
        return rnd

    def _resume_generator(self, seed: int | str, hand_number: int, script_deal: Deal) -> None:
        """Re-create the live hand's generator: consume the dice and the deal as
        :meth:`new` does and check they are the script's."""
        rng = random.Random(seed)
        if self.ruleset.separate_dealer_roll and hand_number == 1:
            roll_dice(rng)
        dice = roll_dice(rng)
        built = self.ruleset.build_deal(self, rng) or deal(shuffled(self.ruleset.tiles, rng))
        same_hands = all(
            counts_of(a) == counts_of(b)
            for a, b in zip(built.hands, script_deal.hands, strict=True)
        )
        if dice != self.dice or not same_hands or built.wall != script_deal.wall:
            raise ScriptError("the seed does not give this script's dice and deal")
        self._rng = rng

    def _start(self, built: Deal) -> None:
        self._version += 1
        self.dealt = built.hands
        self.undealt = built.wall
        for seat, tiles in enumerate(built.hands):
            for k in tiles:
                self._hands[seat][k] += 1
        self._wall = list(built.wall)
        self._front, self._back = 0, len(self._wall)
        for spec in self.ruleset.aside(self):
            if spec.count > self._back - self._front:
                raise ScriptError(f"the wall is too short to set aside {spec.name}")
            taken = tuple(self._wall[self._back - spec.count : self._back])
            self._back -= spec.count
            self.set_aside[spec.name] = taken
            self._aside_face_up[spec.name] = spec.face_up
        told = len(self.events)
        self.ruleset.begin(self)
        # Announced once ``begin`` has drawn its chance values, so the opening is the same
        # live and replayed; those values stay out of it, secret until the rule set
        # reveals them (the 换三张 piles show where they went). What ``begin`` told comes
        # after the opening.
        public = {k: v for k, v in self.fields.items() if k not in self._chance_names}
        dice = self.dice if self._dice_shown else None
        opening: list[Event] = [HandStarted(self.dealer, dice, public)]
        opening.extend(self._aside_events())
        self.events[told:told] = opening
        self._stage = Stage.BEFORE_DEAL
        self._open_next_prompt()
        self._version += 1

    def _aside_events(self) -> list[TilesAside]:
        """The set-aside groups as players see them now (face-up tiles once public)."""
        return [
            TilesAside(name, len(tiles), tiles if self.shows_aside(name) else None)
            for name, tiles in self.set_aside.items()
        ]

    def shows_aside(self, name: str) -> bool:
        """Whether everyone sees the set-aside group ``name`` (face up, dice shown)."""
        return self._dice_shown and self._aside_face_up[name]

    def aside_face_up(self, name: str) -> bool:
        """Whether the set-aside group ``name`` lies face up (once the dice are shown)."""
        return self._aside_face_up.get(name, False)

    def _show_dice(self) -> None:
        """The before-deal prompts are done: show what ``dice_after_prompts`` held back."""
        self._dice_shown = True
        self._emit(DiceRolled(self.dice))
        for event in self._aside_events():
            if event.tiles is not None:
                self._emit(event)

    # -- the HandState protocol ----------------------------------------------------------

    def concealed(self, seat: int) -> Sequence[int]:
        return self._hands[seat]

    def melds(self, seat: int) -> Sequence[Meld]:
        return self._melds[seat]

    def discards(self, seat: int) -> Sequence[DiscardRecord]:
        return self._rivers[seat]

    def is_active(self, seat: int) -> bool:
        return self._active[seat]

    def ready(self, seat: int) -> ReadyDeclaration | None:
        return self._ready[seat]

    @property
    def live_count(self) -> int:
        return self._back - self._front

    def last_drawn(self, seat: int) -> int | None:
        return self._last_drawn[seat] if self.turn == seat else None

    @property
    def last_discard(self) -> tuple[int, int] | None:
        return self._last_discard

    def chance(self, name: str, draw: Callable[[random.Random], T]) -> T:
        self._chance_names.add(name)
        if name in self.fields:
            value: T = self.fields[name]
            return value
        if self._rng is not None:
            # Drawn even when the script fixes it, to keep the generator in step.
            value = draw(self._rng)
            value = self._fixed.get(name, value)
        elif name in self._fixed:
            value = self._fixed[name]
        else:
            raise ScriptError(f"the round script does not fix '{name}'")
        self.fields[name] = value
        return value

    def emit(self, event: Event) -> None:
        self._emit(event)

    def take_tiles(self, seat: int, kinds: Sequence[int]) -> None:
        hand = self._hands[seat]
        for k in kinds:
            if hand[k] <= 0:
                raise ValueError(f"seat {seat} does not hold {tile_str(k)}")
            hand[k] -= 1

    def give_tiles(self, seat: int, kinds: Sequence[int]) -> None:
        for k in kinds:
            self._hands[seat][k] += 1

    def draw_front(self) -> int:
        if self._front >= self._back:
            raise ValueError("the live wall is empty")
        tile = self._wall[self._front]
        self._front += 1
        return tile

    def put_aside(self, name: str, kinds: Sequence[int]) -> None:
        self.set_aside[name] = self.set_aside.get(name, ()) + tuple(kinds)
        self._aside_face_up.setdefault(name, False)

    def win_context(
        self, seat: int, tile: int, how: WinHow, *, virtual: bool = False
    ) -> WinContext:
        hand = self._hands[seat]
        concealed = kinds_of(hand)
        if how is WinHow.SELF_DRAW and not virtual:
            concealed.remove(tile)
        from_seat: int | None = None
        if how is WinHow.DISCARD and self._window is not None:
            from_seat = self._window.from_seat
        elif how is WinHow.ROB_KONG and self._pending_kong is not None:
            from_seat = self._pending_kong[0]
        own_turn = how is WinHow.SELF_DRAW and self.turn == seat
        return WinContext(
            seat=seat,
            how=how,
            tile=tile,
            from_seat=from_seat,
            hand=HandSpec(tuple(concealed), tuple(self._melds[seat])),
            after_kong=self._after_kong if own_turn else None,
            discarder_kongs=tuple(self._turn_kongs) if how is WinHow.DISCARD else (),
            last_tile=self.live_count == 0 and how is not WinHow.ROB_KONG,
            fourth_tile=visible_copies(self, tile, how) >= 3,
            discards_before=self._discards_total - (1 if how is WinHow.DISCARD else 0),
            melds_before=self._melds_total,
            draws=self._draws[seat],
            ready=self._ready[seat],
        )

    def award_win(self, win: ScoredWin) -> None:
        # A prompt after play turns the exhaustive draw into a won hand (mcr.md §4.5.2:
        # the first hit ends the hand; only without one does the draw stand).
        self.end_reason = EndReason.WIN
        self._record_wins([win])

    # -- queries -------------------------------------------------------------------------

    @property
    def ended(self) -> bool:
        return self.phase is Phase.END

    @property
    def prompt(self) -> Prompt | None:
        return self._prompt if self.phase is Phase.PROMPT else None

    @property
    def window(self) -> Window | None:
        """The open claim or rob window, if one is open."""
        return self._window if self.phase in (Phase.CLAIM, Phase.ROB) else None

    @property
    def last_window(self) -> Window | None:
        """The last discard's (or added kong's) window, kept once closed while its tile
        lies unclaimed, so that a late claim is refused for the rule that withheld it."""
        return self._last_window

    @property
    def turn_mode(self) -> TurnMode:
        return self._mode

    @property
    def dice_shown(self) -> bool:
        """Whether everyone sees the dice (see ``RuleSet.dice_after_prompts``)."""
        return self._dice_shown

    @property
    def is_dealt(self) -> bool:
        """Whether the hands have been dealt to the players (prompts before the deal are
        over)."""
        return self.phase is not Phase.PROMPT or self._stage is not Stage.BEFORE_DEAL

    def to_act(self) -> list[int]:
        """Seats that must act before the hand can move on."""
        if self.phase is Phase.PROMPT and self._prompt is not None:
            return [s for s in self._prompt.seats if s not in self._prompt_answers]
        if self.phase is Phase.TURN and self.turn is not None:
            return [self.turn]
        if self.phase in (Phase.CLAIM, Phase.ROB) and self._window is not None:
            return self._window.pending()
        return []

    def default_action(self, seat: int) -> Action | None:
        """What a seat that does not answer in time does: the rule set's default answer
        to a set-up prompt, a pass in a claim or rob window; None on its own turn (the
        bot asks the AI for a discard)."""
        if seat not in self.to_act():
            return None
        if self.phase is Phase.PROMPT and self._prompt is not None:
            return self.ruleset.default_prompt_action(self, self._prompt, seat)
        if self.phase in (Phase.CLAIM, Phase.ROB):
            return Pass(seat)
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly the actions ``seat`` may take now (empty when it has nothing to do)."""
        if self._legal_version != self._version:
            self._legal_cache = {}
            self._legal_version = self._version
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._compute_legal(seat)
            self._legal_cache[seat] = cached
        return list(cached)

    def controls(self, seat: int) -> Controls | None:
        """What ``seat`` is asked now, as controls that reach exactly its legal actions;
        None when it has nothing to answer. Its turn and claim or rob windows are one
        ``PickOne`` over :meth:`legal_actions`, in their order; a set-up prompt is
        described by the rule set (:meth:`RuleSet.prompt_controls`)."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        if self.phase is Phase.PROMPT:
            prompt = self._prompt
            assert prompt is not None
            return Controls(prompt.id, self.ruleset.prompt_controls(self, prompt, seat))
        kind = self.phase.value
        return Controls(kind, (pick_actions(kind, legal),))

    def is_legal(self, action: Action) -> bool:
        return self.check(action) is None

    def check(self, action: Action) -> Refusal | None:
        """None when ``action`` is legal now, else why not."""
        if not 0 <= action.seat <= 3:
            return Refusal("unknown_seat", f"there is no seat {action.seat}")
        if self.phase is Phase.PROMPT:
            return self._check_prompt(action)
        if action in self.legal_actions(action.seat):
            return None
        return diagnose(self, action)

    # -- applying actions ----------------------------------------------------------------

    def apply(self, action: Action, *, close_windows: bool = False) -> list[Event]:
        """Validate and carry out ``action``; returns the events it caused (unredacted).

        With ``close_windows`` (used for round scripts), an action that does not answer
        the open claim or rob window first closes it: every seat that has not answered
        passes, as Contract 2 says."""
        if close_windows:
            self._close_window_for(action)
        refusal = self.check(action)
        if refusal is not None:
            raise IllegalActionError(refusal, action.seat)
        start = len(self.events)
        self.actions.append(action)
        self._version += 1
        if self.phase is Phase.PROMPT:
            self._answer_prompt(action)
        elif self.phase in (Phase.CLAIM, Phase.ROB):
            self._answer_window(action)
        else:
            self._turn_action(action)
        self._version += 1
        return self.events[start:]

    def _close_window_for(self, action: Action) -> None:
        window = self._window
        if window is None or self.phase not in (Phase.CLAIM, Phase.ROB):
            return
        if action.name in ANSWERS and action.seat in window.pending():
            return
        self.close_window()

    def close_window(self) -> list[Event]:
        """Every seat that has not answered the open claim or rob window passes (the end
        of a round script; a time-out of all of them). Returns the events it caused."""
        window = self._window
        if window is None or self.phase not in (Phase.CLAIM, Phase.ROB):
            return []
        start = len(self.events)
        self._version += 1
        for seat in window.pending():
            passed = Pass(seat)
            self.actions.append(passed)
            window.answers[seat] = passed
            self._emit(Passed(seat))
        self._resolve_window()
        self._version += 1
        return self.events[start:]

    # -- prompts -------------------------------------------------------------------------

    def _open_next_prompt(self) -> None:
        """Open the stage's next prompt, or move on through the stages until one is open
        or play begins or the hand is settled."""
        while True:
            prompt = self.ruleset.next_prompt(self, self._stage)
            if prompt is not None:
                self.phase = Phase.PROMPT
                self._prompt = prompt
                self._prompt_answers = {}
                self._emit(PromptOpened(prompt.id, prompt.action, prompt.seats))
                if prompt.seats:
                    return
                self._resolve_prompt(prompt)
                continue
            self._prompt = None
            if self._stage is Stage.BEFORE_DEAL:
                if not self._dice_shown:
                    self._show_dice()
                self.ruleset.on_deal(self)
                for seat in range(4):
                    tiles = tuple(kinds_of(self._hands[seat]))
                    self._emit(Dealt(seat, len(tiles), tiles))
                self._stage = Stage.AFTER_DEAL
                continue
            if self._stage is Stage.AFTER_DEAL:
                self._begin_play()
                return
            self._settle()
            return

    def _check_prompt(self, action: Action) -> Refusal | None:
        prompt = self._prompt
        assert prompt is not None
        if action.seat not in prompt.seats:
            return Refusal("not_in_prompt", f"seat {action.seat} has no {prompt.id} to answer")
        if action.name != prompt.action:
            return Refusal(
                "prompt_open",
                f"seat {action.seat} must answer the {prompt.id} prompt first",
            )
        if action.seat in self._prompt_answers:
            return Refusal(
                "already_answered", f"seat {action.seat} has already answered {prompt.id}"
            )
        return self.ruleset.check_prompt_action(self, prompt, action)

    def _answer_prompt(self, action: Action) -> None:
        prompt = self._prompt
        assert prompt is not None
        self._prompt_answers[action.seat] = action
        self._emit(PromptAnswered(action.seat, prompt.id, action.args_json()))
        if len(self._prompt_answers) < len(prompt.seats):
            return
        self._resolve_prompt(prompt)
        self._open_next_prompt()

    def _resolve_prompt(self, prompt: Prompt) -> None:
        answers = dict(sorted(self._prompt_answers.items()))
        lines = len(self.ledger.lines)
        self.ruleset.resolve_prompt(self, prompt, answers)
        self.prompts_done.append((prompt, answers))
        self._emit(PromptClosed(prompt.id))
        self._emit_payments(lines)

    # -- play ----------------------------------------------------------------------------

    def _begin_play(self) -> None:
        self.phase = Phase.TURN
        self.turn = 0
        self.turn_number = 1
        # The dealer draws nothing: a heavenly hand's winning tile is chosen by its score
        # (``_turn_win``), never by the order of the dealt tiles, which a script loses.
        self._mode = TurnMode.START

    def _begin_turn(self, seat: int) -> None:
        """``seat`` draws and plays; an empty live wall ends the hand instead."""
        if self.live_count == 0:
            self._emit(WallExhausted())
            self._end_play(EndReason.EXHAUSTED)
            return
        self.turn = seat
        self.turn_number += 1
        self._turn_kongs = []
        self._after_kong = None
        self._mode = TurnMode.DRAWN
        self.phase = Phase.TURN
        self._draw(seat, self.draw_front(), replacement=False)

    def _draw(self, seat: int, tile: int, *, replacement: bool) -> None:
        self._hands[seat][tile] += 1
        self._last_drawn[seat] = tile
        self._draws[seat] += 1
        self._emit(Drew(seat, tile, replacement, self.live_count))
        if self._locks.clear(seat):
            self._emit(RestrictionCleared(seat))

    def _turn_action(self, action: Action) -> None:
        seat = action.seat
        if isinstance(action, Discard):
            self._discard(seat, action.tile, action.declare_ready)
        elif isinstance(action, Kong):
            if self._hands[seat][action.tile] == 4:
                self._concealed_kong(seat, action.tile)
            else:
                self._declare_added_kong(seat, action.tile)
        elif isinstance(action, Win):
            win = self._turn_win(seat)
            assert win is not None
            tile = win.context.tile
            self._hands[seat][tile] -= 1
            self._won_tiles.append(tile)
            self._record_wins([win])

    def _discard(self, seat: int, tile: int, declare_ready: bool) -> None:
        self._hands[seat][tile] -= 1
        if declare_ready:
            self._ready[seat] = ReadyDeclaration(len(self._rivers[seat]), self._melds_total)
        self._rivers[seat].append(DiscardRecord(tile, declare_ready=declare_ready))
        self._last_discard = (seat, tile)
        self._discards_total += 1
        self._last_drawn[seat] = None
        self._after_kong = None
        self._emit(Discarded(seat, tile, declare_ready))
        window = Window(tile, seat, False, {})
        # Set before the offers are made: a win's context names the discarder.
        self._window = window
        window.offers = {
            s: discard_offer(self, self._locks, self._may_be_ready, s, seat, tile)
            for s in seats_after(seat)
        }
        self._open_window(window)

    def _open_window(self, window: Window) -> None:
        for s, offer in list(window.offers.items()):
            if offer.withheld:
                window.withheld[s] = offer.withheld
            if offer.any or offer.withheld:
                self._emit(
                    ClaimOffered(
                        s,
                        window.tile,
                        window.from_seat,
                        offer.options(),
                        offer.chows,
                        offer.blocked(),
                        window.rob,
                    )
                )
            if not offer.any:
                del window.offers[s]
        self._window = window
        self._last_window = window
        self.phase = Phase.ROB if window.rob else Phase.CLAIM
        if not window.offers:
            self._resolve_window()

    def _may_be_ready(self, seat: int) -> bool:
        """The rule set's readiness pre-check, kept until the seat's tiles change."""
        # Prompts (a void suit chosen) can change what completes a hand.
        key = (tuple(self._hands[seat]), len(self._melds[seat]), len(self.prompts_done))
        cached = self._ready_cache[seat]
        if cached is not None and cached[0] == key:
            return cached[1]
        ready = self.ruleset.may_be_ready(self, seat)
        self._ready_cache[seat] = (key, ready)
        return ready

    def _answer_window(self, action: Action) -> None:
        window = self._window
        assert window is not None
        window.answers[action.seat] = action
        if isinstance(action, Pass):
            self._emit(Passed(action.seat))
        if not window.pending():
            self._resolve_window()

    def _resolve_window(self) -> None:
        window = self._window
        assert window is not None
        for event in self._locks.record(window, self.ruleset.pass_rules):
            self._emit(event)
        winners = window.winners(self.ruleset.multiple_winners)
        self._window = None
        if window.taken:
            # The tile is won or claimed: a late claim on it has nothing to answer.
            self._last_window = None
        if window.rob:
            self._resolve_rob(window, winners)
            return
        if winners:
            river = self._rivers[window.from_seat]
            river[-1] = replace(river[-1], won=True)
            self._record_wins(winners)
            return
        claim = window.claim()
        if isinstance(claim, Kong):
            self._exposed_kong(claim.seat, window)
        elif isinstance(claim, Pong):
            self._claim(claim.seat, window, MeldType.PUNG, window.tile)
        elif isinstance(claim, Chow):
            self._claim(claim.seat, window, MeldType.CHOW, claim.tiles[0])
        else:
            self._next_turn_after(window.from_seat)

    def _next_turn_after(self, seat: int) -> None:
        for s in seats_after(seat):
            if self._active[s]:
                self._begin_turn(s)
                return
        self._end_play(EndReason.EXHAUSTED)

    def _take_discard(self, seat: int, window: Window) -> None:
        river = self._rivers[window.from_seat]
        river[-1] = replace(river[-1], claimed_by=seat)
        self._melds_total += 1

    def _claim(self, seat: int, window: Window, meld_type: MeldType, low: int) -> None:
        tile = window.tile
        if meld_type is MeldType.PUNG:
            self._hands[seat][tile] -= 2
            tiles: tuple[int, ...] = (tile, tile, tile)
        else:
            tiles = (low, low + 1, low + 2)
            for k in tiles:
                if k != tile:
                    self._hands[seat][k] -= 1
        self._take_discard(seat, window)
        self._melds[seat].append(Meld(meld_type, low, claimed=tile, from_seat=window.from_seat))
        claim = "pong" if meld_type is MeldType.PUNG else "chow"
        self._emit(Claimed(seat, claim, tiles, tile, window.from_seat))
        self.turn = seat
        self.turn_number += 1
        self._turn_kongs = []
        self._after_kong = None
        self._mode = TurnMode.CLAIMED
        self._last_drawn[seat] = None
        self.phase = Phase.TURN

    def _exposed_kong(self, seat: int, window: Window) -> None:
        tile = window.tile
        self._hands[seat][tile] -= 3
        self._take_discard(seat, window)
        self._melds[seat].append(
            Meld(MeldType.KONG, tile, claimed=tile, from_seat=window.from_seat)
        )
        self.turn = seat
        self.turn_number += 1
        self._turn_kongs = []
        self._emit(Konged(seat, KongType.EXPOSED.value, tile, window.from_seat))
        self._complete_kong(KongRecord(seat, tile, KongType.EXPOSED, window.from_seat, False, 0))

    def _concealed_kong(self, seat: int, tile: int) -> None:
        self._hands[seat][tile] -= 4
        self._melds[seat].append(Meld(MeldType.CONCEALED_KONG, tile))
        self._melds_total += 1
        self._emit(Konged(seat, KongType.CONCEALED.value, tile))
        self._complete_kong(KongRecord(seat, tile, KongType.CONCEALED, None, False, 0))

    def _declare_added_kong(self, seat: int, tile: int) -> None:
        index = next(
            i for i, m in enumerate(self._melds[seat]) if m.type is MeldType.PUNG and m.kind == tile
        )
        self._hands[seat][tile] -= 1
        self._pending_kong = (seat, tile, index)
        self._emit(Konged(seat, KongType.ADDED.value, tile, self._melds[seat][index].from_seat))
        offers = {
            s: rob_offer(self, self._locks, self._may_be_ready, s, tile) for s in seats_after(seat)
        }
        self._open_window(Window(tile, seat, True, offers))

    def _resolve_rob(self, window: Window, robbers: list[ScoredWin]) -> None:
        pending = self._pending_kong
        assert pending is not None
        seat, tile, index = pending
        if robbers:
            self._pending_kong = None
            self._won_tiles.append(tile)
            self._emit(KongRobbed(seat, tile, tuple(w.seat for w in robbers)))
            self._record_wins(robbers)
            return
        self._pending_kong = None
        pung = self._melds[seat][index]
        self._melds[seat][index] = Meld(
            MeldType.KONG, tile, claimed=pung.claimed, from_seat=pung.from_seat, added=True
        )
        self._melds_total += 1
        self.phase = Phase.TURN
        drawn_now = self._last_drawn[seat] == tile
        self._complete_kong(KongRecord(seat, tile, KongType.ADDED, pung.from_seat, drawn_now, 0))

    def _complete_kong(self, record: KongRecord) -> None:
        record = replace(record, turn=self.turn_number)
        self.kongs.append(record)
        self._turn_kongs.append(record)
        lines = len(self.ledger.lines)
        self.ruleset.on_kong(self, record)
        self._emit_payments(lines)
        self.phase = Phase.TURN
        self._mode = TurnMode.DRAWN
        tile = self._wall[self._back - 1]
        self._back -= 1
        self._after_kong = record
        self._draw(record.seat, tile, replacement=True)

    def _record_wins(self, wins: list[ScoredWin]) -> None:
        self.wins.extend(wins)
        for w in wins:
            self._emit(
                Won(
                    w.seat,
                    w.how,
                    w.context.tile,
                    w.context.from_seat,
                    w.score.total,
                    w.score.fans,
                    replacement=w.context.after_kong is not None,
                )
            )
        lines = len(self.ledger.lines)
        self.ruleset.on_win(self, wins)
        self._emit_payments(lines)
        if self.end_reason is not None or not self.ruleset.play_continues(self, wins):
            if self.end_reason is None:
                self._end_play(EndReason.WIN)
            return
        for w in wins:
            self._active[w.seat] = False
            self._last_drawn[w.seat] = None
            self._emit(SeatOut(w.seat))
        last = wins[-1].seat
        from_seat = wins[0].context.from_seat
        if from_seat is not None:
            ordered = [s for s in seats_after(from_seat) if any(w.seat == s for w in wins)]
            last = ordered[-1]
        self._next_turn_after(last)

    def _end_play(self, reason: EndReason) -> None:
        self.end_reason = reason
        self.turn = None
        self._window = None
        self._stage = Stage.AFTER_PLAY
        self.phase = Phase.PROMPT
        self._open_next_prompt()

    def _settle(self) -> None:
        lines = len(self.ledger.lines)
        self.ruleset.settle_hand(self)
        self._emit_payments(lines)
        self.next_dealer_seat = self.ruleset.next_dealer(self) % 4
        self.phase = Phase.END
        self.turn = None
        hands = tuple(self._hand_notation(s) for s in range(4))
        self._emit(
            HandEnded(
                self.end_reason.value if self.end_reason else EndReason.EXHAUSTED.value,
                tuple(self.ledger.nets()),
                (self.dealer + self.next_dealer_seat) % 4,
                hands,
            )
        )

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    def _emit_payments(self, since: int) -> None:
        if len(self.ledger.lines) > since:
            self._emit(Paid(tuple(self.ledger.lines[since:])))

    # -- legality ------------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase is Phase.PROMPT:
            prompt = self._prompt
            if prompt is None or seat not in prompt.seats or seat in self._prompt_answers:
                return []
            return self.ruleset.prompt_actions(self, prompt, seat)
        if self.phase is Phase.TURN:
            return self._turn_actions(seat) if seat == self.turn else []
        if self.phase in (Phase.CLAIM, Phase.ROB):
            window = self._window
            assert window is not None
            offer = window.offers.get(seat)
            if offer is None or seat in window.answers:
                return []
            return offer.actions(seat, window.tile)
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        hand = self._hands[seat]
        rules = self.ruleset
        out: list[Action] = []
        drawn = self._last_drawn[seat]
        if self._mode is not TurnMode.CLAIMED:
            if self._turn_win(seat) is not None:
                out.append(Win(seat))
            if self.live_count > 0 and self._ready[seat] is None:
                for k in range(NUM_KINDS):
                    if hand[k] == 4 and rules.refuse_meld(self, seat, k, "kong") is None:
                        out.append(Kong(seat, k))
                for m in self._melds[seat]:
                    if (
                        m.type is MeldType.PUNG
                        and hand[m.kind]
                        and rules.refuse_meld(self, seat, m.kind, "kong") is None
                    ):
                        out.append(Kong(seat, m.kind))
        if self._ready[seat] is not None and drawn is not None:
            out.append(Discard(seat, drawn))
            return out
        for k in range(NUM_KINDS):
            if hand[k] and rules.refuse_discard(self, seat, k) is None:
                out.append(Discard(seat, k))
                if self._ready[seat] is None and rules.can_declare_ready(self, seat, k):
                    out.append(Discard(seat, k, declare_ready=True))
        return out

    def win_tiles(self, seat: int) -> list[int]:
        """The tiles a self-drawn win by the turn seat may take: the one it drew; on the
        dealer's first move (no draw) every kind he holds."""
        if self._mode is TurnMode.START:
            hand = self._hands[seat]
            return [k for k in range(NUM_KINDS) if hand[k]]
        drawn = self._last_drawn[seat]
        return [] if drawn is None else [drawn]

    def _turn_win(self, seat: int) -> ScoredWin | None:
        """The self-drawn win the turn seat may declare now. A heavenly hand has no
        winning tile: it takes the kind that scores best (ties: first in tile order), so
        the win never depends on the order the tiles were dealt in (mcr.md §2.4)."""
        best: ScoredWin | None = None
        for tile in self.win_tiles(seat):
            win = self._self_draw_win(seat, tile)
            if win is not None and (
                best is None or win.score.compare_value > best.score.compare_value
            ):
                best = win
        return best

    def _self_draw_win(self, seat: int, tile: int) -> ScoredWin | None:
        if not self.ruleset.is_complete(self, seat, self._hands[seat], tile, WinHow.SELF_DRAW):
            return None
        ctx = self.win_context(seat, tile, WinHow.SELF_DRAW)
        score = self.ruleset.score_win(self, ctx)
        if self.ruleset.refuse_win(self, ctx, score) is not None:
            return None
        return ScoredWin(ctx, score)

    # -- visibility ----------------------------------------------------------------------

    def view(self, viewer: int | None, reveal: frozenset[int] = frozenset()) -> View:
        """The hand as ``viewer`` may see it (None: a spectator). ``reveal`` adds seats
        whose concealed tiles this viewer may see (a player's 旁观看牌 setting). Views
        are immutable, so one is built once for each state of the hand."""
        return self.derived(("view", viewer, reveal), lambda: build_view(self, viewer, reveal))

    def derived(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, a value derived from the hand alone and never changed by its
        readers, worked out once for each state of the hand and kept under ``key``."""
        if self._version % 2:
            return compute()
        if self._derived_version != self._version:
            self._derived = {}
            self._derived_version = self._version
        if key not in self._derived:
            self._derived[key] = compute()
        return cast(T, self._derived[key])

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, a value that ``key`` alone determines (whatever the state), worked
        out once for the whole hand."""
        if key not in self._kept:
            self._kept[key] = compute()
        return cast(T, self._kept[key])

    @property
    def version(self) -> int:
        """Changes whenever the hand changes: what is derived from the hand alone may be
        kept while it stays the same."""
        return self._version

    def events_for(
        self, viewer: int | None, start: int = 0, reveal: frozenset[int] = frozenset()
    ) -> list[Event]:
        """The log from ``start`` as ``viewer`` may see it (None: a spectator)."""
        return events_for(self, viewer, start, reveal)

    # -- results -------------------------------------------------------------------------

    def _hand_notation(self, seat: int) -> str:
        return format_tiles(kinds_of(self._hands[seat])) + "".join(
            m.notation() for m in self._melds[seat]
        )

    def final(self) -> list[dict[str, Any]]:
        """Every seat's concealed tiles, melds, discards and wins (for replays and tests)."""
        out = []
        for s in range(4):
            out.append(
                {
                    "seat": s,
                    "concealed": format_tiles(kinds_of(self._hands[s])),
                    "melds": [m.notation() for m in self._melds[s]],
                    "discards": format_tiles([d.tile for d in self._rivers[s]], sort=False),
                    "won": [tile_str(w.context.tile) for w in self.wins if w.seat == s],
                }
            )
        return out

    def result(self) -> dict[str, Any]:
        """The replay's result object (Contract 2), once the hand is over."""
        out: dict[str, Any] = {
            "ok": True,
            "winners": [w.to_json() for w in self.wins],
            "payments": self.ledger.to_json(),
            "net": self.ledger.nets(),
            "next_dealer": None
            if self.next_dealer_seat is None
            else (self.dealer + self.next_dealer_seat) % 4,
            "end": self.end_reason.value if self.end_reason else None,
        }
        out.update(self.ruleset.result_extras(self))
        out["events"] = [e.to_json() for e in self.events]
        out["final"] = self.final()
        return out

    def to_script(self) -> dict[str, Any]:
        """The round script of this hand so far: replaying it rebuilds this state."""
        return write_script(self)

    def tile_census(self) -> list[int]:
        """Where every tile is, as 34 counts: hands, melds, rivers, wall, set aside, won.

        Equals the rule set's tile set at every moment (tile conservation)."""
        counts = [0] * NUM_KINDS
        for s in range(4):
            for k, n in enumerate(self._hands[s]):
                counts[k] += n
            for m in self._melds[s]:
                for k in m.tiles:
                    counts[k] += 1
            for d in self._rivers[s]:
                if d.claimed_by is None:
                    counts[d.tile] += 1
        for k in self._wall[self._front : self._back]:
            counts[k] += 1
        for tiles in self.set_aside.values():
            for k in tiles:
                counts[k] += 1
        for k in self._won_tiles:
            counts[k] += 1
        if self._pending_kong is not None:
            counts[self._pending_kong[1]] += 1
        return counts

    def snapshot(self) -> tuple[Any, ...]:
        """The whole engine-visible state, for comparing a replay with live play."""
        return (
            self.phase,
            self.turn,
            self.turn_number,
            tuple(tuple(h) for h in self._hands),
            tuple(tuple(m) for m in self._melds),
            tuple(tuple(r) for r in self._rivers),
            self._front,
            self._back,
            tuple(self._active),
            tuple(self._ready),
            tuple(self.ledger.lines),
            tuple((w.seat, w.how, w.context.tile, w.score.total) for w in self.wins),
            tuple(self.kongs),
            tuple(sorted(self.set_aside.items())),
            self.end_reason,
            self.next_dealer_seat,
            tuple(sorted((k, repr(v)) for k, v in self.fields.items())),
            repr(self.rule_notes),
            len(self.events),
        )
