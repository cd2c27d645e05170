"""Pictures in the reader's language, drawn off the event loop.

The renderer prints the words it is given; :func:`labels` supplies them from the catalog,
and every ``render_*`` here runs Pillow in a worker thread so a slow picture never
delays another table's clicks. Table pictures, the costliest and the ones nobody's click
waits for, take turns in a thread of their own: under load they queue there instead of
crowding out the hand pictures that answer clicks.

A picture is drawn once for what it shows: a hand message whose words changed but not its
picture, or a table message redrawn for its text, sends the bytes drawn before.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import discord

from bot.i18n import t
from bot.i18n.terms import tile_label
from engine.tiles import NUM_KINDS
from renderer.desk import render_desk
from renderer.hand import render_hand, render_tile_emoji, render_tiles
from renderer.lobby import render_lobby
from renderer.models import DeskView, HandView, Labels, LobbyView, SettlementView, TableView
from renderer.settlement import render_settlement
from renderer.stats import StatsView, render_stats
from renderer.table import render_table

_TABLES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures-table")
#: Pictures kept by what they show: a few seconds of every table's latest pictures.
DRAWN_KEPT = 512


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
    return await _drawn(view, lambda: asyncio.to_thread(render_hand, view))


async def tiles_png(kinds: tuple[int, ...]) -> bytes:
    return await asyncio.to_thread(render_tiles, kinds)


async def desk_png(view: DeskView) -> bytes:
    return await _drawn(view, lambda: asyncio.to_thread(render_desk, view))


async def tile_emoji_png(kind: int) -> bytes:
    return await asyncio.to_thread(render_tile_emoji, kind)


async def table_png(view: TableView, *, background: bool = False) -> bytes:
    """With ``background``, for a table message: in the table pictures' own thread."""
    if background:
        loop = asyncio.get_running_loop()
        return await _drawn(view, lambda: loop.run_in_executor(_TABLES, render_table, view))
    return await _drawn(view, lambda: asyncio.to_thread(render_table, view))


async def settlement_png(view: SettlementView) -> bytes:
    return await asyncio.to_thread(render_settlement, view)


async def lobby_png(view: LobbyView) -> bytes:
    return await asyncio.to_thread(render_lobby, view)


async def stats_png(view: StatsView) -> bytes:
    return await asyncio.to_thread(render_stats, view)


def as_file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)
