"""The plug-in interface between the round engine and a rule set.

The engine (``engine.round``) runs every hand the same way: set-up prompts before the
deal, the deal, prompts after it, then draw / discard / claim windows / kongs / rob
windows until the hand ends, then prompts after play and the settlement. Wherever the
three rule sets differ, the engine asks the hand's :class:`RuleSet` — data switches for
the plain differences (chow allowed, several winners, pass restrictions) and hooks for
the rest. It never compares variant names.

A rule set subclasses :class:`RuleSet`, overrides what differs from the defaults, and
exposes one instance as ``RULESET`` in ``engine/rules/<variant>/ruleset.py``;
``engine.rules.registry.find_ruleset(variant)`` loads it. A rule set reads its table
options as one typed object (``options_type``, a :class:`~engine.rules.base.TableOptions`).
Hooks receive the hand as a :class:`HandState` (the engine's ``Round`` implements it):
they read it freely, write the ledger and their own notes of the hand (the object
:meth:`RuleSet.new_notes` made), and change tiles only through its set-up methods.

Seats in every hook are seats of the hand (0 = dealer). Tiles are kinds 0..33.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import Action
from engine.analysis import STANDARD_ONLY, ShapeRules, is_complete, shanten
from engine.controls import Control, pick_actions
from engine.errors import Refusal
from engine.events import Event
from engine.ledger import Ledger
from engine.rules.base import FanLine, Option, OptionsT, WinFacts
from engine.tiles import HandSpec, Meld, tile_str
from engine.wall import TILES_136, Deal

T = TypeVar("T")


class Stage(enum.Enum):
    """When a set-up prompt is asked."""

    BEFORE_DEAL = "before_deal"  # the dealer is known, nobody has seen a tile (MCR bets)
    AFTER_DEAL = "after_deal"  # hands dealt, before the dealer's first move (换三张, 定缺)
    AFTER_PLAY = "after_play"  # play has ended, before settlement (MCR 妙手回春 mode)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A simultaneous choice: every seat in ``seats`` answers once with a ``action`` action.

    Answers stay hidden (each seat sees only its own) until all are in; then the rule
    set's :meth:`RuleSet.resolve_prompt` carries them out (at once when ``seats`` is
    empty). ``id`` names the prompt for the
    bot and the AI (``exchange``, ``void``, ``bet``, ``peek``, ``swap``, ``last_chance``).
    """

    id: str
    action: str
    seats: tuple[int, ...]
    stage: Stage


@dataclass(frozen=True, slots=True)
class Aside:
    """Tiles set aside from the back of the undealt wall before play (horses, indicator).

    Taken in the order the rule set lists them: the first ``Aside`` gets the last
    ``count`` tiles, the next the ones before them. Kept in wall order under ``name``.
    """

    name: str
    count: int
    face_up: bool = False


class WinLock(enum.Enum):
    """What declining a legal win on a discard or robbed kong does until one's next draw."""

    NONE = "none"  # no restriction (MCR)
    ALL = "all"  # no win on any discard and no rob (Guangdong 过胡)
    VALUE = "value"  # only a win worth strictly more than the declined one (Sichuan 过水不胡)


@dataclass(frozen=True, slots=True)
class PassRules:
    """Pass restrictions, each lasting until the seat's next draw (a replacement draw too).

    ``pong_lock``: a seat that passed a pong of kind X may not pong X (过碰).
    ``win_lock``: see :class:`WinLock`; values compare :attr:`WinScore.value`.
    """

    pong_lock: bool = False
    win_lock: WinLock = WinLock.NONE


class WinHow(enum.Enum):
    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROB_KONG = "rob_kong"


class KongType(enum.Enum):
    CONCEALED = "concealed"  # four concealed tiles (暗杠)
    ADDED = "added"  # the fourth tile added to one's melded pung (加杠 / 巴杠)
    EXPOSED = "exposed"  # three concealed tiles and the last discard (明杠 / 直杠)


@dataclass(frozen=True, slots=True)
class KongRecord:
    """A completed kong, in the order kongs were made (a robbed kong is never recorded).

    ``from_seat``: the discarder for an exposed kong; for an added kong the seat the pung
    was claimed from; None for a concealed kong.
    ``drawn_now``: an added kong of the tile the seat has just drawn (Sichuan 巴杠 rather
    than 绕杠).
    ``turn``: the number of the turn it was made in (see :attr:`HandState.turn_number`).
    """

    seat: int
    kind: int
    type: KongType
    from_seat: int | None
    drawn_now: bool
    turn: int


@dataclass(frozen=True, slots=True)
class ReadyDeclaration:
    """A declared ready hand (MCR 报听): the seat's discard that declared it.

    ``discard_number``: how many discards the seat had made before it (0 = its first);
    ``melds_before``: chows, pongs and kongs declared by anybody before it.
    """

    discard_number: int
    melds_before: int


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything the engine knows about one possible or actual win.

    ``hand``: the winner's concealed tiles *without* the winning tile, plus melds.
    ``from_seat``: the discarder, or the robbed seat; None when self-drawn.
    ``after_kong``: for a self-drawn win on a kong's replacement tile, that kong (杠上开花).
    ``discarder_kongs``: kongs the discarder made in the turn this discard ended (杠上炮).
    ``last_tile``: self-draw of the last live tile, or a win on the discard that followed.
    ``fourth_tile``: the other three copies of the tile are visible (discards, exposed
    melds, face-up set-aside tiles).
    ``discards_before``: discards made in the hand before this win (the winning discard
    not included); ``melds_before``: chows, pongs and kongs declared by anyone before it;
    ``draws``: tiles the winner has drawn this hand, this one included (dealt tiles not).
    ``ready``: the winner's ready declaration, if any.
    """

    seat: int
    how: WinHow
    tile: int
    from_seat: int | None
    hand: HandSpec
    after_kong: KongRecord | None = None
    discarder_kongs: tuple[KongRecord, ...] = ()
    last_tile: bool = False
    fourth_tile: bool = False
    discards_before: int = 0
    melds_before: int = 0
    draws: int = 0
    ready: ReadyDeclaration | None = None

    @property
    def self_drawn(self) -> bool:
        return self.how is WinHow.SELF_DRAW

    def facts(
        self, *, seat_wind: int = 0, round_wind: int = 0, wildcard: int | None = None
    ) -> WinFacts:
        """The calculator's view of this win (Contract 1 flags)."""
        return WinFacts(
            hand=self.hand,
            win_tile=self.tile,
            self_drawn=self.self_drawn,
            seat_wind=seat_wind,
            round_wind=round_wind,
            fourth_tile=self.fourth_tile,
            kong_related=self.after_kong is not None or self.how is WinHow.ROB_KONG,
            last_tile=self.last_tile,
            wildcard=wildcard,
        )


class WinNotes(Protocol):
    """A rule set's own facts of one win, with the fields they add to its JSON."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class BoughtHorse:
    """A horse ``buyer`` bought at ``position`` of the row, turned up: ``tile`` points at
    the seat ``target`` (counted from the dealer)."""

    buyer: int
    position: int
    tile: int
    target: int


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """What a rule set tells a viewer besides the tiles: the facts every front end may
    show, none by default; a rule set with more subclasses it (MCR's bets and dice
    mode, Guangdong's dealer counters)."""

    #: Each seat's 定缺 suit (0 万 m, 1 筒 p, 2 条 s), seat 0 first, once revealed.
    voids: tuple[int, ...] | None = None
    #: The 宝牌 kind (every copy is wild), once shown.
    wildcard: int | None = None
    #: The prevailing wind (0 东 … 3 北), where the rule set has one (MCR 圈风).
    round_wind: int | None = None
    #: Each seat's stakes multiplier, seat 0 first, once the bets are placed (MCR 底分押倍).
    factors: tuple[int, int, int, int] | None = None
    #: Horses bought by position (MCR 万马奔腾): those bought, once the row is turned up;
    #: () before, and when nobody bought one. None where nobody buys horses (广东's are
    #: the dealer's).
    bought_horses: tuple[BoughtHorse, ...] | None = None

    @property
    def continued(self) -> int:
        """连庄: how many hands in a row this hand's dealer has kept the deal before it,
        where the rule set lets a dealer keep it (广东); 0 elsewhere and on a new dealer."""
        return 0

    @property
    def mode(self) -> str | None:
        """The hand's dice mode once announced (MCR's ``dice_modes``: ``peek``,
        ``last_chance``, ``swap``, ``wealth``, ``peak``); None where a rule set has none."""
        return None


@dataclass(frozen=True, slots=True)
class WinScore:
    """The rule set's score of a win.

    ``total``: as the calculator reports it (MCR fan total, Sichuan capped 番, Guangdong
    1 small / 2 big). ``meets_minimum``: False refuses the win (MCR ``min_fan``).
    ``value``: what pass restrictions compare (Sichuan: uncapped 番); defaults to total.
    ``how``: the kind of win to report when the rule set names it more finely than
    :class:`WinHow` (Guangdong ``kong_bloom``). ``notes``: the rule set's own facts of
    the win, typed (Sichuan's uncapped 番 and title, MCR's wildcard substitution).
    """

    total: int
    fans: tuple[FanLine, ...] = ()
    meets_minimum: bool = True
    value: int | None = None
    how: str | None = None
    notes: WinNotes | None = None

    @property
    def compare_value(self) -> int:
        return self.total if self.value is None else self.value

    @property
    def extra(self) -> Mapping[str, Any]:
        """The notes as the fields they add to the win's JSON (a replay's winner)."""
        return {} if self.notes is None else self.notes.to_json()


@dataclass(frozen=True, slots=True)
class ScoredWin:
    """A win that happened: its context and score."""

    context: WinContext
    score: WinScore

    @property
    def seat(self) -> int:
        return self.context.seat

    @property
    def how(self) -> str:
        return self.score.how or self.context.how.value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.context.seat,
            "how": self.how,
            "tile": tile_str(self.context.tile),
            "fans": [f.to_json() for f in self.score.fans],
            "total": self.score.total,
        }
        if self.context.from_seat is not None:
            out["from_seat"] = self.context.from_seat
        out.update(self.score.extra)
        return out


class EndReason(enum.Enum):
    WIN = "win"  # the rule set ended the hand after a win
    # A draw was due and the live wall was empty (the last discard included).
    EXHAUSTED = "exhausted"


@dataclass(frozen=True, slots=True)
class DiscardRecord:
    """One tile in a seat's river. ``claimed_by``: the seat that melded it, if any;
    ``won``: somebody won on it (the tile stays in the river)."""

    tile: int
    claimed_by: int | None = None
    won: bool = False
    declare_ready: bool = False


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of a finished hand for ``python -m engine.simulate``. The simulation adds
    up ``amount`` and ``out_of`` of each label over its hands and prints their ratio:
    ``out_of`` 1 makes an average per hand, the hand's wins as ``out_of`` a share of wins,
    0 leaves the hand out. ``percent`` prints the ratio as a percentage."""

    amount: float
    out_of: float = 1.0
    percent: bool = False


class HandState(Protocol[OptionsT]):
    """What a hook may read and change of the hand in play (implemented by ``Round``)."""

    @property
    def ruleset(self) -> RuleSet[OptionsT]: ...

    @property
    def options(self) -> OptionsT: ...

    @property
    def fields(self) -> Mapping[str, Any]:
        """Extra script fields: session-derived (Guangdong ``horse_count``) and
        chance-derived (Sichuan ``exchange_map``) values, by name."""
        ...

    @property
    def dealer(self) -> int:
        """The dealer's chair."""
        ...

    @property
    def dice(self) -> tuple[int, int]: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def rule_notes(self) -> object:
        """The rule set's own notes of this hand (:meth:`RuleSet.new_notes` made them);
        the engine never reads them."""
        ...

    @property
    def set_aside(self) -> Mapping[str, tuple[int, ...]]: ...

    @property
    def wins(self) -> Sequence[ScoredWin]: ...

    @property
    def kongs(self) -> Sequence[KongRecord]: ...

    @property
    def end_reason(self) -> EndReason | None: ...

    @property
    def turn_number(self) -> int:
        """Increases by one each time a seat's turn begins."""
        ...

    @property
    def prompts_done(self) -> Sequence[tuple[Prompt, Mapping[int, Action]]]: ...

    @property
    def dealt(self) -> Sequence[Sequence[int]]:
        """The four dealt hands, seat 0 first (their order within a hand is not
        meaningful)."""
        ...

    def concealed(self, seat: int) -> Sequence[int]:
        """The seat's concealed tiles as 34 counts (read only)."""
        ...

    def melds(self, seat: int) -> Sequence[Meld]: ...

    def discards(self, seat: int) -> Sequence[DiscardRecord]: ...

    def is_active(self, seat: int) -> bool:
        """Still playing: not out after a win (血战到底)."""
        ...

    def ready(self, seat: int) -> ReadyDeclaration | None: ...

    @property
    def live_count(self) -> int:
        """Tiles left in the live wall."""
        ...

    def last_drawn(self, seat: int) -> int | None:
        """The tile the seat drew most recently, while it is still its turn (None on the
        dealer's first move: he draws nothing)."""
        ...

    @property
    def last_discard(self) -> tuple[int, int] | None:
        """(seat, tile) of the hand's most recent discard, claimed or not; None before the
        first discard."""
        ...

    # -- set-up methods: for begin / resolve_prompt only ---------------------------

    def chance(self, name: str, draw: Callable[[random.Random], T]) -> T:
        """A chance value named ``name``: the script's field if it fixes one, otherwise
        ``draw(rng)`` on the hand's random generator; the result is kept in ``fields`` so
        the round script records it (it must be JSON: ints, strings, lists). The engine
        never announces it: the rule set reveals it when it takes effect."""
        ...

    def emit(self, event: Event) -> None:
        """Add a rule set's event (usually ``events.Notice``) to the hand's log."""
        ...

    def take_tiles(self, seat: int, kinds: Sequence[int]) -> None:
        """Remove tiles from a concealed hand (they must be held)."""
        ...

    def give_tiles(self, seat: int, kinds: Sequence[int]) -> None:
        """Add tiles to a concealed hand."""
        ...

    def draw_front(self) -> int:
        """Take the first live tile (not a turn's draw: MCR 偷天换日 replacements)."""
        ...

    def put_aside(self, name: str, kinds: Sequence[int]) -> None:
        """Keep tiles out of play under ``name`` (MCR swapped-out tiles)."""
        ...

    def win_context(
        self, seat: int, tile: int, how: WinHow, *, virtual: bool = False
    ) -> WinContext:
        """The context of a win by ``seat`` on ``tile`` as things stand now. A self-drawn
        tile is taken to be in the hand unless ``virtual`` (MCR 妙手回春's tiles)."""
        ...

    def award_win(self, win: ScoredWin) -> None:
        """Record a win decided by a prompt after play (MCR 妙手回春); the tile is virtual.
        The hand then ends as won (``EndReason.WIN``), though its wall ran out."""
        ...


class RuleSet(Generic[OptionsT]):
    """A rule set's rules and options. Subclasses override what differs from these defaults.

    Class attributes are data switches; methods are hooks. Every default below is the
    plain behaviour: 136 tiles, no prompts, chow not allowed, one winner ends the hand,
    no pass restrictions, no settlement.
    """

    variant: str = ""
    #: The table options, as in the rule set's spec.
    options_type: type[OptionsT]
    #: Every tile of the set, four copies of each kind (``wall.TILES_136`` / ``TILES_108``).
    tiles: tuple[int, ...] = TILES_136
    #: Chow (吃) from 上家 is allowed.
    allows_chow: bool = False
    #: Every seat that claims a win on one discard (or robbed kong) wins (一炮多响);
    #: otherwise only the first claimant in turn order from the discarder (截和).
    multiple_winners: bool = False
    #: Restrictions set by passing a pong or a win.
    pass_rules: PassRules = PassRules()
    #: Extra top-level fields a round script may carry (session and chance values).
    script_fields: tuple[str, ...] = ()
    #: Hand 1's random generator rolls the first-dealer dice before the hand's own dice
    #: (MCR: the dealer must be known before the bets).
    separate_dealer_roll: bool = False
    #: The dice and the face-up set-aside tiles stay hidden until the before-deal prompts
    #: are done (MCR: the bets are made before the dice are rolled, mcr.md §4.1); the
    #: engine then shows them with a ``dice_rolled`` event.
    dice_after_prompts: bool = False

    # -- options and fields ---------------------------------------------------------

    def read_options(self, raw: Mapping[str, Any]) -> OptionsT:
        """The table's options from ``raw`` (JSON, by name; missing ones take their
        defaults); a RuleError names an unknown name or a bad value."""
        return self.options_type.parse(raw)

    def parse_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`read_options` as JSON, every option by name: what a table stores."""
        return self.read_options(raw).to_json()

    @property
    def option_table(self) -> tuple[Option, ...]:
        """The table options as rows: names, defaults, validity tests and docs."""
        return self.options_type.rows()

    def planned_hands(self, options: Mapping[str, Any]) -> int:
        """Hands (局) a session of ``options`` (JSON, as :meth:`parse_options` gives them)
        plays: room cards read it."""
        return self.read_options(options).planned_hands

    def check_fields(self, raw: Mapping[str, Any], options: OptionsT) -> dict[str, Any]:
        """Validate a script's extra fields (names in ``script_fields``); raise RuleError."""
        return dict(raw)

    def first_fields(self, options: OptionsT) -> dict[str, Any]:
        """Session-derived fields of a session's first hand (Guangdong ``horse_count``)."""
        return {}

    def next_fields(
        self, options: OptionsT, state: HandState[OptionsT], next_dealer_seat: int, hand_number: int
    ) -> dict[str, Any]:
        """Session-derived fields of the next hand (number ``hand_number``, 1-based), from
        the hand that just ended and the seat (of that hand) that deals next."""
        return {}

    # -- the deal ---------------------------------------------------------------------

    def new_notes(self, state: HandState[OptionsT]) -> object:
        """The rule set's notes of a new hand (``state.rule_notes``), made once the dice
        are known, before the deal; the rule set keeps in them what it remembers
        through the hand. They draw no chance value (that is for :meth:`begin`)."""
        return None

    def build_deal(self, state: HandState[OptionsT], rng: random.Random) -> Deal | None:
        """Build the deal from ``rng`` when the rule set deals its own way (MCR 巅峰时刻);
        None for the standard shuffle and deal. Called after the dice are rolled."""
        return None

    def aside(self, state: HandState[OptionsT]) -> Sequence[Aside]:
        """Tiles to set aside from the back of the wall before play (horses, indicator)."""
        return ()

    def begin(self, state: HandState[OptionsT]) -> None:
        """Called once the deal and set-aside are done and before any prompt: complete
        the hand's notes, draw chance values, emit what players are told first (after
        the engine's ``hand_started`` and ``tiles_aside``)."""

    def on_deal(self, state: HandState[OptionsT]) -> None:
        """The before-deal prompts are done and the dealt hands are about to be shown
        (after the dice, where :attr:`dice_after_prompts` held them back): emit what the
        players learn now (MCR: the dice mode and the 宝牌)."""

    # -- set-up prompts -----------------------------------------------------------------

    def next_prompt(self, state: HandState[OptionsT], stage: Stage) -> Prompt | None:
        """The next prompt of ``stage``, or None when the stage is over. Called when the
        stage begins and after each prompt is resolved (see ``state.prompts_done``)."""
        return None

    def prompt_actions(self, state: HandState[OptionsT], prompt: Prompt, seat: int) -> list[Action]:
        """Every legal answer of ``seat`` to ``prompt``."""
        return []

    def check_prompt_action(
        self, state: HandState[OptionsT], prompt: Prompt, action: Action
    ) -> Refusal | None:
        """Why ``action`` is not a legal answer, or None. The default checks membership
        in :meth:`prompt_actions`; override when that list is long."""
        if action in self.prompt_actions(state, prompt, action.seat):
            return None
        return Refusal("invalid_choice", f"seat {action.seat} cannot answer {prompt.id} that way")

    def prompt_controls(
        self, state: HandState[OptionsT], prompt: Prompt, seat: int
    ) -> tuple[Control, ...]:
        """The controls of ``seat``'s answer to ``prompt`` (see ``engine.controls``): by
        default one ``PickOne`` over :meth:`prompt_actions`, no suggestion. Override to
        describe answers too many to list, to name what each choice is about, or to mark
        the rule set's suggestion; the controls must reach every legal answer and nothing
        else."""
        return (pick_actions(prompt.id, self.prompt_actions(state, prompt, seat)),)

    def default_prompt_action(
        self, state: HandState[OptionsT], prompt: Prompt, seat: int
    ) -> Action:
        """The answer taken for a seat that does not choose (time-outs, plain AI)."""
        return self.prompt_actions(state, prompt, seat)[0]

    def resolve_prompt(
        self, state: HandState[OptionsT], prompt: Prompt, answers: Mapping[int, Action]
    ) -> None:
        """Carry out a prompt once every seat has answered (moves tiles, records choices,
        emits the reveal)."""

    # -- play -------------------------------------------------------------------------

    def shape_rules(self, state: HandState[OptionsT], seat: int) -> ShapeRules:
        """The winning shapes of ``seat`` (a Sichuan seat's void suit is part of it)."""
        return STANDARD_ONLY

    def completion_key(self, state: HandState[OptionsT], seat: int) -> Hashable:
        """All that :meth:`is_complete` and :meth:`shape_rules` read of ``seat`` besides
        the tiles they are given: equal keys and equal tiles give equal answers, so what
        completes a hand is worked out once for them, not again on every move."""
        return (self.shape_rules(state, seat), tuple(state.melds(seat)))

    def is_complete(
        self, state: HandState[OptionsT], seat: int, counts: Sequence[int], tile: int, how: WinHow
    ) -> bool:
        """Whether ``counts`` (14 with the melds, ``tile`` among them) is a winning shape
        for ``seat`` when ``tile`` completes it ``how`` (drawn, discarded or robbed); the
        engine tests this before scoring. Override for wildcards: a discarded wildcard is
        not a drawn one."""
        melds = state.melds(seat)
        rules = self.shape_rules(state, seat)
        return is_complete(counts, len(melds), rules, [m.kind for m in melds])

    def may_be_ready(self, state: HandState[OptionsT], seat: int) -> bool:
        """A quick necessary condition for ``seat``'s concealed tiles (13 with the melds)
        to win on some single tile; False spares the engine the per-tile tests on each
        discard. The default reads :meth:`shape_rules` (shanten 0); a rule set that
        overrides :meth:`is_complete` gets True unless it overrides this too."""
        if type(self).is_complete is not RuleSet.is_complete:
            return True
        return (
            shanten(state.concealed(seat), len(state.melds(seat)), self.shape_rules(state, seat))
            <= 0
        )

    def refuse_discard(self, state: HandState[OptionsT], seat: int, kind: int) -> Refusal | None:
        """Why ``seat`` may not discard ``kind`` now (Sichuan: void-suit tiles first)."""
        return None

    def refuse_meld(
        self, state: HandState[OptionsT], seat: int, kind: int, meld: str
    ) -> Refusal | None:
        """Why ``seat`` may not make a ``meld`` ("chow", "pong", "kong") of ``kind`` (for a
        chow, its lowest tile); Sichuan refuses its void suit."""
        return None

    def refuse_win(
        self, state: HandState[OptionsT], win: WinContext, score: WinScore | None
    ) -> Refusal | None:
        """Why this win is refused. ``score`` is None when the shape is not complete (the
        rule set may say why, e.g. void-suit tiles held); the default refuses a score
        below the minimum."""
        if score is not None and not score.meets_minimum:
            return Refusal(
                "below_minimum", f"seat {win.seat}'s hand scores {score.total}, below the minimum"
            )
        return None

    def can_declare_ready(self, state: HandState[OptionsT], seat: int, kind: int) -> bool:
        """Whether discarding ``kind`` may declare a ready hand (MCR 报听). A declared
        seat may no longer chow, pong or kong and discards every tile it draws."""
        return False

    def score_win(self, state: HandState[OptionsT], win: WinContext) -> WinScore:
        """Score a win whose shape is complete (delegating to the rule set's calculator)."""
        return WinScore(total=1)

    def on_kong(self, state: HandState[OptionsT], kong: KongRecord) -> None:
        """A kong has been completed (an added kong once its rob window has closed):
        write immediate payments (Sichuan water money) into ``state.ledger``."""

    def on_win(self, state: HandState[OptionsT], wins: Sequence[ScoredWin]) -> None:
        """One win event (several winners on one discard or robbed kong): write
        immediate payments (Sichuan pays every win at once)."""

    def play_continues(self, state: HandState[OptionsT], wins: Sequence[ScoredWin]) -> bool:
        """After a win event: True when the winners leave and the others play on
        (血战到底); False ends the hand."""
        return False

    def visible_hands(self, state: HandState[OptionsT], viewer: int) -> frozenset[int]:
        """Seats whose concealed tiles ``viewer`` may see besides its own (MCR 火眼金睛)."""
        return frozenset()

    # -- the end ------------------------------------------------------------------------

    def settle_hand(self, state: HandState[OptionsT]) -> None:
        """The hand is over (``state.end_reason``): write the end-of-hand lines (Guangdong
        wins and kongs, horses, 查叫 and 退税, MCR doubling and horses)."""

    def next_dealer(self, state: HandState[OptionsT]) -> int:
        """The seat of this hand that deals next; the default passes the deal to seat 1."""
        return 1

    def result_extras(self, state: HandState[OptionsT]) -> dict[str, Any]:
        """Fields the rule set adds to a replay's result (horses, 查叫, next horse count)."""
        return {}

    def view_facts(self, state: HandState[OptionsT], viewer: int | None) -> RuleFacts:
        """The rule set's facts in a seat's view (void suits once revealed, the wildcard,
        the bets once placed); ``viewer`` None is a spectator."""
        return RuleFacts()

    # -- simulation -------------------------------------------------------------------

    def hand_statistics(self, state: HandState[OptionsT]) -> Mapping[str, Figure]:
        """The rule set's figures of a finished hand, by the label a simulation prints
        (Sichuan: the share of hands ending in 查叫)."""
        return {}

    def simulation_notes(self, options: OptionsT, hands: int, seed: int) -> Mapping[str, float]:
        """Figures a simulation of ``hands`` hands from ``seed`` prints once, by label,
        computed apart from the hands it plays (MCR: 巅峰时刻 deals beside normal ones)."""
        return {}


def seats_after(seat: int) -> tuple[int, int, int]:
    """The other three seats in turn order starting with ``seat``'s 下家."""
    return ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)


__all__ = [
    "Aside",
    "BoughtHorse",
    "DiscardRecord",
    "EndReason",
    "Figure",
    "HandState",
    "KongRecord",
    "KongType",
    "PassRules",
    "Prompt",
    "ReadyDeclaration",
    "Refusal",
    "RuleFacts",
    "RuleSet",
    "ScoredWin",
    "Stage",
    "WinContext",
    "WinHow",
    "WinLock",
    "WinNotes",
    "WinScore",
    "seats_after",
]
