"""The guangdong rule set in the round engine: options, script fields, course-of-hand
kinds, pass restrictions and the replay command."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.actions import Pass, Win
from engine.errors import Refusal, ScriptError
from engine.replay import main as replay_main
from engine.round import Phase, Round
from engine.rules.guangdong.bighu import SEED_KIND_IDS
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.ruleset import RULESET, GuangdongFacts
from engine.rules.play import Figure, WinLock
from engine.tiles import parse_tiles
from tests.engine.round.helpers import hand_state
from tests.engine.rules.guangdong.guangdong_scripts import events, lines, play, script
from tests.engine.rules.guangdong.test_guangdong_rounds import E1, E2, E4, E5, E8, E9, E10, E11


def with_options(raw: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {**raw, "options": {**raw["options"], **options}}


def totals(result: dict[str, Any]) -> list[tuple[str, list[str], int]]:
    return [(w["how"], [f["id"] for f in w["fans"]], w["total"]) for w in result["winners"]]


# -- options -----------------------------------------------------------------------------


def test_base_stake_multiplies_every_line_in_play() -> None:
    plain = play(E8).result()
    staked = play(with_options(E8, base_stake=10)).result()
    assert [p["amount"] * 10 for p in plain["payments"]] == [
        p["amount"] for p in staked["payments"]
    ]
    assert staked["net"] == [20, 0, -70, 50]


def test_big_hu_kinds_decides_big_or_small_in_play() -> None:
    kinds = [k for k in SEED_KIND_IDS if k != "full_flush"]
    result = play(with_options(E2, big_hu_kinds=kinds)).result()
    assert totals(result) == [("self_draw", [], 1)]
    assert lines(result)[:3] == [(s, 1, 2, "win_self_draw") for s in (0, 2, 3)]
    earthly_off = [k for k in SEED_KIND_IDS if k != "earthly_hand"]
    assert totals(play(with_options(E11, big_hu_kinds=earthly_off)).result()) == [
        ("discard", [], 1)
    ]


def test_horses_off_sets_nothing_aside_and_pays_no_horse() -> None:
    raw = with_options(E2, horses=False)
    raw["horse_count"] = 0
    rnd = play(raw)
    assert rnd.set_aside == {}
    assert events(rnd, "tiles_aside") == []
    result = rnd.result()
    assert [p["reason"] for p in result["payments"]] == ["win_self_draw"] * 3
    assert (result["next_horse_count"], result["next_dealer_streak"]) == (0, 1)


def test_max_horses_caps_the_next_count_and_the_scripts_count() -> None:
    assert play(with_options(E10, max_horses=3)).result()["next_horse_count"] == 3
    with pytest.raises(ScriptError, match="'horse_count' must be 1-2"):
        Round.from_script(with_options(E10, max_horses=2))


def test_rounds_is_the_number_of_planned_hands() -> None:
    for rounds in (1, 4, 8, 16):
        assert RULESET.planned_hands(RULESET.parse_options({"rounds": rounds})) == rounds
    assert RULESET.planned_hands(RULESET.parse_options({})) == 8


# -- script fields -----------------------------------------------------------------------


def test_missing_fields_are_a_first_deal() -> None:
    raw = {k: v for k, v in E1.items() if k not in ("horse_count", "dealer_streak")}
    rnd = Round.from_script(raw, play=False)
    assert rnd.fields == {"horse_count": 1, "dealer_streak": 1}
    assert RULESET.first_fields(RULESET.read_options({"horses": False})) == {
        "horse_count": 0,
        "dealer_streak": 1,
    }


@pytest.mark.parametrize(
    ("fields", "options", "message"),
    [
        ({"horse_count": 0}, {}, "'horse_count' must be 1-4"),
        ({"horse_count": 5}, {}, "'horse_count' must be 1-4"),
        ({"horse_count": True}, {}, "'horse_count' must be 1-4"),
        ({"horse_count": 1}, {"horses": False}, r"'horse_count' must be 0 \(horses are off\)"),
        ({"dealer_streak": 0}, {}, "'dealer_streak' must be a whole number from 1"),
        ({"dealer_streak": "2"}, {}, "'dealer_streak' must be a whole number from 1"),
    ],
)
def test_invalid_fields(fields: dict[str, Any], options: dict[str, Any], message: str) -> None:
    raw = {**with_options(E1, **options), **fields}
    with pytest.raises(ScriptError, match=message):
        Round.from_script(raw)


def test_horses_come_off_the_back_before_the_first_action() -> None:
    rnd = Round.from_script(E10, play=False)
    assert rnd.set_aside == {"horses": tuple(parse_tiles("1p7mN"))}
    assert rnd.live_count == 83 - 3
    assert events(rnd, "tiles_aside") == [
        {"type": "tiles_aside", "name": "horses", "count": 3, "tiles": None}
    ]
    assert rnd.view(1).facts == GuangdongFacts(horse_count=3, dealer_streak=2)
    assert rnd.view(1).aside == {"horses": 3}


def test_next_fields_follow_the_hand() -> None:
    rnd = hand_state(play(E10), GuangdongOptions)
    options = rnd.options
    assert RULESET.next_fields(options, rnd, 0, 2) == {"horse_count": 4, "dealer_streak": 3}
    assert RULESET.next_dealer(rnd) == 0
    passed = hand_state(play(E1), GuangdongOptions)
    assert RULESET.next_fields(options, passed, 2, 2) == {"horse_count": 1, "dealer_streak": 1}


# -- course-of-hand kinds ----------------------------------------------------------------


JUNK = ("2468m2468p2468sS", "1357m1357p4567sW", "9m3579p89sSWNCFP")


def test_heavenly_hand_on_the_dealt_tiles() -> None:
    result = play(script(("123m456m789p123sEE", *JUNK), "0 win", horses="2m")).result()
    assert totals(result) == [("self_draw", ["heavenly_hand"], 2)]
    assert lines(result) == [(s, 0, 4, "win_self_draw") for s in (1, 2, 3)]


def test_no_heavenly_hand_after_a_kong() -> None:
    raw = script(
        ("1111m456m789p23sEE", "2468m2468p2468sS", "3579m1357p567sWN", "9m3579p89sSWNCFP"),
        "0 kong 1m, 0 win",
        replacements="1s",
        options={"horses": False},
    )
    result = play(raw).result()
    assert totals(result) == [("kong_bloom", [], 1)]
    assert lines(result) == [(s, 0, 2, "win_self_draw") for s in (1, 2, 3)] + [
        (s, 0, 2, "kong_concealed") for s in (1, 2, 3)
    ]


def test_earthly_hand_only_on_the_hands_first_discard() -> None:
    hands = ["9m1379p1359sESWNC", "78m1589p2479sCFP", "123456m234p678s9m", "8m2678p1358sESWN"]
    later = script(hands, "0 discard 1p, 1 discard 9m, 2 win", draws="9m")
    assert totals(play(later).result()) == [("discard", [], 1)]
    own_draw = script(hands, "0 discard 1p, 1 discard 8m, 2 win", draws="8m9m")
    assert totals(play(own_draw).result()) == [("self_draw", [], 1)]


# -- pass restrictions -------------------------------------------------------------------


def test_a_passed_small_win_also_withholds_a_bigger_one() -> None:
    """过胡 bars every discard win until the next draw, whatever it would be worth."""
    hands = ["4p579m1389p1357sEW", "68m126p2468sSNCF", "11223344m5566p7p", "9m39p579sESWNCFP"]
    rnd = play(script(hands, "0 discard 4p, 2 pass, 1 discard 7p", draws="7p"))
    assert RULESET.pass_rules.win_lock is WinLock.ALL
    assert RULESET.pass_rules.pong_lock
    offers = [(e["tile"], e["options"], e["blocked"]) for e in events(rnd, "claim_offered")]
    assert offers == [("4p", ["win"], []), ("7p", [], [["win", "pass_win"]])]


OWN_PONG_SOURCE = Refusal(
    "own_pong_source",
    "seat 1 may not rob this kong: its pong was claimed from their discard",
)


def test_rob_of_ones_own_pong_source_is_refused() -> None:
    raw = {**E4, "actions": E4["actions"][:-1]}
    rnd = play(raw)
    assert rnd.check(Win(1)) == OWN_PONG_SOURCE
    assert rnd.check(Win(3)) is None
    assert events(rnd, "claim_offered")[-1]["blocked"] == [["win", "own_pong_source"]]
    # Once seat 3 passes, the kong stands and seat 2 plays on; seat 1's rob is still
    # refused for its own reason.
    rnd.apply(Pass(3))
    assert rnd.phase is Phase.TURN and rnd.turn == 2
    assert rnd.check(Win(1)) == OWN_PONG_SOURCE


def test_a_passed_win_is_the_reason_a_later_discard_win_is_refused() -> None:
    hands = ["4p579m1389p1357sEW", "68m126p2468sSNCF", "9m39p579sESWNCFP", "11223344m5566p7p"]
    rnd = play(script(hands, "0 discard 4p, 3 pass, 1 discard 7p", draws="7p"))
    offers = [(e["seat"], e["tile"], e["blocked"]) for e in events(rnd, "claim_offered")]
    assert offers == [(3, "4p", []), (3, "7p", [["win", "pass_win"]])]
    # Nobody could claim the 7p, so seat 2 has drawn.
    assert rnd.turn == 2
    assert rnd.check(Win(3)) == Refusal(
        "pass_win",
        "seat 3 passed a win and may not win on a discard or rob a kong until it draws",
    )


# -- the replay command ------------------------------------------------------------------


def _replay(raw: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    code = replay_main(["-"], io.StringIO(json.dumps(raw)), out)
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize(
    "raw", [E1, E2, E4, E5, E8, E10], ids=["e1", "e2", "e4", "e5", "e8", "e10"]
)
def test_replay_prints_the_result_and_round_trips(raw: dict[str, Any]) -> None:
    code, out = _replay(raw)
    assert code == 0
    rnd = play(raw)
    assert out == json.loads(json.dumps(rnd.result()))
    assert Round.from_script(rnd.to_script()).result() == rnd.result()


def test_replay_prints_horse_fields_on_horse_lines() -> None:
    _, out = _replay(E8)
    assert out["payments"][8] == {
        "payer": 0,
        "payee": 3,
        "amount": 2,
        "reason": "horse",
        "horse": "9s",
        "horse_seat": 0,
        "copy_of": 2,
    }
    assert out["horses"] == [{"tile": "9s", "seat": 0}]
    assert (out["next_dealer"], out["next_dealer_seat"]) == (1, 1)
    assert (out["next_horse_count"], out["next_dealer_streak"]) == (1, 1)


# -- simulation figures --------------------------------------------------------------------


def test_simulation_figures_count_big_hu_and_horse_payouts() -> None:
    # E9: a small self-draw, two horse lines of 2.
    assert RULESET.hand_statistics(hand_state(play(E9), GuangdongOptions)) == {
        "big-hu share of wins": Figure(0, 1, percent=True),
        "horse payout per hand": Figure(4),
    }
    # E10: the dealer's big self-draw; his horse copies three lines of 4.
    assert RULESET.hand_statistics(hand_state(play(E10), GuangdongOptions)) == {
        "big-hu share of wins": Figure(1, 1, percent=True),
        "horse payout per hand": Figure(12),
    }
