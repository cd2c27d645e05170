"""What a table in play shows on Discord: the thread's posts and table message, and each
player's hand message by DM.

The presenter is the runtime's listener (:class:`bot.runtime.table.TableListener`): it is
handed frozen snapshots and events and turns them into words and pictures for each
reader. It keeps what it was last handed (the chairs' states, the table's state, the
lines of what happened), which the message senders read when they send. A change hands
over only the states its hand messages show; a message shown later for another reason
(a failed click answer, the settlement) asks for its chair's state of the moment
(``current``), the one thing the presenter asks the runtime.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.answers import answer_picture_privately, in_time
from bot.budget import RequestBudget
from bot.i18n import t
from bot.i18n.terms import escaped
from bot.ids import GAME_BUTTONS, GAME_SELECTS, CustomId
from bot.pacing import Pacing
from bot.picture_messages import ORIGINAL, answer_click, edit_by_token
from bot.pictures import as_file, settlement_png, table_png
from bot.places import Reopen
from bot.runtime.clicks import REACTIONS
from bot.runtime.snapshots import (
    BoardState,
    HandStart,
    Notice,
    Outcome,
    SeatState,
    Settled,
    TableNotice,
)
from bot.tables import prompts
from bot.tables.backoff import Backoff, is_refusal
from bot.tables.board import Board, Scene
from bot.tables.handmail import DmOpener, HandMessage, OfHand, Rendered
from bot.tables.narration import Narrator
from bot.tables.scene import table_view
from bot.tables.settlement import player_result, settlement_view, summary
from bot.tables.stopping import Requests
from bot.views.components import GameButton, rows_view, view_of
from bot.views.controls import EmojiOf
from engine.events import Event

log = logging.getLogger(__name__)

#: A chair's state now, given the chair and the hand's number; None when that hand is not
#: the one in play.
CurrentState = Callable[[int, int], SeatState | None]

#: The table message's line of what happened, at most: the title and the waiting line
#: stay readable on a phone.
LINE_LIMIT = 300
ELLIPSIS = "…"
#: The kinds of a hand message's controls (``bot/ids.py``).
HAND_CONTROLS = frozenset((*GAME_BUTTONS, *GAME_SELECTS, prompts.SCORE))
NOTICE_KEYS = {
    Notice.AUTOPLAY_ON: "table.autoplay_on",
    Notice.AUTOPLAY_OFF: "table.autoplay_off",
    Notice.LEFT_SERVER: "table.left_server",
}


def newest(lines: Sequence[str], separator: str, limit: int) -> str:
    """``lines`` joined by ``separator`` in at most ``limit`` characters: when they do not
    all fit, the newest that do, after "…" (what happened last matters most), and of a
    single line longer than that its start."""
    whole = separator.join(lines)
    if len(whole) <= limit:
        return whole
    room = limit - len(ELLIPSIS)
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + (len(separator) if kept else 0)
        if size > room:
            break
        kept.append(line)
    if not kept:
        # Never half an escape (a name's Markdown mark, terms.escaped): a lone backslash
        # would show before the ellipsis.
        return lines[-1][:room].rstrip("\\") + ELLIPSIS
    return ELLIPSIS + separator.join(reversed(kept))


def of_hand(table_id: int, number: int) -> OfHand:
    """Whether a control is one of hand ``number``'s hand messages at the table: another
    hand's or table's stay (a finished hand's last messages are its record)."""

    def mine(control: CustomId) -> bool:
        return (
            control.kind in HAND_CONTROLS
            and control.table_id == table_id
            and control.hand_no == number
        )

    return mine


@dataclass(frozen=True, slots=True)
class Person:
    """A seated person as the presenter needs them: who to DM, and what they want."""

    chair: int
    user_id: int
    #: Their name as it is: a text that names them escapes it.
    name: str
    locale: str
    system_messages: bool = True


class TablePresenter:
    def __init__(
        self,
        channel: discord.abc.Messageable,
        locale: str,
        people: Sequence[Person],
        *,
        pacing: Pacing,
        budget: RequestBudget,
        open_dm: DmOpener,
        reactions_for: Callable[[int], bool],
        message_sent: Callable[[int, int], None],
        reopen: Reopen | None = None,
        tile_emoji: EmojiOf | None = None,
        current: CurrentState | None = None,
    ) -> None:
        """``reactions_for(user_id)``: whether the person answers claims by reaction, so
        their hand messages get the claim reactions; ``message_sent(message_id, chair)``
        makes a hand message known for reactions; ``reopen`` unarchives the table's thread
        when an edit finds it archived; ``tile_emoji`` gives the tile buttons' emojis;
        ``current(chair, hand_number)`` is the chair's state now, or None when that hand
        is no longer the one in play."""
        self.channel = channel
        self.locale = locale
        self.people = {p.chair: p for p in people}
        self._pacing = pacing
        self._budget = budget
        self._open_dm = open_dm
        self._reactions_for = reactions_for
        self._message_sent = message_sent
        self._reopen = reopen
        self._tile_emoji = tile_emoji
        self._current = current
        self.board: Board | None = None
        self.mail: dict[int, HandMessage] = {}
        self.closed_notices: dict[int, discord.Message] = {}
        #: Chairs whose closed-DM notice is being sent right now.
        self._notices_sending: set[int] = set()
        self._table: BoardState | None = None
        self._fresh: list[str] = []
        #: The latest line of what happened, in each reader's language.
        self._last: dict[str, str] = {}
        #: The claim or rob window the people with closed DMs were last told of.
        self._window: tuple[object, ...] | None = None
        #: Their notices of it, in flight.
        self._window_notices: set[asyncio.Task[None]] = set()
        self._allows_chow = True
        #: The thread's posts and result DMs in flight: stopping waits for them.
        self.requests = Requests()
        #: The table's thread refusing the bot (a lost permission): left alone a while.
        self._thread_refusals = Backoff()

    def set_locale(self, chair: int, locale: str) -> None:
        """The language a person reads, as their latest interaction says."""
        person = self.people.get(chair)
        if person is not None and person.locale != locale:
            self.people[chair] = replace(person, locale=locale)

    def set_system_messages(self, chair: int, wanted: bool) -> None:
        """Whether a person gets the system notices (显示系统消息: their results by DM, the
        hints and their own win in their hand message), as they last saved it."""
        person = self.people.get(chair)
        if person is not None:
            self.people[chair] = replace(person, system_messages=wanted)

    # -- the runtime's news --------------------------------------------------------------

    async def hand_started(self, start: HandStart) -> None:
        """Announce the hand (fairness fingerprint), post the table message, and make each
        person's hand message; their prompts open right after."""
        self._table = start.board
        self._allows_chow = start.board.view.allows_chow
        facts = start.board.facts
        self._last = {}
        self._fresh = []
        if start.resumed:
            self._narrate(start.public)
            self._fresh = []
            await self.post(
                t("table.resumed", self.locale, title=prompts.title(facts, self.locale))
            )
        else:
            dice = (
                t("table.dice", self.locale, dice=f"{start.dice[0]}+{start.dice[1]}")
                if start.dice is not None
                else t("table.dice_after_bets", self.locale)
            )
            await self.post(
                t(
                    "table.hand_start",
                    self.locale,
                    title=prompts.title(facts, self.locale),
                    dealer=prompts.names(facts, self.locale)[0],
                    dice=dice,
                    fingerprint=start.seed_fingerprint,
                )
            )
            self._narrate(start.public)
        if self.board is not None:
            await self.board.close()
        self.board = Board(
            self.channel,
            self._pacing.table_edit_interval,
            self._scene,
            self._budget,
            self._reopen,
            self._thread_refusals,
        )
        try:
            with self.requests.sending():
                await self.board.post()
        except discord.HTTPException as exc:
            # The hand goes on by DM; the thread gets the next hand's table message.
            log.warning("table message failed: %s", exc)
        # After a restart the hand's messages sent before it are still in the DMs, with
        # buttons that work: the new ones take them away.
        leftovers = of_hand(facts.table_id, facts.number) if start.resumed else None
        tokens = {}
        for chair, old in self.mail.items():
            await old.close()
            tokens[chair] = old.token
        self.mail = {
            person.chair: HandMessage(
                self._open_dm,
                person.user_id,
                self.render,
                self._closed_notice(person.chair),
                self._claim_reactions() if self._reactions_for(person.user_id) else (),
                self._sent(person.chair),
                tokens.get(person.chair),
                self._current_of(person.chair, facts.number),
                leftovers,
            )
            for person in self.people.values()
        }
        for state in start.seats:
            mail = self.mail.get(state.chair)
            if mail is not None:
                mail.update(state)

    def changed(self, outcome: Outcome) -> None:
        """A change of the hand: its lines, the new states of the chairs it shows, the
        messages that must show it."""
        self._table = outcome.board
        self._narrate(outcome.public)
        self._fresh += [self._notice_line(n) for n in outcome.notices]
        for state in outcome.seats:
            mail = self.mail.get(state.chair)
            if mail is not None:
                mail.update(state)
        for mail in self.mail.values():
            # The others' states are asked for when their message is next shown.
            mail.behind(outcome.revision)
        actor = self.mail.get(outcome.actor) if outcome.actor is not None else None
        if actor is not None:
            actor.expect_answer()
        for chair in outcome.touched:
            mail = self.mail.get(chair)
            if mail is not None:
                mail.touch()
        self._tell_closed_of_window(outcome.board)
        if self.board is not None:
            self.board.touch()

    async def hand_settled(self, settled: Settled) -> None:
        """The table message's last state, then the settlement in the thread and each
        person's result by DM."""
        hand, facts = settled.hand, settled.facts
        title = prompts.title(facts, self.locale, plain=True)
        picture = settlement_view(hand, prompts.plain_names(facts, self.locale), self.locale, title)
        names = prompts.names(facts, self.locale)
        text = summary(hand, names, self.locale, settled.seed, settled.code)
        if self.board is not None:
            self.board.touch()
            await self.board.settled()
        for mail in self.mail.values():
            mail.touch()
        png = await settlement_png(picture)
        await self.post(text, file=as_file(png, "settlement.png"))
        for person in self.people.values():
            if person.system_messages:
                seat = facts.seat_of(person.chair)
                await self._dm(person, player_result(hand, seat, person.locale, settled.code))
        for mail in self.mail.values():
            await mail.settled()

    # -- words ---------------------------------------------------------------------------

    def _narrate(self, events: Sequence[Event]) -> None:
        """Lines for the public events: the thread's in its language, and the latest in
        each reader's. A hand message says itself that the hand is over, so its latest
        line is what happened before (the win, or the wall running out)."""
        if not events or self._table is None:
            return
        facts = self._table.facts
        for locale in {self.locale} | {p.locale for p in self.people.values()}:
            narrator = Narrator(facts.variant, prompts.names(facts, locale), locale)
            if locale == self.locale:
                self._fresh += narrator.lines(events)
            latest = narrator.lines(events, closing=False)
            if latest:
                self._last[locale] = latest[-1]

    def _notice_line(self, notice: TableNotice) -> str:
        name = self.people[notice.chair].name if notice.chair in self.people else ""
        return t(NOTICE_KEYS[notice.notice], self.locale, name=escaped(name))

    def _scene(self) -> Scene:
        board = self._table
        assert board is not None
        lines = self._fresh or [self._last.get(self.locale, "")]
        self._fresh = []
        shown = newest([x for x in lines if x], t("log.separator", self.locale), LINE_LIMIT)
        title = prompts.table_title(board, self.locale)
        text = "\n".join(x for x in (f"**{title}**", shown, self._waiting(board)) if x)
        # Chair 0 keeps the bottom for the whole session; the 庄 badge moves with the deal.
        bottom = board.facts.seat_of(0)
        texts = prompts.seat_texts(board, self.locale)
        drawn = prompts.table_title(board, self.locale, plain=True)
        return text, table_view(board.view, texts, self.locale, drawn, bottom)

    def _waiting(self, board: BoardState) -> str:
        if board.over or not board.waiting:
            return ""
        names = []
        seats = prompts.names(board.facts, self.locale)
        for waiting in board.waiting:
            name = seats[waiting.seat]
            if waiting.deadline is not None:
                when = f"<t:{int(waiting.deadline)}:R>"
                name = t("table.waiting_until", self.locale, name=name, when=when)
            names.append(name)
        return t("table.waiting", self.locale, names=t("list.separator", self.locale).join(names))

    def _claim_reactions(self) -> tuple[str, ...]:
        """The claim reactions of this rule set: no ⬅️ 吃 where chows are not allowed."""
        return tuple(e for e, name in REACTIONS.items() if self._allows_chow or name != "chow")

    def offer_reactions(self, chair: int) -> None:
        """The person answered a claim by reaction: from their next claim on, the
        reactions are on their hand message."""
        mail = self.mail.get(chair)
        if mail is not None:
            mail.offer_reactions(self._claim_reactions())

    # -- hand messages -------------------------------------------------------------------

    async def render(self, state: SeatState) -> Rendered:
        person = self.people.get(state.chair)
        locale = person.locale if person is not None else self.locale
        seats = prompts.seat_texts(self._table, locale) if self._table is not None else ()
        return await prompts.render(
            state,
            locale,
            self._last.get(locale, ""),
            seats=seats,
            emoji=self._tile_emoji,
            notices=person is None or person.system_messages,
        )

    def _current_of(self, chair: int, number: int) -> Callable[[], SeatState | None] | None:
        current = self._current
        if current is None:
            return None
        return lambda: current(chair, number)

    def _sent(self, chair: int) -> Callable[[int], None]:
        def sent(message_id: int) -> None:
            self._message_sent(message_id, chair)

        return sent

    def _closed_notice(self, chair: int) -> Callable[[Rendered], Any]:
        async def notice(rendered: Rendered) -> None:
            await self._closed_dm_notice(chair)

        return notice

    def _tell_closed_of_window(self, board: BoardState) -> None:
        """A discard or an added kong open to claims: every person with closed DMs who
        plays on and did not make it is mentioned in the thread, whether or not they may
        claim it, and their own claim prompts mention nobody. A mention only for those
        who may claim would tell the whole thread who wants the tile, each claimant's own
        secret (decision 12); the button shows each their own controls, if any."""
        view = board.view
        if view.phase not in prompts.CLAIM_KINDS:
            return
        window = (
            board.facts.number,
            view.phase,
            view.turn,
            sum(len(s.discards) for s in view.seats),
            sum(len(s.melds) for s in view.seats),
        )
        if window == self._window:
            return
        self._window = window
        for chair, mail in self.mail.items():
            seat = board.facts.seat_of(chair)
            if mail.closed and seat != view.turn and view.seats[seat].active:
                self._notify_closed(chair)

    def _notify_closed(self, chair: int) -> None:
        task = asyncio.create_task(self._window_notice(chair))
        self._window_notices.add(task)
        task.add_done_callback(self._window_notices.discard)

    async def _window_notice(self, chair: int) -> None:
        try:
            with self.requests.sending():
                await self._closed_dm_notice(chair)
        except discord.HTTPException as exc:
            log.warning("closed-DM notice failed: %s", exc)

    async def _closed_dm_notice(self, chair: int) -> None:
        """Discord refused the DM: say so in the thread, mentioning the player, with a
        button that opens their controls privately. The previous notice goes away."""
        person = self.people.get(chair)
        if person is None or self._table is None or chair in self._notices_sending:
            # A notice on its way already says the same and rings the person: a second
            # would ping them twice, and the first would stay in the thread for good.
            return
        self._notices_sending.add(chair)
        try:
            old = self.closed_notices.pop(chair, None)
            if old is not None:
                with contextlib.suppress(discord.HTTPException):
                    await old.delete()
            button = GameButton(
                CustomId("show", self._table.facts.table_id, self._table.facts.number, 0),
                label=t("controls.show_hand", self.locale),
                style=discord.ButtonStyle.primary,
            )
            self.closed_notices[chair] = await self.channel.send(
                t("table.closed_dm", self.locale, mention=f"<@{person.user_id}>"),
                view=view_of(button),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(person.user_id)]),
            )
        finally:
            self._notices_sending.discard(chair)

    async def answer(
        self, interaction: discord.Interaction, state: SeatState, *, wait: float
    ) -> None:
        """Answer a click with the clicker's state after it."""
        mail = self.mail.get(state.chair)
        if mail is not None:
            await mail.answer(interaction, state, wait=wait)
            return
        rendered = await self.render(state)
        await answer_click(interaction, rendered.message)

    async def answer_late(self, interaction: discord.Interaction, state: SeatState) -> None:
        """Show the clicker's state after a click that was acknowledged before it."""
        mail = self.mail.get(state.chair)
        if mail is not None:
            await mail.answer_late(interaction, state)
            return
        rendered = await self.render(state)
        await edit_by_token(interaction, ORIGINAL, rendered.message)

    def refresh(self, chair: int) -> None:
        """The chair's hand message must show its newest state (after a failed answer):
        the chair's state now when changes since its latest one came without it."""
        mail = self.mail.get(chair)
        if mail is not None:
            mail.answered()
            mail.touch()

    async def show_privately(self, interaction: discord.Interaction, state: SeatState) -> None:
        """The player's hand and controls, privately: a fresh message on each request."""
        rendered = await in_time(interaction, self.render(state), thinking=True)
        components = rendered.message.components
        await answer_picture_privately(
            interaction,
            rendered.content,
            as_file(rendered.png, "hand.png"),
            rows_view(components) if components else None,
        )

    async def show_watch(
        self, interaction: discord.Interaction, board: BoardState, locale: str
    ) -> None:
        """The table privately, as a spectator sees it."""
        title = prompts.table_title(board, locale, plain=True)
        seats = prompts.seat_texts(board, locale)
        drawn = table_png(table_view(board.view, seats, locale, title, board.facts.seat_of(0)))
        png = await in_time(interaction, drawn, thinking=True)
        button = GameButton(
            CustomId("watch", board.facts.table_id), label=t("controls.refresh", locale)
        )
        await answer_picture_privately(
            interaction,
            t("table.watching", locale, title=prompts.table_title(board, locale)),
            as_file(png, "table.png"),
            view_of(button),
        )

    # -- posts -----------------------------------------------------------------------------

    async def post(self, text: str, **kwargs: Any) -> discord.Message | None:
        if not self._thread_refusals.open:
            return None
        try:
            with self.requests.sending():
                sent = await self.channel.send(text, **kwargs)
        except discord.HTTPException as exc:
            log.warning("table message failed: %s", exc)
            if is_refusal(exc):
                self._thread_refusals.refused()
            return None
        self._thread_refusals.succeeded()
        return sent

    async def _dm(self, person: Person, text: str) -> None:
        mail = self.mail.get(person.chair)
        if mail is None or mail.closed:
            return
        try:
            with self.requests.sending():
                channel = await self._open_dm(person.user_id)
                await channel.send(text)
        except discord.HTTPException as exc:
            log.info("result DM to %s failed: %s", person.user_id, exc)

    async def table_ended(self, text: str) -> None:
        """The table ended before its time (disbanded): each person's hand message, whose
        controls can no longer be used, goes, and a DM of its own tells them why, since a
        thread post does not reach a person looking at their DMs (after :meth:`close`)."""

        async def tell(person: Person) -> None:
            mail = self.mail.get(person.chair)
            if mail is not None:
                await mail.withdraw()
            await self._dm(person, text)

        await asyncio.gather(*(tell(person) for person in self.people.values()))

    async def close(self) -> None:
        await self.requests.stop(*self._window_notices)
        if self.board is not None:
            await self.board.close()
        for mail in self.mail.values():
            await mail.close()
