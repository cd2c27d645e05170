"""Time per AI decision, per level and rule set: mean, p50, p95, p99 and the slowest.

``python -m benchmarks.ai_decisions [--hands N] [--seed S] [--levels strong,normal]``.
Each level plays N hands in all four seats; every decision it makes (its ``choose``,
set-up prompts included, forced single moves not) is timed in CPU time of this process,
so other work on the machine does not count. The strong level's budget is a p99 of
30 ms a decision; the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from engine.actions import Action
from engine.ai import Player, make_player
from engine.round import Round
from engine.rules.registry import VARIANTS
from engine.session import hand_seed
from engine.simulate import play_out
from engine.view import View

BUDGET_MS = 30.0


class Clocked:
    """A player whose decisions are timed into ``times`` (milliseconds)."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self._player = player
        self._times = times

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        start = time.process_time()
        action = self._player.choose(view, legal, default)
        self._times.append((time.process_time() - start) * 1000.0)
        return action


def percentile(sorted_times: Sequence[float], share: float) -> float:
    if not sorted_times:
        return 0.0
    index = min(len(sorted_times) - 1, int(share * len(sorted_times)))
    return sorted_times[index]


def measure(variant: str, level: str, hands: int, seed: int) -> list[float]:
    """Milliseconds of every decision ``level`` made over ``hands`` hands of four seats."""
    times: list[float] = []
    for number in range(hands):
        deal = hand_seed(f"bench:{seed}", number + 1)
        players = [Clocked(make_player(level, hand_seed(deal, s)), times) for s in range(4)]
        play_out(Round.new(variant, {}, deal), players)
    return sorted(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_decisions", description=__doc__)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--levels", default="strong,normal,easy")
    args = parser.parse_args(argv)
    print(
        f"{'variant':10} {'level':7} {'decisions':>9} {'mean':>8} {'p50':>8} {'p95':>8} "
        f"{'p99':>8} {'max':>8}  (ms of CPU a decision; strong budget p99 {BUDGET_MS:.0f} ms)"
    )
    for variant in VARIANTS:
        for level in args.levels.split(","):
            times = measure(variant, level, args.hands, args.seed)
            mean = sum(times) / len(times) if times else 0.0
            print(
                f"{variant:10} {level:7} {len(times):9d} {mean:8.2f} "
                f"{percentile(times, 0.5):8.2f} {percentile(times, 0.95):8.2f} "
                f"{percentile(times, 0.99):8.2f} {times[-1] if times else 0.0:8.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
