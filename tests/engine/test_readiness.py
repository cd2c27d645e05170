"""听牌 help: a ready hand's waits with the copies left, and the discards that leave a full
hand ready, through each rule set's own winning shapes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.ai import make_player
from engine.readiness import Readiness, ReadyDiscard, Wait, readiness
from engine.round import Round
from engine.rules.registry import find_calculator, find_ruleset
from engine.simulate import PromptChoices
from engine.tiles import HandSpec, counts_of, kinds_of, parse_tile, parse_tiles
from tests.engine.round.helpers import deal

GUANGDONG = find_ruleset("guangdong")
# Nine gates for seat 1 (every 万 completes it); the dealer is ready but for its 东.
HANDS = ("234567m789p5599sE", "1112345678999m", "1234567p123456s", "7899p3456789sES")


def test_a_ready_hand_waits_on_each_kind_with_the_copies_left() -> None:
    hand = deal(GUANGDONG, HANDS)
    waits = readiness(hand, 1).waits
    assert [w.tile for w in waits] == parse_tiles("123456789m")
    # Nobody shows a 万: what seat 1 holds is all it can see of them.
    held = {w.tile: w.left for w in waits}
    assert held[parse_tile("1m")] == 1 and held[parse_tile("5m")] == 3


def test_on_a_turn_the_discards_that_leave_the_hand_ready() -> None:
    hand = deal(GUANGDONG, HANDS)
    found = readiness(hand, 0)
    assert found.waits == ()
    (only,) = found.discards
    assert isinstance(only, ReadyDiscard) and only.tile == parse_tile("E")
    assert found.after(parse_tile("E")) == (Wait(parse_tile("5s"), 2), Wait(parse_tile("9s"), 2))
    assert found.after(parse_tile("2m")) == ()


def test_a_hand_far_from_ready_waits_on_nothing() -> None:
    hand = deal(GUANGDONG, HANDS)
    assert readiness(hand, 3) == Readiness()


def _random_play(variant: str, seeds: int, size: int) -> Iterator[tuple[Round, int]]:
    """Every (hand, seat) of random play where the seat holds ``size`` tiles, melds
    counted as three."""
    for seed in range(seeds):
        hand = Round.new(variant, {}, seed)
        rng = random.Random(seed)
        while not hand.ended:
            for seat in range(4):
                held = sum(hand.concealed(seat)) + 3 * len(hand.melds(seat))
                if hand.is_dealt and held == size:
                    yield hand, seat
            seat = rng.choice(hand.to_act())
            hand.apply(rng.choice(hand.legal_actions(seat)))


def _calculator_waits(hand: Round, seat: int, discard: int | None = None) -> list[int]:
    """What the calculator (engine.score's waits query) says the seat's 13 tiles wait on,
    after ``discard`` if given, but for kinds the seat already holds four of."""
    calculator = find_calculator(hand.variant)
    concealed = kinds_of(hand.concealed(seat))
    if discard is not None:
        concealed.remove(discard)
    melds = tuple(hand.melds(seat))
    wildcard = hand.view(seat).facts.wildcard
    spec = HandSpec(tuple(concealed), melds)
    _, waits = calculator.waits(spec, wildcard, calculator.options_type())
    held = counts_of([*concealed, *(k for m in melds for k in m.tiles)])
    return [k for k in waits if held[k] < 4]


@pytest.mark.parametrize("variant", ["guangdong", "mcr"])
def test_the_waits_are_the_calculators(variant: str) -> None:
    """In random play, every 13-tile hand waits on what the calculator says."""
    for hand, seat in _random_play(variant, 6, 13):
        assert [w.tile for w in readiness(hand, seat).waits] == _calculator_waits(hand, seat)


@pytest.mark.parametrize("variant", ["guangdong", "mcr"])
def test_the_discards_that_leave_a_full_hand_ready_are_the_calculators(variant: str) -> None:
    """In random play, on every full hand, each discard leaves the waits the calculator
    finds for the 13 tiles left: skipping the discards of a hand too far from ready
    skips none that would have waited."""
    for hand, seat in _random_play(variant, 4, 14):
        found = readiness(hand, seat)
        for kind in set(kinds_of(hand.concealed(seat))):
            assert [w.tile for w in found.after(kind)] == _calculator_waits(hand, seat, kind)


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_what_is_kept_across_moves_is_what_each_state_would_work_out(variant: str) -> None:
    """Waits are kept for the same tiles all hand long; the copies left are each state's."""
    options = {"wildcard": True} if variant == "mcr" else {}
    for seed in range(3):
        hand = Round.new(variant, options, seed)
        players = [make_player("normal", seat) for seat in range(4)]
        while not hand.ended:
            for seat in range(4):
                kept = readiness(hand, seat)
                hand._kept.clear()
                hand._derived.clear()
                assert readiness(hand, seat) == kept
            seat = hand.to_act()[0]
            choices = (
                PromptChoices(hand, seat) if hand.prompt is not None else hand.legal_actions(seat)
            )
            hand.apply(players[seat].choose(hand.view(seat), choices, hand.default_action(seat)))
