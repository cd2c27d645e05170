"""What the round's helpers read of a hand in play: the refusals, the views and the round
scripts (``engine.refusals``, ``engine.visibility``, ``engine.scripts``).

:class:`engine.round.Round` provides it. The helpers take this protocol rather than the
class, so they sit below the state machine and never import it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.events import Event
from engine.phase import Phase, TurnMode
from engine.rules.play import HandState, Prompt
from engine.windows import Window


class RoundState(HandState[Any], Protocol):
    @property
    def variant(self) -> str: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is, once play has begun."""
        ...

    @property
    def turn_mode(self) -> TurnMode: ...

    @property
    def prompt(self) -> Prompt | None:
        """The set-up prompt awaiting answers, if any."""
        ...

    @property
    def window(self) -> Window | None:
        """The open claim or rob window, if one is open."""
        ...

    @property
    def last_window(self) -> Window | None:
        """The last discard's (or added kong's) window, kept once closed while its tile
        lies unclaimed."""
        ...

    @property
    def raw_options(self) -> Mapping[str, Any]:
        """The options as the table gave them (round scripts store these)."""
        ...

    @property
    def undealt(self) -> Sequence[int]:
        """The tiles after the deal, in draw order."""
        ...

    @property
    def actions(self) -> Sequence[Action]: ...

    @property
    def events(self) -> Sequence[Event]: ...

    @property
    def dice_shown(self) -> bool: ...

    @property
    def is_dealt(self) -> bool: ...

    def win_tiles(self, seat: int) -> list[int]:
        """The kinds that would complete the seat's hand."""
        ...

    def shows_aside(self, name: str) -> bool: ...

    def aside_face_up(self, name: str) -> bool: ...
