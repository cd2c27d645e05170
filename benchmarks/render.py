"""Milliseconds per picture: a hand, a player's desk (the DM) and a full table, cold and
warm.

    python -m benchmarks.render [--repeat N]

Cold is the first render after every font, tile and text cache is cleared (it also chooses
the fixed palettes); warm is the mean over ``--repeat`` renders of the same view once the
caches are filled. A desk's bands are cached too: "next move" is the warm cost of a desk
whose header and other seats are those of the desk before it and whose own hand is not
(only the reader's own band is drawn and encoded), "every band new" that of a desk after
the band cache is cleared.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace

import renderer
from engine.tiles import parse_hand, parse_tile, parse_tiles
from renderer import DeskView, HandView
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


def next_moves(desk: DeskView, count: int) -> list[DeskView]:
    """``count`` desks that differ from ``desk`` and from each other only in the reader's
    own hand (its first two tiles), so each one's own band is new to the band cache."""
    hand = desk.hand
    return [
        replace(desk, hand=replace(hand, concealed=(i % 34, i // 34 % 34, *hand.concealed[2:])))
        for i in range(count)
    ]


def _uncached(desk: DeskView, repeat: int) -> float:
    """Mean ms of ``desk`` with every font, sprite and text cached but no band."""
    total = 0.0
    for _ in range(repeat):
        renderer.desk.clear_band_cache()
        start = time.perf_counter()
        renderer.render_desk(desk)
        total += time.perf_counter() - start
    return total * 1000 / repeat


def _next_move(desks: list[DeskView]) -> float:
    """Mean ms of each desk after the one before it."""
    renderer.render_desk(desks[0])
    start = time.perf_counter()
    for desk in desks[1:]:
        renderer.render_desk(desk)
    return (time.perf_counter() - start) * 1000 / (len(desks) - 1)


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
        if name == "desk":
            # The warm desk above is all cache hits (the same view again); these are what
            # a player's next desk costs, with its own band new or with no band in common
            moved = _next_move(next_moves(desk, args.repeat + 1))
            fresh = _uncached(desk, args.repeat)
            print(f"{'':6} next move {moved:6.2f} ms   every band new {fresh:6.2f} ms")


if __name__ == "__main__":
    main()
