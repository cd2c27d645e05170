"""What happened in a hand, as typed events the bot renders (nothing Discord-shaped).

Each event says whose private information it carries (:meth:`Event.owner`): None for a
public event, or a seat. That private part is either the owner's tiles
(``hand_tiles``: dealt and drawn tiles, a concealed kong) or the owner's choices (prompt
answers, claim offers, passes, restrictions, private notices). The owner gets the event as
it is, and so does a viewer allowed to see the owner's hand (MCR 火眼金睛, a spectator the
player lets watch, everybody once the hand is over) when the private part is tiles;
everybody else gets :meth:`Event.redacted`, which hides the private part or drops the
event. The engine hands events out only through ``Round.events_for(viewer)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.ledger import Payment
from engine.rules.base import FanLine
from engine.tiles import format_tiles, tile_str

_TILE_FIELDS = frozenset({"tile"})
_TILES_FIELDS = frozenset({"tiles"})


def _json_value(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in _TILE_FIELDS and isinstance(value, int):
        return tile_str(value)
    if name in _TILES_FIELDS and isinstance(value, tuple):
        return format_tiles(value)
    if name == "chows":
        return [format_tiles(chow) for chow in value]
    if isinstance(value, FanLine | Payment):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_json_value("", v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class. ``type`` is the JSON name of the event."""

    type: ClassVar[str] = ""
    # The private part is the owner's tiles, which whoever may see the owner's hand sees
    # too; otherwise it is a choice of the owner's, for the owner alone.
    hand_tiles: ClassVar[bool] = False

    def owner(self) -> int | None:
        """The seat whose private information this is; None when public."""
        return None

    def redacted(self) -> Event | None:
        """The event as the other seats see it; None when they do not see it at all."""
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _json_value(f.name, getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins: the dealer's chair, the dice (None where the rule set shows them
    only after its before-deal prompts, with :class:`DiceRolled`), the session-derived
    script fields (Guangdong's horse count, MCR's round wind). Chance values (Sichuan's
    ``exchange_map``, MCR's ``peak_templates``) are never in it: the rule set reveals them
    when they take effect."""

    dealer: int
    dice: tuple[int, int] | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    type: ClassVar[str] = "hand_started"


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """The hand's dice, shown once the before-deal prompts are done, for a rule set that
    keeps them back until then (MCR: the bets come before the dice)."""

    dice: tuple[int, int]
    type: ClassVar[str] = "dice_rolled"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's dealt tiles (its own eyes only); others learn the count."""

    seat: int
    count: int
    tiles: tuple[int, ...] | None = None
    type: ClassVar[str] = "dealt"
    hand_tiles: ClassVar[bool] = True

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return Dealt(self.seat, self.count)


@dataclass(frozen=True, slots=True)
class TilesAside(Event):
    """Tiles set aside from the back of the wall; ``tiles`` only when face up. Where the
    rule set shows the dice only after its before-deal prompts, a face-up group is told
    face down at the start and again, with its tiles, right after the dice."""

    name: str
    count: int
    tiles: tuple[int, ...] | None = None
    type: ClassVar[str] = "tiles_aside"


@dataclass(frozen=True, slots=True)
class PromptOpened(Event):
    """A set-up prompt (``exchange``, ``void``, ``bet`` ...) awaits these seats."""

    prompt: str
    action: str
    seats: tuple[int, ...]
    type: ClassVar[str] = "prompt_opened"


@dataclass(frozen=True, slots=True)
class PromptAnswered(Event):
    """A seat committed its answer; the others see only that it did."""

    seat: int
    prompt: str
    answer: Mapping[str, Any] | None = None
    type: ClassVar[str] = "prompt_answered"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return PromptAnswered(self.seat, self.prompt)


@dataclass(frozen=True, slots=True)
class PromptClosed(Event):
    """Every seat has answered and the prompt has been carried out."""

    prompt: str
    type: ClassVar[str] = "prompt_closed"


@dataclass(frozen=True, slots=True)
class Notice(Event):
    """A rule set's own event (换三张 piles, 定缺 reveal, horses). With a ``seat`` it is
    private to that seat; the others then see ``public`` in place of ``data`` (or nothing
    when ``public`` is None)."""

    name: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None
    public: Mapping[str, Any] | None = None
    type: ClassVar[str] = "notice"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        if self.seat is None:
            return self
        if self.public is None:
            return None
        return Notice(self.name, self.public, self.seat, self.public)


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A seat drew a tile (``replacement``: from the back, after a kong)."""

    seat: int
    tile: int | None
    replacement: bool = False
    wall_left: int = 0
    type: ClassVar[str] = "drew"
    hand_tiles: ClassVar[bool] = True

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return Drew(self.seat, None, self.replacement, self.wall_left)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    tile: int
    declare_ready: bool = False
    type: ClassVar[str] = "discarded"


@dataclass(frozen=True, slots=True)
class ClaimOffered(Event):
    """What a seat may answer to a discard or rob window (private): ``options`` among
    ``win``, ``kong``, ``pong``, ``chow``; ``chows`` the possible chows; ``blocked`` the
    claims withheld by a restriction, as (claim, reason) pairs."""

    seat: int
    tile: int
    from_seat: int
    options: tuple[str, ...]
    chows: tuple[tuple[int, ...], ...] = ()
    blocked: tuple[tuple[str, str], ...] = ()
    rob: bool = False
    type: ClassVar[str] = "claim_offered"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    type: ClassVar[str] = "passed"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    """A chow or pong of the last discard."""

    seat: int
    claim: str
    tiles: tuple[int, ...]
    tile: int
    from_seat: int
    type: ClassVar[str] = "claimed"


@dataclass(frozen=True, slots=True)
class Konged(Event):
    """A kong: ``kong`` is ``concealed``, ``added`` or ``exposed``. A concealed kong's
    tile is seen only by its owner. An added kong is announced before its rob window."""

    seat: int
    kong: str
    tile: int | None
    from_seat: int | None = None
    type: ClassVar[str] = "konged"
    hand_tiles: ClassVar[bool] = True

    def owner(self) -> int | None:
        return self.seat if self.kong == "concealed" else None

    def redacted(self) -> Event | None:
        if self.kong == "concealed":
            return Konged(self.seat, self.kong, None, self.from_seat)
        return self


@dataclass(frozen=True, slots=True)
class KongRobbed(Event):
    """An added kong was robbed: it is void and the pung stays."""

    seat: int
    tile: int
    robbers: tuple[int, ...]
    type: ClassVar[str] = "kong_robbed"


@dataclass(frozen=True, slots=True)
class Won(Event):
    """A win; ``replacement``: self-drawn on a kong's replacement tile (杠上开花), whether
    or not the rule set pays a fan for it."""

    seat: int
    how: str
    tile: int
    from_seat: int | None
    total: int
    fans: tuple[FanLine, ...] = ()
    replacement: bool = False
    type: ClassVar[str] = "won"


@dataclass(frozen=True, slots=True)
class SeatOut(Event):
    """A winner leaves play and the others play on (血战到底)."""

    seat: int
    type: ClassVar[str] = "seat_out"


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """Payment lines the rule set has just written."""

    lines: tuple[Payment, ...]
    type: ClassVar[str] = "paid"


@dataclass(frozen=True, slots=True)
class Restricted(Event):
    """A pass restriction set on a seat: ``kind`` ``pass_pong`` (of ``tile``) or
    ``pass_win`` (with the declined ``value`` where wins are compared)."""

    seat: int
    kind: str
    tile: int | None = None
    value: int | None = None
    type: ClassVar[str] = "restriction"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class RestrictionCleared(Event):
    seat: int
    type: ClassVar[str] = "restriction_cleared"

    def owner(self) -> int | None:
        return self.seat

    def redacted(self) -> Event | None:
        return None


@dataclass(frozen=True, slots=True)
class WallExhausted(Event):
    type: ClassVar[str] = "wall_exhausted"


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over and settled: every hand is shown."""

    reason: str
    net: tuple[int, ...]
    next_dealer: int
    hands: tuple[str, ...]
    type: ClassVar[str] = "hand_ended"
