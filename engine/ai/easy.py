"""The "easy" level: basic play with deliberate slips, for people learning the game.

It plays as "basic" (shanten first, tile values on ties) but, on a seeded share of its
turns, throws a tile that sets its hand back (any legal discard but its best), declines
most claims and never declares ready. It always takes a win, so a hand it has made
ready is not thrown away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Pass, Win
from engine.ai.strategy import ShantenPlayer
from engine.view import View

#: The share of turns on which it throws a tile other than its best.
SLIP_RATE = 0.3
#: The share of claims (chow, pong, kong) it takes when "basic" would.
CLAIM_RATE = 0.4


class EasyPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._basic = ShantenPlayer("basic")

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        chosen = self._basic.choose(view, legal, default)
        if view.prompt is not None or isinstance(chosen, Win):
            return chosen
        discards = [a for a in legal if isinstance(a, Discard) and not a.declare_ready]
        if discards:
            if self._rng.random() < SLIP_RATE:
                others = [a for a in discards if a.tile != getattr(chosen, "tile", None)]
                if others:
                    return self._rng.choice(others)
            if isinstance(chosen, Discard) and chosen.declare_ready:
                return Discard(chosen.seat, chosen.tile)
            return chosen
        if not isinstance(chosen, Pass) and self._rng.random() >= CLAIM_RATE:
            passes = [a for a in legal if isinstance(a, Pass)]
            if passes:
                return passes[0]
        return chosen
