"""Milliseconds per picture: a hand, a player's desk (the DM) and a full table, cold and
warm.

    python -m benchmarks.render [--repeat N]

Cold is the first render after every font, tile and text cache is cleared (it also chooses
the fixed palettes); warm is the mean over ``--repeat`` renders of the same view once the
caches are filled.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import renderer
from engine.tiles import parse_hand, parse_tile, parse_tiles
from renderer import HandView
from renderer.reference import late_game_table, reference_desk

# Warm budgets: a table message is redrawn after every move, a desk answers a click.
TARGET_MS = {"hand": 3.0, "desk": 5.0, "table": 5.0}


def sample_hand() -> HandView:
    spec = parse_hand("1123m456p99s[777s]")
    return HandView(
        concealed=spec.concealed,
        drawn=parse_tile("5m"),
        melds=spec.melds,
        legal_discards=frozenset(parse_tiles("125m")),
        waits=tuple(parse_tiles("14m")),
        title="Alice",
    )


def _cold(render: Callable[[], bytes]) -> float:
    renderer.clear_caches()
    start = time.perf_counter()
    render()
    return (time.perf_counter() - start) * 1000


def _warm(render: Callable[[], bytes], repeat: int) -> float:
    render()
    start = time.perf_counter()
    for _ in range(repeat):
        render()
    return (time.perf_counter() - start) * 1000 / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    hand, desk, table = sample_hand(), reference_desk(), late_game_table()
    cases: dict[str, Callable[[], bytes]] = {
        "hand": lambda: renderer.render_hand(hand),
        "desk": lambda: renderer.render_desk(desk),
        "table": lambda: renderer.render_table(table),
    }
    for name, render in cases.items():
        cold = _cold(render)
        warm = _warm(render, args.repeat)
        size = len(render())
        print(
            f"{name:6} cold {cold:7.1f} ms   warm {warm:6.2f} ms "
            f"(target {TARGET_MS[name]:.0f})   {size / 1024:6.1f} KB"
        )


if __name__ == "__main__":
    main()
