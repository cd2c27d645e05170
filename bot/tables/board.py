"""The table message of a hand: the table picture and a line of what happened, edited in
place and never more often than the pacing allows, always showing the latest state."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import discord

from bot.budget import RequestBudget
from bot.pictures import as_file, table_png
from bot.tables.stopping import Requests
from renderer.models import TableView

log = logging.getLogger(__name__)

Scene = tuple[str, TableView]
SceneSource = Callable[[], Awaitable[Scene]]


class Board:
    def __init__(
        self,
        channel: discord.abc.Messageable,
        interval: float,
        scene: SceneSource,
        budget: RequestBudget,
    ):
        self._channel = channel
        self._interval = interval
        self._scene = scene
        self._budget = budget
        self._requests = Requests()
        self.message: discord.Message | None = None
        self._dirty = False
        self._last_edit = 0.0
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    async def post(self) -> discord.Message:
        """Send the message with the current scene."""
        text, view = await self._scene()
        png = await table_png(view, background=True)
        self.message = await self._channel.send(text, file=as_file(png, "table.png"))
        self._last_edit = time.monotonic()
        return self.message

    def touch(self) -> None:
        """Something changed: show it at the next allowed edit."""
        self._dirty = True
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.create_task(self._run())

    async def settled(self) -> None:
        """Wait until the latest change is on screen."""
        await self._idle.wait()

    async def _run(self) -> None:
        try:
            while self._dirty and self.message is not None:
                wait = self._last_edit + self._interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                # The picture is drawn once the slot is there, with every change made
                # while waiting for it; later ones are shown by the next edit.
                await self._budget.reserve()
                self._dirty = False
                text, view = await self._scene()
                png = await table_png(view, background=True)
                try:
                    with self._requests.sending():
                        await self.message.edit(
                            content=text, attachments=[as_file(png, "table.png")]
                        )
                except discord.HTTPException as exc:
                    log.warning("table message edit failed: %s", exc)
                self._last_edit = time.monotonic()
        finally:
            self._idle.set()

    async def close(self) -> None:
        await self._requests.stop(self._task)
        self._idle.set()
