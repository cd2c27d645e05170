"""Round scripts for the MCR play tests: the hands, the draws that matter, the horse row
and the 宝牌 indicator; the rest of the wall is filled in kind order.

Actions are written ``"<seat> <action> [arguments]"`` and separated by commas:
``discard 5m``, ``ready 5m`` (discard and declare ready), ``chow 345m``, ``pong``,
``kong 5m``, ``win``, ``pass``, ``bet <factor> [<position>.<position>]``, ``peek <seat>``,
``swap <tiles>`` (``swap -`` for none) and ``last <position>``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, Discard, Pass
from engine.round import Phase, Round
from engine.rules.mcr.options import McrOptions
from engine.tiles import counts_of, format_tiles, kinds_of, parse_tiles, tile_str

Line = tuple[int, int, int, str]

_TILE_ARGUMENT = {"discard": "tile", "kong": "tile", "chow": "tiles"}


def action(text: str) -> dict[str, Any]:
    seat, name, *rest = text.split()
    out: dict[str, Any] = {"seat": int(seat)}
    if name == "ready":
        return {**out, "action": "discard", "tile": rest[0], "declare_ready": True}
    out["action"] = {"last": "last_chance"}.get(name, name)
    if name in _TILE_ARGUMENT:
        out[_TILE_ARGUMENT[name]] = rest[0]
    elif name == "bet":
        picks = rest[1].split(".") if len(rest) > 1 else []
        out.update(factor=int(rest[0]), horses=[int(p) for p in picks])
    elif name == "peek":
        out["target"] = int(rest[0])
    elif name == "swap":
        out["tiles"] = "" if rest[0] == "-" else rest[0]
    elif name == "last":
        out["position"] = int(rest[0])
    return out


def actions(text: str) -> list[dict[str, Any]]:
    return [action(part.strip()) for part in text.split(",") if part.strip()]


def bets(factors: Sequence[int] = (1, 1, 1, 1), horses: Mapping[int, str] | None = None) -> str:
    """The four bets of a hand, e.g. ``bets((4, 2, 1, 2), {0: "1.4"})``."""
    picks = horses or {}
    return ", ".join(
        f"{seat} bet {factor} {picks.get(seat, '')}".strip() for seat, factor in enumerate(factors)
    )


def script(
    hands: Sequence[str],
    moves: str,
    *,
    draws: str = "",
    replacements: str = "",
    horses: str | None = None,
    indicator: str | None = None,
    options: Mapping[str, Any] | None = None,
    dice: tuple[int, int] = (3, 5),
    dealer: int = 0,
    **fields: Any,
) -> dict[str, Any]:
    """A round script whose wall is ``draws``, filler, the replacement draws (the first one
    last), the indicator and the horse row. Where the table has horses or a wildcard and
    they are not given, the last filler tiles take their place."""
    options = dict(options or {})
    table = McrOptions.parse(options)
    dealt = [parse_tiles(h) for h in hands]
    front, tail = parse_tiles(draws), parse_tiles(replacements)
    row, shown = parse_tiles(horses or ""), parse_tiles(indicator or "")
    left = [4 - n for n in counts_of([k for h in dealt for k in h] + front + tail + row + shown)]
    short = [tile_str(k) for k, n in enumerate(left) if n < 0]
    if short:
        raise ValueError(f"more than four of {short}")
    filler = kinds_of(left)
    if table.horses and horses is None:
        filler, row = filler[:-6], filler[-6:]
    if table.wildcard and indicator is None:
        filler, shown = filler[:-1], filler[-1:]
    return {
        "variant": "mcr",
        "options": options,
        "dealer": dealer,
        "dice": list(dice),
        "hands": list(hands),
        "wall": format_tiles(front + filler + tail[::-1] + shown + row, sort=False),
        **fields,
        "actions": actions(moves),
    }


def play(raw: Mapping[str, Any]) -> Round:
    return Round.from_script(raw)


def lines(result: Mapping[str, Any]) -> list[Line]:
    return [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in result["payments"]]


def fans(result: Mapping[str, Any], index: int = 0) -> list[tuple[str, int]]:
    return [(f["id"], f["fan"] * f["count"]) for f in result["winners"][index]["fans"]]


def events(rnd: Round, kind: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in rnd.events if e.type == kind]


def notices(rnd: Round, name: str) -> list[dict[str, Any]]:
    return [e for e in events(rnd, "notice") if e["name"] == name]


def discard_drawn_once(rnd: Round) -> None:
    """Everyone passes the open window, or the turn seat discards what it drew (the
    dealer, who draws nothing at first, his highest tile)."""
    if rnd.phase is Phase.CLAIM:
        for seat in rnd.to_act():
            rnd.apply(Pass(seat))
        return
    seat = rnd.to_act()[0]
    drawn = rnd.view(seat).seats[seat].drawn
    if drawn is None:
        drawn = max(k for k, n in enumerate(rnd.concealed(seat)) if n)
    rnd.apply(Discard(seat, drawn))


def discard_drawn_to_end(rnd: Round) -> None:
    """Nobody claims and every seat discards what it drew until play is over."""
    while rnd.phase in (Phase.TURN, Phase.CLAIM):
        discard_drawn_once(rnd)


def advance(rnd: Round, moves: str) -> None:
    """Apply more actions written as in a script; each closes the open window first."""
    for raw in actions(moves):
        rnd.apply(Action.from_json(raw), close_windows=True)


def pass_all(rnd: Round) -> None:
    """Every seat still to answer the open window, if any, passes."""
    if rnd.phase not in (Phase.CLAIM, Phase.ROB):
        return
    for seat in rnd.to_act():
        rnd.apply(Pass(seat))
