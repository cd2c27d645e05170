"""``python -m engine.duel --variant V --a LEVEL --b LEVEL --hands N --seed S``.

Duplicate play between two AI levels: every deal is played several times with the
levels rotated over the seats, so the luck of the deal cancels and what is left is the
play. Two set-ups, each over the same N deals:

- ``1v3``: one seat of A against three of B, A in each of the four seats in turn;
- ``2v2``: two of each, A in seats 0 and 2, then in seats 1 and 3.

For each set-up it prints A's points a hand (the average net of an A seat, per hand)
with a 95% confidence interval over the deals (each deal's rotations averaged first,
so the deals are independent samples), and for each level its win rate, deal-in rate
(discards another seat won on, per hand), average winning value (the rule set's total:
MCR fans, Sichuan 番, Guangdong 1 small / 2 big) and decisions per second. Where the
rule set has a minimum to win (MCR ``min_fan``) it also prints the share of each level's
ready turns (a discard that leaves the hand ready) in hands that cannot reach the
minimum on any wait, on a discard or self-drawn. Deals are the rule set's first hand
of a session with seat 0 dealing; nothing is checked per hand (``engine.simulate``
does that).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.actions import Action, Discard
from engine.ai import LEVELS, Player, make_player
from engine.readiness import readiness
from engine.round import Round
from engine.rules.play import RuleSet, WinHow
from engine.rules.registry import VARIANTS, find_ruleset
from engine.session import hand_seed
from engine.simulate import play_out
from engine.view import View

#: Which seats play A in each rotation of a set-up (the rest play B).
SETUPS: dict[str, tuple[tuple[int, ...], ...]] = {
    "1v3": ((0,), (1,), (2,), (3,)),
    "2v2": ((0, 2), (1, 3)),
}
Z95 = 1.96


class Timed:
    """A player whose decisions are counted and timed (for decisions per second)."""

    def __init__(self, player: Player, tally: LevelTally) -> None:
        self._player = player
        self._tally = tally

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        start = time.perf_counter()
        action = self._player.choose(view, legal, default)
        self._tally.seconds += time.perf_counter() - start
        self._tally.decisions += 1
        return action


@dataclass(slots=True)
class LevelTally:
    """What one level's seats did over a set-up: hands played by its seats and their net
    points; wins, discards won on (deal-ins) and the wins' totals; its decisions and the
    seconds they took; its ready turns and those below the rule set's minimum."""

    seat_hands: int = 0
    net: int = 0
    wins: int = 0
    deal_ins: int = 0
    win_value: int = 0
    decisions: int = 0
    seconds: float = 0.0
    ready_turns: int = 0
    ready_below: int = 0

    def to_json(self) -> dict[str, Any]:
        hands = max(1, self.seat_hands)
        out: dict[str, Any] = {
            "seat_hands": self.seat_hands,
            "points_per_hand": round(self.net / hands, 3),
            "win_rate": round(self.wins / hands, 4),
            "deal_in_rate": round(self.deal_ins / hands, 4),
            "average_winning_value": round(self.win_value / self.wins, 2) if self.wins else None,
            "decisions_per_second": round(self.decisions / self.seconds) if self.seconds else None,
        }
        if self.ready_turns:
            out["ready_turns"] = self.ready_turns
            out["ready_below_minimum"] = round(self.ready_below / self.ready_turns, 4)
        return out


@dataclass(slots=True)
class SetupResult:
    """One set-up over all deals: A's per-deal points and both levels' tallies."""

    name: str
    per_deal: list[float] = field(default_factory=list)
    a: LevelTally = field(default_factory=LevelTally)
    b: LevelTally = field(default_factory=LevelTally)

    def interval(self) -> tuple[float, float]:
        """A's mean points a hand and the half-width of its 95% confidence interval."""
        n = len(self.per_deal)
        if n == 0:
            return 0.0, math.inf
        mean = sum(self.per_deal) / n
        if n == 1:
            return mean, math.inf
        var = sum((x - mean) ** 2 for x in self.per_deal) / (n - 1)
        return mean, Z95 * math.sqrt(var / n)

    def to_json(self) -> dict[str, Any]:
        mean, half = self.interval()
        return {
            "setup": self.name,
            "deals": len(self.per_deal),
            "points_per_hand": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "a": self.a.to_json(),
            "b": self.b.to_json(),
        }


def _has_minimum(rnd: Round) -> bool:
    return int(getattr(rnd.options, "min_fan", 0) or 0) > 0


def _below_minimum(rnd: Round, seat: int) -> bool | None:
    """None when ``seat`` is not ready; else whether no wait reaches the rule set's
    minimum, on a discard or self-drawn (the engine's own scoring)."""
    waits = readiness(rnd, seat).waits
    if not waits:
        return None
    for wait in waits:
        for how in (WinHow.SELF_DRAW, WinHow.DISCARD):
            context = rnd.win_context(seat, wait.tile, how, virtual=True)
            if rnd.ruleset.score_win(rnd, context).meets_minimum:
                return False
    return True


def play_deal(
    ruleset: RuleSet[Any],
    options: Mapping[str, Any],
    deal_seed: int,
    seats_a: tuple[int, ...],
    levels: tuple[str, str],
    tallies: tuple[LevelTally, LevelTally],
) -> float:
    """Play one rotation of one deal; returns the average net of A's seats."""
    rnd = Round.new(ruleset, options, deal_seed)
    side = [0 if seat in seats_a else 1 for seat in range(4)]
    players: list[Player] = [
        Timed(make_player(levels[side[seat]], hand_seed(deal_seed, seat)), tallies[side[seat]])
        for seat in range(4)
    ]
    minimum = _has_minimum(rnd)

    def after(hand: Round, action: Action) -> None:
        if not isinstance(action, Discard):
            return
        below = _below_minimum(hand, action.seat)
        if below is not None:
            tally = tallies[side[action.seat]]
            tally.ready_turns += 1
            tally.ready_below += below

    play_out(rnd, players, after if minimum else None)
    nets = rnd.ledger.nets()
    for seat in range(4):
        tally = tallies[side[seat]]
        tally.seat_hands += 1
        tally.net += nets[seat]
    for win in rnd.wins:
        tally = tallies[side[win.seat]]
        tally.wins += 1
        tally.win_value += win.score.total
        if win.context.how is WinHow.DISCARD and win.context.from_seat is not None:
            tallies[side[win.context.from_seat]].deal_ins += 1
    return sum(nets[s] for s in seats_a) / len(seats_a)


def duel(
    ruleset: RuleSet[Any],
    a: str,
    b: str,
    deals: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    setups: Sequence[str] = tuple(SETUPS),
    progress: TextIO | None = None,
) -> list[SetupResult]:
    """Play ``deals`` deals in each set-up; deal ``d`` is the same in every set-up."""
    results = [SetupResult(name) for name in setups]
    opts = dict(options or {})
    step = max(1, deals // 100)
    for d in range(deals):
        deal_seed = hand_seed(f"duel:{seed}", d + 1)
        for result in results:
            rotations = SETUPS[result.name]
            total = sum(
                play_deal(ruleset, opts, deal_seed, seats_a, (a, b), (result.a, result.b))
                for seats_a in rotations
            )
            result.per_deal.append(total / len(rotations))
        if progress is not None and (d + 1) % step == 0:
            progress.write(f"\r{ruleset.variant} {a} vs {b}: {d + 1}/{deals} deals")
            if d + 1 == deals:
                progress.write("\n")
            progress.flush()
    return results


def _level_line(level: str, tally: LevelTally) -> str:
    data = tally.to_json()
    value = data["average_winning_value"]
    line = (
        f"    {level:7} win {data['win_rate']:.1%}  deal-in {data['deal_in_rate']:.1%}  "
        f"avg win value {'-' if value is None else value}  "
        f"{data['decisions_per_second'] or 0} decisions/s"
    )
    if "ready_below_minimum" in data:
        line += (
            f"  ready turns below the minimum {data['ready_below_minimum']:.1%}"
            f" of {data['ready_turns']}"
        )
    return line


def report(variant: str, a: str, b: str, results: Sequence[SetupResult]) -> str:
    lines = []
    for result in results:
        mean, half = result.interval()
        lines.append(
            f"{variant} {result.name} {a} vs {b}, {len(result.per_deal)} deals x "
            f"{len(SETUPS[result.name])} rotations: {a} {mean:+.3f} ± {half:.3f} points a hand "
            f"(95% CI {mean - half:+.3f} .. {mean + half:+.3f})"
        )
        lines.append(_level_line(a, result.a))
        lines.append(_level_line(b, result.b))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.duel", description=__doc__)
    parser.add_argument("--variant", required=True, choices=VARIANTS)
    parser.add_argument("--a", required=True, choices=LEVELS)
    parser.add_argument("--b", required=True, choices=LEVELS)
    parser.add_argument("--hands", type=int, default=100, help="deals (each played rotated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--setups", default=",".join(SETUPS), help="1v3, 2v2 or both")
    parser.add_argument("--options", default="{}", help="table options as a JSON object")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    setups = args.setups.split(",")
    if any(s not in SETUPS for s in setups):
        parser.error(f"--setups takes {', '.join(SETUPS)}")
    ruleset = find_ruleset(args.variant)
    options = json.loads(args.options)
    ruleset.read_options(options)
    start = time.perf_counter()
    results = duel(
        ruleset,
        args.a,
        args.b,
        args.hands,
        args.seed,
        options=options,
        setups=setups,
        progress=sys.stderr,
    )
    seconds = time.perf_counter() - start
    if args.json:
        print(
            json.dumps(
                {
                    "variant": args.variant,
                    "a": args.a,
                    "b": args.b,
                    "seed": args.seed,
                    "options": options,
                    "seconds": round(seconds, 1),
                    "setups": [r.to_json() for r in results],
                }
            )
        )
    else:
        print(report(args.variant, args.a, args.b, results))
        print(f"  ({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
