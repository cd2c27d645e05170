"""Several hands of one guangdong table through engine.session (guangdong.md §5, E15).

Each hand is dealt by the session, which fixes its dealer and its horse count and dealer
streak; the test then plays a round script with those values in its place, so the hand's
outcome is chosen while the session's bookkeeping is the engine's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine import simulate
from engine.ai import make_player
from engine.round import Round
from engine.session import Session
from engine.wall import first_dealer_chair
from tests.engine.rules.guangdong.guangdong_scripts import play_out, script

A, B, C, D = range(4)


@dataclass(frozen=True)
class Hand:
    """A scripted hand: seats' tiles, actions, the draws and replacement draws it needs."""

    hands: tuple[str, str, str, str]
    actions: str
    draws: str = ""
    replacements: str = ""


# The dealer wins on his dealt 14 tiles (天胡): a self-drawn continuation.
HEAVENLY = Hand(
    ("123m456m789p123sEE", "2468m2468p2468sS", "1357m1357p4567sW", "9m3579p89sSWNCFP"),
    "0 win",
)
# Seat 2 wins on the dealer's first discard (地胡): the deal passes to seat 2.
EARTHLY = Hand(
    ("9m1379p1359sESWNC", "78m1589p2479sCFP", "123456m234p678s9m", "8m2678p1358sESWN"),
    "0 discard 9m, 2 win",
)
# Seat 1 discards 5p; the dealer and seat 3 both win: seat 3 comes first from seat 1.
DOUBLE = Hand(
    ("123m789m567s34pCC9s", "5p2468m1679p2468s", "59m2589p1359sESW", "123456m789s34pNN"),
    "0 discard 9s, 1 discard 5p, 0 win, 3 win",
    draws="F",
)
# Seat 1 discards 5p and only the dealer wins.
DEALER_ON_A_DISCARD = Hand(
    ("123m789m567s34pCC9s", "5p2468m1679p2468s", "59m2589p1359sESW", "369m9p89sSWNCFPE"),
    "0 discard 9s, 1 discard 5p, 0 win",
    draws="F",
)
# Seat 1 pongs 7s from seat 3, later adds the fourth 7s, and the dealer robs it.
DEALER_ROBS = Hand(
    ("123m456m789p6sEE1pS", "77s2468m2468pNWC", "1357m1357p2459sF", "7s9m369p1389sSWNP"),
    "0 discard 1p, 1 discard F, 2 discard P, 3 discard 7s, 1 pong, 1 discard N,"
    " 2 discard 3p, 3 discard 5m, 0 discard S, 1 kong 7s, 0 win",
    draws="FPE3p5m8s7s",
)
# The dealer kongs seat 3's discarded 3s and wins on the replacement tile (杠上开花).
DEALER_KONG_BLOOM = Hand(
    ("333s456m789m12pCCE", "2468m2468p2468sS", "1357m5679p1579sW", "3s9m138p68sESWNFP"),
    "0 discard E, 1 discard F, 2 discard P, 3 discard 3s, 0 kong 3s, 0 win",
    draws="FPN",
    replacements="3p",
)


def play_scripted(session: Session, hand: Hand) -> Round:
    """Deal the session's next hand, play ``hand`` in its place and book it."""
    dealt = session.start_hand()
    raw = script(
        hand.hands,
        hand.actions,
        draws=hand.draws,
        replacements=hand.replacements,
        options=session.raw_options,
        dealer=dealt.dealer,
        horse_count=dealt.fields["horse_count"],
        dealer_streak=dealt.fields["dealer_streak"],
    )
    rnd = Round.from_script(raw)
    assert rnd.ended
    session.current = rnd
    session.finish_hand()
    return rnd


def play_to_a_draw(session: Session) -> Round:
    """Deal the session's next hand from its seed; everyone discards what they draw."""
    rnd = session.start_hand()
    play_out(rnd)
    assert rnd.result()["end"] == "exhausted"
    session.finish_hand()
    return rnd


def counters(rnd: Round) -> tuple[int, int, int]:
    """(dealer's chair, horse count, dealer streak) of a hand, as its script records them."""
    return rnd.dealer, rnd.fields["horse_count"], rnd.fields["dealer_streak"]


def test_horse_count_grows_with_self_drawn_continuations_then_resets() -> None:
    session = Session("guangdong", {"rounds": 8}, seed=7, first_dealer=B)
    played = [play_scripted(session, HEAVENLY) for _ in range(4)]
    assert [counters(r) for r in played] == [(B, 1, 1), (B, 3, 2), (B, 4, 3), (B, 4, 4)]
    assert [len(r.set_aside["horses"]) for r in played] == [1, 3, 4, 4]

    passes = play_scripted(session, EARTHLY)
    assert counters(passes) == (B, 4, 5)
    drawn = play_to_a_draw(session)
    assert counters(drawn) == (D, 1, 1)  # seat 2 of chair B's hand is chair D

    double = play_scripted(session, DOUBLE)
    assert counters(double) == (A, 1, 1)  # after a draw the 下家 deals
    assert [w.seat for w in double.wins] == [3, 0]  # in turn order from the discarder
    last = play_scripted(session, HEAVENLY)
    assert counters(last) == (D, 1, 1)  # seat 3 of chair A's hand wins first from seat 1

    assert session.over
    assert session.hands_played == 8
    assert sum(session.scores) == 0
    assert session.scores == [sum(record.net[c] for record in session.history) for c in range(4)]


def test_e15_dealer_and_horse_count_over_a_session() -> None:
    session = Session("guangdong", {}, seed=15, first_dealer=first_dealer_chair((3, 5)))
    hands = [
        play_scripted(session, HEAVENLY),
        play_scripted(session, DEALER_ON_A_DISCARD),
        play_scripted(session, DEALER_ROBS),
        play_to_a_draw(session),
        play_scripted(session, DOUBLE),
        play_scripted(session, DEALER_KONG_BLOOM),
    ]
    assert [counters(r) for r in hands] == [
        (D, 1, 1),
        (D, 3, 2),
        (D, 4, 3),
        (D, 4, 4),
        (A, 1, 1),
        (D, 1, 1),
    ]
    assert [w.how for r in hands for w in r.wins] == [
        "self_draw",
        "discard",
        "rob_kong",
        "discard",
        "discard",
        "kong_bloom",
    ]
    hand7 = session.start_hand()
    assert counters(hand7) == (D, 3, 2)
    assert len(hand7.set_aside["horses"]) == 3
    assert session.hands_planned == 8


def test_stored_hands_replay_to_the_same_result() -> None:
    session = Session("guangdong", {"base_stake": 3}, seed=2, first_dealer=C)
    rounds = [play_scripted(session, h) for h in (HEAVENLY, DEALER_ROBS, DEALER_KONG_BLOOM)]
    for rnd, record in zip(rounds, session.history, strict=True):
        again = Round.from_script(record.script)
        assert again.result() == rnd.result()
        assert again.fields == rnd.fields


@pytest.mark.parametrize("rounds", [1, 4])
def test_rounds_ends_the_session_even_when_the_dealer_would_continue(rounds: int) -> None:
    session = Session("guangdong", {"rounds": rounds}, seed=1, first_dealer=A)
    for _ in range(rounds):
        assert not session.over
        play_scripted(session, HEAVENLY)
    assert session.over
    with pytest.raises(ValueError, match="all its hands"):
        session.start_hand()


REASONS = {
    "win_discard",
    "win_self_draw",
    "win_rob_kong",
    "win_kong_bloom_discarder",
    "kong_exposed",
    "kong_concealed",
    "kong_added",
    "horse",
}


@pytest.mark.parametrize(("level", "seed"), [("random", 1), ("normal", 2), ("basic", 3)])
def test_ai_sessions_keep_every_invariant(level: str, seed: int) -> None:
    session = Session("guangdong", {"max_horses": 3}, seed=seed)
    players = [make_player(level, seed * 10 + chair) for chair in range(4)]
    while not session.over:
        rnd = session.start_hand()
        simulate.play_out(rnd, [players[session.chair_of(s)] for s in range(4)])
        assert simulate.check_hand(rnd) == []
        assert {line.reason for line in rnd.ledger.lines} <= REASONS
        assert 1 <= rnd.fields["horse_count"] <= 3
        assert len(rnd.set_aside["horses"]) == rnd.fields["horse_count"]
        if not rnd.wins:
            assert rnd.ledger.lines == []
        session.finish_hand()
    assert sum(session.scores) == 0
