"""Milliseconds per picture: a hand, a player's desk (the DM) and a full table, cold and
warm.

    python -m benchmarks.render [--repeat N]

Cold is the first render after every font, tile and text cache is cleared (it also chooses
the fixed palettes); warm is the mean over ``--repeat`` renders of the same view once the
caches are filled. A desk's bands are cached too: "next move" is the warm cost of a desk
whose header and other seats are those of the desk before it and whose own hand is not
(only the reader's own band is drawn and encoded), "every band new" that of a desk after
the band cache is cleared. A table is cached by cell and strip the same way: its "next
move" is a discard (the discarding seat's box, the ring leaving the seat before, the turn
passing on and the centre change) in a hand whose rivers grow from six tiles, "every cell
new" a table after its caches are cleared.

Last, what sending a view to a picture process costs (renderer/worker.py): writing the
request's frame in the bot and reading it in the process, per view.

    python -m benchmarks.render --replay FILE

draws again, in order and in one process with every cache cleared first, the pictures a
run of ``python -m benchmarks.load --record-pictures FILE`` drew in play, and prints the
CPU milliseconds each kind took: the pictures of real play, whose moves change more than
the "next move" above (a claim, a new meld, a caption), without the rest of the machine's
work around them.
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import renderer
from engine.tiles import NUM_KINDS, parse_hand, parse_tile, parse_tiles
from renderer import DeskView, HandView, TableView, worker
from renderer.reference import late_game_table, reference_desk

V = TypeVar("V")

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


def next_discards(table: TableView, count: int) -> list[TableView]:
    """``count`` tables, one discard apart, from ``table`` with its rivers cut to their
    first six tiles: the seat whose move it is discards, the next seat is to move."""
    seats = [replace(seat, discards=seat.discards[:6]) for seat in table.seats]
    current = table.current or 0
    out = []
    for i in range(count):
        seat = seats[current]
        tile = i % NUM_KINDS
        seats[current] = replace(seat, discards=(*seat.discards, tile))
        out.append(
            replace(
                table,
                seats=(seats[0], seats[1], seats[2], seats[3]),
                current=(current + 1) % 4,
                last_discard=current,
                wall_left=max(0, table.wall_left - i),
                caption=f"{seat.name} 打出 {table.labels.tile_text(tile)}",
            )
        )
        current = (current + 1) % 4
    return out


def _uncached(render: Callable[[], bytes], clear: Callable[[], None], repeat: int) -> float:
    """Mean ms of ``render`` with every font, sprite and text cached but what ``clear``
    forgets (a desk's bands, a table's cells and strips)."""
    total = 0.0
    for _ in range(repeat):
        clear()
        start = time.perf_counter()
        render()
        total += time.perf_counter() - start
    return total * 1000 / repeat


def _next_move(render: Callable[[V], bytes], views: Sequence[V]) -> float:
    """Mean ms of each view after the one before it."""
    render(views[0])
    start = time.perf_counter()
    for view in views[1:]:
        render(view)
    return (time.perf_counter() - start) * 1000 / (len(views) - 1)


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


def replay(path: Path) -> None:
    """Draw the recorded pictures again and print each kind's CPU ms per picture."""
    with path.open("rb") as recorded:
        requests: list[tuple[str, tuple[Any, ...]]] = pickle.load(recorded)
    renderer.clear_caches()
    # As a picture process starts (renderer/worker.py): fonts and tile art loaded.
    worker.warm()
    cpu: defaultdict[str, float] = defaultdict(float)
    drawn: Counter[str] = Counter()
    for kind, args in requests:
        start = time.thread_time()
        worker.RENDERERS[kind](*args)
        cpu[kind] += time.thread_time() - start
        drawn[kind] += 1
    total = sum(cpu.values())
    print(f"replayed {len(requests)} pictures of play in {total:.1f} s of CPU")
    for kind, count in drawn.most_common():
        print(f"{kind:10} {count:6} drawn   {cpu[kind] * 1000 / count:6.2f} ms each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument(
        "--replay",
        type=Path,
        help="draw again the pictures recorded by python -m benchmarks.load --record-pictures",
    )
    args = parser.parse_args()
    if args.replay is not None:
        replay(args.replay)
        return
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
            moved = _next_move(renderer.render_desk, next_moves(desk, args.repeat + 1))
            fresh = _uncached(render, renderer.desk.clear_band_cache, args.repeat)
            print(f"{'':6} next move {moved:6.2f} ms   every band new {fresh:6.2f} ms")
        if name == "table":
            # The same for a table: the next discard, and a table with nothing cached.
            tables = next_discards(table, args.repeat + 1)
            # Every tile and caption once, so that the figure is the cells' and strips'.
            for view in tables:
                renderer.render_table(view)
            renderer.table.clear_picture_caches()
            moved = _next_move(renderer.render_table, tables)
            fresh = _uncached(render, renderer.table.clear_picture_caches, args.repeat)
            print(f"{'':6} next move {moved:6.2f} ms   every cell new {fresh:6.2f} ms")
    views: dict[str, object] = {"desk": desk, "table": table}
    for name, sent in views.items():
        request = (name, (sent,))
        body = worker.frame(request)[worker.HEADER.size :]
        written = _warm(partial(worker.frame, request), args.repeat * 20)
        read = _warm(partial(pickle.loads, body), args.repeat * 20)
        print(
            f"{name:6} to a picture process: {written:5.3f} ms to write, {read:5.3f} ms "
            f"to read   {len(body)} bytes"
        )


if __name__ == "__main__":
    main()
