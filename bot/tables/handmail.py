"""One player's hand message of one hand, kept up to date in their DMs.

The presenter hands it the new states of its chair (:meth:`HandMessage.update`) and
says when the message must change (:meth:`HandMessage.touch`); the sender then shows the
latest state. A change that does not touch the message comes without a state (building
one costs); it only says the table moved on (:meth:`HandMessage.behind`), and the sender
asks for the chair's state of the moment (``current``) when it shows the message after
such a change. Each state carries the table's revision: an interaction that already
showed a revision (the acting player's own click) marks it delivered, and nothing older
ever lands on top of something newer, on any path. When Discord refuses the DM, the table
says so in the thread instead, with a button that opens the same controls privately. What
the player must notice and fails to reach them otherwise (an outage, a picture that could
not be drawn) is sent again until it does, or a newer state takes its place
(:meth:`bot.tables.sender.Coalescer.retry`).

Discord's clients notify on new messages, never on edits. So whatever the player must
notice and has not seen yet (a prompt that waits for them, being put on auto-play)
arrives as a new message, and the message before it is deleted: their DMs end with one
hand message, and their phone rings for each prompt. The player's own click is answered
on the message they clicked, which they are looking at.

Both go through the player's interactions while their tokens live: a new message is a
follow-up of their latest click, and the messages a click or a follow-up reached are
edited and deleted through its token. Discord counts interaction requests apart from the
bot's global 50 requests a second, so a table's prompts do not compete with every other
table's for that budget. Without a live token (no click for 14 minutes, or before the
first one) the DM channel's own routes take over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass

import discord

from bot.ids import CustomId, CustomIdError
from bot.picture_messages import (
    ORIGINAL,
    Channel,
    PictureMessage,
    answer_click,
    delete_by_token,
    edit_by_token,
    edit_in_channel,
    follow_up,
    send_to_channel,
)
from bot.runtime.snapshots import SeatState
from bot.tables.sender import Coalescer

log = logging.getLogger(__name__)

CANNOT_MESSAGE_USER = 50007
#: Seconds a click's token is used for later requests: Discord keeps it 15 minutes, and a
#: margin leaves room for a request that is slow to arrive.
TOKEN_LIFETIME = 14 * 60
#: Seconds a delivery waits for the answer to the player's click at most (a click is
#: answered within Discord's three seconds, or its answer failed).
ANSWER_GRACE = 3.0


#: A hand message's picture's file name.
FILENAME = "hand.png"
#: The DM channel's messages looked through, once, for the hand's messages sent before a
#: restart: the last one before it is among the latest (a hand message replaces the one
#: before it), even with a few other tables' hand messages in between.
LEFTOVERS_SEARCHED = 20


@dataclass(frozen=True, slots=True)
class Rendered:
    """A hand message ready to send."""

    message: PictureMessage
    asks: bool
    claim: bool
    #: What the player must notice in it (the prompt waiting for them, being on
    #: auto-play), or None: a render with a new one reaches them as a new message.
    attention: Hashable = None

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def png(self) -> bytes:
        return self.message.png

    def fingerprint(self) -> tuple[object, ...]:
        """What the player would see; two renders with equal fingerprints look the same."""
        return (self.message.payload, self.message.png)


@dataclass(slots=True)
class Token:
    """One of the player's interactions, whose token reaches the messages it answered
    (its ``@original``) or sent (its follow-ups) for 15 minutes, unless Discord refused
    it sooner."""

    interaction: discord.Interaction
    at: float
    refused: bool = False

    @property
    def alive(self) -> bool:
        return not self.refused and time.monotonic() - self.at < TOKEN_LIFETIME


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand message on the player's screen, and the interaction that reaches it: the
    click on it (then it is that interaction's original) or the one it is a follow-up of."""

    message: discord.PartialMessage
    via: Token | None = None
    original: bool = False


Render = Callable[[SeatState], Awaitable[Rendered]]
#: The chair's state now, while its hand is in play (None once it is not).
Current = Callable[[], SeatState | None]
ClosedNotice = Callable[[Rendered], Awaitable[None]]
DmOpener = Callable[[int], Awaitable[Channel]]
#: Whether a control belongs to the hand's messages.
OfHand = Callable[[CustomId], bool]


def controls_of(message: discord.Message) -> Iterator[CustomId]:
    """The bot's controls on ``message``, by their custom ids (in a DM only the bot sends
    controls)."""
    for row in message.components:
        if not isinstance(row, discord.ActionRow):
            continue
        for item in row.children:
            if isinstance(item, discord.Button | discord.SelectMenu) and item.custom_id:
                try:
                    yield CustomId.decode(item.custom_id)
                except CustomIdError:
                    continue


class HandMessage:
    def __init__(
        self,
        open_dm: DmOpener,
        user_id: int,
        render: Render,
        closed_notice: ClosedNotice,
        reactions: tuple[str, ...],
        sent: Callable[[int], None],
        token: Token | None = None,
        current: Current | None = None,
        leftovers: OfHand | None = None,
    ) -> None:
        """``token``: the player's latest interaction from before this hand, whose token
        may still send this hand's first message; ``current``: the chair's state now,
        asked for when the table moved on since the latest state handed over;
        ``leftovers``: after a restart, which controls are this hand's, whose messages
        from before it the first message sent takes away."""
        self._open_dm = open_dm
        self.user_id = user_id
        self._render = render
        self._closed_notice = closed_notice
        self._reactions = reactions
        self._sent = sent
        self._sender = Coalescer(self._deliver_latest, f"hand message for user {user_id}")
        self.shown: Shown | None = None
        self.closed = False
        #: The newest state handed over, the revision the player should see at least,
        #: and the revision on their screen.
        self.latest: SeatState | None = None
        #: The table's newest revision as far as this message knows: a change that did
        #: not hand over this chair's state may have changed it (others' discards).
        self.newest = 0
        self._current = current
        self.wanted = 0
        self.delivered = 0
        self._lock = asyncio.Lock()
        self._shown: tuple[object, ...] | None = None
        #: What the player has been shown to notice, so it is announced only once.
        self._noticed: Hashable = None
        self._reacted: int | None = None
        self._reaction_task: asyncio.Task[None] | None = None
        self._token = token
        self._leftovers = leftovers
        #: Clear while a click of the player changed the hand and its answer is on its
        #: way: the message they clicked is not replaced before that answer edited it.
        self._answer_done = asyncio.Event()
        self._answer_done.set()

    @property
    def message(self) -> discord.PartialMessage | None:
        return self.shown.message if self.shown is not None else None

    @property
    def token(self) -> Token | None:
        """The player's latest interaction with a live token, if any."""
        return self._token if self._token is not None and self._token.alive else None

    def update(self, state: SeatState) -> None:
        """The chair's newest state; shown with the next change of the message."""
        if self.latest is None or state.revision >= self.latest.revision:
            self.latest = state

    def behind(self, revision: int) -> None:
        """The table changed at ``revision`` without handing over this chair's state."""
        self.newest = max(self.newest, revision)

    def fresh(self) -> SeatState | None:
        """The newest state: the latest handed over, or the chair's state now when the
        table moved on since (and the hand is still in play)."""
        latest = self.latest
        if self._current is not None and (latest is None or latest.revision < self.newest):
            now = self._current()
            if now is not None:
                self.update(now)
        return self.latest

    def touch(self) -> None:
        """The message must show the newest state."""
        state = self.fresh()
        if state is not None:
            self.wanted = max(self.wanted, state.revision)
            self._sender.touch()

    def remember(self, interaction: discord.Interaction) -> None:
        """``interaction`` was answered by updating this message: later requests may use
        its token."""
        if self._is_mine(interaction) and self.shown is not None:
            token = Token(interaction, time.monotonic())
            self.shown = Shown(self.shown.message, token, original=True)
            self._token = token

    def offer_reactions(self, reactions: tuple[str, ...]) -> None:
        """Put ``reactions`` on the hand's claim prompts from the next one on."""
        if not self._reactions:
            self._reactions = reactions

    async def settled(self) -> None:
        await self._sender.settled()

    def expect_answer(self) -> None:
        """The player's click changed the hand; its answer (:meth:`answer`,
        :meth:`answer_late`) follows, and what changed since comes after it."""
        self._answer_done.clear()

    def answered(self) -> None:
        """The click's answer is done, or will not come."""
        self._answer_done.set()
        if self.delivered < self.wanted:
            self._sender.touch()

    async def _deliver_latest(self) -> None:
        # wait_for costs a task: most deliveries have no answer to wait for.
        if not self._answer_done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answer_done.wait(), ANSWER_GRACE)
        if self.delivered >= self.wanted:
            return
        state = self.fresh()
        if state is None:
            return
        try:
            rendered = await self._render(state)
        except Exception:
            # Only the render tells whether it asks something of the player.
            self._sender.retry()
            raise
        async with self._lock:
            if self.delivered >= state.revision:
                return
            try:
                await self._deliver(rendered)
            except Exception:
                if rendered.attention is not None:
                    # A prompt waits for the player: nothing changes until they answer,
                    # so no later change would bring it.
                    self._sender.retry()
                raise
            self.delivered = max(self.delivered, state.revision)

    async def _deliver(self, rendered: Rendered) -> None:
        fingerprint = rendered.fingerprint()
        if fingerprint == self._shown:
            return
        news = rendered.attention is not None and rendered.attention != self._noticed
        if self.closed:
            # A claim window is told to everyone with closed DMs alike (the presenter's
            # _tell_closed_of_window): a mention of a claimant alone would name them.
            # Anything else new to notice (a prompt, being put on 托管) mentions them.
            if (rendered.asks or news) and not rendered.claim:
                await self._closed_notice(rendered)
        else:
            try:
                if self.shown is None or news:
                    await self._announce(rendered)
                else:
                    await self._edit(self.shown, rendered)
            except discord.Forbidden as exc:
                if exc.code != CANNOT_MESSAGE_USER:
                    raise
                self.closed = True
                # A claim window open now was told to the others with closed DMs while
                # these seemed open: its notice, the one everyone gets, is due here too.
                await self._closed_notice(rendered)
            else:
                self._react(rendered)
        # Only what reached the player counts as shown: after a failed send, the same
        # render is sent again rather than taken for shown.
        self._shown = fingerprint
        self._noticed = rendered.attention

    def _react(self, rendered: Rendered) -> None:
        """The claim reactions on a claim prompt just shown, once per message."""
        shown = self.shown
        if shown is None or not (rendered.claim and self._reactions):
            return
        if self._reacted != shown.message.id:
            self._reacted = shown.message.id
            self._reaction_task = asyncio.create_task(self._add_reactions(shown.message))

    async def _announce(self, rendered: Rendered) -> None:
        """``rendered`` as a new message, which notifies the player; the one before it
        goes away."""
        before = self.shown
        token = self.token
        shown = None
        if token is not None:
            try:
                shown = Shown(await follow_up(token.interaction, rendered.message), token)
            except discord.HTTPException as exc:
                log.info("hand message for user %s: follow-up failed: %s", self.user_id, exc)
                token.refused = True
        if shown is None:
            channel = await self._open_dm(self.user_id)
            shown = Shown(await send_to_channel(channel, rendered.message))
        self.shown = shown
        self._sent(shown.message.id)
        if before is not None:
            await self._delete(before)
        if self._leftovers is not None:
            await self._take_away_leftovers(self._leftovers, shown.message.id)

    async def _take_away_leftovers(self, of_hand: OfHand, first: int) -> None:
        """After a restart, once: the hand's messages from before it go, now that
        ``first`` shows the hand. Their buttons still work (prompts keep their numbers),
        so each would be a second copy of the prompt; their ids were not kept (a store
        write per move), so they are found by their controls among the DM messages just
        before ``first`` (never a newer one of this hand). A refusal leaves them there:
        the hand goes on."""
        self._leftovers = None
        try:
            channel = await self._open_dm(self.user_id)
            found = [
                message
                async for message in channel.history(
                    limit=LEFTOVERS_SEARCHED, before=discord.Object(first)
                )
                if any(of_hand(control) for control in controls_of(message))
            ]
        except discord.HTTPException as exc:
            log.info("hand message for user %s: reading the DMs failed: %s", self.user_id, exc)
            return
        for message in found:
            try:
                await message.delete()
            except discord.HTTPException as exc:
                log.info(
                    "hand message for user %s: deleting one from before the restart failed: %s",
                    self.user_id,
                    exc,
                )

    async def _edit(self, shown: Shown, rendered: Rendered) -> None:
        via = shown.via
        if via is not None and via.alive:
            try:
                target = ORIGINAL if shown.original else shown.message.id
                await edit_by_token(via.interaction, target, rendered.message)
                return
            except discord.HTTPException as exc:
                # The token died early; the message's own route still reaches the player.
                log.info("hand message for user %s: token edit failed: %s", self.user_id, exc)
                via.refused = True
        channel = await self._open_dm(self.user_id)
        await edit_in_channel(channel.get_partial_message(shown.message.id), rendered.message)

    async def _delete(self, shown: Shown) -> None:
        via = shown.via
        if via is not None and via.alive:
            try:
                await delete_by_token(
                    via.interaction, ORIGINAL if shown.original else shown.message.id
                )
                return
            except discord.HTTPException as exc:
                log.info("hand message for user %s: token delete failed: %s", self.user_id, exc)
                via.refused = True
        try:
            channel = await self._open_dm(self.user_id)
            await channel.get_partial_message(shown.message.id).delete()
        except discord.HTTPException as exc:
            log.info("hand message for user %s: deleting the old one failed: %s", self.user_id, exc)

    async def _add_reactions(self, message: discord.PartialMessage) -> None:
        """The claim reactions on a claim prompt, until a newer message takes its place."""
        for emoji in self._reactions:
            if self.message is None or self.message.id != message.id:
                return
            try:
                with self._sender.requests.sending():
                    await message.add_reaction(emoji)
            except discord.NotFound:
                return
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
        try:
            await self._answer(interaction, state, wait)
        finally:
            self.answered()

    async def _answer(
        self, interaction: discord.Interaction, state: SeatState, wait: float
    ) -> None:
        started = time.monotonic()
        rendered = await self._render(state)
        remaining = wait - (time.monotonic() - started)
        try:
            if remaining > 0 and not self._lock.locked():
                await self._lock.acquire()
            else:
                await asyncio.wait_for(self._lock.acquire(), max(remaining, 0.0))
        except TimeoutError:
            await interaction.response.defer()
            self.remember(interaction)
            return
        try:
            if self._is_mine(interaction) and self.delivered >= state.revision:
                # A newer picture already reached this player; never show an older one.
                await interaction.response.defer()
                self.remember(interaction)
                return
            await answer_click(interaction, rendered.message)
            self._shown_by(interaction, state, rendered)
        finally:
            self._lock.release()

    async def answer_late(self, interaction: discord.Interaction, state: SeatState) -> None:
        """Show ``state`` after a click that was acknowledged before it was there: on this
        message through the sender, which never shows an older state over a newer one; on
        a private copy (a player without DMs) in the copy itself."""
        self._expect(state)
        try:
            if not self._is_mine(interaction):
                rendered = await self._render(state)
                await edit_by_token(interaction, ORIGINAL, rendered.message)
                self._shown_by(interaction, state, rendered)
            else:
                self.remember(interaction)
        finally:
            self.answered()

    def _expect(self, state: SeatState) -> None:
        """The clicker should see at least ``state`` here, whichever message they used."""
        self.update(state)
        self.wanted = max(self.wanted, state.revision)

    def _is_mine(self, interaction: discord.Interaction) -> bool:
        return (
            self.shown is not None
            and interaction.message is not None
            and interaction.message.id == self.shown.message.id
        )

    def _shown_by(
        self, interaction: discord.Interaction, state: SeatState, rendered: Rendered
    ) -> None:
        """``interaction``'s answer showed ``rendered``: on this message, or, for a player
        without DMs, in the only place they look."""
        mine = self._is_mine(interaction)
        self.remember(interaction)
        if mine or self.closed:
            self.delivered = max(self.delivered, state.revision)
            self._noticed = rendered.attention
        if mine:
            self._shown = rendered.fingerprint()

    async def close(self) -> None:
        await self._sender.close()
        await self._sender.requests.stop(self._reaction_task)

    async def withdraw(self) -> None:
        """Take the hand message away once the table has ended before its time (after
        :meth:`close`): its controls could no longer be used."""
        shown, self.shown = self.shown, None
        if shown is not None and not self.closed:
            await self._delete(shown)
