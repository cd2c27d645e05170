"""Uniformly random legal play: the baseline and the fuzzer of the engine's tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.view import View


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        return self._rng.choice(list(legal))
