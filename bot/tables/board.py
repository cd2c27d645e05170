"""The table message of a hand: the table picture and a line of what happened, edited in
place and never more often than the pacing allows, always showing the latest state."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.budget import RequestBudget
from bot.pictures import as_file, table_png
from bot.tables.sender import Coalescer
from renderer.models import TableView

log = logging.getLogger(__name__)

Scene = tuple[str, TableView]
#: The message's words and picture as they are now; it reads what the presenter keeps and
#: never waits.
SceneSource = Callable[[], Scene]


class Board:
    def __init__(
        self,
        channel: discord.abc.Messageable,
        interval: float,
        scene: SceneSource,
        budget: RequestBudget,
    ):
        self._channel = channel
        self._scene = scene
        # The picture is drawn once a budget slot is there, with every change made while
        # waiting for it; later ones are shown by the next edit.
        self._sender = Coalescer(
            self._edit, "table message", interval=interval, before=budget.reserve
        )
        self.message: discord.Message | None = None

    async def post(self) -> discord.Message:
        """Send the message with the current scene."""
        text, view = self._scene()
        png = await table_png(view, background=True)
        self.message = await self._channel.send(text, file=as_file(png, "table.png"))
        self._sender.sent_now()
        return self.message

    def touch(self) -> None:
        """Something changed: show it at the next allowed edit."""
        if self.message is not None:
            self._sender.touch()

    async def settled(self) -> None:
        """Wait until the latest change is on screen."""
        await self._sender.settled()

    async def _edit(self) -> None:
        assert self.message is not None
        text, view = self._scene()
        png = await table_png(view, background=True)
        try:
            await self.message.edit(content=text, attachments=[as_file(png, "table.png")])
        except discord.HTTPException as exc:
            log.warning("table message edit failed: %s", exc)

    async def close(self) -> None:
        await self._sender.close()
