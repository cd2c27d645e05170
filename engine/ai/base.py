"""The player interface every AI implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action
from engine.view import View


class Player(Protocol):
    """Chooses one of ``legal`` from what its seat may see.

    ``default`` is the rule set's answer for a set-up prompt (what a time-out takes);
    a player follows it for prompts it has no strategy for.
    """

    def choose(
        self, view: View, legal: Sequence[Action], default: Action | None = None
    ) -> Action: ...
