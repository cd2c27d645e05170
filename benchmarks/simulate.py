"""Complete hands per second with four "normal" AI seats, per available rule set.

``python -m benchmarks.simulate [--hands N] [--warmup N] [--seed S]``. Rates are per
CPU-second of this process (one core), after warm-up hands that fill the analysis caches
as a long-running bot has them filled; the per-hand checks of ``engine.simulate`` are
left out, so the figure is play alone.
"""

from __future__ import annotations

import argparse
import time

from engine.rules.base import RuleError
from engine.rules.registry import VARIANTS, find_ruleset
from engine.simulate import simulate

# The hands per second each rule set must reach.
TARGETS = {"sichuan": 100.0, "mcr": 50.0}


def measure(variant: str, hands: int, warmup: int, seed: int) -> float:
    """Hands per CPU-second of ``variant`` with the normal AI."""
    ruleset = find_ruleset(variant)
    simulate(ruleset, warmup, seed + 1, ["normal"] * 4, check=False)
    start = time.process_time()
    simulate(ruleset, hands, seed, ["normal"] * 4, check=False)
    return hands / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.simulate", description=__doc__)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for variant in VARIANTS:
        try:
            rate = measure(variant, args.hands, args.warmup, args.seed)
        except RuleError as exc:
            print(f"{variant:10} unavailable ({exc})")
            continue
        target = TARGETS.get(variant)
        verdict = (
            ""
            if target is None
            else f"  (target {target:.0f}: {'met' if rate >= target else 'missed'})"
        )
        print(f"{variant:10} {rate:7.1f} hands/s{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
