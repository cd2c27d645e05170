"""Python's cyclic garbage collector, set for a process that runs for weeks.

A collection of the oldest generation walks every object the process holds, and nothing
else of Python runs while it does. In the load benchmark such collections held the event
loop up for 60 to 210 ms four times in two minutes of 20 tables, and for up to 305 ms 18
times in six minutes of 100, every click that arrived meanwhile waiting; collections of
all generations took 0.7 to 0.9 ms of CPU per move. Most of what the process holds is
what it loaded to start (modules, functions, classes, the catalogs) and lives as long as
the process: frozen once (:func:`gc.freeze`), no collection walks it again. Young
collections come every :data:`YOUNG_THRESHOLD` allocations rather than CPython's 700:
most objects of a move (its views, requests and answers) are freed by their reference
counts when the move is done, and a collection that comes later finds fewer of them
still alive to walk. Settled so, the same runs met none and one collection of the oldest
generation, and 0.3 to 0.4 ms of CPU per move, for a tenth more memory at the peak
(cyclic garbage waits a little longer for its collection).
"""

from __future__ import annotations

import gc

#: Allocations (less deallocations) of tracked objects between two young collections.
YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Freeze what the process holds now and space out the young collections: once
    everything a process loads at start is loaded, before it serves anyone."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
