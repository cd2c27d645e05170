"""The table options of 广东推倒胡 (guangdong.md §7), named as in the spec."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.rules.base import Option, int_in, is_bool, one_of
from engine.rules.guangdong.bighu import ALL_KIND_IDS, SEED_KIND_IDS

VARIANT = "guangdong"


def _is_kind_list(value: Any) -> bool:
    """A list of distinct big-hu ids; an empty list makes every win small."""
    if not isinstance(value, list | tuple):
        return False
    return all(isinstance(v, str) and v in ALL_KIND_IDS for v in value) and len(set(value)) == len(
        value
    )


OPTIONS: tuple[Option, ...] = (
    Option(
        "base_stake",
        1,
        int_in(1, 1000),
        "points per unit; every amount of settlement is multiplied by it",
    ),
    Option(
        "rounds",
        8,
        one_of(1, 4, 8, 16),
        "hands in a session, draws and continuations included",
    ),
    Option("horses", True, is_bool, "whether the dealer buys horses (买马)"),
    Option("max_horses", 4, int_in(1, 4), "the most horses a dealer buys"),
    Option(
        "big_hu_kinds",
        SEED_KIND_IDS,
        _is_kind_list,
        "which kinds make a big hu; the seed's eleven, and half_flush on request",
    ),
)


@dataclass(frozen=True, slots=True)
class GuangdongOptions:
    """The options of one table, typed; built from :func:`parse_options`'s result."""

    base_stake: int
    rounds: int
    horses: bool
    max_horses: int
    big_hu_kinds: frozenset[str]

    @classmethod
    def from_parsed(cls, parsed: Mapping[str, Any]) -> GuangdongOptions:
        return cls(
            base_stake=parsed["base_stake"],
            rounds=parsed["rounds"],
            horses=parsed["horses"],
            max_horses=parsed["max_horses"],
            big_hu_kinds=frozenset(parsed["big_hu_kinds"]),
        )
