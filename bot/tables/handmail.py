"""One player's hand message of one hand, kept up to date in their DMs.

Every change bumps a version; a sender delivers the latest version, and an interaction
that already showed a version (the acting player's own click) marks it delivered, so an
older picture never lands on top of a newer one. When Discord refuses the DM, the table
says so in the thread instead, with a button that opens the same controls privately.

Later edits go through the player's last click on the message while its token lives:
Discord counts interaction requests apart from the bot's global 50 requests a second,
so a table's prompts do not compete with every other table's for that budget.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.pictures import as_file
from bot.tables.stopping import Requests

log = logging.getLogger(__name__)

CANNOT_MESSAGE_USER = 50007
INTERACTION_WAIT = 1.5
#: Seconds a click's token is used for later edits: Discord keeps it 15 minutes, and a
#: margin leaves room for an edit that is slow to arrive.
TOKEN_LIFETIME = 14 * 60


@dataclass(frozen=True, slots=True)
class Rendered:
    """A hand message ready to send."""

    content: str
    png: bytes
    view: discord.ui.View | None
    asks: bool
    claim: bool

    def edit_fields(self) -> dict[str, Any]:
        """The fields of a message edit that shows this render (a fresh file each time:
        discord.py consumes a file once it is sent)."""
        return {
            "content": self.content,
            "attachments": [as_file(self.png, "hand.png")],
            "view": self.view,
        }

    def fingerprint(self) -> tuple[object, ...]:
        """What the player would see; two renders with equal fingerprints look the same."""
        components = self.view.to_components() if self.view is not None else []
        return (self.content, hash(self.png), repr(components))


RenderSource = Callable[[], Awaitable[Rendered]]
ClosedNotice = Callable[[Rendered], Awaitable[None]]
DmOpener = Callable[[int], Awaitable[discord.abc.Messageable]]


class HandMessage:
    def __init__(
        self,
        open_dm: DmOpener,
        user_id: int,
        render: RenderSource,
        closed_notice: ClosedNotice,
        reactions: tuple[str, ...],
        sent: Callable[[int], None],
    ) -> None:
        self._open_dm = open_dm
        self.user_id = user_id
        self._render = render
        self._closed_notice = closed_notice
        self._reactions = reactions
        self._sent = sent
        self._requests = Requests()
        self.message: discord.Message | None = None
        self.closed = False
        self.version = 0
        self.delivered = 0
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._reacted = False
        self._shown: tuple[object, ...] | None = None
        self._reaction_task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._click: discord.Interaction | None = None
        self._click_at = 0.0

    def remember(self, interaction: discord.Interaction) -> None:
        """``interaction`` was answered by updating this message: later edits may use it."""
        if (
            self.message is not None
            and interaction.message is not None
            and interaction.message.id == self.message.id
        ):
            self._click = interaction
            self._click_at = time.monotonic()

    def offer_reactions(self, reactions: tuple[str, ...]) -> None:
        """Put ``reactions`` on the message at the next claim (none were offered yet)."""
        if not self._reactions:
            self._reactions = reactions
            self._reacted = False

    def bump(self) -> int:
        """A new version exists; returns its number without sending it."""
        self.version += 1
        return self.version

    def touch(self) -> None:
        """A new version exists: deliver it."""
        self.bump()
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.create_task(self._run())

    async def settled(self) -> None:
        await self._idle.wait()

    async def _run(self) -> None:
        try:
            while self.delivered < self.version:
                wanted = self.version
                rendered = await self._render()
                async with self._lock:
                    if self.delivered >= wanted:
                        continue
                    await self._deliver(rendered)
                    self.delivered = max(self.delivered, wanted)
        except Exception:
            log.exception("hand message for user %s failed", self.user_id)
        finally:
            self._idle.set()

    async def _deliver(self, rendered: Rendered) -> None:
        if rendered.fingerprint() == self._shown:
            return
        self._shown = rendered.fingerprint()
        if self.closed:
            if rendered.asks:
                with self._requests.sending():
                    await self._closed_notice(rendered)
            return
        try:
            with self._requests.sending():
                if self.message is None:
                    await self._send(rendered)
                else:
                    await self._edit(self.message, rendered)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_MESSAGE_USER:
                raise
            self.closed = True
            with self._requests.sending():
                await self._closed_notice(rendered)
            return
        if rendered.claim and not self._reacted:
            self._reacted = True
            self._reaction_task = asyncio.create_task(self._add_reactions())

    async def _edit(self, message: discord.Message, rendered: Rendered) -> None:
        click = self._click
        if click is not None and time.monotonic() - self._click_at < TOKEN_LIFETIME:
            try:
                await click.edit_original_response(**rendered.edit_fields())
                return
            except discord.HTTPException as exc:
                # The token died early; the message's own route still reaches the player.
                log.info("hand message for user %s: token edit failed: %s", self.user_id, exc)
                self._click = None
        await message.edit(**rendered.edit_fields())

    async def _send(self, rendered: Rendered) -> None:
        channel = await self._open_dm(self.user_id)
        self.message = await channel.send(
            rendered.content, file=as_file(rendered.png, "hand.png"), view=rendered.view
        )
        self._sent(self.message.id)

    async def _add_reactions(self) -> None:
        message = self.message
        if message is None:
            return
        for emoji in self._reactions:
            try:
                with self._requests.sending():
                    await message.add_reaction(emoji)
            except discord.HTTPException as exc:
                log.warning("could not add reaction %s: %s", emoji, exc)
                return

    async def answer(
        self, interaction: discord.Interaction, version: int, rendered: Rendered
    ) -> None:
        """Answer a click with ``rendered`` (version ``version``) as the interaction's own
        message update; when that cannot happen in time, acknowledge and let the sender
        deliver it."""
        same_message = (
            self.message is not None
            and interaction.message is not None
            and interaction.message.id == self.message.id
        )
        try:
            await asyncio.wait_for(self._lock.acquire(), INTERACTION_WAIT)
        except TimeoutError:
            await interaction.response.defer()
            self.remember(interaction)
            self.touch()
            return
        try:
            if self.delivered >= version:
                # A newer picture already reached this player; never show an older one.
                await interaction.response.defer()
                self.remember(interaction)
                return
            await interaction.response.edit_message(**rendered.edit_fields())
            self.remember(interaction)
            # A player without DMs sees their controls in this private message only.
            if same_message or self.closed:
                self.delivered = version
            if same_message:
                self._shown = rendered.fingerprint()
        finally:
            self._lock.release()
        if self.delivered < self.version:
            self.touch()

    async def close(self) -> None:
        await self._requests.stop(self._task, self._reaction_task)
        self._idle.set()
