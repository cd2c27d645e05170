"""The seed's extra fans awarded by the engine (mcr.md §2.4): 天和, 地和, 天听 and 报听 with
the declare-ready discard and the locked hand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Discard
from engine.errors import IllegalActionError
from engine.round import Round
from engine.tiles import parse_tile
from tests.engine.rules.mcr.mcr_scripts import advance, fans, lines, pass_all, play, script

# No bets, no wildcard: plain 国标 play with the extra fans on (the party default).
PLAIN = {"doubling": False, "horses": False, "wildcard": False}


def hand(hands: list[str], moves: str = "", **kwargs: Any) -> Round:
    kwargs.setdefault("options", PLAIN)
    return play(script(hands, moves, **kwargs))


def t(text: str) -> int:
    return parse_tile(text)


def fan_ids(rnd: Round) -> list[str]:
    return [fan for fan, _ in fans(rnd.result())]


# -- 天和 and 地和 --------------------------------------------------------------------------

HEAVENLY = ["123m456p789s123s55m", "13579m1357p135sF", "2468m2468p2468sP", "13579m2468p246sS"]


def test_heavenly_hand_for_the_dealer_s_dealt_tiles() -> None:
    rnd = hand(HEAVENLY, "0 win")
    result = rnd.result()
    assert fans(result)[0] == ("heavenly_hand", 88)
    assert not {"fully_concealed_hand", "self_drawn", "concealed_hand"} & set(fan_ids(rnd))
    total = result["winners"][0]["total"]
    assert lines(result) == [(s, 0, 8 + total, "win_self_draw") for s in (1, 2, 3)]


# 1112345678999p + 5p: 九莲宝灯 only with 5p as the winning tile; a script lists 9p last.
NINE_GATES = ["11123455678999p", *HEAVENLY[1:]]


@pytest.mark.parametrize("extra_fans", [True, False])
def test_the_dealer_s_first_move_wins_on_his_best_scoring_tile(extra_fans: bool) -> None:
    rnd = hand(NINE_GATES, "0 win", options={**PLAIN, "extra_fans": extra_fans})
    result = rnd.result()
    (winner,) = result["winners"]
    assert winner["tile"] == "5p"
    assert ("nine_gates", 88) in fans(result)
    assert ("heavenly_hand" in fan_ids(rnd)) is extra_fans
    again = Round.from_script(rnd.to_script())
    assert again.snapshot() == rnd.snapshot()


def test_no_heavenly_hand_without_the_extra_fans() -> None:
    rnd = hand(HEAVENLY, "0 win", options={**PLAIN, "extra_fans": False})
    assert "heavenly_hand" not in fan_ids(rnd)
    assert "fully_concealed_hand" in fan_ids(rnd)


# Seat 1 waits on 5p (12 fan); the dealer can kong his four 北 first.
EARTHLY = ["5p1m9m9s4444z123567z", "123m123p123s34p99s", "23468m2468s79pEW", "13579m1357s68pSC"]


def test_earthly_hand_on_the_dealer_s_first_discard() -> None:
    rnd = hand(EARTHLY, "0 discard 5p, 1 win")
    assert fans(rnd.result())[0] == ("earthly_hand", 64)
    assert "concealed_hand" not in fan_ids(rnd)


def test_no_earthly_hand_after_the_dealer_s_kong() -> None:
    rnd = hand(EARTHLY, "0 kong N, 0 discard 5p, 1 win", replacements="8m")
    assert "earthly_hand" not in fan_ids(rnd)
    assert "concealed_hand" in fan_ids(rnd)


# -- 报听 and 天听 ----------------------------------------------------------------------------

# Seat 1 draws 9s: discarding N leaves 123m 123p 123s 34p 99s, ready on 2p / 5p.
READY = ["EE1m9m1s9s4567z238p5m", "123m123p123s34p9sN", "23468m2468s79p5pW", "13579m1357s6pSEE"]


def test_declaring_ready_is_offered_only_when_the_discard_leaves_the_hand_ready() -> None:
    rnd = hand(READY, "0 discard 2p", draws="9s")
    pass_all(rnd)
    legal = rnd.legal_actions(1)
    assert Discard(1, t("N"), declare_ready=True) in legal
    assert Discard(1, t("1m"), declare_ready=True) not in legal
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Discard(1, t("1m"), declare_ready=True))
    assert refused.value.reason == "cannot_declare_ready"
    off = hand(READY, "0 discard 2p", draws="9s", options={**PLAIN, "extra_fans": False})
    pass_all(off)
    assert not any(isinstance(a, Discard) and a.declare_ready for a in off.legal_actions(1))


def test_heavenly_ready_on_the_first_discard() -> None:
    rnd = hand(READY, "0 discard 2p, 1 ready N, 2 discard 5p, 1 win", draws="9s5p")
    result = rnd.result()
    assert ("heavenly_ready", 8) in fans(result)
    assert "declared_ready" not in fan_ids(rnd)
    events = [e for e in result["events"] if e["type"] == "discarded" and e["declare_ready"]]
    assert [(e["seat"], e["tile"]) for e in events] == [(1, "4z")]


def test_declared_ready_after_a_claim_and_the_locked_hand() -> None:
    """Seat 3 pongs the dealer's 东 first, so seat 1's declaration is 报听, not 天听. Once
    declared, seat 1 may not pong and must discard what it draws."""
    rnd = hand(
        READY,
        "0 discard E, 3 pong, 3 discard S, 0 discard 7p, 1 ready N, 2 discard 9s",
        draws="7p9s9s8m8s1m5p",
    )
    assert rnd.legal_actions(1) == []  # 99s held, but no pong after declaring
    advance(rnd, "3 discard 8m, 0 discard 8s")
    assert rnd.turn == 1 and rnd.last_drawn(1) == t("1m")
    assert rnd.legal_actions(1) == [Discard(1, t("1m"))]
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Discard(1, t("9s")))
    assert refused.value.reason == "ready_locked"
    advance(rnd, "1 discard 1m, 2 discard 5p, 1 win")
    assert ("declared_ready", 1) in fans(rnd.result())
    assert "heavenly_ready" not in fan_ids(rnd)
