"""Milliseconds per picture: a hand (the DM) and a full table, cold and warm.

    python -m benchmarks.render [--repeat N]

Cold is the first render after every font, tile and text cache is cleared; warm is the
mean over ``--repeat`` renders of the same view once the caches are filled.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import renderer
from engine.tiles import Meld, MeldType, parse_hand, parse_tile, parse_tiles
from renderer import HandView, HorseView, SeatView, TableView

TARGET_MS = {"hand": 5.0, "table": 25.0}


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


def sample_table() -> TableView:
    """A late-game table: long rivers, melds of every kind, one revealed hand, horses."""
    rng = random.Random(8)

    def river(n: int) -> tuple[int, ...]:
        return tuple(rng.randrange(34) for _ in range(n))

    seats = (
        SeatView(
            "庄家小明",
            1200,
            hand=tuple(parse_tiles("1234m567p1188s77z")),
            drawn=True,
            discards=river(20),
        ),
        SeatView(
            "Bob",
            -300,
            hand_count=10,
            melds=(Meld(MeldType.PUNG, 31, claimed=31, from_seat=0),),
            discards=river(19),
            note="托管",
        ),
        SeatView(
            "西门吹雪",
            500,
            hand_count=7,
            melds=(
                Meld(MeldType.CHOW, 3, claimed=4, from_seat=1),
                Meld(MeldType.KONG, 20, claimed=20, from_seat=1, added=True),
            ),
            discards=river(19),
            void_suit=2,
            won_tile=5,
        ),
        SeatView(
            "Dave",
            -1400,
            hand_count=9,
            melds=(Meld(MeldType.CONCEALED_KONG, 27),),
            discards=river(19),
        ),
    )
    return TableView(
        seats=seats,
        current=0,
        last_discard=3,
        wall_left=12,
        wildcard=12,
        horses=tuple(HorseView() for _ in range(6)),
        title="国标麻将 · 东风圈 第3局",
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
    hand, table = sample_hand(), sample_table()
    cases: dict[str, Callable[[], bytes]] = {
        "hand": lambda: renderer.render_hand(hand),
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
