"""宝牌 in play (mcr.md §4.3): the indicator's kind is wild, shown once the bets are in;
wildcards substitute only inside a winning concealed hand, never in claims, and a discarded
wildcard counts only as itself; the indicator counts as seen for 和绝张."""

from __future__ import annotations

from engine.actions import Discard, Pong, Win
from engine.events import ClaimOffered, Notice
from engine.rules.play import WinHow
from engine.tiles import parse_tile
from tests.engine.rules.mcr.mcr_scripts import advance, bets, fans, pass_all, play, script

# Seat 2 holds no 9s and waits on 5s alone: only a 9s standing for 5s would complete it.
ONLY_AS_A_JOKER = [
    "9s1m9m1p5p9p1234567z2s",
    "2468m2468p2468sN",
    "123m456p789mEEE5s",
    "13579m13579p13sS",
]


def test_a_discarded_wildcard_counts_only_as_itself() -> None:
    rnd = play(script(ONLY_AS_A_JOKER, bets(), indicator="9s"))
    nine = parse_tile("9s")
    held = list(rnd.concealed(2))
    held[nine] += 1
    # The rule set is told how the 9s would complete the hand.
    assert rnd.ruleset.is_complete(rnd, 2, held, nine, WinHow.SELF_DRAW)
    assert not rnd.ruleset.is_complete(rnd, 2, held, nine, WinHow.DISCARD)
    assert not rnd.ruleset.is_complete(rnd, 2, held, nine, WinHow.ROB_KONG)
    advance(rnd, "0 discard 9s")
    assert Win(2) not in rnd.legal_actions(2)
    assert not [e for e in rnd.events if isinstance(e, ClaimOffered) and e.seat == 2]
    # Asked why, the rule set names the wildcard.
    refusal = rnd.ruleset.refuse_win(rnd, rnd.win_context(2, nine, WinHow.DISCARD), None)
    assert refusal is not None and refusal.reason == "not_a_win"
    assert "a discarded wildcard counts only as itself" in refusal.message


def test_a_self_drawn_wildcard_may_stand_for_the_missing_tile() -> None:
    moves = bets() + ", 0 discard 2s, 1 discard N, 2 win"
    rnd = play(script(ONLY_AS_A_JOKER, moves, draws="N9s", indicator="9s"))
    (win,) = rnd.result()["winners"]
    assert win["how"] == "self_draw" and win["substitution"] == {"win": "5s"}


def test_claims_take_wildcards_as_natural_tiles() -> None:
    """Seat 1 pongs a discarded 9s with its two: a natural pung, no substitution."""
    hands = ["9s1m9m1p5p9p1234567z2s", "99s2468m2468p246s", "123m456p789mEEE5s", "13579m1357p13sSW"]
    rnd = play(script(hands, bets() + ", 0 discard 9s", indicator="9s"))
    assert Pong(1) in rnd.legal_actions(1)
    rnd.apply(Pong(1))
    assert [m.notation() for m in rnd.melds(1)] == ["[999s]"]


def test_the_wildcard_is_shown_once_the_bets_are_in() -> None:
    rnd = play(script(ONLY_AS_A_JOKER, "", indicator="9s"))
    assert rnd.view(0).facts.wildcard is None
    assert rnd.view(0).aside["indicator"] == 1
    for seat in range(4):
        rnd.apply(rnd.default_action(seat))  # type: ignore[arg-type]
    assert rnd.view(0).facts.wildcard == parse_tile("9s")
    assert rnd.view(None).facts.wildcard == parse_tile("9s")
    (shown,) = [e for e in rnd.events if isinstance(e, Notice) and e.name == "wildcard"]
    assert shown.seat is None and shown.data == {"indicator": "9s", "wildcard": "9s"}


def test_the_indicator_counts_as_a_seen_copy_for_the_last_tile() -> None:
    """The indicator and two discarded 3s are visible: seat 2 wins on the last 3s."""
    hands = ["3s1m9m1p5p9p1234567zN", "2468m2468p2468sW", "123m456p789s12s55s", "13579m1357p46sSE"]
    moves = bets() + ", 0 discard 3s, 1 discard 3s, 2 discard N, 3 discard 3s, 2 win"
    result = play(script(hands, moves, draws="3sN3s", indicator="3s")).result()
    assert ("last_tile", 4) in fans(result)
    assert ("no_wildcard", 8) in fans(result)


def test_readiness_counts_wildcards() -> None:
    """Seat 2 draws 5s; discarding N leaves 123m 456p 78s 9m EEE 5s, ready only with the
    wild 9m standing for 6s or 9s."""
    hands = ["1m9p1s9s1234567z28p5m", "2468p2468s1357mS", "123m456p78s9mEEEN", "13579p1357s46mSW"]
    declare = Discard(2, parse_tile("N"), declare_ready=True)
    for wildcard in (True, False):
        raw = script(
            hands,
            bets() + ", 0 discard 5m, 1 discard W",
            draws="W5s",
            indicator="9m",
            options={"wildcard": wildcard},
        )
        rnd = play(raw)
        pass_all(rnd)
        assert rnd.last_drawn(2) == parse_tile("5s")
        assert (declare in rnd.legal_actions(2)) is wildcard
