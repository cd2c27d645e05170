"""The table options of sichuan.md §6: names, defaults and validity."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules.base import RuleError
from engine.rules.sichuan.options import CalculatorOptions, SichuanOptions
from engine.rules.sichuan.ruleset import RULESET

# The spec's table (§6), after the preset this project adds in front of it (the column of
# defaults a table starts from; docs/rules/sichuan.md, "Presets").
DEFAULTS = {
    "preset": "exchange",
    "base_stake": 1,
    "rounds": 8,
    "max_fan": 4,
    "side_pay": False,
    "heaven_earth": False,
    "concealed_middle": False,
    "closed_five": False,
    "single_wait": False,
    "terminals_258": False,
    "exchange_three": True,
    "exchange_direction": "random",
    "all_pungs_two": False,
    "self_draw_bonus": "add_base",
    "kong_bloom_payer": "discarder",
    "kong_bloom": True,
    "kong_discard": True,
    "flower_pig": True,
}

VALID: dict[str, list[object]] = {
    "preset": ["exchange", "classic", "all_fans"],
    "base_stake": [1, 1000],
    "rounds": [1, 4, 8, 16],
    "max_fan": [3, 4, 5, 6],
    "exchange_direction": ["random", "counterclockwise", "clockwise", "opposite"],
    "self_draw_bonus": ["add_base", "add_fan"],
    "kong_bloom_payer": ["discarder", "all"],
}
INVALID: dict[str, list[object]] = {
    "preset": ["party", None, 1],
    "base_stake": [0, 1001, True, 1.5, "1"],
    "rounds": [2, 0, True, 8.0],
    "max_fan": [2, 7, True, "4"],
    "exchange_direction": ["left", None, 1],
    "self_draw_bonus": ["add", None],
    "kong_bloom_payer": ["self", None],
}
BOOLS = [name for name, value in DEFAULTS.items() if isinstance(value, bool)]


def test_names_and_defaults_are_the_spec_table() -> None:
    assert {o.name: o.default for o in SichuanOptions.rows()} == DEFAULTS
    assert {o.name: o.default for o in RULESET.option_table} == DEFAULTS
    assert RULESET.parse_options({}) == DEFAULTS
    assert SichuanOptions.parse({}).to_json() == DEFAULTS


def test_every_option_names_its_chinese_label() -> None:
    assert all(o.doc and not o.doc.isascii() for o in SichuanOptions.rows())


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, vs in VALID.items() for v in vs])
def test_valid_values(name: str, value: Any) -> None:
    assert getattr(SichuanOptions.parse({name: value}), name) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [(n, v) for n, vs in INVALID.items() for v in vs] + [(n, 1) for n in BOOLS],
)
def test_invalid_values(name: str, value: Any) -> None:
    with pytest.raises(RuleError, match=f"invalid value .* sichuan option '{name}'"):
        SichuanOptions.parse({name: value})


def test_unknown_option() -> None:
    with pytest.raises(RuleError, match="unknown sichuan option 'void_suit'"):
        SichuanOptions.parse({"void_suit": "m"})


def test_void_suit_is_a_calculator_entry_only() -> None:
    assert CalculatorOptions.parse({"void_suit": "s"}).void_suit == "s"
    assert CalculatorOptions.parse({}).to_json() == {**DEFAULTS, "void_suit": None}
    for bad in ("z", "ms", 0):
        with pytest.raises(RuleError):
            CalculatorOptions.parse({"void_suit": bad})


def test_typed_options() -> None:
    table = SichuanOptions(base_stake=3, max_fan=5)
    assert table.win_value(2) == 12
    assert table.win_value(9) == 3 * 2**5
    assert table.capped(9) == 5
    assert SichuanOptions().add_base
    assert not SichuanOptions(self_draw_bonus="add_fan").add_base


def test_the_exchange_preset_is_the_spec_defaults() -> None:
    assert SichuanOptions.parse({"preset": "exchange"}) == SichuanOptions.parse({})


@pytest.mark.parametrize(
    ("preset", "changed"),
    [
        ("classic", {"exchange_three": False}),
        (
            "all_fans",
            {
                "heaven_earth": True,
                "concealed_middle": True,
                "closed_five": True,
                "single_wait": True,
                "terminals_258": True,
            },
        ),
    ],
)
def test_a_preset_changes_only_its_column(preset: str, changed: dict[str, Any]) -> None:
    parsed = SichuanOptions.parse({"preset": preset}).to_json()
    differs = {k: v for k, v in parsed.items() if DEFAULTS[k] != v and k != "preset"}
    assert differs == changed


def test_a_table_value_overrides_its_preset() -> None:
    parsed = SichuanOptions.parse({"preset": "classic", "exchange_three": True})
    assert parsed.exchange_three is True
