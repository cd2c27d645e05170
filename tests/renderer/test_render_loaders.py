"""JSON views: what they read into, and errors that name the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.tiles import MeldType, parse_tile, parse_tiles
from renderer import loaders
from renderer.loaders import ViewError


def _seat(**extra: Any) -> dict[str, Any]:
    return {"name": "x", **extra}


def _table(**seat0: Any) -> dict[str, Any]:
    return {"seats": [_seat(**seat0), _seat(), _seat(), _seat()]}


def test_every_sample_file_loads(data_dir: Path) -> None:
    for path in sorted(data_dir.glob("*.json")):
        data = loaders.load(path)
        if path.name.startswith("table"):
            loaders.table_from_json(data)
        else:
            loaders.settlement_from_json(data)


def test_table_fields_read_into_the_model() -> None:
    view = loaders.table_from_json(
        {
            **_table(
                hand="3m1m",
                discards="19m",
                melds=[{"meld": "[555p]", "from_seat": 2}, "{1111z}"],
                void_suit="s",
                won_tile="E",
            ),
            "bottom": 3,
            "wildcard": "5z",
            "horses": [{"tile": "3p", "target": 2}, {}],
            "labels": {"wall": "{n} left", "winds": ["E", "S", "W", "N"]},
        }
    )
    seat = view.seats[0]
    assert seat.hand == tuple(parse_tiles("3m1m"))
    assert seat.discards == (0, 8)
    assert seat.melds[0].type is MeldType.PUNG and seat.melds[0].from_seat == 2
    assert seat.melds[1].type is MeldType.CONCEALED_KONG
    assert seat.void_suit == 2
    assert seat.won_tile == 27
    assert view.bottom == 3 and view.wildcard == 31
    assert view.horses[0].kind == parse_tile("3p") and view.horses[1].kind is None
    assert view.labels.wall == "{n} left" and view.labels.winds[0] == "E"


def test_settlement_winner_hand_splits_into_tiles_and_melds() -> None:
    view = loaders.settlement_from_json(
        {
            "names": ["a", "b", "c", "d"],
            "winners": [
                {
                    "seat": 1,
                    "hand": "23m[777s]",
                    "win_tile": "4m",
                    "fans": [{"name": "x", "value": 2, "count": 3}],
                    "total": 6,
                }
            ],
            "nets": [1, -1, 0, 0],
        }
    )
    winner = view.winners[0]
    assert winner.concealed == (1, 2)
    assert winner.melds[0].kind == parse_tile("7s")
    assert winner.fans[0].count == 3 and winner.total == 6


def test_marks_of_play_read_into_the_model() -> None:
    table = loaders.table_from_json(
        {
            **_table(won_tile="5m", won_order=2),
            "last_discard": 0,
            "caption": "小明 打出 5万",
            "round_wind": 1,
        }
    )
    assert table.seats[0].won_order == 2 and table.last_discard == 0
    assert table.caption == "小明 打出 5万" and table.round_wind == 1
    view = loaders.settlement_from_json(
        {
            "names": ["a", "b", "c", "d"],
            "winners": [
                {
                    "seat": 1,
                    "hand": "23m",
                    "win_tile": "4m",
                    "from_seat": 3,
                    "total": 4,
                    "capped_from": 6,
                    "multiplier": 2,
                    "order": 1,
                }
            ],
            "payments": [{"payer": 3, "payee": 0, "amount": 2, "reason": "马", "horse": 0}],
            "horses": [{"tile": "1p", "target": 1}],
            "factors": [4, 1, 2, 1],
        }
    )
    winner = view.winners[0]
    assert (winner.from_seat, winner.capped_from, winner.multiplier, winner.order) == (3, 6, 2, 1)
    assert view.payments[0].horse == 0 and view.factors == (4, 1, 2, 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_table(colour="red"), r"table\.seats\[0\]: unknown key 'colour'"),
        (_table(hand="12x"), r"table\.seats\[0\]\.hand: unknown character 'x'"),
        (_table(melds="1m[555p]"), r"table\.seats\[0\]\.melds: only melds"),
        (_table(melds=[{"meld": "[555p]", "from_seat": 7}]), r"from_seat: seat 7"),
        (_table(void_suit="z"), r"void_suit: void suit must be"),
        (_table(score="10"), r"score: expected int"),
        (_table(drawn=1), r"drawn: expected bool"),
        ({"seats": []}, r"expected 4 seats"),
        ({"seats": [_seat()] * 4, "bottom": True}, r"bottom: expected int"),
        ({"seats": [_seat()] * 4, "round_wind": 4}, r"round_wind: wind 4 is not 0\.\.3"),
        ({"names": list("abcd"), "factors": [1, 2]}, r"factors: expected a list of 4"),
        ({"seats": [_seat()] * 4, "labels": {"winds": ["E"]}}, r"labels\.winds"),
        ({"names": ["a"]}, r"settlement\.names: expected a list of 4"),
        ({"names": list("abcd"), "winners": [{"seat": 0, "hand": "1m"}]}, r"missing key"),
    ],
)
def test_errors_name_the_field(data: dict[str, Any], message: str) -> None:
    load = loaders.settlement_from_json if "names" in data else loaders.table_from_json
    with pytest.raises(ViewError, match=message):
        load(data)


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ViewError, match=r"broken\.json: not valid JSON"):
        loaders.load(path)


def test_hand_from_json() -> None:
    view = loaders.hand_from_json(
        json.loads('{"hand": "1123m[777s]", "drawn": "5m", "legal_discards": "15m", "waits": "4m"}')
    )
    assert view.drawn == 4 and view.legal_discards == frozenset({0, 4})
    assert view.waits == (3,) and len(view.melds) == 1
