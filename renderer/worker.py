"""A process that draws pictures: ``python -m renderer.worker``.

It reads requests on stdin and writes the pictures on stdout, one at a time, in order.
Each frame is a 4-byte big-endian length and a pickle: a request is ``(kind, args)``, with
``kind`` one of :data:`RENDERERS`; the answer is ``(png, error, cpu)``: the PNG bytes or
None, the error's traceback when drawing failed, and the CPU seconds the drawing took in
the thread that drew it. A caller may draw in its own threads with :func:`draw` too.

Pillow releases Python's lock around nearly every paste, so a picture drawn in a thread
beside a busy event loop hands that lock back and forth a few hundred times, and costs
both threads about twice what it costs alone. In a process of its own it costs what it
costs alone, and on a second core. The process trusts its parent (it unpickles what the
parent sends), exits when stdin closes, and keeps its caches (sprites, text, palettes)
for as long as it lives.

The views sent are frozen dataclasses, a few dozen objects each, and every picture sends
one: pickle's own way with them (a ``__getstate__`` that lists the class's fields for
every object, and a ``__setstate__`` that sets them one by one) cost about a tenth of a
millisecond a view at each end. :func:`frame` writes each as its class and its field
values instead, read back by calling the class, in half the time at both ends.

A picture's answer is larger than a pipe holds by default on Linux (64 KB against a
table's 70-90 KB), so the process widens its answers' pipe (:func:`widen`): an answer
is then written at once and read in one wake-up of the bot's event loop, instead of
the two processes taking turns over the pipe's halves.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import io
import pickle
import struct
import sys
import time
import traceback
from collections.abc import Callable
from operator import attrgetter
from typing import IO, Any

from engine.tiles import NUM_KINDS
from renderer import desk, table_layout
from renderer.desk import render_desk
from renderer.hand import render_hand, render_tile_emoji, render_tiles
from renderer.lobby import render_lobby
from renderer.reference import late_game_table, reference_desk, reference_hand
from renderer.settlement import render_settlement
from renderer.sprites import BACK, tile
from renderer.stats import render_stats
from renderer.table import render_table

RENDERERS: dict[str, Callable[..., bytes]] = {
    "desk": render_desk,
    "hand": render_hand,
    "lobby": render_lobby,
    "settlement": render_settlement,
    "stats": render_stats,
    "table": render_table,
    "tile_emoji": render_tile_emoji,
    "tiles": render_tiles,
}

HEADER = struct.Struct(">I")

#: Bytes the answers' pipe is asked to hold: any picture's answer at once (Linux allows
#: up to /proc/sys/fs/pipe-max-size without privileges, 1 MB by default).
PIPE_SIZE = 1 << 20

Answer = tuple[bytes | None, str | None, float]


#: For each class met in a frame, how to read its fields' values in ``__init__``'s order,
#: or None for a class pickle handles its own way.
_FIELD_VALUES: dict[type, Callable[[Any], tuple[Any, ...]] | None] = {}


def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """The reader of a dataclass's field values when calling the class with them, in
    order, rebuilds an equal object: its objects hold nothing but their fields (slots, no
    ``__dict__``), and every field is an argument of ``__init__`` that may be passed by
    position. None for other classes, and for a class that only inherits a dataclass: the
    slots it may add are no fields."""
    if "__dataclass_fields__" not in vars(cls) or cls.__dictoffset__ != 0:
        return None
    fields = dataclasses.fields(cls)
    if not fields or any(not f.init or f.kw_only for f in fields):
        return None
    if len(fields) == 1:
        only = attrgetter(fields[0].name)
        return lambda obj: (only(obj),)
    return attrgetter(*(f.name for f in fields))


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        # Not called for str, bytes, int, tuple and the like, which pickle writes itself.
        cls = type(obj)
        try:
            values = _FIELD_VALUES[cls]
        except KeyError:
            values = _FIELD_VALUES[cls] = _field_values(cls)
        if values is None:
            return NotImplemented
        return cls, values(obj)


def frame(payload: object) -> bytes:
    """``payload`` as one frame of the pipe."""
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(payload)
    data = out.getvalue()
    return HEADER.pack(len(data)) + data


def draw(kind: str, args: tuple[Any, ...]) -> Answer:
    """The answer to one request: a failed picture is an answer too, never the end of
    the process."""
    start = time.thread_time()
    try:
        png = RENDERERS[kind](*args)
    except Exception:
        return None, traceback.format_exc(), time.thread_time() - start
    return png, None, time.thread_time() - start


def _read(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size)
    if len(data) < size:
        return None
    return data


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer requests until ``requests`` ends."""
    while True:
        header = _read(requests, HEADER.size)
        if header is None:
            return
        body = _read(requests, HEADER.unpack(header)[0])
        if body is None:
            return
        kind, args = pickle.loads(body)
        answers.write(frame(draw(kind, args)))
        answers.flush()


def widen(stream: IO[bytes]) -> None:
    """Let the pipe behind ``stream`` hold :data:`PIPE_SIZE` bytes where the system can
    (Linux); elsewhere, or past the system's limit, it stays as it is."""
    if sys.platform != "linux":
        return
    import fcntl  # POSIX only, and the pipe's size is Linux's

    with contextlib.suppress(OSError):
        fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, PIPE_SIZE)


def warm() -> None:
    """Load the fonts, tile art and palettes before the first request: the first picture
    a player waits for then costs what every other does, not a tenth of a second more.
    Every face is drawn at the widths the table's rivers and melds (which grow and shrink
    with the rivers) and the desk use: a game meets them all in its first hands, and each
    costs a few milliseconds the first time (a quarter of a second in all)."""
    widths = {*range(table_layout.TILE, table_layout.TILE_MAX + 1, table_layout.TILE_STEP)}
    for face in (*range(NUM_KINDS), BACK):
        for width in sorted(widths | {desk.TILE, desk.OWN_TILE}):
            tile(face, width)
    render_hand(reference_hand())
    render_desk(reference_desk())
    render_table(late_game_table())


def main() -> None:
    warm()
    # What warming loaded (fonts, tile art, palettes) lives as long as the process: no
    # collection of the oldest generation walks it again while a picture waits. What
    # warming left as garbage goes first.
    gc.collect()
    gc.freeze()
    widen(sys.stdout.buffer)
    serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
