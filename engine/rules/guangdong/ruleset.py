"""广东推倒胡 in play: the rule set the round engine runs (engine.rules.play).

136 tiles, pong and kong only, several winners on one discard, the 过碰/过胡 pass
restrictions, the dealer's horses set aside from the back of the wall, settlement at the
end of the hand, and the session counters ``horse_count`` and ``dealer_streak``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.analysis import ShapeRules
from engine.errors import Refusal
from engine.rules.base import RuleError
from engine.rules.guangdong.bighu import SHAPES, find_kinds, win_hand
from engine.rules.guangdong.calculator import BIG_HU, fan_lines, hu_size
from engine.rules.guangdong.dealer import (
    DealerCounters,
    fresh_counters,
    next_counters,
    next_dealer_seat,
)
from engine.rules.guangdong.options import VARIANT, GuangdongOptions
from engine.rules.guangdong.settle import (
    HORSE,
    Kong,
    KongKind,
    Win,
    WinHow,
    horses_json,
    settle,
)
from engine.rules.play import (
    Aside,
    EndReason,
    Figure,
    HandState,
    KongRecord,
    KongType,
    PassRules,
    RuleFacts,
    RuleSet,
    ScoredWin,
    WinContext,
    WinLock,
    WinScore,
)
from engine.rules.play import WinHow as PlayWinHow
from engine.tiles import MeldType
from engine.wall import TILES_136

HORSES = "horses"
HORSE_COUNT = "horse_count"
DEALER_STREAK = "dealer_streak"
OWN_PONG_SOURCE = "own_pong_source"
KONG_BLOOM = "kong_bloom"

_KONG_KINDS = {
    KongType.EXPOSED: KongKind.EXPOSED,
    KongType.CONCEALED: KongKind.CONCEALED,
    KongType.ADDED: KongKind.ADDED,
}
_PLAIN_HOW = {
    PlayWinHow.SELF_DRAW: WinHow.SELF_DRAW,
    PlayWinHow.DISCARD: WinHow.DISCARD,
    PlayWinHow.ROB_KONG: WinHow.ROB_KONG,
}


State = HandState[GuangdongOptions]


@dataclass(frozen=True, slots=True)
class GuangdongFacts(RuleFacts):
    """The dealer's counters of this hand, for everyone: horses bought, hands dealt."""

    horse_count: int = 0
    dealer_streak: int = 1

    @property
    def continued(self) -> int:
        return self.dealer_streak - 1


def counters_of(fields: Mapping[str, Any]) -> DealerCounters:
    return DealerCounters(fields[HORSE_COUNT], fields[DEALER_STREAK])


def counters_json(counters: DealerCounters) -> dict[str, int]:
    return {HORSE_COUNT: counters.horse_count, DEALER_STREAK: counters.dealer_streak}


def settlement_win(win: ScoredWin) -> Win:
    """A win as settlement sees it: 杠上开花 names who discarded the kong's tile, if anyone."""
    context = win.context
    after = context.after_kong
    if after is not None:
        liable = after.from_seat if after.type is KongType.EXPOSED else None
        return Win(context.seat, WinHow.KONG_BLOOM, win.score.total, liable)
    return Win(context.seat, _PLAIN_HOW[context.how], win.score.total, context.from_seat)


def settlement_kong(kong: KongRecord) -> Kong:
    kind = _KONG_KINDS[kong.type]
    return Kong(kong.seat, kind, kong.from_seat if kind is KongKind.EXPOSED else None)


def hand_wins(state: State) -> list[Win]:
    """The hand's wins for settlement; none after an exhaustive draw."""
    if state.end_reason is not EndReason.WIN:
        return []
    return [settlement_win(w) for w in state.wins]


def is_heavenly(win: WinContext) -> bool:
    """The dealer self-draws on his dealt 14 tiles: no draw at all, so no kong either [D13]."""
    return win.seat == 0 and win.how is PlayWinHow.SELF_DRAW and win.draws == 0


def is_earthly(win: WinContext) -> bool:
    """A win on the hand's first discard, which is the dealer's first discard [D13]."""
    return win.how is PlayWinHow.DISCARD and win.from_seat == 0 and win.discards_before == 0


def robs_own_pong_source(state: State, win: WinContext) -> bool:
    """Robbing an added kong whose pung was claimed from the robber's discard [D6]."""
    if win.how is not PlayWinHow.ROB_KONG or win.from_seat is None:
        return False
    # The pung stays a pung until the rob window closes.
    return any(
        meld.type is MeldType.PUNG and meld.kind == win.tile and meld.from_seat == win.seat
        for meld in state.melds(win.from_seat)
    )


class GuangdongRules(RuleSet[GuangdongOptions]):
    """广东推倒胡: the data switches and hooks that differ from the engine's defaults."""

    variant = VARIANT
    options_type = GuangdongOptions
    tiles = TILES_136
    allows_chow = False
    multiple_winners = True
    pass_rules = PassRules(pong_lock=True, win_lock=WinLock.ALL)
    script_fields = (HORSE_COUNT, DEALER_STREAK)

    # -- session counters ---------------------------------------------------------------

    def check_fields(self, raw: Mapping[str, Any], options: GuangdongOptions) -> dict[str, Any]:
        """``horse_count`` and ``dealer_streak``; a script without them is a first deal."""
        fields = {**counters_json(fresh_counters(options)), **raw}
        horses, streak = fields[HORSE_COUNT], fields[DEALER_STREAK]
        if not _is_int(horses) or not _horse_count_fits(horses, options):
            allowed = f"1-{options.max_horses}" if options.horses else "0 (horses are off)"
            raise RuleError(f"'horse_count' must be {allowed}, not {horses!r}")
        if not _is_int(streak) or streak < 1:
            raise RuleError(f"'dealer_streak' must be a whole number from 1, not {streak!r}")
        return fields

    def first_fields(self, options: GuangdongOptions) -> dict[str, Any]:
        return counters_json(fresh_counters(options))

    def next_fields(
        self, options: GuangdongOptions, state: State, next_dealer_seat: int, hand_number: int
    ) -> dict[str, Any]:
        counters = next_counters(hand_wins(state), counters_of(state.fields), options)
        return counters_json(counters)

    # -- the deal -------------------------------------------------------------------------

    def aside(self, state: State) -> Sequence[Aside]:
        """The dealer's horses: the last ``horse_count`` undealt tiles, face down."""
        count = state.fields[HORSE_COUNT]
        return (Aside(HORSES, count),) if count else ()

    # -- play -----------------------------------------------------------------------------

    def shape_rules(self, state: State, seat: int) -> ShapeRules:
        return SHAPES

    def refuse_win(self, state: State, win: WinContext, score: WinScore | None) -> Refusal | None:
        if robs_own_pong_source(state, win):
            return Refusal(
                OWN_PONG_SOURCE,
                f"seat {win.seat} may not rob this kong: its pong was claimed from their discard",
            )
        return super().refuse_win(state, win, score)

    def score_win(self, state: State, win: WinContext) -> WinScore:
        hand = win_hand(
            win.hand.concealed,
            win.hand.melds,
            win.tile,
            self_drawn=win.self_drawn,
            heavenly=is_heavenly(win),
            earthly=is_earthly(win),
        )
        kinds = find_kinds(hand, state.options.big_hu_kinds)
        how = KONG_BLOOM if win.after_kong is not None else None
        return WinScore(total=hu_size(kinds), fans=fan_lines(kinds), how=how)

    # -- the end --------------------------------------------------------------------------

    def settle_hand(self, state: State) -> None:
        kongs = [settlement_kong(k) for k in state.kongs]
        horses = state.set_aside.get(HORSES, ())
        settle(hand_wins(state), kongs, horses, state.options.base_stake, state.ledger)

    def next_dealer(self, state: State) -> int:
        return next_dealer_seat(hand_wins(state))

    def result_extras(self, state: State) -> dict[str, Any]:
        """The horses with their seats, and the next hand's dealer seat and counters."""
        wins = hand_wins(state)
        counters = next_counters(wins, counters_of(state.fields), state.options)
        return {
            HORSES: horses_json(state.set_aside.get(HORSES, ())),
            "next_dealer_seat": next_dealer_seat(wins),
            f"next_{HORSE_COUNT}": counters.horse_count,
            f"next_{DEALER_STREAK}": counters.dealer_streak,
        }

    def view_facts(self, state: State, viewer: int | None) -> GuangdongFacts:
        counters = counters_of(state.fields)
        return GuangdongFacts(
            horse_count=counters.horse_count, dealer_streak=counters.dealer_streak
        )

    # -- simulation -----------------------------------------------------------------------

    def hand_statistics(self, state: State) -> Mapping[str, Figure]:
        """The share of wins that are big hu, and what the horse lines move per hand."""
        wins = hand_wins(state)
        horses = sum(line.amount for line in state.ledger.lines if line.reason == HORSE)
        return {
            "big-hu share of wins": Figure(
                sum(1 for w in wins if w.size == BIG_HU), len(wins), percent=True
            ),
            "horse payout per hand": Figure(horses),
        }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _horse_count_fits(count: int, table: GuangdongOptions) -> bool:
    return 1 <= count <= table.max_horses if table.horses else count == 0


RULESET = GuangdongRules()
