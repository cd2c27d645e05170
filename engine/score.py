"""The calculator (Contract 1): ``python -m engine.score``, one JSON object per line.

Reads requests on standard input and answers each on standard output, in order, flushing
after every line. The same ``handle`` serves the bot's /fan command.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from engine.rules.base import Calculator, RuleError, TableOptions, WinFacts
from engine.rules.registry import find_calculator
from engine.tiles import HandSpec, NotationError, counts_of, parse_hand, parse_tile, tile_str

FIELDS = frozenset(
    {
        "variant",
        "hand",
        "win_tile",
        "self_drawn",
        "seat_wind",
        "round_wind",
        "fourth_tile",
        "kong_related",
        "last_tile",
        "wildcard",
        "options",
        "query",
    }
)
FLAGS = ("self_drawn", "fourth_tile", "kong_related", "last_tile")
WINDS = "ESWN"


def _wind(request: Mapping[str, Any], name: str) -> int:
    value = request.get(name, "E")
    if value not in tuple(WINDS):
        raise RuleError(f"'{name}' must be one of E, S, W, N, not {value!r}")
    return WINDS.index(value)


def _tile_count(hand: HandSpec, extra: int) -> int:
    return len(hand.concealed) + 3 * len(hand.melds) + extra


def _check_copies(hand: HandSpec, extra: list[int]) -> None:
    counts = counts_of(hand.all_tiles() + extra)
    for kind, n in enumerate(counts):
        if n > 4:
            raise RuleError(f"the hand holds {n} copies of {tile_str(kind)}; there are only four")


def _parse_common(
    request: Mapping[str, Any],
) -> tuple[Calculator[Any], HandSpec, TableOptions]:
    unknown = sorted(set(request) - FIELDS)
    if unknown:
        raise RuleError(f"unknown field '{unknown[0]}'")
    if "variant" not in request:
        raise RuleError("missing field 'variant'")
    calculator = find_calculator(request["variant"])
    raw_options = request.get("options", {})
    if not isinstance(raw_options, dict):
        raise RuleError("'options' must be an object")
    options = calculator.options_type.parse(raw_options)
    text = request.get("hand")
    if not isinstance(text, str) or not text:
        raise RuleError("missing field 'hand' (a hand in tile notation, e.g. '123m456p')")
    hand = parse_hand(text)
    calculator.check_hand(hand, options)
    return calculator, hand, options


def _wildcard(request: Mapping[str, Any], calculator: Calculator[Any]) -> int | None:
    value = request.get("wildcard")
    if value is None:
        return None
    if not calculator.allows_wildcard:
        raise RuleError(f"wildcards are not used in {calculator.variant}")
    if not isinstance(value, str):
        raise RuleError("'wildcard' must be a tile such as '5m', or null")
    return parse_tile(value)


def _score(request: Mapping[str, Any]) -> dict[str, Any]:
    calculator, hand, options = _parse_common(request)
    for flag in FLAGS:
        if not isinstance(request.get(flag, False), bool):
            raise RuleError(f"'{flag}' must be true or false")
    if not isinstance(request.get("win_tile"), str):
        raise RuleError("missing field 'win_tile' (the winning tile, e.g. '5m')")
    win_tile = parse_tile(request["win_tile"])
    count = _tile_count(hand, 1)
    if count != 14:
        raise RuleError(
            f"the hand and winning tile make {count} tiles; a win needs 14 (a kong counts as 3)"
        )
    _check_copies(hand, [win_tile])
    facts = WinFacts(
        hand=hand,
        win_tile=win_tile,
        self_drawn=request.get("self_drawn", False),
        seat_wind=_wind(request, "seat_wind"),
        round_wind=_wind(request, "round_wind"),
        fourth_tile=request.get("fourth_tile", False),
        kong_related=request.get("kong_related", False),
        last_tile=request.get("last_tile", False),
        wildcard=_wildcard(request, calculator),
    )
    return calculator.score(facts, options).to_json()


def _waits(request: Mapping[str, Any]) -> dict[str, Any]:
    calculator, hand, options = _parse_common(request)
    if "win_tile" in request:
        raise RuleError("a waits query takes no 'win_tile'")
    count = _tile_count(hand, 0)
    if count != 13:
        raise RuleError(f"the hand has {count} tiles; a waits query needs 13 (a kong counts as 3)")
    _check_copies(hand, [])
    sh, found = calculator.waits(hand, _wildcard(request, calculator), options)
    return {"ok": True, "shanten": sh, "waits": [tile_str(k) for k in found]}


def handle(request: Any) -> dict[str, Any]:
    """Answer one calculator request (already decoded from JSON)."""
    try:
        if not isinstance(request, dict):
            raise RuleError("each line must be a JSON object")
        query = request.get("query")
        if query is None:
            return _score(request)
        if query == "waits":
            return _waits(request)
        raise RuleError(f"unknown query {query!r}; the only query is 'waits'")
    except (RuleError, NotationError) as exc:
        return {"ok": False, "error": str(exc)}


def handle_line(line: str) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": f"invalid JSON: {exc.msg} at column {exc.colno}"}
    return handle(request)


def main(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    for line in stdin:
        if not line.strip():
            continue
        try:
            answer = handle_line(line)
        except Exception as exc:  # the process answers every line, whatever happens
            answer = {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
