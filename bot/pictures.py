"""Pictures in the reader's language, drawn off the event loop.

The renderer prints the words it is given; :func:`labels` supplies them from the catalog.
The pictures are drawn in processes of their own (``PICTURE_PROCESSES``, one by default;
``bot.picture_processes``), so drawing never competes with the event loop for Python's
lock; with none, in worker threads. Table pictures, the costliest and the ones nobody's
click waits for, wait behind the others: under load they queue instead of crowding out
the hand pictures that answer clicks.

A picture is drawn once for what it shows: a hand message whose words changed but not its
picture, or a table message redrawn for its text, sends the bytes drawn before.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import discord

from bot.i18n import t
from bot.i18n.terms import tile_label
from bot.picture_processes import PictureFailed, PictureProcesses
from engine.tiles import NUM_KINDS
from renderer import worker
from renderer.models import DeskView, HandView, Labels, LobbyView, SettlementView, TableView
from renderer.stats import StatsView

log = logging.getLogger(__name__)

_TABLES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures-table")
#: Pictures kept by what they show: a few seconds of every table's latest pictures.
DRAWN_KEPT = 512


@dataclass(slots=True)
class Costs:
    """Pictures drawn by kind, and the CPU seconds they took where they were drawn."""

    drawn: Counter[str] = field(default_factory=Counter)
    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

    def clear(self) -> None:
        self.drawn.clear()
        self.cpu.clear()


COSTS = Costs()


@dataclass(slots=True)
class _Processes:
    """The picture processes of this Python process, shared by the bots that asked for
    them (tests run several bots in one process)."""

    running: PictureProcesses | None = None
    users: int = 0


_PROCESSES = _Processes()


async def start_processes(count: int) -> None:
    """Draw in ``count`` processes from now on (none: in threads), until the last
    :func:`stop_processes`."""
    if count < 1:
        return
    _PROCESSES.users += 1
    if _PROCESSES.running is None:
        running = PictureProcesses(count)
        try:
            await running.start()
        except OSError as exc:
            # A bot that cannot start a process still plays, at the threads' cost.
            log.warning("picture processes could not start (%s); drawing in threads", exc)
            await running.stop()
            return
        _PROCESSES.running = running


async def stop_processes() -> None:
    if _PROCESSES.users == 0:
        return
    _PROCESSES.users -= 1
    running = _PROCESSES.running
    if _PROCESSES.users == 0 and running is not None:
        _PROCESSES.running = None
        await running.stop()


def process_ids() -> list[int]:
    """The picture processes running now (to read their CPU time)."""
    running = _PROCESSES.running
    return running.pids() if running is not None else []


async def _draw(kind: str, *args: Any, background: bool = False) -> bytes:
    """PNG bytes of the renderer's ``kind`` picture of ``args``."""
    running = _PROCESSES.running
    if running is not None:
        png, error, cpu = await running.draw(kind, args, background=background)
    elif background:
        loop = asyncio.get_running_loop()
        png, error, cpu = await loop.run_in_executor(_TABLES, worker.draw, kind, args)
    else:
        png, error, cpu = await asyncio.to_thread(worker.draw, kind, args)
    COSTS.drawn[kind] += 1
    COSTS.cpu[kind] += cpu
    if png is None:
        raise PictureFailed(f"the {kind} picture failed:\n{error}")
    return png


class Drawn:
    """The latest pictures drawn, by the view they show (views are frozen dataclasses:
    equal views draw equal pictures)."""

    def __init__(self, kept: int = DRAWN_KEPT) -> None:
        self._kept = kept
        self._pngs: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, view: Hashable) -> bytes | None:
        png = self._pngs.get(view)
        if png is not None:
            self._pngs.move_to_end(view)
        return png

    def put(self, view: Hashable, png: bytes) -> None:
        self._pngs[view] = png
        while len(self._pngs) > self._kept:
            self._pngs.popitem(last=False)


_DRAWN = Drawn()


async def _drawn(view: Hashable, draw: Callable[[], Awaitable[bytes]]) -> bytes:
    """The picture of ``view``: the one drawn before, else what ``draw`` draws."""
    png = _DRAWN.get(view)
    if png is None:
        png = await draw()
        _DRAWN.put(view, png)
    return png


@cache
def labels(locale: str) -> Labels:
    def word(name: str) -> str:
        return t(f"picture.{name}", locale)

    return Labels(
        winds=(word("east"), word("south"), word("west"), word("north")),
        suits=(t("suit.0", locale), t("suit.1", locale), t("suit.2", locale)),
        dealer=word("dealer"),
        wall=word("wall"),
        waits=word("waits"),
        void=word("void"),
        wildcard=word("wildcard"),
        horses=word("horses"),
        won=word("won"),
        fan_value=word("fan_value"),
        total=word("total"),
        payments=word("payments"),
        nets=word("nets"),
        draw=word("draw"),
        seats=word("seats"),
        options=word("options"),
        ai=word("ai"),
        host=word("host"),
        dragons=(word("dragon_red"), word("dragon_green"), word("dragon_white")),
        number_tile=word("number_tile"),
        discarded=word("discarded"),
        round_wind=word("round_wind"),
        win_order=word("win_order"),
        won_order=word("won_order"),
        dealt_in=word("dealt_in"),
        robbed=word("robbed"),
        capped=word("capped"),
        multiplier=word("multiplier"),
        pays=word("pays"),
        receives=word("receives"),
        horse_hit=word("horse_hit"),
        tile_names=tuple(tile_label(kind, locale) for kind in range(NUM_KINDS)),
        left=word("left"),
        places=(word("next"), word("opposite"), word("previous")),
    )


async def hand_png(view: HandView) -> bytes:
    return await _drawn(view, lambda: _draw("hand", view))


async def tiles_png(kinds: tuple[int, ...]) -> bytes:
    return await _draw("tiles", kinds)


async def desk_png(view: DeskView) -> bytes:
    return await _drawn(view, lambda: _draw("desk", view))


async def tile_emoji_png(kind: int) -> bytes:
    return await _draw("tile_emoji", kind)


async def table_png(view: TableView, *, background: bool = False) -> bytes:
    """With ``background``, for a table message: behind every other picture."""
    return await _drawn(view, lambda: _draw("table", view, background=background))


async def settlement_png(view: SettlementView) -> bytes:
    return await _draw("settlement", view)


async def lobby_png(view: LobbyView) -> bytes:
    return await _draw("lobby", view)


async def stats_png(view: StatsView) -> bytes:
    return await _draw("stats", view)


def as_file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)
