"""A table in play as Discord meets it: the runtime decides, the presenter shows, and
this class carries each interaction to the one and its answer back through the other.

A click is answered within Discord's three seconds: it waits at most
:data:`bot.answers.ANSWER_WAIT` for the runtime (which may be busy with another move),
acknowledges the click if the runtime is not done by then, and shows the result when it
is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import discord

from bot.answers import answer_privately, in_time
from bot.i18n import t
from bot.ids import CustomId
from bot.pacing import Pacing
from bot.runtime.clicks import Click
from bot.runtime.snapshots import ClickResult, HandStart, Outcome, SeatState, Settled
from bot.runtime.table import TableRuntime, Tempo
from bot.services import Services
from bot.tables import hand_score
from bot.tables.presenter import Person, TablePresenter
from bot.tables.refusals import refusal_text
from data.models import LiveTable, PlayerSettings, Table

log = logging.getLogger(__name__)

#: Seconds from a click's arrival by which it is answered or acknowledged; Discord allows
#: three, counted from when it sent the interaction.
CLICK_DEADLINE = 2.5


class TableHooks(Protocol):
    """What a table in play asks of the bot's tables as a whole."""

    #: People who answer claims by reaction (docs/bot.md, decision 2).
    reactors: set[int]

    async def post_summary(self, table: Table, scores: Sequence[int]) -> None: ...

    def forget(self, table_id: int) -> None: ...

    def hand_message_sent(self, message_id: int, table_id: int, chair: int) -> None: ...


class PlayingTable:
    """One table in play; also the runtime's listener, passing its news to the presenter
    and the end of the session to the hooks."""

    def __init__(
        self,
        services: Services,
        hooks: TableHooks,
        table: Table,
        locale: str,
        pacing: Pacing,
        people: Sequence[Person],
        settings: dict[int, PlayerSettings],
        seeds: Callable[[], str],
    ) -> None:
        self.services = services
        self.hooks = hooks
        self.table = table
        self.id = table.id
        self.presenter = TablePresenter(
            services.channel(table.channel_id or 0, table.guild_id),
            locale,
            people,
            pacing=pacing,
            budget=services.budget,
            open_dm=services.dm_channel,
            reactions_for=lambda user_id: user_id in hooks.reactors,
            message_sent=lambda message_id, chair: hooks.hand_message_sent(
                message_id, table.id, chair
            ),
            reopen=self._reopen_thread,
            tile_emoji=services.tile_emoji.of,
            current=self._current_state,
        )
        self.runtime = TableRuntime(
            table,
            services.store,
            self,
            tempo=Tempo(pacing.ai_delay, pacing.between_hands),
            settings=settings,
            seeds=seeds,
        )
        #: The thread's posts about pauses, in flight.
        self._posts: set[asyncio.Task[discord.Message | None]] = set()

    def _current_state(self, chair: int, number: int) -> SeatState | None:
        """The chair's state now, while hand ``number`` is the one in play."""
        current = self.runtime.current
        if current is None or current.number != number:
            return None
        return self.runtime.seat_state(chair)

    async def _reopen_thread(self) -> None:
        if self.table.channel_id is not None:
            await self.services.reopen_thread(self.table.channel_id)

    @classmethod
    async def open(
        cls,
        services: Services,
        hooks: TableHooks,
        table: Table,
        pacing: Pacing,
        seeds: Callable[[], str],
    ) -> PlayingTable:
        """A table about to start or resume, with its players' settings and languages."""
        settings: dict[int, PlayerSettings] = {}
        people = []
        for seat in sorted(table.seats, key=lambda s: s.chair):
            if seat.user_id is None:
                continue
            found = await services.player_settings(seat.user_id)
            settings[seat.user_id] = found
            locale = await services.locale_of_user(seat.user_id)
            people.append(
                Person(
                    seat.chair, seat.user_id, seat.display_name, locale, found.show_system_messages
                )
            )
        locale = services.guild_locale(table.guild_id)
        return cls(services, hooks, table, locale, pacing, people, settings, seeds)

    def apply_settings(self, settings: PlayerSettings) -> None:
        """A seated person's /settings, saved while the table plays, hold at once."""
        seat = self.table.seat_of(settings.user_id)
        if seat is None:
            return
        self.runtime.apply_settings(settings)
        self.presenter.set_system_messages(seat.chair, settings.show_system_messages)

    # -- the runtime's listener ------------------------------------------------------------

    async def hand_started(self, start: HandStart) -> None:
        await self.presenter.hand_started(start)

    def changed(self, outcome: Outcome) -> None:
        self.presenter.changed(outcome)

    async def hand_settled(self, settled: Settled) -> None:
        await self.presenter.hand_settled(settled)

    async def session_over(self, scores: tuple[int, int, int, int]) -> None:
        await self.hooks.post_summary(self.table, scores)
        await self.close()
        self.hooks.forget(self.id)

    def paused(self, paused: bool) -> None:
        text = t("table.paused" if paused else "table.unpaused", self.presenter.locale)
        task = asyncio.create_task(self.presenter.post(text))
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)

    # -- the table's life ------------------------------------------------------------------

    async def start(self) -> None:
        await self._open_dms()
        await self.runtime.start()

    async def _open_dms(self) -> None:
        """Open the DM channel of every person new to the bot before the first deal.

        A prompt's timer runs from the deal, and Discord opens DM channels a few a second
        for the whole bot: when many new players start at once, a hand message that had
        to wait for its channel came after its prompt's time had run out, and two such
        time-outs put the person on auto-play before they saw a tile. Opened first, the
        wait is the table's, before the timers run. A known channel costs nothing here;
        an opening that fails is left to the hand message, which tries again and says so
        in the thread when Discord refuses the DM."""
        people = self.presenter.people.values()
        await asyncio.gather(
            *(self.services.dm_channel(person.user_id) for person in people),
            return_exceptions=True,
        )

    async def resume(self, live: LiveTable) -> None:
        await self.runtime.resume(live)

    async def stop(self, text: str) -> None:
        """End the table now (disbanded): no more moves, a last word in the thread and
        in each person's DMs."""
        await self.runtime.stop()
        await self.presenter.post(text)
        await self.close()
        await self.presenter.table_ended(text)
        self.hooks.forget(self.id)

    async def close(self) -> None:
        # The end of a hand is stopped between two of its requests, never during one.
        await self.runtime.close(self.presenter.requests.stop)
        await asyncio.gather(*self._posts)
        await self.presenter.close()

    # -- interactions --------------------------------------------------------------------

    def is_seated(self, user_id: int) -> bool:
        return self.runtime.chair_of_user(user_id) is not None

    async def on_click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A click on a hand message's controls: the runtime decides, the click's own
        answer shows the player the result."""
        arrived = time.monotonic()
        locale = await self.services.locale_of(interaction)
        chair = self.runtime.chair_of_user(interaction.user.id)
        if chair is None:
            await answer_privately(interaction, t("click.not_seated", locale))
            return
        self.presenter.set_locale(chair.chair, locale)
        click = Click(cid.kind, cid.hand_no, cid.prompt_seq, cid.arg, tuple(values))
        work = asyncio.ensure_future(self.runtime.click(chair.chair, click))
        try:
            await self._answer(interaction, work, arrived, locale)
        except Exception:
            # The click may have acted although its answer failed (Discord refused it, or
            # the picture could not be drawn): the hand message shows the newest state.
            with contextlib.suppress(Exception):
                if (await work).state is not None:
                    self.presenter.refresh(chair.chair)
            raise

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: asyncio.Future[ClickResult],
        arrived: float,
        locale: str,
    ) -> None:
        # Discord wants an answer within 3 seconds; after an acknowledgement the update
        # follows when it is ready.
        result = await in_time(interaction, work)
        late = interaction.response.is_done()
        text = self._problem_text(result, locale)
        if text is not None:
            await answer_privately(interaction, text)
            return
        assert result.state is not None
        if late:
            await self.presenter.answer_late(interaction, result.state)
        else:
            wait = CLICK_DEADLINE - (time.monotonic() - arrived)
            await self.presenter.answer(interaction, result.state, wait=wait)

    def _problem_text(self, result: ClickResult, locale: str) -> str | None:
        if result.problem is not None:
            return t(f"click.{result.problem.value}", locale)
        if result.refused is not None:
            return refusal_text(result.refused, self.table.variant.value, locale)
        return None

    async def on_reaction(self, chair: int, emoji: str) -> None:
        """A reaction on a hand message answers a claim like the matching button."""
        if not await self.runtime.react(chair, emoji):
            return
        user_id = self.runtime.chairs[chair].user_id
        if user_id is not None and user_id not in self.hooks.reactors:
            # They prefer reacting: from their next claim on, the reactions are there.
            self.hooks.reactors.add(user_id)
            self.presenter.offer_reactions(chair)

    async def hand_over(self, user_id: int) -> None:
        """The person left the server: the AI plays for them from now on (托管)."""
        chair = self.runtime.chair_of_user(user_id)
        if chair is not None:
            await self.runtime.hand_over(chair.chair)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """The player's hand and controls, privately."""
        locale = await self.services.locale_of(interaction)
        chair = self.runtime.chair_of_user(interaction.user.id)
        if chair is None:
            await answer_privately(interaction, t("click.not_seated", locale))
            return
        if self.runtime.current is None:
            await answer_privately(interaction, t("click.expired", locale))
            return
        self.presenter.set_locale(chair.chair, locale)
        await self.presenter.show_privately(interaction, self.runtime.seat_state(chair.chair))

    async def score_hand(self, interaction: discord.Interaction) -> None:
        """算番: what the player's ready hand would score, privately."""
        locale = await self.services.locale_of(interaction)
        chair = self.runtime.chair_of_user(interaction.user.id)
        if chair is None or self.runtime.current is None:
            await answer_privately(interaction, t("click.not_seated", locale))
            return
        state = self.runtime.seat_state(chair.chair)
        await answer_privately(interaction, hand_score.scored(state, self.runtime.rules, locale))

    async def spectate(self, interaction: discord.Interaction) -> None:
        """The table privately, with the hands of players who let spectators see them."""
        locale = await self.services.locale_of(interaction)
        if self.runtime.current is None:
            await answer_privately(interaction, t("click.expired", locale))
            return
        board = self.runtime.watch(interaction.user.id)
        await self.presenter.show_watch(interaction, board, locale)
