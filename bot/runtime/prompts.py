"""The open prompt of each seat, numbered, and which clicks still answer it.

A seat's prompt gets a new number whenever its legal actions change; the number is the
count of the hand's actions when it opened plus one, so replaying the stored actions after
a restart numbers every open prompt as before and old buttons keep working. A click with
another number changes nothing: it is a second click when its player answered the prompt
of that number, a stale one otherwise.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from bot.runtime.snapshots import Problem
from engine.round import Round

SEATS = 4


@dataclass(slots=True)
class OpenPrompt:
    """A seat's open prompt: what it is (to notice changes), its number and deadline."""

    key: Hashable = None
    seq: int = 0
    deadline: float | None = None
    #: Whether the seat has something to answer, so its controls are on show.
    asks: bool = False
    #: The numbers chosen so far for a part of the answer (MCR's horses).
    chosen: tuple[int, ...] = ()


@dataclass(slots=True)
class Renumbered:
    """A seat whose prompt changed, and whether it had something to answer before."""

    seat: int
    asked_before: bool


@dataclass(slots=True)
class PromptBook:
    open: list[OpenPrompt] = field(default_factory=lambda: [OpenPrompt() for _ in range(SEATS)])
    #: The number of the prompt each seat answered last by its own click or reaction.
    answered: list[int] = field(default_factory=lambda: [-1] * SEATS)

    def renumber(self, hand: Round) -> list[Renumbered]:
        """Give a new number to every seat whose choices changed; returns those seats."""
        changed = []
        for seat in range(SEATS):
            legal = hand.legal_actions(seat)
            key = (hand.phase, hand.turn_number, hand.prompt, tuple(legal))
            prompt = self.open[seat]
            if key == prompt.key:
                continue
            changed.append(Renumbered(seat, prompt.asks))
            self.open[seat] = OpenPrompt(key, len(hand.actions) + 1, asks=bool(legal))
        return changed

    def reopen(self, seat: int) -> None:
        """Forget the seat's prompt, so the next renumbering opens it afresh."""
        self.open[seat].key = None

    def problem(self, seat: int, seq: int, *, answerable: bool) -> Problem | None:
        """Why a click on prompt ``seq`` of ``seat`` changes nothing; None when it answers
        the open prompt (``answerable``: the seat may act now)."""
        if seq == self.open[seat].seq and answerable:
            return None
        if seq == self.answered[seat]:
            return Problem.ALREADY
        return Problem.EXPIRED

    def mark_answered(self, seat: int) -> None:
        """The seat's player answered its open prompt: a later click on it is a second one."""
        self.answered[seat] = self.open[seat].seq
