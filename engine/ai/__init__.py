"""AI players: a seat strategy that sees only its own view and the legal actions.

``make_player(level, seed)`` builds one: ``random`` (uniform legal play, for tests),
``basic`` (shanten only) or ``normal`` (shanten, then the unseen copies of the tiles
that advance the hand).
"""

from __future__ import annotations

from engine.ai.base import Player
from engine.ai.random_player import RandomPlayer
from engine.ai.strategy import ShantenPlayer

LEVELS = ("random", "basic", "normal")


def make_player(level: str, seed: int = 0) -> Player:
    """An AI player of ``level`` (one of :data:`LEVELS`); ``seed`` drives random play."""
    if level == "random":
        return RandomPlayer(seed)
    if level in ("basic", "normal"):
        return ShantenPlayer(level)
    raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Player", "RandomPlayer", "ShantenPlayer", "make_player"]
