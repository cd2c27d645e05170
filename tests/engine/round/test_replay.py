"""Round scripts: ``python -m engine.replay`` and building a script from a live round."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay as replay_cli
from engine.actions import Discard, Pass, Win
from engine.errors import ScriptError
from engine.events import HandStarted, Notice
from engine.round import Round
from engine.rules import registry
from engine.rules.play import HandState
from engine.tiles import counts_of, kinds_of, parse_tile, parse_tiles
from engine.wall import Deal
from tests.engine.round.helpers import deal, script
from tests.engine.round.plain import PLAIN, PlainRules
from tests.engine.round.test_claims import PONG_AND_WIN


@pytest.fixture(autouse=True)
def plain_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the registry find the test rule set under the name ``plain``."""
    real = registry.find_ruleset
    monkeypatch.setattr("engine.scripts.find_ruleset", lambda v: PLAIN if v == "plain" else real(v))


def _run(tmp_path: Path, document: object) -> tuple[int, dict]:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    code = replay_cli.main([str(path)], stdout=out)
    return code, json.loads(out.getvalue())


WIN_ACTIONS = [
    {"seat": 0, "action": "discard", "tile": "5p"},
    {"seat": 1, "action": "pong"},
    {"seat": 2, "action": "win"},
]


def test_replay_prints_the_result(tmp_path: Path) -> None:
    code, out = _run(tmp_path, script(PLAIN, PONG_AND_WIN, actions=WIN_ACTIONS))
    assert code == 0 and out["ok"] is True
    assert [(w["seat"], w["how"], w["tile"]) for w in out["winners"]] == [(2, "discard", "5p")]
    assert out["payments"] == [{"payer": 0, "payee": 2, "amount": 1, "reason": "win_discard"}]
    assert out["net"] == [-1, 0, 1, 0]
    assert out["next_dealer"] == 2
    assert out["events"][0]["type"] == "hand_started"
    assert out["events"][-1]["type"] == "hand_ended"
    assert [f["seat"] for f in out["final"]] == [0, 1, 2, 3]
    assert out["final"][2]["won"] == ["5p"]


def test_unlisted_answers_are_passes(tmp_path: Path) -> None:
    actions = [
        {"seat": 0, "action": "discard", "tile": "5p"},
        {"seat": 1, "action": "pong"},
        {"seat": 1, "action": "discard", "tile": "9p"},
    ]
    code, out = _run(tmp_path, script(PLAIN, PONG_AND_WIN, actions=actions))
    assert code == 0 and out["winners"] == []
    assert out["final"][1]["melds"] == ["[555p]"]


def test_illegal_action_names_its_index_and_seat(tmp_path: Path) -> None:
    actions = [*WIN_ACTIONS[:1], {"seat": 3, "action": "discard", "tile": "1m"}]
    code, out = _run(tmp_path, script(PLAIN, PONG_AND_WIN, actions=actions))
    # Seat 3's discard closes the window (everyone passes); then it is seat 1's turn.
    assert code == 1
    assert out == {
        "ok": False,
        "error": "it is seat 1's turn, not seat 3's",
        "action_index": 1,
        "seat": 3,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": ["5p", "55p", "1m", "2m"]}, "hand of seat 0 has 1 tiles"),
        ({"wall": "1m"}, "hands and wall hold"),
        ({"dice": [0, 7]}, "'dice'"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"variant": "chess"}, "unknown variant"),
        ({"options": {"nonsense": 1}}, "unknown plain option 'nonsense'"),
        ({"actions": [{"seat": 0, "action": "dance"}]}, "unknown action 'dance'"),
        ({"actions": [{"seat": 0, "action": "discard", "tile": "0m"}]}, "no tile 0m"),
        ({"actions": [{"seat": 9, "action": "pass"}]}, "seat 0-3"),
    ],
)
def test_invalid_scripts_exit_2(tmp_path: Path, change: dict, message: str) -> None:
    document = {**script(PLAIN, PONG_AND_WIN), **change}
    code, out = _run(tmp_path, document)
    assert code == 2 and out["ok"] is False
    assert message in out["error"]


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    out = io.StringIO()
    assert replay_cli.main([str(path)], stdout=out) == 2
    assert json.loads(out.getvalue())["error"].startswith("invalid JSON")
    out = io.StringIO()
    assert replay_cli.main([str(tmp_path / "missing.json")], stdout=out) == 2
    out = io.StringIO()
    assert replay_cli.main(["-"], stdin=io.StringIO("[1, 2]"), stdout=out) == 2


def test_a_live_round_becomes_a_script_that_replays_to_the_same_state() -> None:
    rnd = Round.new(PLAIN, {"horses": 1}, seed=21)
    while not rnd.ended:
        seat = rnd.to_act()[0]
        legal = rnd.legal_actions(seat)
        rnd.apply(legal[-1])
    stored = json.loads(json.dumps(replay_cli.round_script(rnd)))
    assert stored["options"] == {"horses": 1} and stored["horse_count"] == 1
    again = Round.from_script(stored)
    assert again.snapshot() == rnd.snapshot()
    assert replay_cli.replay(stored) == (0, json.loads(json.dumps(rnd.result())))


def test_a_script_of_an_unfinished_round_replays_so_far() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, parse_tile("5p")))
    rnd.apply(Pass(1))
    stored = replay_cli.round_script(rnd)
    again = Round.from_script(stored)
    assert again.snapshot() == rnd.snapshot()
    again.apply(Win(2))
    assert again.ended


def test_script_errors_are_value_errors() -> None:
    with pytest.raises(ScriptError):
        Round.from_script({"variant": "plain"})


def test_resuming_with_the_seed_draws_what_live_play_draws() -> None:
    options = {"exchange": True}
    live = Round.new(PLAIN, options, seed=33)
    for seat in range(2):
        live.apply(live.legal_actions(seat)[0])
    stored = replay_cli.round_script(live)  # the exchange map is not drawn yet
    assert "exchange_map" not in stored
    for seat in (2, 3):
        live.apply(live.legal_actions(seat)[0])
    resumed = Round.from_script(stored, seed=33)
    for seat in (2, 3):
        resumed.apply(resumed.legal_actions(seat)[0])
    assert resumed.fields["exchange_map"] == live.fields["exchange_map"]
    assert resumed.snapshot() == live.snapshot()
    stuck = Round.from_script(stored)
    stuck.apply(stuck.legal_actions(2)[0])
    with pytest.raises(ScriptError, match="exchange_map"):
        stuck.apply(stuck.legal_actions(3)[0])
    with pytest.raises(ScriptError, match="seed"):
        Round.from_script(stored, seed=34)


class OpeningRules(PlainRules):
    """Draws a chance value and tells everyone something as the hand begins."""

    def begin(self, state: HandState) -> None:
        state.chance("exchange_map", lambda rng: rng.choice([[1, 2, 3, 0], [2, 3, 0, 1]]))
        state.emit(Notice("opening"))


def test_the_opening_names_session_fields_only_live_replayed_and_resumed() -> None:
    rules = OpeningRules()
    live = Round.new(rules, {"horses": 1}, seed=5)
    assert [e.type for e in live.events[:3]] == ["hand_started", "tiles_aside", "notice"]
    started = live.events[0]
    assert isinstance(started, HandStarted) and started.fields == {"horse_count": 1}
    assert "exchange_map" in live.fields
    replayed = Round.from_script(live.to_script(), ruleset=rules)
    fields = {"horse_count": 1, "exchange_map": live.fields["exchange_map"]}
    resumed = Round.new(rules, {"horses": 1}, seed=5, fields=fields)
    assert replayed.events == live.events
    assert resumed.events == live.events


class DealtAsWritten(PlainRules):
    """Deals ``hands`` tile by tile as written, the rest of the tiles in kind order: like a
    live shuffle, and unlike a round script, its dealt hands are not sorted."""

    def __init__(self, hands: Sequence[str]) -> None:
        super().__init__()
        self.hands = tuple(tuple(parse_tiles(h)) for h in hands)

    def build_deal(self, state: HandState, rng: random.Random) -> Deal:
        left = counts_of(self.tiles)
        for hand in self.hands:
            for kind in hand:
                left[kind] -= 1
        return Deal(self.hands, tuple(kinds_of(left)))


def test_a_heavenly_hand_does_not_depend_on_the_order_of_the_dealt_tiles() -> None:
    # The dealer is dealt 1m last; the round script writes his hand sorted, 5s last.
    rules = DealtAsWritten(
        ["23456789m234p55s1m", "55p999p2468s1357z", "123456789s11m46p", "13579m1378p3579s"]
    )
    live = Round.new(rules, {}, seed=1)
    assert live.dealt[0][-1] == parse_tile("1m")
    # The dealer drew nothing, so the view shows no drawn tile.
    assert live.view(0).seats[0].drawn is None and live.last_drawn(0) is None
    live.apply(Win(0))
    replayed = Round.from_script(live.to_script(), ruleset=rules)
    assert replayed.snapshot() == live.snapshot()
    assert replayed.events == live.events
    # Every kind scores the same flat win here: the first in tile order is the winning tile.
    assert live.wins[0].context.tile == parse_tile("1m")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"variant": "plain", "hands": "\xff\xfe"}', "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"dice": [' + b"9" * 5000 + b", 1]}", "invalid JSON"),
    ],
)
def test_files_python_cannot_read_exit_2(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    out = io.StringIO()
    assert replay_cli.main([str(path)], stdout=out) == 2
    answer = json.loads(out.getvalue())
    assert answer["ok"] is False and message in answer["error"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    field=st.sampled_from(["options", "dealer", "dice", "hands", "wall", "actions", "x"]),
    value=JSON,
)
def test_any_value_in_any_field_exits_with_a_sentence(field: str, value: object) -> None:
    """However a valid script is damaged, the answer is one JSON object and an exit code
    of the contract: never a traceback."""
    document = {**script(PLAIN, PONG_AND_WIN, actions=WIN_ACTIONS), field: value}
    code, answer = replay_cli.replay(document)
    assert code in (0, 1, 2)
    json.dumps(answer)
    if code:
        assert answer["ok"] is False and answer["error"]


@settings(max_examples=200, deadline=None)
@given(action=st.dictionaries(st.sampled_from(["seat", "action", "tile", "tiles", "suit"]), JSON))
def test_any_action_exits_with_a_sentence(action: dict[str, object]) -> None:
    document = script(PLAIN, PONG_AND_WIN, actions=[*WIN_ACTIONS[:1], action])
    code, answer = replay_cli.replay(document)
    assert code in (0, 1, 2)
    if code:
        assert answer["ok"] is False and answer["error"]
