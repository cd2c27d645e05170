"""What a seat is asked now, as controls: pure data a front end turns into its widgets.

:meth:`engine.round.Round.controls` describes every question the engine puts to a seat:
its turn, a claim or rob window, or a rule set's set-up prompt (rule sets describe their
own prompts with :meth:`engine.rules.play.RuleSet.prompt_controls`). Every action the
controls reach is legal, and every legal action is reachable: directly as a
:class:`Choice` of a :class:`PickOne`, through :meth:`PickTiles.answer`, or through
:meth:`PickNumbers.with_numbers` applied to a choice of the prompt's :class:`PickOne`.

>>> pick = PickTiles("exchange", "exchange", (0, 0, 1, 4), least=3, most=3, suit=0)
>>> pick.answer(2, [0, 1, 3])
Exchange(seat=2, tiles=(0, 0, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.actions import ACTION_TYPES, Action, Chow, Discard, Kong


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer a seat can give in one tap, and what it is about (for its label): at
    most one of ``tile`` / ``tiles`` / ``suit`` / ``seat`` / ``number`` is set."""

    action: Action
    tile: int | None = None  # a discard, a kong
    tiles: tuple[int, ...] = ()  # a chow's three tiles
    suit: int | None = None  # 定缺 (0 万 m, 1 筒 p, 2 条 s)
    seat: int | None = None  # 火眼金睛's target (a seat of the hand)
    number: int | None = None  # a bet's factor, a 妙手回春 position


@dataclass(frozen=True, slots=True)
class PickOne:
    """Choose one of ``choices``. ``key`` names it for the front end's words: the phase
    ("turn", "claim", "rob") or the prompt id ("void", "bet", "peek", "swap", ...).
    ``suggested``: the index in ``choices`` of the rule set's suggestion, or None."""

    key: str
    choices: tuple[Choice, ...]
    suggested: int | None = None


def _distinct_positions(indices: Sequence[int], size: int, what: str) -> tuple[int, ...]:
    """``indices`` sorted, after checking each names one of ``size`` places, once."""
    for i in indices:
        if not 0 <= i < size:
            raise ValueError(f"{what} {i} is out of range 0-{size - 1}")
    if len(set(indices)) != len(indices):
        raise ValueError(f"{what}s must not repeat: {list(indices)}")
    return tuple(sorted(indices))


def _check_count(count: int, least: int, most: int) -> None:
    if not least <= count <= most:
        wanted = str(least) if least == most else f"{least} to {most}"
        raise ValueError(f"choose {wanted}, not {count}")


@dataclass(frozen=True, slots=True)
class PickTiles:
    """Choose between ``least`` and ``most`` of ``tiles`` (kinds, sorted, with
    multiplicity: the seat's candidate tiles). The answer is the action named ``action``,
    with the chosen tiles as its ``tiles`` argument. ``suit``: the suit all the tiles are
    of, when the control is one per suit (换三张). ``suggested``: positions in ``tiles``
    of the rule set's suggestion, or ()."""

    key: str
    action: str
    tiles: tuple[int, ...]
    least: int
    most: int
    suit: int | None = None
    suggested: tuple[int, ...] = ()

    def answer(self, seat: int, indices: Sequence[int]) -> Action:
        """The action choosing the tiles at ``indices`` (positions in ``tiles``); a
        ValueError for a position out of range, repeated, or a wrong count."""
        _check_count(len(indices), self.least, self.most)
        chosen = _distinct_positions(indices, len(self.tiles), "tile position")
        arguments: dict[str, Any] = {"tiles": tuple(self.tiles[i] for i in chosen)}
        return ACTION_TYPES[self.action](seat, **arguments)


@dataclass(frozen=True, slots=True)
class PickNumbers:
    """A part of an answer chosen before it: between ``least`` and ``most`` of
    ``numbers``, which fill the argument ``field`` of the action the seat then picks in
    the prompt's :class:`PickOne` (MCR 万马奔腾: the horse positions bought, then a
    doubling factor)."""

    key: str
    field: str
    numbers: tuple[int, ...]
    least: int
    most: int

    def with_numbers(self, action: Action, numbers: Sequence[int]) -> Action:
        """``action`` with its ``field`` set to ``numbers`` (sorted); a ValueError for a
        number not offered, repeated, a wrong count, or an action without ``field``."""
        _check_count(len(numbers), self.least, self.most)
        for n in numbers:
            if n not in self.numbers:
                raise ValueError(f"{n} is not one of {list(self.numbers)}")
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"numbers must not repeat: {list(numbers)}")
        if self.field not in {f.name for f in fields(action)}:
            raise ValueError(f"'{action.name}' has no argument '{self.field}'")
        arguments: dict[str, Any] = {self.field: tuple(sorted(numbers))}
        return replace(action, **arguments)


Control = PickOne | PickTiles | PickNumbers


@dataclass(frozen=True, slots=True)
class Controls:
    """Everything a seat is asked now. ``kind``: "turn", "claim", "rob", or the prompt's
    id; ``controls`` in display order."""

    kind: str
    controls: tuple[Control, ...]


def choice_of(action: Action) -> Choice:
    """A play action as a choice, with the tile or tiles its label names."""
    if isinstance(action, Discard | Kong):
        return Choice(action, tile=action.tile)
    if isinstance(action, Chow):
        return Choice(action, tiles=action.tiles)
    return Choice(action)


def positions_of(chosen: Sequence[int], tiles: Sequence[int]) -> tuple[int, ...]:
    """The positions in ``tiles`` of the kinds ``chosen``, each copy at the first place
    not yet taken (a suggestion as :attr:`PickTiles.suggested`).

    >>> positions_of([4, 0], [0, 0, 1, 4])
    (0, 3)
    """
    taken: set[int] = set()
    for kind in chosen:
        taken.add(next(i for i, k in enumerate(tiles) if k == kind and i not in taken))
    return tuple(sorted(taken))


def pick_actions(key: str, actions: Sequence[Action]) -> PickOne:
    """One choice per action, in the order given, with no suggestion."""
    return PickOne(key, tuple(choice_of(a) for a in actions))
