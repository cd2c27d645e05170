"""A table in play: its hands, one action at a time, and everything shown about them.

Every change to a hand happens under the table's lock, in arrival order: the engine
checks the action, the store keeps it, and only then does anybody see its effects.
Discord calls are made outside the lock from frozen snapshots, so a slow message never
delays a click. A restarted bot rebuilds the hand by replaying the stored actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import answer_privately
from bot.i18n import t
from bot.i18n.terms import variant_name
from bot.pictures import as_file, hand_png, settlement_png, table_png
from bot.tables import prompts
from bot.tables.board import Board, Scene
from bot.tables.handmail import ClosedNotice, HandMessage, Rendered, RenderSource
from bot.tables.hands import new_seed, round_result, setup
from bot.tables.narration import Narrator
from bot.tables.notes import SeatNotes
from bot.tables.prompts import CLAIM, ROB, SeatSnapshot
from bot.tables.refusals import Refused, refusal_text
from bot.tables.scene import SeatText, table_view
from bot.tables.settlement import player_result, settlement_view, summary
from bot.tables.stopping import Requests
from bot.tables.timers import SeatTimers
from bot.variants import COMMON_NAMES
from bot.views.components import GameButton, view_of
from bot.views.controls import REACTIONS, action_of, reaction_action
from bot.views.ids import CustomId
from data.errors import StateError
from data.models import LiveTable, PlayerSettings, Table
from engine.actions import Action
from engine.ai import make_player
from engine.ai.base import Player
from engine.errors import Refusal
from engine.events import Event
from engine.round import Round
from engine.session import Session, StoredHand
from engine.wall import seed_fingerprint

if TYPE_CHECKING:
    from bot.tables.manager import TableManager

log = logging.getLogger(__name__)

AI_LEVEL = "normal"
LOCK_WAIT = 1.5
LINE_LIMIT = 300


class Source(enum.Enum):
    """Who chose an action: the player (a click or a reaction), their timer, or an AI."""

    PLAYER = "player"
    TIMEOUT = "timeout"
    AI = "ai"


@dataclass(slots=True)
class Chair:
    chair: int
    name: str
    user_id: int | None
    ai: Player | None
    settings: PlayerSettings | None = None
    locale: str = "en"
    autoplay: bool = False
    timeouts: int = 0

    @property
    def human(self) -> bool:
        return self.user_id is not None


@dataclass(slots=True)
class PromptState:
    """A seat's open prompt: what it is (to notice changes), its sequence number, deadline."""

    key: tuple[Any, ...] | None = None
    seq: int = 0
    deadline: float | None = None
    #: Whether the seat has something to answer, so its controls are on show.
    asks: bool = False


@dataclass(slots=True)
class HandState:
    """What the bot keeps about the hand in play besides the engine's own state."""

    hand: Round
    seed: str
    round_id: int
    number: int
    prompts: list[PromptState] = field(default_factory=lambda: [PromptState() for _ in range(4)])
    answered: list[int] = field(default_factory=lambda: [-1, -1, -1, -1])
    notes: SeatNotes = field(default_factory=SeatNotes)
    horses: list[tuple[int, ...]] = field(default_factory=lambda: [(), (), (), ()])
    fresh_lines: list[str] = field(default_factory=list)
    last_line: str = ""


class RunningTable:
    def __init__(self, manager: TableManager, table: Table, locale: str) -> None:
        self.manager = manager
        self.bot = manager.bot
        self.pacing = manager.pacing
        self.table = table
        self.id = table.id
        self.variant = table.variant.value
        self.rules = {k: v for k, v in table.options.items() if k not in COMMON_NAMES}
        self.turn_timer = int(table.options.get("turn_timer", 0))
        self.claim_timer = int(table.options.get("claim_timer", 0))
        self.locale = locale
        self.channel = self.bot.get_partial_messageable(
            table.channel_id or 0, guild_id=table.guild_id
        )
        self.lock = asyncio.Lock()
        self.timers = SeatTimers(self._expired)
        self.chairs = [
            Chair(
                s.chair,
                s.display_name,
                s.user_id,
                None if s.user_id is not None else make_player(AI_LEVEL, table.id + s.chair),
                autoplay=s.autoplay,
            )
            for s in sorted(table.seats, key=lambda s: s.chair)
        ]
        # Hands take their seeds from the bot, which stores each one with its hand.
        self.session = Session(self.variant, self.rules, seed=None)
        self.state: HandState | None = None
        self.board: Board | None = None
        self.mail: dict[int, HandMessage] = {}
        self.closed_notices: dict[int, discord.Message] = {}
        self.stand_in = make_player(AI_LEVEL, table.id)
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._flow: asyncio.Task[None] | None = None
        self.finished = False
        self.requests = Requests()

    # -- seats and chairs ----------------------------------------------------------------

    @property
    def hand(self) -> Round | None:
        return self.state.hand if self.state else None

    def chair_of_user(self, user_id: int) -> Chair | None:
        return next((c for c in self.chairs if c.user_id == user_id), None)

    def seat_of(self, chair: int) -> int:
        assert self.hand is not None
        return (chair - self.hand.dealer) % 4

    def chair_at(self, seat: int) -> Chair:
        assert self.hand is not None
        return self.chairs[(seat + self.hand.dealer) % 4]

    def names(self) -> tuple[str, ...]:
        return tuple(self.chair_at(seat).name for seat in range(4))

    def title(self, locale: str) -> str:
        assert self.state is not None
        return t(
            "table.title",
            locale,
            variant=variant_name(self.variant, locale),
            hand=self.state.number,
            hands=self.table.rounds,
            dealer=self.chair_at(0).name,
        )

    async def load_players(self) -> None:
        for chair in self.chairs:
            if chair.user_id is not None:
                chair.settings = await self.bot.player_settings(chair.user_id)
                chair.locale = await self.manager.locale_of_user(chair.user_id)

    # -- starting and resuming -----------------------------------------------------------

    async def start(self) -> None:
        """Deal the first hand."""
        await self.load_players()
        async with self.lock:
            await self._deal()
        await self._show_hand_start()

    async def resume(self, live: LiveTable) -> None:
        """Continue after a restart: replay the hand in play action by action (so every
        prompt keeps its number and old buttons stay valid), or deal the next hand."""
        await self.load_players()
        current = live.current_round
        last = None
        if current is None and live.last_round_id is not None:
            last = await self._stored_hand(live.last_round_id)
        self.session = Session.resume(
            self.variant,
            self.rules,
            hands_played=live.hands_finished,
            scores=live.standings,
            last_hand=last,
            current_hand=None if current is None else StoredHand(current.info.seed, current.setup),
        )
        if current is None:
            async with self.lock:
                await self._deal()
            await self._show_hand_start()
            return
        hand = self.session.current
        assert hand is not None
        async with self.lock:
            self.state = HandState(
                hand, current.info.seed, current.info.id, current.info.hand_number
            )
            self._absorb(hand.events_for(None), public_only=True)
            self._refresh(actor=None, announce=False)
            for raw in current.actions:
                self._absorb(hand.apply(Action.from_json(raw)))
                self._refresh(actor=None, announce=False)
            self.state.fresh_lines = []
        await self._show_hand(resumed=True)

    async def _stored_hand(self, round_id: int) -> StoredHand:
        """A finished hand as the store keeps it: its seed and its whole round script."""
        record = await self.bot.store.round_record(round_id)
        return StoredHand(record.info.seed, await self.bot.store.round_script(round_id))

    async def _deal(self) -> None:
        """Deal, store and adopt the next hand (lock held); nothing is shown yet."""
        seed = new_seed()
        hand = self.session.start_hand(seed)
        info = await self.bot.store.begin_round(self.id, seed=seed, setup=setup(hand))
        self.state = HandState(hand, seed, info.id, info.hand_number)
        for chair in self.chairs:
            chair.timeouts = 0

    async def _show_hand_start(self) -> None:
        """Announce the hand (fairness fingerprint), then show it and open its prompts."""
        assert self.state is not None
        hand = self.state.hand
        # A rule set may keep the dice back until its set-up prompts are done (MCR bets).
        dice = hand.view(None).dice
        dice_text = (
            t("table.dice", self.locale, dice=f"{dice[0]}+{dice[1]}")
            if dice is not None
            else t("table.dice_after_bets", self.locale)
        )
        await self._post(
            t(
                "table.hand_start",
                self.locale,
                title=self.title(self.locale),
                dealer=self.chair_at(0).name,
                dice=dice_text,
                fingerprint=seed_fingerprint(self.state.seed),
            )
        )
        async with self.lock:
            self._absorb(hand.events_for(None), public_only=True)
            self._refresh(actor=None, announce=False)
        await self._show_hand(resumed=False)

    async def _show_hand(self, *, resumed: bool) -> None:
        """Post the table message, then open every seat's prompt and hand message."""
        if resumed:
            await self._post(t("table.resumed", self.locale, title=self.title(self.locale)))
        self.board = Board(
            self.channel, self.pacing.table_edit_interval, self._scene, self.bot.budget
        )
        await self.board.post()
        for old in self.mail.values():
            await old.close()
        assert self.state is not None
        reactions = self._claim_reactions()
        self.mail = {
            chair.chair: HandMessage(
                self.bot.dm_channel,
                chair.user_id,
                self._render_source(chair.chair),
                self._closed_source(chair.chair),
                reactions if chair.user_id in self.manager.reactors else (),
                self._sent_source(chair.chair),
            )
            for chair in self.chairs
            if chair.user_id is not None
        }
        async with self.lock:
            assert self.state is not None
            for seat in range(4):
                self._open(seat, actor=None)
            if self.state.hand.ended and (self._flow is None or self._flow.done()):
                self._flow = asyncio.create_task(self._end_hand())

    def _claim_reactions(self) -> tuple[str, ...]:
        """The claim reactions of this rule set: no ⬅️ 吃 where chows are not allowed."""
        assert self.state is not None
        chows = self.state.hand.ruleset.allows_chow
        return tuple(e for e, name in REACTIONS.items() if chows or name != "chow")

    def _sent_source(self, chair: int) -> Callable[[int], None]:
        def sent(message_id: int) -> None:
            self.manager.hand_messages[message_id] = (self.id, chair)

        return sent

    # -- what the players see --------------------------------------------------------------

    async def _scene(self) -> Scene:
        async with self.lock:
            assert self.state is not None
            hand = self.state.hand
            lines = self.state.fresh_lines or [self.state.last_line]
            self.state.fresh_lines = []
            shown = t("log.separator", self.locale).join(x for x in lines if x)
            waiting = self._waiting_text()
            seats = [
                SeatText(self.chair_at(s).name, self._score(s), self._seat_note(s))
                for s in range(4)
            ]
            view = table_view(hand.view(None), seats, self.locale, self.title(self.locale))
        text = "\n".join(
            x for x in (f"**{self.title(self.locale)}**", shown[:LINE_LIMIT], waiting) if x
        )
        return text, view

    def _score(self, seat: int) -> int:
        hand = self.hand
        assert hand is not None
        # Until the session books the hand, its scores leave out the hand's own nets.
        running = hand.ledger.nets()[seat] if self.session.current is hand else 0
        return self.session.scores[(seat + hand.dealer) % 4] + running

    def _seat_note(self, seat: int) -> str:
        chair = self.chair_at(seat)
        if chair.autoplay:
            return t("table.note.autoplay", self.locale)
        if chair.ai is not None:
            return t("table.note.ai", self.locale)
        return ""

    def _waiting_text(self) -> str:
        assert self.state is not None
        hand = self.state.hand
        if hand.ended:
            return ""
        waiting = []
        for seat in hand.to_act():
            prompt = self.state.prompts[seat]
            name = self.chair_at(seat).name
            if prompt.deadline is not None:
                waiting.append(
                    t(
                        "table.waiting_until",
                        self.locale,
                        name=name,
                        when=f"<t:{int(prompt.deadline)}:R>",
                    )
                )
            else:
                waiting.append(name)
        if not waiting:
            return ""
        return t("table.waiting", self.locale, names=t("list.separator", self.locale).join(waiting))

    def snapshot(self, seat: int) -> SeatSnapshot:
        """The seat's situation now (lock held)."""
        assert self.state is not None
        hand = self.state.hand
        chair = self.chair_at(seat)
        view = hand.view(seat)
        legal = tuple(hand.legal_actions(seat))
        prompt = self.state.prompts[seat]
        return SeatSnapshot(
            table_id=self.id,
            hand_no=self.state.number,
            seat=seat,
            variant=self.variant,
            names=self.names(),
            locale=chair.locale,
            title=self.title(chair.locale),
            view=view,
            legal=legal,
            prompt=prompts.prompt_kind(view, legal),
            seq=prompt.seq,
            deadline=prompt.deadline,
            autoplay=chair.autoplay,
            notes=tuple(self.state.notes.texts(seat, self.names(), chair.locale)),
            last_line=self.state.last_line if chair.locale == self.locale else "",
            own_void=self.state.notes.own_void[seat],
            options=hand.options.to_json(),
            chosen_horses=self.state.horses[seat],
        )

    async def render(self, snap: SeatSnapshot) -> Rendered:
        png = await hand_png(prompts.picture(snap))
        return Rendered(
            content=prompts.content(snap),
            png=png,
            view=prompts.message_view(snap),
            asks=snap.asks and not snap.autoplay,
            claim=snap.prompt in (CLAIM, ROB),
        )

    def _render_source(self, chair: int) -> RenderSource:
        async def source() -> Rendered:
            async with self.lock:
                snap = self.snapshot(self.seat_of(chair))
            return await self.render(snap)

        return source

    def _closed_source(self, chair: int) -> ClosedNotice:
        async def notice(rendered: Rendered) -> None:
            await self._closed_dm_notice(chair)

        return notice

    async def _closed_dm_notice(self, chair: int) -> None:
        """Discord refused the DM: say so in the thread, mentioning the player, with a
        button that opens their controls privately. The previous notice goes away."""
        person = self.chairs[chair]
        if person.user_id is None or self.state is None:
            return
        old = self.closed_notices.pop(chair, None)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await old.delete()
        button = GameButton(
            CustomId("show", self.id, self.state.number, 0),
            label=t("controls.show_hand", self.locale),
            style=discord.ButtonStyle.primary,
        )
        self.closed_notices[chair] = await self.channel.send(
            t("table.closed_dm", self.locale, mention=f"<@{person.user_id}>"),
            view=view_of(button),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def _post(self, text: str, **kwargs: Any) -> discord.Message | None:
        try:
            with self.requests.sending():
                return await self.channel.send(text, **kwargs)
        except discord.HTTPException as exc:
            log.warning("table %s: message failed: %s", self.id, exc)
            return None

    # -- applying actions ------------------------------------------------------------------

    async def _act(self, seat: int, action: Action, source: Source) -> Refusal | None:
        """Check, store, apply (lock held). Nothing is announced before it is stored."""
        assert self.state is not None
        hand = self.state.hand
        refusal = hand.check(action)
        if refusal is not None:
            return refusal
        await self.bot.store.append_action(self.state.round_id, len(hand.actions), action.to_json())
        events = hand.apply(action)
        chair = self.chair_at(seat)
        if source is Source.PLAYER:
            # A later click on this prompt is a second click, not a stale one.
            self.state.answered[seat] = self.state.prompts[seat].seq
            chair.timeouts = 0
        self._absorb(events)
        self._refresh(
            actor=chair.chair if source is Source.PLAYER else None,
            concerned=frozenset(s for e in events if (s := getattr(e, "seat", None)) is not None),
        )
        if hand.ended and (self._flow is None or self._flow.done()):
            self._flow = asyncio.create_task(self._end_hand())
        return None

    def _absorb(self, events: Sequence[Event], *, public_only: bool = False) -> None:
        """Narrate the public side of new events; keep each seat's private notes."""
        assert self.state is not None
        public = [e if e.owner() is None else e.redacted() for e in events]
        narrator = Narrator(self.variant, self.names(), self.locale)
        lines = narrator.lines([e for e in public if e is not None])
        if lines:
            self.state.fresh_lines += lines
            self.state.last_line = lines[-1]
        if not public_only:
            self.state.notes.absorb(events)

    def _refresh(
        self, actor: int | None, *, announce: bool = True, concerned: frozenset[int] = frozenset()
    ) -> None:
        """Renumber each seat whose choices changed after a change (lock held), then open
        its prompt unless the hand is only being replayed.

        A hand message changes only for a seat that is asked something, whose controls go
        away, or whose own tiles or notes moved (``concerned``: seats the events name);
        the rest of the table's news is the table message's to show."""
        assert self.state is not None
        hand = self.state.hand
        for seat in range(4):
            legal = hand.legal_actions(seat)
            key = (hand.phase, hand.turn_number, hand.prompt, tuple(legal))
            prompt = self.state.prompts[seat]
            if key == prompt.key:
                if announce and seat in concerned:
                    self._show(seat, actor)
                continue
            asked = prompt.asks
            prompt.key = key
            prompt.seq = len(hand.actions) + 1
            prompt.deadline = None
            prompt.asks = bool(legal)
            self.state.horses[seat] = ()
            if announce:
                self._open(seat, actor, show=bool(legal) or asked or seat in concerned)
        if announce:
            self._touch_watchers(actor)
            if self.board is not None:
                self.board.touch()

    def _open(self, seat: int, actor: int | None, *, show: bool = True) -> None:
        """Give a seat its current prompt: a timer for a person, the move for an AI seat
        or a player on auto-play, and, when ``show``, a fresh hand message (the acting
        player's rides on their click instead)."""
        assert self.state is not None
        hand = self.state.hand
        prompt = self.state.prompts[seat]
        self.timers.cancel(seat)
        chair = self.chair_at(seat)
        if hand.legal_actions(seat) and not self.finished:
            if chair.ai is not None or chair.autoplay:
                self._schedule_ai(seat, prompt.seq)
            else:
                seconds = self._timer_for(hand)
                if seconds:
                    prompt.deadline = self.timers.arm(seat, prompt.seq, seconds)
        if show:
            self._show(seat, actor)

    def _show(self, seat: int, actor: int | None) -> None:
        """Bring a seat's hand message up to date, unless its player's click does that."""
        chair = self.chair_at(seat)
        mail = self.mail.get(chair.chair)
        if mail is not None and chair.chair != actor:
            mail.touch()

    def _touch_watchers(self, actor: int | None) -> None:
        """Seats that see another seat's tiles (MCR 火眼金睛) follow every change."""
        assert self.state is not None
        hand = self.state.hand
        for seat in range(4):
            chair = self.chair_at(seat)
            mail = self.mail.get(chair.chair)
            if mail is not None and chair.chair != actor and hand.ruleset.visible_hands(hand, seat):
                mail.touch()

    def _timer_for(self, hand: Round) -> int:
        return self.claim_timer if hand.phase.value in (CLAIM, ROB) else self.turn_timer

    def _schedule_ai(self, seat: int, seq: int) -> None:
        old = self._ai_tasks.pop(seat, None)
        if old is not None:
            old.cancel()
        self._ai_tasks[seat] = asyncio.create_task(self._ai_move(seat, seq))

    async def _ai_move(self, seat: int, seq: int) -> None:
        await asyncio.sleep(self.pacing.ai_delay)
        async with self.lock:
            if not self._is_current(seat, seq):
                return
            self._ai_tasks.pop(seat, None)
            await self._act(seat, self._choose(seat), Source.AI)

    def _is_current(self, seat: int, seq: int) -> bool:
        state = self.state
        return (
            state is not None
            and not self.finished
            and state.prompts[seat].seq == seq
            and bool(state.hand.legal_actions(seat))
        )

    def _choose(self, seat: int) -> Action:
        """The AI's choice for a seat: its own AI, or the stand-in for a person."""
        assert self.state is not None
        hand = self.state.hand
        chair = self.chair_at(seat)
        player = chair.ai or self.stand_in
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        return player.choose(hand.view(seat), hand.legal_actions(seat), default)

    async def _expired(self, seat: int, seq: int) -> None:
        """A person ran out of time: the AI acts; two in a row put them on auto-play."""
        async with self.lock:
            if not self._is_current(seat, seq):
                return
            chair = self.chair_at(seat)
            chair.timeouts += 1
            wants_autoplay = chair.settings is None or chair.settings.auto_play_on_timeout
            if chair.timeouts >= 2 and wants_autoplay and not chair.autoplay:
                assert chair.user_id is not None
                await self.bot.store.set_autoplay(self.id, chair.user_id, True)
                chair.autoplay = True
                assert self.state is not None
                line = t("table.autoplay_on", self.locale, name=chair.name)
                self.state.fresh_lines.append(line)
            await self._act(seat, self._choose(seat), Source.TIMEOUT)
            mail = self.mail.get(chair.chair)
            if mail is not None:
                mail.touch()

    # -- clicks and reactions --------------------------------------------------------------

    async def on_click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A click on a hand message's controls: the engine decides, the click's own answer
        shows the player the result."""
        chair = self.chair_of_user(interaction.user.id)
        locale = await self.manager.locale_of(interaction)
        if chair is None:
            await answer_privately(interaction, t("click.not_seated", locale))
            return
        chair.locale = locale
        deferred = False
        try:
            await asyncio.wait_for(self.lock.acquire(), LOCK_WAIT)
        except TimeoutError:
            # Discord wants an answer within 3 seconds; the update follows when it is ready.
            await interaction.response.defer()
            deferred = True
            await self.lock.acquire()
        try:
            problem = await self._apply_click(chair, cid, values, locale)
            if problem is None:
                seat = self.seat_of(chair.chair)
                snap = self.snapshot(seat)
                mail = self.mail.get(chair.chair)
                version = mail.bump() if mail is not None else 0
        finally:
            self.lock.release()
        if problem is not None:
            await answer_privately(interaction, problem)
            return
        try:
            rendered = await self.render(snap)
        except Exception:
            # The move is stored and applied; the hand message still has to show it.
            if mail is not None:
                mail.touch()
            raise
        if deferred:
            await interaction.edit_original_response(**rendered.edit_fields())
            if mail is not None:
                mail.remember(interaction)
                mail.touch()
        elif mail is not None:
            await mail.answer(interaction, version, rendered)
        else:
            await interaction.response.edit_message(**rendered.edit_fields())

    async def _apply_click(
        self, chair: Chair, cid: CustomId, values: Sequence[str], locale: str
    ) -> str | None:
        """Carry out a click (lock held); what to tell the player when it changes nothing."""
        problem = self._click_problem(chair, cid)
        if problem is not None:
            return t(problem, locale)
        assert self.state is not None
        seat = self.seat_of(chair.chair)
        if cid.kind == "back":
            try:
                await self._back(chair)
            except StateError:
                # The session's last hand was settled a moment before the click.
                return t("click.table_over", locale)
            return None
        if cid.kind == "horses":
            self.state.horses[seat] = tuple(sorted(int(v) for v in values))
            return None
        action = action_of(cid, values, seat)
        if action is None:
            return t("click.expired", locale)
        refusal = await self._act(seat, action, Source.PLAYER)
        if refusal is None:
            return None
        # A refused move changes nothing, so the hand still shows what it was refused in.
        hand = self.state.hand
        refused = Refused(
            refusal,
            action,
            hand.view(seat),
            hand.legal_actions(seat),
            self.names(),
            self.state.notes.own_void[seat],
        )
        return refusal_text(refused, locale)

    def _click_problem(self, chair: Chair, cid: CustomId) -> str | None:
        """Why a click changes nothing: an old hand, a closed prompt, a second click."""
        state = self.state
        if state is None or self.finished or cid.hand_no != state.number:
            return "click.expired"
        if cid.kind == "back":
            return None if chair.autoplay else "click.expired"
        seat = self.seat_of(chair.chair)
        prompt = state.prompts[seat]
        if cid.prompt_seq == prompt.seq and state.hand.legal_actions(seat) and not chair.autoplay:
            return None
        if cid.prompt_seq == state.answered[seat]:
            return "click.already"
        return "click.expired"

    async def _back(self, chair: Chair) -> None:
        """I'm back: the person takes over from the AI again (lock held)."""
        assert self.state is not None and chair.user_id is not None
        await self.bot.store.set_autoplay(self.id, chair.user_id, False)
        chair.autoplay = False
        chair.timeouts = 0
        seat = self.seat_of(chair.chair)
        self.state.prompts[seat].key = None
        self.state.fresh_lines.append(t("table.autoplay_off", self.locale, name=chair.name))
        self._refresh(actor=chair.chair)

    async def on_reaction(self, chair_no: int, emoji: str) -> None:
        """A reaction on a hand message answers a claim like the matching button."""
        async with self.lock:
            if self.state is None or self.finished:
                return
            chair = self.chairs[chair_no]
            seat = self.seat_of(chair_no)
            kind = prompts.prompt_kind(
                self.state.hand.view(seat), self.state.hand.legal_actions(seat)
            )
            if kind not in (CLAIM, ROB) or chair.autoplay:
                return
            action = reaction_action(emoji, self.state.hand.legal_actions(seat))
            if action is None:
                return
            await self._act(seat, action, Source.PLAYER)
            mail = self.mail.get(chair_no)
            if chair.user_id is not None and chair.user_id not in self.manager.reactors:
                # They prefer reacting: from their next claim on, the reactions are there.
                self.manager.reactors.add(chair.user_id)
                if mail is not None:
                    mail.offer_reactions(self._claim_reactions())
        if mail is not None:
            mail.touch()

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """The player's hand and controls, privately: a fresh message on each request."""
        locale = await self.manager.locale_of(interaction)
        chair = self.chair_of_user(interaction.user.id)
        if chair is None:
            await answer_privately(interaction, t("click.not_seated", locale))
            return
        chair.locale = locale
        async with self.lock:
            if self.state is None:
                await answer_privately(interaction, t("click.expired", locale))
                return
            snap = self.snapshot(self.seat_of(chair.chair))
        rendered = await self.render(snap)
        kwargs = {"view": rendered.view} if rendered.view is not None else {}
        await interaction.response.send_message(
            rendered.content, file=as_file(rendered.png, "hand.png"), ephemeral=True, **kwargs
        )

    async def spectate(self, interaction: discord.Interaction) -> None:
        """The table privately, with the hands of players who let spectators see them."""
        locale = await self.manager.locale_of(interaction)
        async with self.lock:
            if self.state is None:
                await answer_privately(interaction, t("click.expired", locale))
                return
            hand = self.state.hand
            reveal = frozenset(
                s
                for s in range(4)
                if (settings := self.chair_at(s).settings) is not None
                and settings.spectators_see_hand
            )
            seats = [SeatText(self.chair_at(s).name, self._score(s)) for s in range(4)]
            view = table_view(hand.view(None, reveal), seats, locale, self.title(locale))
            title = self.title(locale)
        png = await table_png(view)
        button = GameButton(CustomId("watch", self.id), label=t("controls.refresh", locale))
        await interaction.response.send_message(
            t("table.watching", locale, title=title),
            file=as_file(png, "table.png"),
            view=view_of(button),
            ephemeral=True,
        )

    # -- the end of a hand and of the session -------------------------------------------

    async def _end_hand(self) -> None:
        try:
            await self._settle()
        except Exception:
            log.exception("table %s: settling the hand failed", self.id)

    async def _settle(self) -> None:
        async with self.lock:
            assert self.state is not None
            state = self.state
            hand = state.hand
            self.timers.cancel_all()
            last = await self.bot.store.finish_round(state.round_id, round_result(hand))
            names = self.names()
            board_view = settlement_view(hand, names, self.locale, self.title(self.locale))
            text = summary(hand, names, self.locale, state.seed)
            results = [
                (chair, player_result(hand, self.seat_of(chair.chair), chair.locale))
                for chair in self.chairs
                if chair.human and (chair.settings is None or chair.settings.show_system_messages)
            ]
        if self.board is not None:
            self.board.touch()
            await self.board.settled()
        async with self.lock:
            self.session.finish_hand()
        for mail in self.mail.values():
            mail.touch()
        png = await settlement_png(board_view)
        await self._post(text, file=as_file(png, "settlement.png"))
        for chair, line in results:
            await self._dm(chair, line)
        for mail in self.mail.values():
            await mail.settled()
        if last:
            await self._finish_session()
            return
        await asyncio.sleep(self.pacing.between_hands)
        async with self.lock:
            if self.finished:
                return
            await self._deal()
        await self._show_hand_start()

    async def _dm(self, chair: Chair, text: str) -> None:
        mail = self.mail.get(chair.chair)
        if chair.user_id is None or mail is None or mail.closed:
            return
        try:
            with self.requests.sending():
                channel = await self.bot.dm_channel(chair.user_id)
                await channel.send(text)
        except discord.HTTPException as exc:
            log.info("result DM to %s failed: %s", chair.user_id, exc)

    async def _finish_session(self) -> None:
        self.finished = True
        await self.manager.post_summary(self.table, self.session.scores)
        await self.close()
        self.manager.forget(self.id)

    async def stop(self, text: str) -> None:
        """End the table now (disbanded): no more moves, a last word in the thread."""
        async with self.lock:
            self.finished = True
            self.timers.cancel_all()
        await self._post(text)
        await self.close()
        self.manager.forget(self.id)

    async def close(self) -> None:
        self.timers.cancel_all()
        for task in list(self._ai_tasks.values()):
            task.cancel()
        self._ai_tasks.clear()
        if self.board is not None:
            await self.board.close()
        for mail in self.mail.values():
            await mail.close()
        await self.requests.stop(self._flow)
