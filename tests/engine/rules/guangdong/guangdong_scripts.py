"""Round scripts for guangdong tests: hands, the draws that matter, the horses; the rest
of the wall is filled in. Actions are written ``"<seat> <action> [tile]"``, separated by
commas."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Discard
from engine.round import Round
from engine.rules.guangdong.options import GuangdongOptions
from engine.tiles import counts_of, format_tiles, kinds_of, parse_tiles, tile_str

Line = tuple[int, int, int, str]


def action(text: str) -> dict[str, Any]:
    seat, name, *rest = text.split()
    out: dict[str, Any] = {"seat": int(seat), "action": name}
    if rest:
        out["tile"] = rest[0]
    return out


def script(
    hands: Sequence[str],
    actions: str,
    *,
    draws: str = "",
    replacements: str = "",
    horses: str | None = None,
    options: Mapping[str, Any] | None = None,
    dealer: int = 0,
    horse_count: int | None = None,
    dealer_streak: int = 1,
) -> dict[str, Any]:
    """A round script whose wall is ``draws``, filler, the replacement draws (the first one
    last) and the horses. Without ``horses`` the last filler tiles are the horses."""
    options = dict(options or {})
    fixed = [parse_tiles(h) for h in hands]
    front, tail = parse_tiles(draws), parse_tiles(replacements)
    aside = parse_tiles(horses or "")
    left = [4 - n for n in counts_of([k for h in fixed for k in h] + front + tail + aside)]
    short = [tile_str(k) for k, n in enumerate(left) if n < 0]
    if short:
        raise ValueError(f"more than four of {short}")
    filler = kinds_of(left)
    if horse_count is None:
        horse_count = len(aside) if horses is not None else int(options.get("horses", True))
    if horses is None and horse_count:
        filler, aside = filler[:-horse_count], filler[-horse_count:]
    return {
        "variant": "guangdong",
        "options": options,
        "dealer": dealer,
        "dice": [3, 5],
        "hands": list(hands),
        "wall": format_tiles(front + filler + tail[::-1] + aside, sort=False),
        "horse_count": horse_count,
        "dealer_streak": dealer_streak,
        "actions": [action(a) for a in actions.split(",")],
    }


def play(raw: Mapping[str, Any]) -> Round:
    return Round.from_script(raw)


def play_out(rnd: Round) -> None:
    """Everyone discards the tile they draw (the dealer, who draws nothing at first, his
    highest tile) and passes every claim until the wall runs out."""
    while not rnd.ended:
        seat = rnd.to_act()[0]
        action = rnd.default_action(seat)
        if action is None:
            drawn = rnd.last_drawn(seat)
            if drawn is None:
                drawn = max(k for k, n in enumerate(rnd.concealed(seat)) if n)
            action = Discard(seat, drawn)
        rnd.apply(action)


def lines(result: Mapping[str, Any]) -> list[Line]:
    return [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in result["payments"]]


def events(rnd: Round, kind: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in rnd.events if e.type == kind]


def table(**raw: Any) -> GuangdongOptions:
    """A table's options from raw values, as the rule set parses them."""
    return GuangdongOptions.parse(raw)
