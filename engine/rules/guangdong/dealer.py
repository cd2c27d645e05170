"""Who deals next, and the two session counters (guangdong.md §5, §4).

The session (engine.session) keeps chairs and counts hands; these functions decide, from
one hand's wins, the next dealer as a seat of that hand and the next hand's counters.

``dealer_streak`` is 1 when a player takes the deal and grows by 1 each time he continues.
``horse_count`` is 1 on taking the deal (0 with horses off) and grows by 2 after a
self-drawn continuation and by 1 after a discard or robbing win, up to ``max_horses``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.settle import DEALER, SEATS, Win, winner_order

SELF_DRAWN_STEP = 2
OTHER_STEP = 1


@dataclass(frozen=True, slots=True)
class DealerCounters:
    horse_count: int
    dealer_streak: int


def fresh_counters(options: GuangdongOptions) -> DealerCounters:
    """The counters of a player who has just taken the deal."""
    return DealerCounters(1 if options.horses else 0, 1)


def next_dealer_seat(wins: Sequence[Win]) -> int:
    """The next dealer as a seat of this hand.

    The first winner counting from the discarder's or robbed player's 下家 [D24]; after an
    exhaustive draw, the dealer's 下家 [D23].
    """
    if not wins:
        return (DEALER + 1) % SEATS
    return winner_order(wins)[0].seat


def next_counters(
    wins: Sequence[Win], counters: DealerCounters, options: GuangdongOptions
) -> DealerCounters:
    """The counters of the next hand."""
    if next_dealer_seat(wins) != DEALER:
        return fresh_counters(options)
    dealer_win = next(w for w in wins if w.seat == DEALER)
    step = SELF_DRAWN_STEP if dealer_win.how.self_drawn else OTHER_STEP
    horses = min(options.max_horses, counters.horse_count + step) if options.horses else 0
    return DealerCounters(horses, counters.dealer_streak + 1)
