"""MCR table options (spec ``mcr.md`` §5).

``OPTIONS`` carries the party column as defaults, which is what the calculator and the
bot's default table use. ``preset = "official"`` switches every other default to the
official column; ``resolve_options`` applies the preset before the explicit overrides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.base import Option, RuleError, int_in, is_bool, one_of, parse_options

VARIANT = "mcr"
DICE_MODES = ("peek", "last_chance", "swap", "wealth", "peak")


def _dice_modes(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and all(isinstance(m, str) and m in DICE_MODES for m in value)
        and len(set(value)) == len(value)
    )


OPTIONS: tuple[Option, ...] = (
    Option("preset", "party", one_of("party", "official"), "which column of defaults applies"),
    Option("rounds", 4, one_of(1, 4, 8, 16), "hands in the session; sets the prevalent wind"),
    Option("min_fan", 8, int_in(0, 88), "fan total a win must reach (起和番)"),
    Option("base_points", 8, int_in(0, 100), "B in the settlement formula B + F"),
    Option("extra_fans", True, is_bool, "天和, 地和, 天听, 报听 and the declare-ready button"),
    Option("doubling", True, is_bool, "底分押倍"),
    Option("wildcard", True, is_bool, "宝牌"),
    Option("wild_bonus_fan", 8, int_in(0, 88), "the 无宝 bonus; 0 disables it"),
    Option("horses", True, is_bool, "万马奔腾"),
    Option("dice_modes", DICE_MODES, _dice_modes, "dice modes that may trigger"),
    Option("swap_max", 5, int_in(0, 13), "most tiles one player may swap in 偷天换日"),
    Option("peak_noise", 3, int_in(0, 6), "random tiles mixed into each 巅峰时刻 hand"),
)

# The official column where it differs from the party one.
OFFICIAL_DEFAULTS: Mapping[str, Any] = {
    "rounds": 16,
    "extra_fans": False,
    "doubling": False,
    "wildcard": False,
    "horses": False,
    "dice_modes": (),
}


def resolve_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option: the preset's column overlaid with ``raw``; RuleError when invalid."""
    options = parse_options(OPTIONS, raw, VARIANT)
    if options["preset"] == "official":
        for name, value in OFFICIAL_DEFAULTS.items():
            if name not in raw:
                options[name] = value
    return options


def option(options: Mapping[str, Any], name: str) -> Any:
    """One option's value, its default when absent."""
    if name in options:
        return options[name]
    for opt in OPTIONS:
        if opt.name == name:
            return opt.default
    raise RuleError(f"unknown {VARIANT} option '{name}'")
