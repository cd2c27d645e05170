"""JSON descriptions of the views, for the command line and for tests.

Tiles are written in the project's notation (``"5m"``, ``"19m5z"``), melds as hand
notation (``"[123m]{5555p}"``) or as objects adding who they were claimed from
(``{"meld": "[555p]", "from_seat": 2}``), the void suit as ``"m"``, ``"p"`` or ``"s"``.
Every other key is the model field of the same name; an unknown key or a bad value raises
ViewError naming where it is.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, TypeVar

from engine.tiles import SUITS, Meld, NotationError, parse_hand, parse_tile, parse_tiles
from renderer.models import (
    FanLine,
    HandView,
    HorseView,
    Labels,
    PaymentLine,
    SeatView,
    SettlementView,
    TableView,
    WinnerView,
)

T = TypeVar("T")


class ViewError(ValueError):
    """A JSON view that does not describe a picture; the message names the field."""


def load(path: str | Path) -> Any:
    """Parse a JSON file, reporting a syntax error with its file name."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ViewError(f"{path}: not valid JSON ({exc})") from exc


def _object(
    data: Any, where: str, allowed: Collection[str], required: Collection[str] = ()
) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ViewError(f"{where}: expected an object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ViewError(f"{where}: unknown key {unknown[0]!r}")
    missing = sorted(set(required) - set(data))
    if missing:
        raise ViewError(f"{where}: missing key {missing[0]!r}")
    return data


def _typed(value: Any, kind: type[T], where: str) -> T:
    # bool is an int in Python, but never a valid seat, score or count here.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ViewError(f"{where}: expected {kind.__name__}, got {value!r}")
    return value


def _int(value: Any, where: str) -> int:
    return _typed(value, int, where)


def _optional(value: Any, parse: Callable[[Any, str], T], where: str) -> T | None:
    return None if value is None else parse(value, where)


def _seat(value: Any, where: str) -> int:
    seat = _typed(value, int, where)
    if not 0 <= seat <= 3:
        raise ViewError(f"{where}: seat {seat} is not 0..3")
    return seat


def _wind(value: Any, where: str) -> int:
    wind = _typed(value, int, where)
    if not 0 <= wind <= 3:
        raise ViewError(f"{where}: wind {wind} is not 0..3 (东 南 西 北)")
    return wind


def _tile(value: Any, where: str) -> int:
    try:
        return parse_tile(_typed(value, str, where))
    except NotationError as exc:
        raise ViewError(f"{where}: {exc}") from exc


def _tiles(value: Any, where: str) -> tuple[int, ...]:
    """Tiles in written order, as one notation string or a list of single tiles."""
    if isinstance(value, list):
        return tuple(_tile(v, f"{where}[{i}]") for i, v in enumerate(value))
    try:
        return tuple(parse_tiles(_typed(value, str, where)))
    except NotationError as exc:
        raise ViewError(f"{where}: {exc}") from exc


def _hand(value: Any, where: str) -> tuple[tuple[int, ...], tuple[Meld, ...]]:
    try:
        spec = parse_hand(_typed(value, str, where))
    except NotationError as exc:
        raise ViewError(f"{where}: {exc}") from exc
    return spec.concealed, spec.melds


def _meld(value: Any, where: str) -> Meld:
    if isinstance(value, str):
        concealed, melds = _hand(value, where)
        if concealed or len(melds) != 1:
            raise ViewError(f'{where}: expected one meld such as "[555p]", got {value!r}')
        return melds[0]
    data = _object(value, where, {"meld", "from_seat", "claimed", "added"}, {"meld"})
    meld = _meld(data["meld"], f"{where}.meld")
    changes: dict[str, Any] = {}
    if "from_seat" in data:
        changes["from_seat"] = _optional(data["from_seat"], _seat, f"{where}.from_seat")
    if "claimed" in data:
        changes["claimed"] = _optional(data["claimed"], _tile, f"{where}.claimed")
    if "added" in data:
        changes["added"] = _typed(data["added"], bool, f"{where}.added")
    return dataclasses.replace(meld, **changes)


def _melds(value: Any, where: str) -> tuple[Meld, ...]:
    if isinstance(value, str):
        concealed, melds = _hand(value, where)
        if concealed:
            raise ViewError(f"{where}: only melds belong here, got {value!r}")
        return melds
    if not isinstance(value, list):
        raise ViewError(f"{where}: expected a notation string or a list of melds")
    return tuple(_meld(v, f"{where}[{i}]") for i, v in enumerate(value))


def _void_suit(value: Any, where: str) -> int:
    letter = _typed(value, str, where)
    if letter not in ("m", "p", "s"):
        raise ViewError(f'{where}: void suit must be "m", "p" or "s", got {value!r}')
    return SUITS.index(letter)


def _strings(value: Any, where: str, count: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise ViewError(f"{where}: expected a list of {count} strings")
    return tuple(_typed(v, str, f"{where}[{i}]") for i, v in enumerate(value))


def _labels(value: Any, where: str) -> Labels:
    names = {f.name for f in dataclasses.fields(Labels)}
    data = _object(value, where, names)
    sizes = {"winds": 4, "suits": 3, "dragons": 3}
    # Each value is checked as it is read (_strings, _typed); one dict cannot carry the
    # type of each field.
    changes: dict[str, Any] = {
        key: _strings(v, f"{where}.{key}", sizes[key])
        if key in sizes
        else _typed(v, str, f"{where}.{key}")
        for key, v in data.items()
    }
    return Labels(**changes)


def _horse(value: Any, where: str) -> HorseView:
    data = _object(value, where, {"tile", "target", "buyer"})
    return HorseView(
        kind=_optional(data.get("tile"), _tile, f"{where}.tile"),
        target=_optional(data.get("target"), _seat, f"{where}.target"),
        buyer=_optional(data.get("buyer"), _seat, f"{where}.buyer"),
    )


def _list(value: Any, parse: Callable[[Any, str], T], where: str) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise ViewError(f"{where}: expected a list")
    return tuple(parse(v, f"{where}[{i}]") for i, v in enumerate(value))


def _labels_of(data: dict[str, Any], where: str) -> Labels:
    return _labels(data["labels"], f"{where}.labels") if "labels" in data else Labels()


def hand_from_json(value: Any, where: str = "hand") -> HandView:
    """``{"hand": "1123m[777s]", "drawn": "5m", "legal_discards": "125m", ...}``."""
    keys = {"hand", "drawn", "legal_discards", "void_suit", "waits", "wildcard", "title", "labels"}
    data = _object(value, where, keys, {"hand"})
    concealed, melds = _hand(data["hand"], f"{where}.hand")
    legal = _optional(data.get("legal_discards"), _tiles, f"{where}.legal_discards")
    return HandView(
        concealed=concealed,
        drawn=_optional(data.get("drawn"), _tile, f"{where}.drawn"),
        melds=melds,
        legal_discards=None if legal is None else frozenset(legal),
        void_suit=_optional(data.get("void_suit"), _void_suit, f"{where}.void_suit"),
        waits=_tiles(data.get("waits", ""), f"{where}.waits"),
        wildcard=_optional(data.get("wildcard"), _tile, f"{where}.wildcard"),
        title=_typed(data.get("title", ""), str, f"{where}.title"),
        labels=_labels_of(data, where),
    )


def _seat_view(value: Any, where: str) -> SeatView:
    keys = {f.name for f in dataclasses.fields(SeatView)}
    data = _object(value, where, keys, {"name"})
    return SeatView(
        name=_typed(data["name"], str, f"{where}.name"),
        score=_typed(data.get("score", 0), int, f"{where}.score"),
        hand=_optional(data.get("hand"), _tiles, f"{where}.hand"),
        hand_count=_typed(data.get("hand_count", 13), int, f"{where}.hand_count"),
        drawn=_typed(data.get("drawn", False), bool, f"{where}.drawn"),
        melds=_melds(data.get("melds", []), f"{where}.melds"),
        discards=_tiles(data.get("discards", ""), f"{where}.discards"),
        void_suit=_optional(data.get("void_suit"), _void_suit, f"{where}.void_suit"),
        won_tile=_optional(data.get("won_tile"), _tile, f"{where}.won_tile"),
        won_order=_optional(data.get("won_order"), _int, f"{where}.won_order"),
        note=_typed(data.get("note", ""), str, f"{where}.note"),
    )


def table_from_json(value: Any, where: str = "table") -> TableView:
    """A TableView from its JSON form; ``seats`` lists seats 0..3 of the hand."""
    keys = {f.name for f in dataclasses.fields(TableView)}
    data = _object(value, where, keys, {"seats"})
    seats = _list(data["seats"], _seat_view, f"{where}.seats")
    if len(seats) != 4:
        raise ViewError(f"{where}.seats: expected 4 seats, got {len(seats)}")
    return TableView(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        bottom=_seat(data.get("bottom", 0), f"{where}.bottom"),
        current=_optional(data.get("current"), _seat, f"{where}.current"),
        last_discard=_optional(data.get("last_discard"), _seat, f"{where}.last_discard"),
        caption=_typed(data.get("caption", ""), str, f"{where}.caption"),
        wall_left=_typed(data.get("wall_left", 0), int, f"{where}.wall_left"),
        round_wind=_optional(data.get("round_wind"), _wind, f"{where}.round_wind"),
        wildcard=_optional(data.get("wildcard"), _tile, f"{where}.wildcard"),
        horses=_list(data.get("horses", []), _horse, f"{where}.horses"),
        title=_typed(data.get("title", ""), str, f"{where}.title"),
        labels=_labels_of(data, where),
    )


def _fan(value: Any, where: str) -> FanLine:
    data = _object(value, where, {"name", "value", "count"}, {"name"})
    return FanLine(
        name=_typed(data["name"], str, f"{where}.name"),
        value=_optional(data.get("value"), _int, f"{where}.value"),
        count=_typed(data.get("count", 1), int, f"{where}.count"),
    )


def _winner(value: Any, where: str) -> WinnerView:
    keys = {f.name for f in dataclasses.fields(WinnerView)} - {"concealed"} | {"hand"}
    data = _object(value, where, keys, {"seat", "hand", "win_tile"})
    concealed, melds = _hand(data["hand"], f"{where}.hand")
    return WinnerView(
        seat=_seat(data["seat"], f"{where}.seat"),
        concealed=concealed,
        win_tile=_tile(data["win_tile"], f"{where}.win_tile"),
        melds=melds + _melds(data.get("melds", []), f"{where}.melds"),
        how=_typed(data.get("how", ""), str, f"{where}.how"),
        from_seat=_optional(data.get("from_seat"), _seat, f"{where}.from_seat"),
        title=_typed(data.get("title", ""), str, f"{where}.title"),
        fans=_list(data.get("fans", []), _fan, f"{where}.fans"),
        total=_optional(data.get("total"), _int, f"{where}.total"),
        capped_from=_optional(data.get("capped_from"), _int, f"{where}.capped_from"),
        multiplier=_optional(data.get("multiplier"), _int, f"{where}.multiplier"),
        order=_optional(data.get("order"), _int, f"{where}.order"),
        robbed=_typed(data.get("robbed", False), bool, f"{where}.robbed"),
    )


def _payment(value: Any, where: str) -> PaymentLine:
    keys = {f.name for f in dataclasses.fields(PaymentLine)}
    data = _object(value, where, keys, {"payer", "payee", "amount"})
    return PaymentLine(
        payer=_seat(data["payer"], f"{where}.payer"),
        payee=_seat(data["payee"], f"{where}.payee"),
        amount=_typed(data["amount"], int, f"{where}.amount"),
        reason=_typed(data.get("reason", ""), str, f"{where}.reason"),
        horse=_optional(data.get("horse"), _int, f"{where}.horse"),
    )


def settlement_from_json(value: Any, where: str = "settlement") -> SettlementView:
    """A SettlementView from its JSON form; winners' ``hand`` excludes ``win_tile``."""
    keys = {f.name for f in dataclasses.fields(SettlementView)}
    data = _object(value, where, keys, {"names"})
    names = _strings(data["names"], f"{where}.names", 4)
    net_values = _four_ints(data.get("nets", [0, 0, 0, 0]), f"{where}.nets")
    factors = _optional(data.get("factors"), _four_ints, f"{where}.factors")
    return SettlementView(
        names=(names[0], names[1], names[2], names[3]),
        winners=_list(data.get("winners", []), _winner, f"{where}.winners"),
        payments=_list(data.get("payments", []), _payment, f"{where}.payments"),
        nets=net_values,
        horses=_list(data.get("horses", []), _horse, f"{where}.horses"),
        factors=factors,
        wildcard=_optional(data.get("wildcard"), _tile, f"{where}.wildcard"),
        title=_typed(data.get("title", ""), str, f"{where}.title"),
        labels=_labels_of(data, where),
    )


def _four_ints(value: Any, where: str) -> tuple[int, int, int, int]:
    """One number per seat."""
    if not isinstance(value, list) or len(value) != 4:
        raise ViewError(f"{where}: expected a list of 4 numbers")
    a, b, c, d = (_typed(n, int, f"{where}[{i}]") for i, n in enumerate(value))
    return a, b, c, d
