"""What one viewer may know of a hand: the :class:`View` the engine hands out, one
:class:`SeatInfo` per seat. Pure data: the round builds views (``engine.visibility``)
and the AI, the bot and the renderer read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.analysis import ShapeRules
from engine.ledger import Payment
from engine.rules.base import TableOptions
from engine.rules.play import DiscardRecord, RuleFacts, ScoredWin, WinHow
from engine.tiles import NUM_KINDS, Meld


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as a viewer sees it. ``concealed`` is None when hidden from the viewer."""

    seat: int
    concealed: tuple[int, ...] | None
    concealed_count: int
    melds: tuple[Meld, ...]
    hidden_kongs: int
    discards: tuple[DiscardRecord, ...]
    active: bool
    ready: bool
    drawn: int | None


@dataclass(frozen=True, slots=True)
class View:
    """What ``viewer`` may know of the hand (None = a spectator). Tiles are kinds."""

    variant: str
    viewer: int | None
    dealer: int
    dice: tuple[int, int] | None  # None until the rule set shows them (dice_after_prompts)
    phase: str
    turn: int | None
    live_count: int
    seats: tuple[SeatInfo, ...]
    claim_tile: int | None
    claim_from: int | None
    #: (seat, tile) of the hand's most recent discard, claimed or not; None before one.
    last_discard: tuple[int, int] | None
    prompt: str | None
    aside: Mapping[str, tuple[int, ...] | int]
    wins: tuple[ScoredWin, ...]
    payments: tuple[Payment, ...]
    shape_rules: ShapeRules | None
    allows_chow: bool
    facts: RuleFacts
    #: The table's options (public: every seat plays by them; the AI scores with them).
    options: TableOptions | None = None

    def unseen(self) -> list[int]:
        """Copies of each kind the viewer cannot see anywhere (walls and other hands)."""
        counts = [4] * NUM_KINDS
        for info in self.seats:
            if info.concealed is not None:
                for k, n in enumerate(info.concealed):
                    counts[k] -= n
            for meld in info.melds:
                for k in meld.tiles:
                    counts[k] -= 1
            for d in info.discards:
                if d.claimed_by is None:
                    counts[d.tile] -= 1
        for tiles in self.aside.values():
            if isinstance(tiles, tuple):
                for k in tiles:
                    counts[k] -= 1
        for w in self.wins:
            if w.context.how is not WinHow.DISCARD:
                counts[w.context.tile] -= 1
        return [max(0, n) for n in counts]
