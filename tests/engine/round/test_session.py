"""Sessions: chairs and seats, the first dealer, dealer moves, scores, resuming."""

from __future__ import annotations

import random

import pytest

from engine.ai import make_player
from engine.round import Round
from engine.session import Session, hand_seed
from engine.simulate import play_out
from engine.wall import first_dealer_chair, roll_dice
from tests.engine.round.plain import PLAIN


def _play(session: Session) -> Round:
    rnd = session.start_hand()
    players = [make_player("basic") for _ in range(4)]
    return play_out(rnd, players)


def test_first_dealer_from_hand_one_dice() -> None:
    session = Session(PLAIN, {}, seed="table-1")
    dice = roll_dice(random.Random(hand_seed("table-1", 1)))
    assert session.dealer == first_dealer_chair(dice)
    rnd = session.start_hand()
    assert rnd.dice == dice and rnd.dealer == session.dealer


def test_seats_follow_the_dealer() -> None:
    session = Session(PLAIN, {}, seed=1, first_dealer=2)
    assert [session.seat_of(c) for c in range(4)] == [2, 3, 0, 1]
    assert [session.chair_of(s) for s in range(4)] == [2, 3, 0, 1]


def test_hands_scores_and_dealers() -> None:
    session = Session(PLAIN, {"rounds": 3}, seed=4, first_dealer=1)
    assert session.hands_planned == 3 and session.hands_played == 0
    while not session.over:
        dealer = session.dealer
        rnd = _play(session)
        record = session.finish_hand()
        assert record.dealer == dealer
        assert sum(record.net) == 0
        for seat, net in enumerate(rnd.ledger.nets()):
            assert record.net[(seat + dealer) % 4] == net
        assert session.dealer == (dealer + (rnd.next_dealer_seat or 0)) % 4
    assert session.hands_played == 3
    assert session.scores == [sum(r.net[c] for r in session.history) for c in range(4)]
    with pytest.raises(ValueError):
        session.start_hand()


def test_finish_needs_an_ended_hand() -> None:
    session = Session(PLAIN, {}, seed=2)
    with pytest.raises(ValueError):
        session.finish_hand()
    session.start_hand()
    with pytest.raises(ValueError):
        session.finish_hand()
    with pytest.raises(ValueError):
        session.start_hand()


def test_resume_rebuilds_the_session() -> None:
    session = Session(PLAIN, {"rounds": 4}, seed=9)
    logs = []
    for _ in range(2):
        rnd = _play(session)
        logs.append(list(rnd.actions))
        session.finish_hand()
    live = session.start_hand()
    for action in live.legal_actions(0)[:1]:
        live.apply(action)
    logs.append(list(live.actions))
    again = Session.resume(PLAIN, {"rounds": 4}, 9, logs)
    assert again.scores == session.scores and again.dealer == session.dealer
    assert again.hands_played == 2
    assert again.current is not None and again.current.snapshot() == live.snapshot()
