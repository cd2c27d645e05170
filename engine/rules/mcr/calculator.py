"""The MCR calculator (Contract 1) and the scoring entry point of the round engine.

``CALCULATOR`` is what ``python -m engine.score`` loads for ``"variant": "mcr"``.
``score_win`` is the one scoring function behind it: the calculator calls it with the
facts of a line, the round engine with the course-of-hand fans it alone knows (天和, 地和,
天听, 报听, §2.4) and the 天降财神 value (§4.5.4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.rules.base import FanLine, RuleError, ScoreResult, WinFacts, plain_waits
from engine.rules.mcr.fans import (
    EXTRA_FANS,
    GOD_OF_WEALTH,
    INDEX,
    NO_WILDCARD,
    RESOLVED,
    line,
    sorted_lines,
)
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.scorer import MCR_SHAPES, Reading, Win, best_reading, corrected_win
from engine.rules.mcr.wildcard import substitutions, wild_waits
from engine.tiles import HandSpec, counts_of

_EXTRA_IDS = frozenset(f.id for f in EXTRA_FANS)
_HEAVENLY_HAND = INDEX["heavenly_hand"]
# One FanLine per fan for the common count of one; built once.
_SINGLE_LINES: tuple[FanLine, ...] = tuple(line(f) for f in RESOLVED)


@dataclass(frozen=True, slots=True)
class _Outcome:
    reading: Reading
    bonus: int  # the 无宝 bonus, when the natural reading holds a wild-kind tile
    substitution: dict[str, int] | None  # None without wildcards

    @property
    def total(self) -> int:
        return self.reading.total + self.bonus


def score_win(
    facts: WinFacts,
    options: McrOptions,
    *,
    extra_fans: Iterable[str] = (),
    wealth_fan: int = 0,
    tile_chosen: bool = False,
) -> ScoreResult:
    """Score a complete MCR hand; RuleError when it does not win.

    ``extra_fans`` are ids of §2.4 (``heavenly_hand``, ``earthly_hand``, ``heavenly_ready``,
    ``declared_ready``) the course of the hand earned; they count only when the table
    option ``extra_fans`` is on, take part in every reading with their exclusions and count
    toward ``min_fan``. With ``heavenly_hand`` the 14 tiles (``hand`` plus ``win_tile``) are
    scored with each kind among them as a self-drawn winning tile and the highest total
    kept (ties: first in tile order); a ``substitution`` then indexes the concealed tiles
    left after taking out the last copy of the chosen winning tile. The round engine,
    which chooses a heavenly hand's winning tile itself by that same rule, passes
    ``tile_chosen`` to score ``win_tile`` as given.
    ``wealth_fan`` (天降财神) is added last and never helps ``meets_minimum``.
    """
    earned = frozenset(extra_fans)
    unknown = sorted(earned - _EXTRA_IDS)
    if unknown:
        raise ValueError(f"unknown extra fan {unknown[0]!r}")
    extras = frozenset(INDEX[f] for f in earned) if options.extra_fans else frozenset()
    min_fan = options.min_fan
    bonus = options.wild_bonus_fan
    if _HEAVENLY_HAND in extras and not tile_chosen:
        outcome = _heavenly_hand(facts, extras, min_fan, bonus)
    else:
        outcome = _score(facts, extras, min_fan, bonus)
    return _result(outcome, min_fan, wealth_fan)


def _score(facts: WinFacts, extras: frozenset[int], min_fan: int, bonus: int) -> _Outcome:
    """Natural reading first; substitutions only when it does not win (§4.3)."""
    hand = facts.hand
    concealed = tuple(counts_of(hand.concealed))
    natural = best_reading(_win(facts, concealed, facts.win_tile, facts.fourth_tile), extras)
    wild = facts.wildcard
    if wild is None:
        if natural is None:
            raise RuleError("the hand does not win: it forms no winning shape")
        return _Outcome(natural, 0, None)
    holds_wild = facts.win_tile == wild or wild in hand.all_tiles()
    natural_outcome = None
    if natural is not None:
        natural_outcome = _Outcome(natural, bonus if holds_wild else 0, {})
        if natural_outcome.total >= min_fan:
            return natural_outcome
    best = _best_substitution(facts, wild, extras, min_fan)
    if best is not None and best.total >= min_fan:
        return best
    # Nothing reaches the minimum: the best reading stands, natural on ties.
    if natural_outcome is not None and (best is None or natural_outcome.total >= best.total):
        return natural_outcome
    if best is None:
        raise RuleError("the hand does not win, whatever the wildcards stand for")
    return best


def _best_substitution(
    facts: WinFacts, wild: int, extras: frozenset[int], min_fan: int
) -> _Outcome | None:
    """The substitution with the highest total among those reaching ``min_fan`` (else among
    all); ties to the one whose substituted tiles come first in tile order."""
    best: tuple[tuple[bool, int], tuple[int, ...], _Outcome] | None = None
    for sub in substitutions(facts.hand, facts.win_tile, wild, facts.self_drawn):
        fourth = facts.fourth_tile and sub.win_tile == facts.win_tile
        reading = best_reading(_win(facts, sub.concealed, sub.win_tile, fourth), extras)
        if reading is None:
            continue
        rank = (reading.total >= min_fan, reading.total)
        if best is None or rank > best[0] or (rank == best[0] and sub.stood_for < best[1]):
            best = (rank, sub.stood_for, _Outcome(reading, 0, sub.mapping))
    return None if best is None else best[2]


def _win(facts: WinFacts, concealed: tuple[int, ...], win_tile: int, fourth: bool) -> Win:
    """The facts' win with these concealed tiles (counts) and winning tile."""
    return corrected_win(
        concealed,
        facts.hand.melds,
        win_tile,
        self_drawn=facts.self_drawn,
        fourth_tile=fourth,
        kong_related=facts.kong_related,
        last_tile=facts.last_tile,
        seat_wind=facts.seat_wind,
        round_wind=facts.round_wind,
    )


def _heavenly_hand(facts: WinFacts, extras: frozenset[int], min_fan: int, bonus: int) -> _Outcome:
    tiles = [*facts.hand.concealed, facts.win_tile]
    best: _Outcome | None = None
    for kind in sorted(set(tiles)):
        rest = list(tiles)
        del rest[len(rest) - 1 - rest[::-1].index(kind)]
        trial = replace(
            facts, hand=HandSpec(tuple(rest), facts.hand.melds), win_tile=kind, self_drawn=True
        )
        try:
            outcome = _score(trial, extras, min_fan, bonus)
        except RuleError:
            continue
        if best is None or outcome.total > best.total:
            best = outcome
    if best is None:
        raise RuleError("the hand does not win: it forms no winning shape")
    return best


def _result(outcome: _Outcome, min_fan: int, wealth_fan: int) -> ScoreResult:
    lines = [
        _SINGLE_LINES[index] if count == 1 else line(RESOLVED[index], count)
        for index, count in outcome.reading.fans
    ]
    total = outcome.total
    meets = total >= min_fan
    if outcome.bonus or wealth_fan:
        if outcome.bonus:
            lines.append(line(NO_WILDCARD, 1, outcome.bonus))
        if wealth_fan:
            lines.append(line(GOD_OF_WEALTH, 1, wealth_fan))
            total += wealth_fan
        lines = list(sorted_lines(lines))
    return ScoreResult(total, tuple(lines), meets, outcome.substitution)


class McrCalculator:
    """Contract 1 for 国标: scores, and waits over every MCR shape."""

    variant = "mcr"
    options_type = McrOptions
    options = McrOptions.rows()
    allows_wildcard = True

    def check_hand(self, hand: HandSpec, options: McrOptions) -> None:
        """MCR uses every tile kind and every kind of meld: nothing to refuse."""

    def score(self, facts: WinFacts, options: McrOptions) -> ScoreResult:
        return score_win(facts, options)

    def waits(
        self, hand: HandSpec, wildcard: int | None, options: McrOptions
    ) -> tuple[int, list[int]]:
        if wildcard is None:
            return plain_waits(hand, MCR_SHAPES)
        return wild_waits(hand, wildcard)


CALCULATOR = McrCalculator()
