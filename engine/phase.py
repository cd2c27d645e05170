"""Where a hand stands: its phase, and on a turn what the turn seat may do."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    PROMPT = "prompt"  # a set-up prompt awaits answers
    TURN = "turn"  # the turn seat may win, kong or discard
    CLAIM = "claim"  # seats answer the last discard
    ROB = "rob"  # seats may rob an added kong
    END = "end"  # the hand is over and settled


class TurnMode(enum.Enum):
    START = "start"  # the dealer's first move, with the dealt 14 tiles
    DRAWN = "drawn"  # after a draw or replacement draw: win, kong or discard
    CLAIMED = "claimed"  # after a chow or pong: discard only
