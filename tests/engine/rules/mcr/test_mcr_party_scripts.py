"""MCR round scripts through ``python -m engine.replay`` (Contract 2, mcr.md §4.1): the
rule set's fields and actions, and the errors a wrong one gives."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.replay import EXIT_ILLEGAL, EXIT_INVALID, EXIT_OK, main
from tests.engine.rules.mcr.mcr_examples import P3, P4


def replay(raw: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    code = main(["-"], stdin=io.StringIO(json.dumps(raw)), stdout=out)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return code, answer


def test_the_replay_prints_the_party_results() -> None:
    code, answer = replay(P3)
    assert code == EXIT_OK
    assert answer["round_wind"] == "E" and answer["mode"] is None
    assert [b["factor"] for b in answer["bets"]] == [2, 1, 1, 2]
    assert [h["buyers"] for h in answer["horses"]] == [[1], [2], [2], [0], [], []]
    assert answer["wildcard"] == "5z"
    names = [e["name"] for e in answer["events"] if e["type"] == "notice"]
    assert names == ["bets", "wildcard", "revealed"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("wealth_fan", 7, "'wealth_fan' must be one of"),
        ("round_wind", "X", "'round_wind' must be one of"),
        ("last_chance_tiles", [None, "1m"], "'last_chance_tiles' must list four"),
        ("peak_templates", ["seven_dwarfs"], "'peak_templates' must list"),
    ],
)
def test_invalid_fields_are_refused(field: str, value: Any, message: str) -> None:
    code, answer = replay({**P4, field: value})
    assert code == EXIT_INVALID
    assert answer["error"].startswith(message)


def test_a_5_5_hand_needs_its_wealth_value() -> None:
    raw = {k: v for k, v in P4.items() if k != "wealth_fan"}
    code, answer = replay(raw)
    assert code == EXIT_INVALID
    assert "wealth_fan" in answer["error"]


def test_an_illegal_bet_names_its_action() -> None:
    actions = [{"seat": 0, "action": "bet", "factor": 8, "horses": []}, *P4["actions"][1:]]
    code, answer = replay({**P4, "actions": actions})
    assert code == EXIT_ILLEGAL
    assert (answer["action_index"], answer["seat"]) == (0, 0)
    assert "×8" in answer["error"]
