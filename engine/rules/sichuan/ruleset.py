"""四川 血战到底 as a plug-in of the round engine (sichuan.md §1, §2, §4, §5).

108 tiles; 换三张 and 定缺 as set-up prompts after the deal; pong and kong only; several
winners on one discard; winners leave and the others play on until a third has won or the
wall is exhausted. Water money and wins are paid when they happen, 查花猪 / 查叫 / 退税 at
exhaustion. The rules themselves live in ``flow``, ``hand`` and ``settle``; this module
reads the hand's state and hands them what they need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engine.actions import Action, ChooseVoid, Exchange
from engine.analysis import ShapeRules
from engine.controls import Choice, Control, PickOne, PickTiles, positions_of
from engine.errors import Refusal
from engine.events import Notice
from engine.rules.base import RuleError
from engine.rules.play import (
    EndReason,
    Figure,
    HandState,
    KongRecord,
    KongType,
    PassRules,
    Prompt,
    RuleFacts,
    RuleSet,
    ScoredWin,
    Stage,
    WinContext,
    WinHow,
    WinLock,
    WinScore,
)
from engine.rules.sichuan import flow, settle
from engine.rules.sichuan.hand import MAX_SUITS, best_ready_fan, score_hand, shape_rules
from engine.rules.sichuan.options import SUIT_LETTERS, VARIANT, SichuanOptions
from engine.rules.sichuan.patterns import Situation, Title, title_of
from engine.rules.sichuan.settle import KongKind, KongMoney, SeatCheck, Win
from engine.suggestions import suggest_exchange, suggest_void
from engine.tiles import counts_of, format_tiles, suit
from engine.wall import TILES_108

EXCHANGE = "exchange"
VOID = "void"
EXCHANGE_MAP = "exchange_map"
# The hand ends when this many seats have won.
WINNERS_TO_END = 3


State = HandState[SichuanOptions]


@dataclass(slots=True)
class HandNotes:
    """What the rule set remembers through one hand (``state.rule_notes``)."""

    exchange_map: tuple[int, ...] | None = None
    voids: dict[int, int] = field(default_factory=dict)
    # Water money still held, with the kong that earned it (呼叫转移 takes some away).
    kongs: list[tuple[KongRecord, KongMoney]] = field(default_factory=list)
    # The first win event as (payer, winners): it names the next dealer.
    first_win: tuple[int | None, tuple[int, ...]] | None = None
    checks: list[SeatCheck] = field(default_factory=list)


def notes(state: State) -> HandNotes:
    found = state.rule_notes
    assert isinstance(found, HandNotes), "the hand's notes are made by new_notes"
    return found


@dataclass(frozen=True, slots=True)
class TitledWin:
    """A win's uncapped 番 and the title the hand goes by, as a replay reports them."""

    fan: int
    title: Title

    def to_json(self) -> dict[str, Any]:
        title = self.title
        return {"fan": self.fan, "title": {"id": title.id, "zh": title.zh, "en": title.en}}


def _active(state: State) -> list[int]:
    return [s for s in range(settle.SEATS) if state.is_active(s)]


def _kong_kind(kong: KongRecord) -> KongKind:
    if kong.type is KongType.CONCEALED:
        return KongKind.CONCEALED
    if kong.type is KongType.EXPOSED:
        return KongKind.EXPOSED
    return KongKind.ADDED if kong.drawn_now else KongKind.WRAPPED


def _win_counts(win: WinContext) -> list[int]:
    """The winner's concealed tiles with the winning tile, as counts."""
    return counts_of([*win.hand.concealed, win.tile])


def _bloom_giver(win: WinContext, options: SichuanOptions) -> int | None:
    """The seat that pays a 杠上花 alone (点杠花(点炮)): the giver of the 直杠 just made."""
    kong = win.after_kong if win.how is WinHow.SELF_DRAW else None
    exposed = kong is not None and kong.type is KongType.EXPOSED
    if kong is None or not settle.kong_bloom_paid_by_giver(options, exposed):
        return None
    return kong.from_seat


def _situation(win: WinContext, options: SichuanOptions) -> Situation:
    """The facts of a win as the scorer reads them; 天胡 and 地胡 are self-draws [D15]."""
    self_drawn = win.how is WinHow.SELF_DRAW
    return Situation(
        self_drawn=self_drawn,
        kong_bloom=self_drawn and win.after_kong is not None,
        robbing_kong=win.how is WinHow.ROB_KONG,
        last_tile=win.last_tile,
        kong_discard=win.how is WinHow.DISCARD and bool(win.discarder_kongs),
        heavenly=self_drawn and win.seat == 0 and win.draws == 0 and win.discards_before == 0,
        earthly=self_drawn and win.seat != 0 and win.draws == 1 and win.melds_before == 0,
        paid_as_discard=_bloom_giver(win, options) is not None,
    )


def _exchange_choices(held: Sequence[int]) -> list[tuple[int, ...]]:
    """Every pile of three tiles of one suit the concealed counts ``held`` can give."""
    tiles = [k for k, n in enumerate(held) for _ in range(n)]
    return sorted(
        {c for c in combinations(tiles, flow.PILE_SIZE) if len({suit(k) for k in c}) == 1}
    )


def _exchange_picks(held: Sequence[int]) -> tuple[PickTiles, ...]:
    """换三张: one pick of exactly three tiles for each suit holding three or more, the
    suggested pile marked on the suit it comes from."""
    pile = suggest_exchange(held)
    picks = []
    for suit_ in range(len(SUIT_LETTERS)):
        tiles = tuple(k for k in range(suit_ * 9, suit_ * 9 + 9) for _ in range(held[k]))
        if len(tiles) < flow.PILE_SIZE:
            continue
        suggested = positions_of(pile, tiles) if suit(pile[0]) == suit_ else ()
        picks.append(
            PickTiles(EXCHANGE, EXCHANGE, tiles, flow.PILE_SIZE, flow.PILE_SIZE, suit_, suggested)
        )
    return tuple(picks)


class SichuanRules(RuleSet[SichuanOptions]):
    variant = VARIANT
    options_type = SichuanOptions
    tiles = TILES_108
    allows_chow = False
    multiple_winners = True
    pass_rules = PassRules(pong_lock=True, win_lock=WinLock.VALUE)
    script_fields = (EXCHANGE_MAP,)

    # -- fields ---------------------------------------------------------------------------

    def check_fields(self, raw: Mapping[str, Any], options: SichuanOptions) -> dict[str, Any]:
        """``exchange_map`` is recorded only for 换三张 with ``exchange_direction: random``."""
        if EXCHANGE_MAP not in raw:
            return dict(raw)
        if not options.exchange_three or options.exchange_direction != "random":
            raise RuleError("exchange_map is only used with exchange_three in random direction")
        error = flow.exchange_map_error(raw[EXCHANGE_MAP])
        if error is not None:
            raise RuleError(error)
        return dict(raw)

    # -- set-up -----------------------------------------------------------------------------

    def new_notes(self, state: State) -> HandNotes:
        return HandNotes()

    def begin(self, state: State) -> None:
        options = state.options
        if options.exchange_three:
            direction = options.exchange_direction
            mapping = (
                state.chance(EXCHANGE_MAP, flow.draw_exchange_map)
                if direction == "random"
                else flow.DIRECTION_MAPS[direction]
            )
            notes(state).exchange_map = tuple(mapping)

    def next_prompt(self, state: State, stage: Stage) -> Prompt | None:
        if stage is not Stage.AFTER_DEAL:
            return None
        done = {prompt.id for prompt, _ in state.prompts_done}
        seats = tuple(range(settle.SEATS))
        if notes(state).exchange_map is not None and EXCHANGE not in done:
            return Prompt(EXCHANGE, EXCHANGE, seats, Stage.AFTER_DEAL)
        if VOID not in done:
            return Prompt(VOID, VOID, seats, Stage.AFTER_DEAL)
        return None

    def prompt_actions(self, state: State, prompt: Prompt, seat: int) -> list[Action]:
        if prompt.id == EXCHANGE:
            return [Exchange(seat, pile) for pile in _exchange_choices(state.concealed(seat))]
        return [ChooseVoid(seat, s) for s in range(len(SUIT_LETTERS))]

    def prompt_controls(self, state: State, prompt: Prompt, seat: int) -> tuple[Control, ...]:
        """换三张 as a pick of three tiles per suit; 定缺 as one button per suit. Each marks
        the choice a time-out takes."""
        held = state.concealed(seat)
        if prompt.id == EXCHANGE:
            return _exchange_picks(held)
        suits = tuple(
            Choice(ChooseVoid(seat, suit_), suit=suit_) for suit_ in range(len(SUIT_LETTERS))
        )
        return (PickOne(VOID, suits, suggested=suggest_void(held)),)

    def check_prompt_action(self, state: State, prompt: Prompt, action: Action) -> Refusal | None:
        if prompt.id == EXCHANGE and isinstance(action, Exchange):
            return flow.exchange_refusal(action.seat, state.concealed(action.seat), action.tiles)
        if (
            prompt.id == VOID
            and isinstance(action, ChooseVoid)
            and action.suit in range(len(SUIT_LETTERS))
        ):
            return None
        return Refusal(
            "invalid_choice", f"seat {action.seat} must answer {prompt.id} with '{prompt.action}'"
        )

    def default_prompt_action(self, state: State, prompt: Prompt, seat: int) -> Action:
        """A time-out takes the suggestion: the weakest suit's tiles, the weakest suit."""
        held = state.concealed(seat)
        if prompt.id == EXCHANGE:
            return Exchange(seat, suggest_exchange(held))
        return ChooseVoid(seat, suggest_void(held))

    def resolve_prompt(self, state: State, prompt: Prompt, answers: Mapping[int, Action]) -> None:
        if prompt.id == EXCHANGE:
            self._exchange(state, answers)
        else:
            self._reveal_voids(state, answers)

    def _exchange(self, state: State, answers: Mapping[int, Action]) -> None:
        """Hand every pile to its seat under ``exchange_map``; only the receiver sees it."""
        mapping = notes(state).exchange_map
        # The exchange prompt opens only when a map was fixed in ``begin``.
        assert mapping is not None
        piles = {
            seat: action.tiles for seat, action in answers.items() if isinstance(action, Exchange)
        }
        for seat, pile in piles.items():
            state.take_tiles(seat, pile)
        for seat, pile in sorted(piles.items()):
            target = mapping[seat]
            state.give_tiles(target, pile)
            moved = {"from_seat": seat, "to_seat": target}
            state.emit(Notice(EXCHANGE, {**moved, "tiles": format_tiles(pile)}, target, moved))

    def _reveal_voids(self, state: State, answers: Mapping[int, Action]) -> None:
        voids = notes(state).voids
        for seat, action in answers.items():
            if isinstance(action, ChooseVoid):
                voids[seat] = action.suit
        state.emit(Notice(VOID, {"voids": [SUIT_LETTERS[voids[s]] for s in sorted(voids)]}))

    # -- play --------------------------------------------------------------------------------

    def shape_rules(self, state: State, seat: int) -> ShapeRules:
        void = notes(state).voids.get(seat)
        if void is None:
            return ShapeRules(seven_pairs=True, four_as_two_pairs=True, max_suits=MAX_SUITS)
        return shape_rules(void)

    def refuse_discard(self, state: State, seat: int, kind: int) -> Refusal | None:
        void = notes(state).voids.get(seat)
        if void is None:
            return None
        return flow.discard_refusal(seat, state.concealed(seat), void, kind)

    def refuse_meld(self, state: State, seat: int, kind: int, meld: str) -> Refusal | None:
        void = notes(state).voids.get(seat)
        return None if void is None else flow.meld_refusal(seat, void, kind, meld)

    def refuse_win(self, state: State, win: WinContext, score: WinScore | None) -> Refusal | None:
        void = notes(state).voids.get(win.seat)
        if void is None:
            return None
        return flow.win_refusal(win.seat, _win_counts(win), void)

    def score_win(self, state: State, win: WinContext) -> WinScore:
        hand = notes(state)
        found = score_hand(
            _win_counts(win),
            win.hand.melds,
            win.tile,
            _situation(win, state.options),
            state.options,
            hand.voids.get(win.seat),
        )
        if found is None:
            raise ValueError(f"seat {win.seat}'s hand is not a complete {VARIANT} hand")
        return WinScore(
            total=state.options.capped(found.fan),
            fans=found.fans,
            value=found.fan,
            notes=TitledWin(found.fan, title_of(found.fans)),
        )

    def on_kong(self, state: State, kong: KongRecord) -> None:
        hand = notes(state)
        money = settle.pay_kong(
            state.ledger,
            _kong_kind(kong),
            kong.seat,
            _active(state),
            state.options,
            kong.from_seat if kong.type is KongType.EXPOSED else None,
        )
        hand.kongs.append((kong, money))

    def on_win(self, state: State, wins: Sequence[ScoredWin]) -> None:
        hand = notes(state)
        first = wins[0].context
        paid = [Win(w.seat, w.score.compare_value) for w in wins]
        payer = first.from_seat
        if payer is None:
            self._pay_self_draw(state, first, paid[0])
        elif first.how is WinHow.ROB_KONG:
            settle.pay_discard(state.ledger, payer, paid, state.options, settle.WIN_ROB_KONG)
        else:
            self._pay_discard(state, payer, paid, first.discarder_kongs)
        if hand.first_win is None:
            hand.first_win = (payer, tuple(w.seat for w in wins))

    def _pay_self_draw(self, state: State, win: WinContext, paid: Win) -> None:
        """自摸; a 杠上花 right after a 直杠 may instead be paid by the kong's giver."""
        options = state.options
        giver = _bloom_giver(win, options)
        if giver is None:
            settle.pay_self_draw(state.ledger, paid, _active(state), options)
        else:
            settle.pay_kong_bloom_by_giver(state.ledger, paid, giver, options)

    def _pay_discard(
        self,
        state: State,
        discarder: int,
        paid: Sequence[Win],
        turn_kongs: Sequence[KongRecord],
    ) -> None:
        """点炮, then 呼叫转移 of the water money of the discarder's kongs this turn."""
        hand = notes(state)
        settle.pay_discard(state.ledger, discarder, paid, state.options)
        moved = [money for kong, money in hand.kongs if kong in turn_kongs]
        if moved:
            settle.pay_call_transfer(state.ledger, discarder, [w.seat for w in paid], moved)
            hand.kongs = [(k, m) for k, m in hand.kongs if k not in turn_kongs]

    def play_continues(self, state: State, wins: Sequence[ScoredWin]) -> bool:
        return len({w.seat for w in state.wins}) < WINNERS_TO_END

    # -- the end --------------------------------------------------------------------------

    def settle_hand(self, state: State) -> None:
        """查花猪, 查叫 and 退税, only when the wall ran out with two or more seats active."""
        active = _active(state)
        if state.end_reason is not EndReason.EXHAUSTED or len(active) < 2:
            return
        hand = notes(state)
        for seat in active:
            void = hand.voids[seat]
            held = state.concealed(seat)
            pig = flow.holds_void(held, void)
            best = None if pig else best_ready_fan(held, state.melds(seat), void, state.options)
            hand.checks.append(SeatCheck(seat, pig, best))
        kept = [money for _, money in hand.kongs]
        settle.settle_exhaustion(state.ledger, hand.checks, kept, state.options)

    def next_dealer(self, state: State) -> int:
        first = notes(state).first_win
        return flow.next_dealer(first)

    def result_extras(self, state: State) -> dict[str, Any]:
        hand = notes(state)
        out: dict[str, Any] = {
            "voids": [SUIT_LETTERS[hand.voids[s]] for s in sorted(hand.voids)],
            "checks": [
                {
                    "seat": c.seat,
                    "flower_pig": c.flower_pig,
                    "ready": c.ready,
                    "best_fan": c.best_fan,
                }
                for c in hand.checks
            ],
        }
        if hand.exchange_map is not None:
            out[EXCHANGE_MAP] = list(hand.exchange_map)
        return out

    def view_facts(self, state: State, viewer: int | None) -> RuleFacts:
        """Void suits once all four are revealed; before that, only one's own choice is
        known, and the engine shows it with the seat's answer."""
        voids = notes(state).voids
        if len(voids) < settle.SEATS:
            return RuleFacts()
        return RuleFacts(voids=tuple(voids[s] for s in sorted(voids)))

    # -- simulation -----------------------------------------------------------------------

    def hand_statistics(self, state: State) -> Mapping[str, Figure]:
        """How often the wall runs out on two or more active seats, so that 查叫 (with
        查花猪 and 退税) settles the hand, and how many seats win a hand on average."""
        return {
            "hands ending in 查叫": Figure(1 if notes(state).checks else 0, percent=True),
            "winners per hand": Figure(len({w.seat for w in state.wins})),
        }


RULESET = SichuanRules()
