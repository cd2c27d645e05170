"""AI players: a seat strategy that sees only its own view and the legal actions.

``make_player(level, seed)`` builds one: ``random`` (uniform legal play, for tests),
``basic`` (shanten only), ``easy`` (basic play with deliberate slips), ``normal``
(shanten, then the unseen copies of the tiles that advance the hand) or ``strong``
(defence, value planning per rule set and a sampled look-ahead; ``engine.ai.strong``).
"""

from __future__ import annotations

from engine.ai.base import Player
from engine.ai.easy import EasyPlayer
from engine.ai.random_player import RandomPlayer
from engine.ai.strategy import ShantenPlayer
from engine.ai.strong import StrongPlayer

LEVELS = ("random", "basic", "easy", "normal", "strong")


def make_player(level: str, seed: int = 0) -> Player:
    """An AI player of ``level`` (one of :data:`LEVELS`); ``seed`` drives random play."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return EasyPlayer(seed)
    if level in ("basic", "normal"):
        return ShantenPlayer(level)
    if level == "strong":
        return StrongPlayer(seed)
    raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "EasyPlayer",
    "Player",
    "RandomPlayer",
    "ShantenPlayer",
    "StrongPlayer",
    "make_player",
]
