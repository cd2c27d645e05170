"""The party rules' set-up choices (mcr.md §4.1, §5): the bets and swaps a player may
make, and the extra fields of a round script."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from engine.actions import Bet, Swap
from engine.errors import Refusal
from engine.rules.base import RuleError
from engine.rules.mcr.modes import ROUND_WINDS, WEALTH_VALUES
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.peak import FALLBACK, TEMPLATES
from engine.rules.mcr.settle import HORSE_ROW, MAX_HORSES
from engine.tiles import kinds_of, parse_tiles, tile_str

SEATS = 4

# Round-script fields (§4.1): a session field, then chance values.
ROUND_WIND = "round_wind"
WEALTH_FAN = "wealth_fan"
LAST_CHANCE_TILES = "last_chance_tiles"
PEAK_TEMPLATES = "peak_templates"
SCRIPT_FIELDS = (ROUND_WIND, WEALTH_FAN, LAST_CHANCE_TILES, PEAK_TEMPLATES)


def horse_picks(options: McrOptions) -> list[tuple[int, ...]]:
    """Every purchase of horses a player may make: 0 to 2 different positions."""
    if not options.horses:
        return [()]
    positions = range(1, HORSE_ROW + 1)
    return [c for n in range(MAX_HORSES + 1) for c in combinations(positions, n)]


def swap_choices(held: Sequence[int], most: int) -> list[tuple[int, ...]]:
    """Every distinct set of at most ``most`` tiles of the concealed counts ``held``."""
    tiles = kinds_of(held)
    return sorted({c for n in range(most + 1) for c in combinations(tiles, n)})


def bet_refusal(options: McrOptions, bet: Bet) -> Refusal | None:
    seat = bet.seat
    if bet.factor not in options.factors(seat):
        allowed = ", ".join(f"×{f}" for f in options.factors(seat))
        return Refusal("invalid_factor", f"seat {seat} may choose {allowed}, not ×{bet.factor}")
    picks = bet.horses
    if not options.horses and picks:
        return Refusal("horses_off", "horses are off at this table")
    if (
        len(picks) > MAX_HORSES
        or len(set(picks)) != len(picks)
        or any(not 1 <= p <= HORSE_ROW for p in picks)
    ):
        return Refusal(
            "invalid_horses",
            f"seat {seat} may buy up to {MAX_HORSES} different horses, positions 1-{HORSE_ROW}",
        )
    return None


def swap_refusal(options: McrOptions, held: Sequence[int], swap: Swap) -> Refusal | None:
    if len(swap.tiles) > options.swap_max:
        return Refusal(
            "too_many_tiles", f"seat {swap.seat} may swap at most {options.swap_max} tiles"
        )
    left = list(held)
    for k in swap.tiles:
        if left[k] <= 0:
            return Refusal("tile_not_held", f"seat {swap.seat} does not hold {tile_str(k)}")
        left[k] -= 1
    return None


def _check_round_wind(value: Any) -> None:
    if not (isinstance(value, str) and len(value) == 1 and value in ROUND_WINDS):
        raise RuleError(f"'{ROUND_WIND}' must be one of E, S, W, N, not {value!r}")


def _check_wealth_fan(value: Any) -> None:
    if value not in WEALTH_VALUES or isinstance(value, bool):
        values = ", ".join(map(str, WEALTH_VALUES))
        raise RuleError(f"'{WEALTH_FAN}' must be one of {values}, not {value!r}")


def _check_last_chance_tiles(value: Any) -> None:
    message = f"'{LAST_CHANCE_TILES}' must list four entries, each null or four tiles"
    if not isinstance(value, list) or len(value) != SEATS:
        raise RuleError(message)
    for entry in value:
        if entry is None:
            continue
        if not isinstance(entry, str):
            raise RuleError(message)
        try:
            tiles = parse_tiles(entry)
        except ValueError as exc:
            raise RuleError(f"'{LAST_CHANCE_TILES}': {exc}") from None
        if len(tiles) != 4:
            raise RuleError(message)


def _check_peak_templates(value: Any) -> None:
    names = {*TEMPLATES, FALLBACK}
    if (
        not isinstance(value, list)
        or len(value) not in (0, SEATS)
        or not all(isinstance(v, str) and v in names for v in value)
    ):
        raise RuleError(
            f"'{PEAK_TEMPLATES}' must list each seat's template name, such as 'full_flush'"
        )


_FIELD_CHECKS = {
    ROUND_WIND: _check_round_wind,
    WEALTH_FAN: _check_wealth_fan,
    LAST_CHANCE_TILES: _check_last_chance_tiles,
    PEAK_TEMPLATES: _check_peak_templates,
}


def check_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The script's fields, checked; a script without ``round_wind`` is a hand of the
    first wind, one without ``peak_templates`` (a 6-6 hand written by hand) names none."""
    for name, value in raw.items():
        _FIELD_CHECKS[name](value)
    return {ROUND_WIND: ROUND_WINDS[0], PEAK_TEMPLATES: [], **raw}
