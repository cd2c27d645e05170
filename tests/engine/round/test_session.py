"""Sessions: chairs and seats, the first dealer, dealer moves, scores, seeds from the
caller, resuming from what a store keeps."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action
from engine.ai import make_player
from engine.round import Round
from engine.session import Session, StoredHand, hand_seed
from engine.simulate import play_out
from engine.wall import first_dealer_chair, roll_dice
from tests.engine.round.plain import PLAIN


def _play(session: Session, seed: int | str | None = None) -> Round:
    rnd = session.start_hand(seed)
    players = [make_player("basic") for _ in range(4)]
    return play_out(rnd, players)


def _setup(rnd: Round) -> dict[str, object]:
    """The hand's round script without its actions: what a store keeps at the deal."""
    script = rnd.to_script()
    del script["actions"]
    return script


def test_first_dealer_from_hand_one_dice() -> None:
    session = Session(PLAIN, {}, seed="table-1")
    assert session.dealer is None
    dice = roll_dice(random.Random(hand_seed("table-1", 1)))
    rnd = session.start_hand()
    assert session.dealer == first_dealer_chair(dice)
    assert rnd.dice == dice and rnd.dealer == session.dealer


def test_seeds_from_the_caller() -> None:
    session = Session(PLAIN, {"rounds": 2}, seed=None)
    with pytest.raises(ValueError, match="from the caller"):
        session.start_hand()
    rnd = session.start_hand("fresh-1")
    assert session.dealer == first_dealer_chair(roll_dice(random.Random("fresh-1")))
    assert (
        rnd.snapshot() == Round.new(PLAIN, {"rounds": 2}, "fresh-1", dealer=rnd.dealer).snapshot()
    )
    play_out(rnd, [make_player("basic") for _ in range(4)])
    assert session.finish_hand().seed == "fresh-1"
    second = session.start_hand("fresh-2")
    assert second.dealer == (rnd.dealer + (rnd.next_dealer_seat or 0)) % 4


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


def _two_hands_then_a_third(seeds: list[str]) -> tuple[Session, list[StoredHand]]:
    """A session of four hands, two finished and a third begun, with what a store kept."""
    session = Session(PLAIN, {"rounds": 4}, seed=None)
    kept = []
    for seed in seeds[:2]:
        rnd = _play(session, seed)
        kept.append(StoredHand(seed, rnd.to_script()))
        session.finish_hand()
    live = session.start_hand(seeds[2])
    kept.append(StoredHand(seeds[2], _setup(live)))
    for action in live.legal_actions(live.to_act()[0])[:1]:
        live.apply(action)
    return session, kept


def test_resume_in_the_middle_of_a_hand() -> None:
    session, kept = _two_hands_then_a_third(["a", "b", "c"])
    live = session.current
    assert live is not None
    setup = kept[2]
    again = Session.resume(
        PLAIN, {"rounds": 4}, hands_played=2, scores=session.scores, current_hand=setup
    )
    assert again.hands_played == 2 and again.scores == session.scores
    assert again.dealer == session.dealer and again.current_seed == "c"
    assert again.current is not None and len(again.current.actions) == 0
    for action in live.actions:
        again.current.apply(action)
    assert again.current.snapshot() == live.snapshot()
    whole = StoredHand("c", {**setup.script, "actions": [a.to_json() for a in live.actions]})
    replayed = Session.resume(
        PLAIN, {"rounds": 4}, hands_played=2, scores=session.scores, current_hand=whole
    )
    assert replayed.current is not None and replayed.current.snapshot() == live.snapshot()


def test_resume_between_hands_deals_the_same_next_hand() -> None:
    session, kept = _two_hands_then_a_third(["a", "b", "c"])
    before_third = Session.resume(
        PLAIN,
        {"rounds": 4},
        hands_played=2,
        scores=session.scores,
        last_hand=kept[1],
    )
    assert before_third.current is None and before_third.dealer == session.dealer
    third = before_third.start_hand("c")
    assert session.current is not None
    fresh = Session.resume(
        PLAIN, {"rounds": 4}, hands_played=2, scores=session.scores, current_hand=kept[2]
    )
    assert fresh.current is not None and third.snapshot() == fresh.current.snapshot()


def test_an_ended_current_hand_waits_to_be_finished() -> None:
    session = Session(PLAIN, {"rounds": 2}, seed=None)
    rnd = _play(session, "x")
    stored = StoredHand("x", rnd.to_script())
    again = Session.resume(PLAIN, {"rounds": 2}, current_hand=stored)
    assert again.current is not None and again.current.ended
    record = again.finish_hand()
    assert record.net == session.finish_hand().net
    assert again.scores == session.scores and again.dealer == session.dealer


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands_played": 1}, "last finished hand"),
        ({"scores": (0, 0, 0)}, "4 chairs"),
    ],
)
def test_resume_refuses_what_cannot_be_resumed(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Session.resume(PLAIN, {}, **changes)  # type: ignore[arg-type]


def test_resume_refuses_a_hand_of_another_rule_set_or_seed() -> None:
    session = Session(PLAIN, {"rounds": 2}, seed=None)
    rnd = session.start_hand("s")
    setup = _setup(rnd)
    with pytest.raises(ValueError, match="cannot resume"):
        Session.resume("sichuan", {}, current_hand=StoredHand("s", setup))
    with pytest.raises(ValueError, match="does not give"):
        Session.resume(PLAIN, {"rounds": 2}, current_hand=StoredHand("other", setup))
    with pytest.raises(ValueError, match="not both"):
        Session.resume(
            PLAIN,
            {"rounds": 2},
            hands_played=1,
            last_hand=StoredHand("s", setup),
            current_hand=StoredHand("s", setup),
        )


def test_resumed_hands_replay_the_stored_actions() -> None:
    session = Session(PLAIN, {"rounds": 1}, seed=None)
    rnd = _play(session, "z")
    actions: list[Action] = list(rnd.actions)
    script = {**_setup(rnd), "actions": [a.to_json() for a in actions]}
    again = Session.resume(PLAIN, {"rounds": 1}, current_hand=StoredHand("z", script))
    assert again.current is not None and list(again.current.actions) == actions


def test_resume_draws_again_the_chance_values_drawn_after_the_deal() -> None:
    """A store keeps a hand's setup from its deal and then its actions; a value drawn
    later in the hand (MCR 妙手回春 here) comes again from the hand's seed."""
    session = Session("mcr", {}, seed=None)
    seed = "seed-164"
    hand = session.start_hand(seed)
    setup = _setup(hand)
    ai = make_player("random", 164)
    while not hand.ended:
        seat = hand.to_act()[0]
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), default))
    if set(hand.fields) <= set(setup):
        pytest.skip("this hand drew nothing after the deal")
    stored = StoredHand(seed, {**setup, "actions": [a.to_json() for a in hand.actions]})
    session.finish_hand()
    again = Session.resume("mcr", {}, hands_played=1, scores=session.scores, last_hand=stored)
    assert again.dealer == session.dealer
    assert again.start_hand("next").snapshot() == session.start_hand("next").snapshot()
