"""Claim windows: priority, several winners, robbing a kong, claims after a kong."""

from __future__ import annotations

import pytest

from engine.actions import Chow, Discard, Kong, Pass, Pong, Win
from engine.errors import IllegalActionError
from engine.events import ClaimOffered, KongRobbed, Won
from engine.round import Phase
from engine.rules.play import EndReason, KongType
from engine.tiles import parse_tile
from tests.engine.round.helpers import deal
from tests.engine.round.plain import PLAIN, PlainRules

P5 = parse_tile("5p")

# S0 discards 5p: S1 can pong it, S2 (and S3 in the second layout) can win on it.
PONG_AND_WIN = ["5p1234567z2468m13s", "55p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]
TWO_WINNERS = ["5p1234567z2468m13s", "55p999p2468s1357z", "123456789m11s46p", "123456789s44m46p"]

MULTI = PlainRules(multiple_winners=True)


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_win_beats_pong_on_the_same_discard(order: tuple[int, int]) -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    assert rnd.phase is Phase.CLAIM
    assert Pong(1) in rnd.legal_actions(1)
    assert Win(2) in rnd.legal_actions(2)
    answers = {1: Pong(1), 2: Win(2)}
    for seat in order:
        rnd.apply(answers[seat])
    assert [w.seat for w in rnd.wins] == [2]
    assert rnd.ended and rnd.end_reason is EndReason.WIN
    assert [(p.payer, p.payee, p.amount, p.reason) for p in rnd.ledger.lines] == [
        (0, 2, 1, "win_discard")
    ]
    assert rnd.melds(1) == []


def test_pong_goes_ahead_when_the_winner_passes() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(2))
    rnd.apply(Pong(1))
    assert rnd.turn == 1 and rnd.phase is Phase.TURN
    assert [m.notation() for m in rnd.melds(1)] == ["[555p]"]
    assert rnd.discards(0)[-1].claimed_by == 1
    # After a pong: discard only, and no draw happened.
    assert all(isinstance(a, Discard) for a in rnd.legal_actions(1))
    assert rnd.last_drawn(1) is None


def test_two_winners_on_one_discard() -> None:
    rnd = deal(MULTI, TWO_WINNERS)
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(3))
    rnd.apply(Pong(1))
    rnd.apply(Win(2))
    assert [w.seat for w in rnd.wins] == [2, 3]
    assert [(p.payer, p.payee, p.reason) for p in rnd.ledger.lines] == [
        (0, 2, "win_discard"),
        (0, 3, "win_discard"),
    ]
    assert rnd.ledger.nets() == [-2, 0, 1, 1]


def test_single_winner_rule_takes_the_first_in_turn_order() -> None:
    rnd = deal(PLAIN, TWO_WINNERS)
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(3))
    rnd.apply(Win(2))
    rnd.apply(Pass(1))
    assert [w.seat for w in rnd.wins] == [2]


def test_several_winners_in_turn_order_from_the_discarder() -> None:
    rnd = deal(MULTI, TWO_WINNERS)
    rnd.apply(Discard(0, P5))
    for seat in (3, 2):
        rnd.apply(Win(seat))
    rnd.apply(Pass(1))
    won = [e for e in rnd.events if isinstance(e, Won)]
    assert [e.seat for e in won] == [2, 3]
    assert all(e.from_seat == 0 for e in won)


# S0 discards 9p and S1 pongs it; three honors go round; S1 draws the fourth 9p and adds
# it. S2 waits on 9p and can rob. The last wall tile, 5s, is the replacement draw.
ROB = ["9p1234567z2468m13s", "99p123m456m789m3z4z", "123456m789s11s78p", "2345m2345p23455s"]


def to_added_kong(rules: PlainRules = PLAIN):
    rnd = deal(rules, ROB, front="5z6z7z9p", back="5s")
    rnd.apply(Discard(0, parse_tile("9p")))
    rnd.apply(Pass(2))  # S2 could win on it: passing is allowed without restriction here
    rnd.apply(Pong(1))
    rnd.apply(Discard(1, parse_tile("3z")))
    for seat in (2, 3, 0):
        drawn = rnd.last_drawn(seat)
        assert drawn is not None
        rnd.apply(Discard(seat, drawn))
    assert rnd.turn == 1 and rnd.last_drawn(1) == parse_tile("9p")
    return rnd


def test_robbing_an_added_kong() -> None:
    rnd = to_added_kong()
    rnd.apply(Kong(1, parse_tile("9p")))
    assert rnd.phase is Phase.ROB
    offers = [e for e in rnd.events if isinstance(e, ClaimOffered) and e.rob]
    assert [(e.seat, e.options) for e in offers] == [(2, ("win",))]
    assert rnd.legal_actions(2) == [Win(2), Pass(2)]
    rnd.apply(Win(2))
    assert rnd.ended
    assert [(w.seat, w.how) for w in rnd.wins] == [(2, "rob_kong")]
    assert [(p.payer, p.payee, p.reason) for p in rnd.ledger.lines] == [(1, 2, "win_rob_kong")]
    assert [m.notation() for m in rnd.melds(1)] == ["[999p]"]
    assert rnd.kongs == []
    assert any(isinstance(e, KongRobbed) for e in rnd.events)


def test_while_an_added_kong_may_be_robbed_its_tile_is_no_longer_the_drawn_tile() -> None:
    """The drawn 9p went into the kong: the kong player's view must not show it in hand
    (a hand picture drawn then would look for a tile that is not there)."""
    rnd = to_added_kong()
    rnd.apply(Kong(1, parse_tile("9p")))
    assert rnd.phase is Phase.ROB
    mine = rnd.view(1).seats[1]
    assert mine.drawn is None
    assert mine.concealed is not None and mine.concealed[parse_tile("9p")] == 0
    rnd.apply(Pass(2))
    mine = rnd.view(1).seats[1]
    assert mine.drawn == parse_tile("5s") and mine.concealed is not None
    assert mine.concealed[parse_tile("5s")] >= 1


def test_kong_stands_when_nobody_robs_and_the_replacement_comes_from_the_back() -> None:
    rnd = to_added_kong()
    before = rnd.live_count
    rnd.apply(Kong(1, parse_tile("9p")))
    rnd.apply(Pass(2))
    assert [m.notation() for m in rnd.melds(1)] == ["[9999p]"]
    assert rnd.kongs[-1].type is KongType.ADDED and rnd.kongs[-1].drawn_now
    assert rnd.last_drawn(1) == parse_tile("5s")
    assert rnd.live_count == before - 1
    assert [(p.payer, p.payee, p.reason) for p in rnd.ledger.lines] == [
        (0, 1, "kong"),
        (2, 1, "kong"),
        (3, 1, "kong"),
    ]


def test_claiming_after_a_kong() -> None:
    rnd = to_added_kong()
    rnd.apply(Kong(1, parse_tile("9p")))
    rnd.apply(Pass(2))
    rnd.apply(Discard(1, parse_tile("5s")))
    assert Pong(3) in rnd.legal_actions(3)
    rnd.apply(Pong(3))
    assert rnd.turn == 3
    assert [m.notation() for m in rnd.melds(3)] == ["[555s]"]
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(Kong(3, parse_tile("5s")))
    assert err.value.reason == "must_discard"


def test_rob_window_refuses_other_claims() -> None:
    rnd = to_added_kong()
    rnd.apply(Kong(1, parse_tile("9p")))
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(Pong(2))
    assert err.value.reason == "rob_only"


def test_chow_only_from_the_previous_seat() -> None:
    # S0 discards 5p: S1 (下家) holds 46p and may chow; S2 holds 46p too but may not.
    hands = ["5p1234567z2468m13s", "46p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]
    rnd = deal(PLAIN, hands)
    rnd.apply(Discard(0, P5))
    chow = Chow(1, (parse_tile("4p"), P5, parse_tile("6p")))
    assert chow in rnd.legal_actions(1)
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(Chow(2, (parse_tile("4p"), P5, parse_tile("6p"))))
    assert err.value.reason == "chow_wrong_seat"
    assert "上家" in err.value.message
    rnd.apply(Pass(2))
    rnd.apply(chow)
    assert [m.notation() for m in rnd.melds(1)] == ["[456p]"]
    assert rnd.melds(1)[0].from_seat == 0


def test_chow_refused_where_the_rule_set_has_none() -> None:
    hands = ["5p1234567z2468m13s", "46p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]
    rnd = deal(PlainRules(chow=False), hands)
    rnd.apply(Discard(0, P5))
    assert all(not isinstance(a, Chow) for a in rnd.legal_actions(1))
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(Chow(1, (parse_tile("4p"), P5, parse_tile("6p"))))
    assert err.value.reason == "chow_not_allowed"
