"""What the runtime hands its presenters: frozen pictures of a moment, never the live hand.

Every snapshot is taken under the table's lock and never changes afterwards, so a
presenter may draw and send it at leisure without asking the runtime anything. Nothing in
them is worded: names are the players', everything else is engine data and flags; the
presenters choose the words for each reader. Private information reaches a snapshot only
through the engine's ``view`` of the seat it belongs to.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.runtime.notes import Note
from bot.runtime.standing import Order
from engine.actions import Action
from engine.controls import Controls
from engine.errors import Refusal
from engine.events import Event
from engine.readiness import Readiness
from engine.round import Round, View


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What names the hand in every picture and message."""

    table_id: int
    variant: str
    #: The hand's number in the session (1 = the first) and the hands the session plays.
    number: int
    hands: int
    #: The players' names by seat of the hand (seat 0 deals), as stored: an AI seat's in
    #: the server's language when it sat down, which presenters word for each reader.
    names: tuple[str, str, str, str]
    #: The chair sitting at each seat of the hand.
    chairs: tuple[int, int, int, int]
    #: Which seats of the hand an AI plays from the start (not a person on 托管).
    ai: tuple[bool, bool, bool, bool] = (False, False, False, False)
    #: 连庄: hands in a row the dealer has kept the deal before this one (广东).
    continued: int = 0

    def seat_of(self, chair: int) -> int:
        return self.chairs.index(chair)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One chair's situation at one moment: what it sees, what it is asked, until when."""

    facts: HandFacts
    chair: int
    seat: int
    #: Increases with every change of the table; a newer state replaces an older one.
    revision: int
    view: View
    legal: tuple[Action, ...]
    #: What the seat is asked and how it answers; None when it has nothing to answer.
    controls: Controls | None
    #: The number of the seat's open prompt (clicks on other numbers are stale).
    seq: int
    #: When the person's time runs out (Unix time), if a timer runs.
    deadline: float | None
    autoplay: bool
    human: bool
    notes: tuple[Note, ...] = ()
    #: The seat's own 定缺 suit once chosen.
    own_void: int | None = None
    #: The numbers chosen so far for a part of the answer (MCR's horses).
    chosen: tuple[int, ...] = ()
    #: The person's standing orders that are on (摸切, 自动胡), and whether they answer
    #: the open prompt (the person is then not asked).
    orders: frozenset[Order] = frozenset()
    standing: bool = False
    #: Their 听牌 while play is on: the waits, or on their turn the discards that leave
    #: the hand ready; None for an AI seat and outside play.
    readiness: Readiness | None = None

    @property
    def kind(self) -> str | None:
        """``turn``, ``claim``, ``rob``, a set-up prompt's id, or None."""
        return self.controls.kind if self.controls is not None else None

    @property
    def asks(self) -> bool:
        return bool(self.legal)

    @property
    def waits_for_person(self) -> bool:
        """Whether the open prompt waits for the person's own answer (not the AI's on
        auto-play, nor their standing orders')."""
        return self.asks and self.human and not self.autoplay and not self.standing


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seat the table waits for, and its deadline when a person's timer runs."""

    seat: int
    deadline: float | None


@dataclass(frozen=True, slots=True)
class BoardState:
    """The table as everyone may see it."""

    facts: HandFacts
    revision: int
    view: View
    #: Each seat's score in the session so far, this hand's payments included.
    scores: tuple[int, int, int, int]
    autoplay: tuple[bool, bool, bool, bool]
    ai: tuple[bool, bool, bool, bool]
    waiting: tuple[Waiting, ...]

    @property
    def over(self) -> bool:
        return self.view.phase == "end"


class Notice(enum.Enum):
    """What the table itself (not the engine) tells everyone."""

    AUTOPLAY_ON = "autoplay_on"
    AUTOPLAY_OFF = "autoplay_off"
    #: The person left the table's server; the AI plays for them from now on.
    LEFT_SERVER = "left_server"


@dataclass(frozen=True, slots=True)
class TableNotice:
    notice: Notice
    chair: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one change did: the public events, the table's own notices, and the states
    afterwards of the chairs whose hand message shows this change. ``touched`` chairs
    must see their hand message change (they are asked something, lost their controls,
    or their own tiles or notes moved); ``actor`` is the chair whose click the change
    answers, whose message rides on that click."""

    revision: int
    public: tuple[Event, ...]
    notices: tuple[TableNotice, ...]
    #: In chair order, the states of exactly: the ``touched`` chairs (which include the
    #: chairs that see others' tiles and follow every change), the ``actor``, and, once
    #: the hand is over, every person's chair (the settlement shows them). Never an AI
    #: chair's. Another chair's message keeps its older state; shown later for another
    #: reason, it takes the chair's state of that moment (``TableRuntime.seat_state``).
    seats: tuple[SeatState, ...]
    touched: frozenset[int]
    actor: int | None
    board: BoardState


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand is about to be shown: dealt now, or picked up again after a restart."""

    resumed: bool
    seed_fingerprint: str
    #: None while the rule set keeps the dice back (MCR: until the bets are in).
    dice: tuple[int, int] | None
    #: The public events of the hand so far.
    public: tuple[Event, ...]
    #: Every person's state, in chair order (no AI chair's); the first change of the
    #: hand follows at once with the same chairs touched.
    seats: tuple[SeatState, ...]
    board: BoardState


@dataclass(frozen=True, slots=True)
class Settled:
    """A hand is over and stored. ``hand`` is finished and never changes again."""

    facts: HandFacts
    hand: Round
    round_id: int
    seed: str
    #: Whether it was the session's last hand.
    last: bool
    #: The hand's replay code (``/replay code:``), given by the store as it finished.
    code: str | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """A move the engine refused and the seat's situation when it was made: its view,
    its legal actions and its 定缺 suit when chosen."""

    refusal: Refusal
    action: Action
    view: View
    legal: tuple[Action, ...]
    names: tuple[str, str, str, str]
    void: int | None
    ai: tuple[bool, bool, bool, bool] = (False, False, False, False)


class Problem(enum.Enum):
    """Why a click changed nothing, before the engine was asked."""

    NOT_SEATED = "not_seated"
    EXPIRED = "expired"
    ALREADY = "already"
    TABLE_OVER = "table_over"
    #: The store cannot keep moves just now; the table goes on by itself when it can.
    PAUSED = "paused"


@dataclass(frozen=True, slots=True)
class ClickResult:
    """What became of a click: a problem, a refusal, or the clicker's state after it."""

    problem: Problem | None = None
    refused: Refused | None = None
    state: SeatState | None = None
