"""The table message of a hand: the table picture and a line of what happened, edited in
place and never more often than the pacing allows, always showing the latest state."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot import places
from bot.budget import RequestBudget
from bot.picture_messages import PictureMessage, edit_in_channel
from bot.pictures import as_file, table_png
from bot.tables.backoff import Backoff, is_refusal
from bot.tables.sender import Coalescer
from renderer.models import TableView

log = logging.getLogger(__name__)

#: Seconds a hand's last table edit waits after the one before at most: a channel's
#: message takes about an edit a second (``TABLE_REFRESH_SECONDS`` may be longer).
LAST_EDIT_WITHIN = 1.0
#: The table picture's file name.
FILENAME = "table.png"

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
        reopen: places.Reopen | None = None,
        backoff: Backoff | None = None,
    ):
        """``reopen`` unarchives the message's thread when an edit finds it archived;
        ``backoff`` leaves the thread alone while it refuses the bot."""
        self._channel = channel
        self._scene = scene
        self._reopen = reopen
        self._backoff = backoff or Backoff()
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
        self.message = await self._channel.send(text, file=as_file(png, FILENAME))
        self._sender.sent_now()
        return self.message

    def touch(self) -> None:
        """Something changed: show it at the next allowed edit."""
        if self.message is not None:
            self._sender.touch()

    async def settled(self) -> None:
        """Wait until the latest change is on screen: within Discord's pace of about an
        edit a second, however long the interval (what waits for it is the hand's
        settlement)."""
        await self._sender.settled(within=LAST_EDIT_WITHIN)

    async def _edit(self) -> None:
        assert self.message is not None
        if not self._backoff.open:
            return
        message = self.message
        text, view = self._scene()
        png = await table_png(view, background=True)

        async def edit() -> None:
            await edit_in_channel(message, PictureMessage(text, png, FILENAME))

        try:
            if self._reopen is None:
                await edit()
            else:
                await places.reopening(edit, self._reopen)
        except discord.HTTPException as exc:
            log.warning("table message edit failed: %s", exc)
            if is_refusal(exc):
                self._backoff.refused()
            return
        self._backoff.succeeded()

    async def close(self) -> None:
        await self._sender.close()
