"""A small test-only rule set for the round engine: pongs and chows, flat one-point wins.

Every data switch of :class:`~engine.rules.play.RuleSet` can be turned on per instance,
so each engine path (several winners, 血战-style continuation, pass restrictions, set-up
prompts, a visibility hook) is testable without a real rule set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from engine.actions import Action, Bet, ChooseVoid, Exchange, LastChance
from engine.analysis import ShapeRules
from engine.errors import Refusal
from engine.events import Notice
from engine.rules.base import TableOptions, int_in, is_bool, option
from engine.rules.play import (
    Aside,
    EndReason,
    HandState,
    PassRules,
    Prompt,
    RuleSet,
    ScoredWin,
    Stage,
    WinContext,
    WinHow,
    WinLock,
    WinScore,
)
from engine.suggestions import can_exchange
from engine.tiles import suit
from engine.wall import TILES_108, TILES_136


@dataclass(frozen=True, slots=True)
class PlainOptions(TableOptions):
    """Switches for each engine path the test rule set can take."""

    variant: ClassVar[str] = "plain"

    rounds: int = option(4, int_in(1, 16), "局数: hands a session plays")
    min_total: int = option(0, int_in(0, 10), "起和: the least total that wins")
    exchange: bool = option(False, is_bool, "换三张: a prompt passing three tiles")
    void: bool = option(False, is_bool, "定缺: a prompt choosing a void suit")
    horses: int = option(0, int_in(0, 4), "买马: tiles set aside as horses")
    bet: bool = option(False, is_bool, "押注: a prompt before the deal")
    last_chance: bool = option(False, is_bool, "妙手回春: a prompt after an exhaustive draw")

    @property
    def planned_hands(self) -> int:
        return self.rounds


@dataclass(slots=True)
class PlainNotes:
    """What the test rule set remembers through a hand: bets and void suits by seat."""

    bets: dict[int, int] = field(default_factory=dict)
    voids: dict[int, int] = field(default_factory=dict)


def notes(state: HandState[PlainOptions]) -> PlainNotes:
    found = state.rule_notes
    assert isinstance(found, PlainNotes)
    return found


class PlainRules(RuleSet[PlainOptions]):
    """One point per payer; a kong pays one point at once; seven pairs allowed."""

    variant = "plain"
    options_type = PlainOptions
    script_fields = ("horse_count", "exchange_map")

    def __init__(
        self,
        *,
        chow: bool = True,
        multiple_winners: bool = False,
        bloody: bool = False,
        pass_rules: PassRules | None = None,
        suited_only: bool = False,
        peek: bool = False,
    ) -> None:
        self.allows_chow = chow
        self.multiple_winners = multiple_winners
        self.bloody = bloody
        self.pass_rules = pass_rules or PassRules()
        self.tiles = TILES_108 if suited_only else TILES_136
        self.peek = peek

    # -- set-up ----------------------------------------------------------------------

    def first_fields(self, options: PlainOptions) -> dict[str, Any]:
        return {"horse_count": options.horses}

    def next_fields(
        self, options: PlainOptions, state: HandState, next_dealer_seat: int, hand_number: int
    ) -> dict[str, Any]:
        return {"horse_count": options.horses}

    def new_notes(self, state: HandState) -> PlainNotes:
        return PlainNotes()

    def aside(self, state: HandState) -> Sequence[Aside]:
        count = state.fields.get("horse_count", 0)
        return (Aside("horses", count),) if count else ()

    def next_prompt(self, state: HandState, stage: Stage) -> Prompt | None:
        done = {p.id for p, _ in state.prompts_done}
        if stage is Stage.BEFORE_DEAL and state.options.bet and "bet" not in done:
            return Prompt("bet", "bet", (0, 1, 2, 3), stage)
        if (
            stage is Stage.AFTER_PLAY
            and state.options.last_chance
            and state.end_reason is EndReason.EXHAUSTED
            and "last_chance" not in done
        ):
            return Prompt("last_chance", "last_chance", (0,), stage)
        if stage is Stage.AFTER_DEAL:
            if state.options.exchange and "exchange" not in done:
                # With honors in the set, a hand may lack three tiles of any suit.
                seats = tuple(s for s in range(4) if can_exchange(state.concealed(s)))
                return Prompt("exchange", "exchange", seats, stage)
            if state.options.void and "void" not in done:
                return Prompt("void", "void", (0, 1, 2, 3), stage)
        return None

    def prompt_actions(self, state: HandState, prompt: Prompt, seat: int) -> list[Action]:
        if prompt.id == "void":
            return [ChooseVoid(seat, s) for s in range(3)]
        if prompt.id == "bet":
            return [Bet(seat, factor) for factor in (1, 2)]
        if prompt.id == "last_chance":
            return [LastChance(seat, position) for position in range(1, 5)]
        hand = state.concealed(seat)
        held = [k for k in range(27) for _ in range(hand[k])]
        picks = {c for c in combinations(held, 3) if len({suit(k) for k in c}) == 1}
        return [Exchange(seat, c) for c in sorted(picks)]

    def check_prompt_action(
        self, state: HandState, prompt: Prompt, action: Action
    ) -> Refusal | None:
        if prompt.id == "exchange" and isinstance(action, Exchange):
            hand = list(state.concealed(action.seat))
            for k in action.tiles:
                if hand[k] <= 0:
                    return Refusal("tile_not_held", f"seat {action.seat} does not hold them")
                hand[k] -= 1
            if len(action.tiles) != 3 or len({suit(k) for k in action.tiles}) != 1:
                return Refusal("invalid_choice", "pick three tiles of one suit")
            return None
        return super().check_prompt_action(state, prompt, action)

    def resolve_prompt(
        self, state: HandState, prompt: Prompt, answers: Mapping[int, Action]
    ) -> None:
        if prompt.id == "bet":
            notes(state).bets.update(
                {s: a.factor for s, a in answers.items() if isinstance(a, Bet)}
            )
            return
        if prompt.id == "last_chance":
            # Position 1 hides the winning tile, a virtual 1m.
            if any(isinstance(a, LastChance) and a.position == 1 for a in answers.values()):
                win = state.win_context(0, 0, WinHow.SELF_DRAW, virtual=True)
                state.award_win(ScoredWin(win, self.score_win(state, win)))
            return
        if prompt.id == "void":
            voids = notes(state).voids
            voids.update({s: a.suit for s, a in answers.items() if isinstance(a, ChooseVoid)})
            state.emit(Notice("voids", {"voids": [voids[s] for s in range(4)]}))
            return
        mapping = state.chance("exchange_map", lambda rng: rng.choice([[1, 2, 3, 0], [2, 3, 0, 1]]))
        piles = {s: a.tiles for s, a in answers.items() if isinstance(a, Exchange)}
        for s, tiles in piles.items():
            state.take_tiles(s, tiles)
        for s, tiles in piles.items():
            state.give_tiles(mapping[s], tiles)

    # -- play ------------------------------------------------------------------------

    def void(self, state: HandState, seat: int) -> int | None:
        return notes(state).voids.get(seat)

    def shape_rules(self, state: HandState, seat: int) -> ShapeRules:
        return ShapeRules(seven_pairs=True, void_suit=self.void(state, seat))

    def refuse_discard(self, state: HandState, seat: int, kind: int) -> Refusal | None:
        void = self.void(state, seat)
        if void is None or suit(kind) == void:
            return None
        hand = state.concealed(seat)
        if any(hand[k] for k in range(void * 9, void * 9 + 9)):
            return Refusal("must_discard_void", f"seat {seat} must discard its void suit first")
        return None

    def refuse_meld(self, state: HandState, seat: int, kind: int, meld: str) -> Refusal | None:
        if self.void(state, seat) == suit(kind):
            return Refusal("void_suit", f"seat {seat} cannot {meld} its void suit")
        return None

    def score_win(self, state: HandState, win: WinContext) -> WinScore:
        total = 1 + len([m for m in win.hand.melds if m.is_kong])
        return WinScore(total=total, meets_minimum=total >= state.options.min_total)

    def on_kong(self, state: HandState, kong: Any) -> None:
        for s in range(4):
            if s != kong.seat and state.is_active(s):
                state.ledger.pay(s, kong.seat, 1, "kong")

    def on_win(self, state: HandState, wins: Sequence[ScoredWin]) -> None:
        for w in wins:
            if w.context.how is WinHow.SELF_DRAW:
                for s in range(4):
                    if s != w.seat and state.is_active(s):
                        state.ledger.pay(s, w.seat, w.score.total, "win_self_draw")
            else:
                payer = w.context.from_seat
                assert payer is not None
                reason = "win_discard" if w.context.how is WinHow.DISCARD else "win_rob_kong"
                state.ledger.pay(payer, w.seat, w.score.total, reason)

    def play_continues(self, state: HandState, wins: Sequence[ScoredWin]) -> bool:
        return self.bloody and len(state.wins) < 3

    def visible_hands(self, state: HandState, viewer: int) -> frozenset[int]:
        return frozenset({(viewer + 1) % 4}) if self.peek else frozenset()

    def next_dealer(self, state: HandState) -> int:
        return state.wins[0].seat if state.wins else 0


PLAIN = PlainRules()
LOCKING = PlainRules(chow=False, pass_rules=PassRules(pong_lock=True, win_lock=WinLock.ALL))
BLOODY = PlainRules(
    chow=False,
    multiple_winners=True,
    bloody=True,
    suited_only=True,
    pass_rules=PassRules(pong_lock=True, win_lock=WinLock.VALUE),
)
