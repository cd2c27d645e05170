"""One player's hand message of one hand, kept up to date in their DMs.

The presenter hands it every new state of its chair (:meth:`HandMessage.update`) and
says when the message must change (:meth:`HandMessage.touch`); the sender then shows the
latest state. Each state carries the table's revision: an interaction that already
showed a revision (the acting player's own click) marks it delivered, and nothing older
ever lands on top of something newer, on any path. When Discord refuses the DM, the table
says so in the thread instead, with a button that opens the same controls privately.

Later edits go through the player's last click on the message while its token lives:
Discord counts interaction requests apart from the bot's global 50 requests a second, so
a table's prompts do not compete with every other table's for that budget.
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
from bot.runtime.snapshots import SeatState
from bot.tables.sender import Coalescer

log = logging.getLogger(__name__)

CANNOT_MESSAGE_USER = 50007
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


Render = Callable[[SeatState], Awaitable[Rendered]]
ClosedNotice = Callable[[Rendered], Awaitable[None]]
DmOpener = Callable[[int], Awaitable[discord.abc.Messageable]]


class HandMessage:
    def __init__(
        self,
        open_dm: DmOpener,
        user_id: int,
        render: Render,
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
        self._sender = Coalescer(self._deliver_latest, f"hand message for user {user_id}")
        self.message: discord.Message | None = None
        self.closed = False
        #: The newest state handed over, the revision the player should see at least,
        #: and the revision on their screen.
        self.latest: SeatState | None = None
        self.wanted = 0
        self.delivered = 0
        self._lock = asyncio.Lock()
        self._reacted = False
        self._shown: tuple[object, ...] | None = None
        self._reaction_task: asyncio.Task[None] | None = None
        self._click: discord.Interaction | None = None
        self._click_at = 0.0

    def update(self, state: SeatState) -> None:
        """The chair's newest state; shown with the next change of the message."""
        if self.latest is None or state.revision >= self.latest.revision:
            self.latest = state

    def touch(self) -> None:
        """The message must show the newest state."""
        if self.latest is not None:
            self.wanted = max(self.wanted, self.latest.revision)
            self._sender.touch()

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

    async def settled(self) -> None:
        await self._sender.settled()

    async def _deliver_latest(self) -> None:
        state = self.latest
        if state is None or self.delivered >= self.wanted:
            return
        rendered = await self._render(state)
        async with self._lock:
            if self.delivered >= state.revision:
                return
            await self._deliver(rendered)
            self.delivered = max(self.delivered, state.revision)

    async def _deliver(self, rendered: Rendered) -> None:
        if rendered.fingerprint() == self._shown:
            return
        self._shown = rendered.fingerprint()
        if self.closed:
            if rendered.asks:
                await self._closed_notice(rendered)
            return
        try:
            if self.message is None:
                await self._send(rendered)
            else:
                await self._edit(self.message, rendered)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_MESSAGE_USER:
                raise
            self.closed = True
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
                with self._sender.requests.sending():
                    await message.add_reaction(emoji)
            except discord.HTTPException as exc:
                log.warning("could not add reaction %s: %s", emoji, exc)
                return

    async def answer(
        self, interaction: discord.Interaction, state: SeatState, *, wait: float
    ) -> None:
        """Answer a click with ``state``, the clicker's state after it, as the click's own
        message update. When that cannot happen within ``wait`` seconds, or a newer
        picture already reached the player, acknowledge and let the sender deliver the
        newest state."""
        self._expect(state)
        started = time.monotonic()
        rendered = await self._render(state)
        remaining = wait - (time.monotonic() - started)
        try:
            await asyncio.wait_for(self._lock.acquire(), max(remaining, 0.0))
        except TimeoutError:
            await interaction.response.defer()
            self.remember(interaction)
            self._sender.touch()
            return
        try:
            if self._is_mine(interaction) and self.delivered >= state.revision:
                # A newer picture already reached this player; never show an older one.
                await interaction.response.defer()
                self.remember(interaction)
                return
            await interaction.response.edit_message(**rendered.edit_fields())
            self._shown_by(interaction, state, rendered)
        finally:
            self._lock.release()
        if self.delivered < self.wanted:
            self._sender.touch()

    async def answer_late(self, interaction: discord.Interaction, state: SeatState) -> None:
        """Show ``state`` after a click that was acknowledged before it was there: on this
        message through the sender, which never shows an older state over a newer one; on
        a private copy (a player without DMs) in the copy itself."""
        self._expect(state)
        if not self._is_mine(interaction):
            rendered = await self._render(state)
            await interaction.edit_original_response(**rendered.edit_fields())
            self._shown_by(interaction, state, rendered)
        else:
            self.remember(interaction)
        if self.delivered < self.wanted:
            self._sender.touch()

    def _expect(self, state: SeatState) -> None:
        """The clicker should see at least ``state`` here, whichever message they used."""
        self.update(state)
        self.wanted = max(self.wanted, state.revision)

    def _is_mine(self, interaction: discord.Interaction) -> bool:
        return (
            self.message is not None
            and interaction.message is not None
            and interaction.message.id == self.message.id
        )

    def _shown_by(
        self, interaction: discord.Interaction, state: SeatState, rendered: Rendered
    ) -> None:
        """``interaction``'s answer showed ``rendered``: on this message, or, for a player
        without DMs, in the only place they look."""
        self.remember(interaction)
        if self._is_mine(interaction) or self.closed:
            self.delivered = max(self.delivered, state.revision)
        if self._is_mine(interaction):
            self._shown = rendered.fingerprint()

    async def close(self) -> None:
        await self._sender.close()
        await self._sender.requests.stop(self._reaction_task)
