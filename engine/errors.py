"""Errors of the round engine: refused actions and invalid round scripts.

Both are ``ValueError`` subclasses. An :class:`IllegalActionError` carries a stable
``reason`` code (for tests, logs and i18n keys) and a message a player understands; the
replay fills in the action's index in the script.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not legal: a stable snake_case code and a one-sentence message."""

    reason: str
    message: str


class IllegalActionError(ValueError):
    """An action the engine refuses; the state is unchanged."""

    def __init__(self, refusal: Refusal, seat: int | None, index: int | None = None) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.reason = refusal.reason
        self.message = refusal.message
        self.seat = seat
        self.index = index

    def at(self, index: int) -> IllegalActionError:
        """The same refusal, naming the action's position in a script."""
        return IllegalActionError(self.refusal, self.seat, index)


class ScriptError(ValueError):
    """A round script that is not valid: malformed JSON shape, wrong tiles, unknown names."""
