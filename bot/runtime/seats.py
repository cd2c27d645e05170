"""The four chairs of a table in play: who sits in each, and who plays when nobody does.

An AI seat plays at the level stored with it. A person's seat is played by a stand-in
AI on a time-out and while they are on auto-play (托管).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.runtime.standing import StandingOrders
from bot.variants import AI_LEVELS
from data.models import PlayerSettings, Seat
from engine.ai import make_player
from engine.ai.base import Player

#: AI levels by the number the store keeps with an AI seat (``seats.ai_level``). The
#: numbers keep their meaning for tables stored before: new levels are added at the end,
#: never between (a table stored with 1 still plays "basic").
STORED_LEVELS = ("random", "basic", "normal", "easy", "strong")
#: The levels a lobby offers, weakest first, and the one it takes unless told otherwise.
LOBBY_LEVELS = AI_LEVELS
DEFAULT_LEVEL = "normal"
#: Who plays for a person who is not there (time-outs, 托管): the strongest level.
STAND_IN_LEVEL = "strong"


def stored_level(level: str) -> int:
    """The number the store keeps for ``level``; ValueError for a level it does not know."""
    return STORED_LEVELS.index(level)


def level_of(stored: int | None) -> str:
    """The level of a stored AI seat; an unknown number plays the default level."""
    if stored is None or not 0 <= stored < len(STORED_LEVELS):
        return DEFAULT_LEVEL
    return STORED_LEVELS[stored]


@dataclass(slots=True)
class Chair:
    """One chair of the table for the whole session (chairs are fixed, seats move with
    the deal). ``ai`` plays an AI seat; ``level`` is its level ("" for a person)."""

    chair: int
    name: str
    user_id: int | None
    ai: Player | None
    level: str = ""
    #: On auto-play (托管): the stand-in plays every move until the person is back.
    autoplay: bool = False
    #: Time-outs in a row; two put a person on auto-play when ``autoplay_on_timeout``.
    timeouts: int = 0
    autoplay_on_timeout: bool = True
    #: The person lets spectators see their concealed tiles (旁观看牌).
    shows_spectators: bool = False
    #: The person's toggles: 摸切 and 自动胡.
    orders: StandingOrders = field(default_factory=StandingOrders)

    @property
    def human(self) -> bool:
        return self.user_id is not None

    @classmethod
    def from_seat(cls, seat: Seat, seed: int, settings: PlayerSettings | None = None) -> Chair:
        """A stored seat, with its person's settings; ``seed`` drives an AI that plays at
        random."""
        if seat.user_id is None:
            level = level_of(seat.ai_level)
            return cls(seat.chair, seat.display_name, None, make_player(level, seed), level)
        found = settings or PlayerSettings(seat.user_id)
        return cls(
            seat.chair,
            seat.display_name,
            seat.user_id,
            None,
            autoplay=seat.autoplay,
            autoplay_on_timeout=found.auto_play_on_timeout,
            shows_spectators=found.spectators_see_hand,
        )
