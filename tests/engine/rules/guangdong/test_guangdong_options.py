"""The table options of guangdong.md §7: names, defaults, validity and effect.

``rounds`` is counted by the session (test_guangdong_session) and ``base_stake``,
``horses`` and ``big_hu_kinds`` are also checked in play (test_guangdong_ruleset).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules.base import RuleError
from engine.rules.guangdong.bighu import SEED_KIND_IDS
from engine.rules.guangdong.dealer import DealerCounters, fresh_counters, next_counters
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.settle import Win, WinHow, settle
from engine.tiles import parse_tiles
from tests.engine.rules.guangdong.guangdong_scripts import table


def test_names_and_defaults() -> None:
    assert {o.name: o.default for o in GuangdongOptions.rows()} == {
        "base_stake": 1,
        "rounds": 8,
        "horses": True,
        "max_horses": 4,
        "big_hu_kinds": list(SEED_KIND_IDS),
    }
    assert len(SEED_KIND_IDS) == 11
    defaults = table()
    assert (defaults.base_stake, defaults.rounds, defaults.horses, defaults.max_horses) == (
        1,
        8,
        True,
        4,
    )
    assert defaults.big_hu_kinds == SEED_KIND_IDS


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("base_stake", [1, 1000], [0, 1001, 2.0, True, "1"]),
        ("rounds", [1, 4, 8, 16], [0, 2, 12, "8"]),
        ("horses", [True, False], [1, "on", None]),
        ("max_horses", [1, 4], [0, 5, True]),
        ("big_hu_kinds", [[], ["half_flush"], list(SEED_KIND_IDS)], [["x"], "seven_pairs", None]),
    ],
)
def test_validity(name: str, good: list[Any], bad: list[Any]) -> None:
    for value in good:
        table(**{name: value})
    for value in bad:
        with pytest.raises(RuleError, match=f"invalid value .* option '{name}'"):
            table(**{name: value})


def test_unknown_option() -> None:
    with pytest.raises(RuleError, match="unknown guangdong option 'wildcard'"):
        table(wildcard=True)


def test_base_stake_multiplies_settlement() -> None:
    stake = table(base_stake=7).base_stake
    result = settle([Win(1, WinHow.SELF_DRAW, 2)], [], parse_tiles("1m"), stake)
    # A big self-draw is 4 units from each; the horse on the dealer doubles his line.
    assert result.nets() == [-56, 112, -28, -28]


def test_horses_off_means_no_horses_ever() -> None:
    options = table(horses=False)
    counters = fresh_counters(options)
    assert counters == DealerCounters(0, 1)
    after = next_counters([Win(0, WinHow.SELF_DRAW, 1)], counters, options)
    assert after == DealerCounters(0, 2)
    assert next_counters([], after, options) == DealerCounters(0, 1)


@pytest.mark.parametrize(("cap", "counts"), [(1, [1, 1, 1]), (2, [1, 2, 2]), (3, [1, 3, 3])])
def test_max_horses_caps_the_count(cap: int, counts: list[int]) -> None:
    options = table(max_horses=cap)
    counters = fresh_counters(options)
    seen = [counters.horse_count]
    for _ in range(2):
        counters = next_counters([Win(0, WinHow.SELF_DRAW, 1)], counters, options)
        seen.append(counters.horse_count)
    assert seen == counts


def test_big_hu_kinds_is_typed_as_a_tuple_kept_as_given() -> None:
    options = table(big_hu_kinds=["seven_pairs", "half_flush"])
    assert options.big_hu_kinds == ("seven_pairs", "half_flush")
    assert options.to_json()["big_hu_kinds"] == ["seven_pairs", "half_flush"]
