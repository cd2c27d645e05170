"""The controls of what a seat is asked (engine.controls, Round.controls): they reach
exactly the legal actions, in every phase and every prompt of every rule set, and the
rule sets' suggestions are the ones a time-out takes."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Bet,
    ChooseVoid,
    Discard,
    Exchange,
    Kong,
    Pass,
    Peek,
    Swap,
    Win,
)
from engine.controls import (
    Choice,
    Controls,
    PickNumbers,
    PickOne,
    PickTiles,
    positions_of,
)
from engine.round import Phase, Round
from engine.rules.play import RuleSet
from engine.rules.registry import find_ruleset
from engine.suggestions import suggest_exchange, suggest_void
from engine.tiles import parse_tile
from tests.engine.round.plain import BLOODY, PLAIN
from tests.engine.round.test_claims import to_added_kong
from tests.engine.rules.mcr.test_mcr_party_modes import last_chance_hand, seeds_rolling


def reachable(seat: int, asked: Controls) -> set[Action]:
    """Every action a seat can send through ``asked``: each choice (completed by every
    allowed pick of the prompt's numbers) and every allowed pick of tiles."""
    numbers = [c for c in asked.controls if isinstance(c, PickNumbers)]
    out: set[Action] = set()
    for control in asked.controls:
        if isinstance(control, PickOne):
            for choice in control.choices:
                out.add(choice.action)
                for pick in numbers:
                    for n in range(pick.least, pick.most + 1):
                        for chosen in combinations(pick.numbers, n):
                            out.add(pick.with_numbers(choice.action, chosen))
        elif isinstance(control, PickTiles):
            for n in range(control.least, control.most + 1):
                for indices in combinations(range(len(control.tiles)), n):
                    out.add(control.answer(seat, indices))
    return out


def check_controls(rnd: Round) -> set[str]:
    """Check every seat's controls against its legal actions; the kinds seen."""
    kinds = set()
    for seat in range(4):
        asked = rnd.controls(seat)
        legal = rnd.legal_actions(seat)
        if asked is None:
            assert legal == []
            continue
        kinds.add(asked.kind)
        assert rnd.controls(seat) == asked
        found = reachable(seat, asked)
        assert found == set(legal), asked.kind
        assert all(rnd.is_legal(a) for a in found)
        check_suggestions(rnd, seat, asked)
        if rnd.phase is not Phase.PROMPT:
            (pick,) = asked.controls
            assert isinstance(pick, PickOne)
            assert pick.key == asked.kind == rnd.phase.value
            assert [c.action for c in pick.choices] == legal
    return kinds


def check_suggestions(rnd: Round, seat: int, asked: Controls) -> None:
    """A marked suggestion is the answer a time-out takes: the mark tells the player what
    happens if they do not answer."""
    for control in asked.controls:
        if isinstance(control, PickOne) and control.suggested is not None:
            assert control.choices[control.suggested].action == rnd.default_action(seat)
        if isinstance(control, PickTiles) and control.suggested:
            assert control.answer(seat, control.suggested) == rnd.default_action(seat)


def play_through_controls(rnd: Round, seed: int) -> set[str]:
    """Random play that sends only actions the controls reach; the kinds asked."""
    rng = random.Random(seed)
    kinds: set[str] = set()
    while not rnd.ended:
        kinds |= check_controls(rnd)
        seat = rng.choice(rnd.to_act())
        asked = rnd.controls(seat)
        assert asked is not None
        rnd.apply(rng.choice(sorted(reachable(seat, asked), key=repr)))
    assert all(rnd.controls(s) is None for s in range(4))
    return kinds


CASES: list[Any] = [
    pytest.param(
        PLAIN,
        {"exchange": True, "void": True, "bet": True, "last_chance": True},
        {"bet", "exchange", "void", "last_chance", "turn", "claim"},
        id="plain",
    ),
    pytest.param(BLOODY, {"exchange": True, "void": True}, {"exchange", "void"}, id="bloody"),
    pytest.param(find_ruleset("guangdong"), {}, {"turn", "claim"}, id="guangdong"),
    pytest.param(find_ruleset("sichuan"), {}, {"exchange", "void", "turn"}, id="sichuan"),
    pytest.param(
        find_ruleset("sichuan"), {"exchange_three": False}, {"void", "turn"}, id="sichuan-no-3"
    ),
    pytest.param(find_ruleset("mcr"), {}, {"bet", "turn", "claim"}, id="mcr"),
    pytest.param(find_ruleset("mcr"), {"horses": False}, {"bet"}, id="mcr-no-horses"),
    pytest.param(find_ruleset("mcr"), {"preset": "official"}, {"turn"}, id="mcr-official"),
]


@pytest.mark.parametrize(("rules", "options", "kinds"), CASES)
def test_random_play_through_the_controls_reaches_exactly_the_legal_actions(
    rules: RuleSet, options: dict[str, Any], kinds: set[str]
) -> None:
    seen: set[str] = set()
    for seed in range(4):
        seen |= play_through_controls(Round.new(rules, options, seed), seed)
    assert kinds <= seen


@pytest.mark.parametrize(("double", "kind"), [(2, "peek"), (4, "swap")])
def test_the_dice_modes_prompts_reach_exactly_their_legal_answers(double: int, kind: str) -> None:
    seeds = seeds_rolling(double)[:2]
    for seed in seeds:
        rnd = Round.new("mcr", {}, seed, hand_number=2)
        assert kind in play_through_controls(rnd, seed)


def test_last_chance_is_one_choice_per_face_down_tile() -> None:
    rnd = last_chance_hand([None, "1z2p1z1z", None, "7z7z5p7z"])
    assert check_controls(rnd) == {"last_chance"}
    asked = rnd.controls(1)
    assert asked is not None
    (pick,) = asked.controls
    assert isinstance(pick, PickOne)
    assert [c.number for c in pick.choices] == [1, 2, 3, 4]
    assert pick.suggested is None, "a face-down tile is no better than another"


def test_a_turn_names_each_discard_and_kong_tile() -> None:
    rnd = Round.new("guangdong", {}, 0)
    asked = rnd.controls(0)
    assert asked is not None and asked.kind == "turn"
    (pick,) = asked.controls
    assert isinstance(pick, PickOne) and pick.suggested is None
    for choice in pick.choices:
        if isinstance(choice.action, Discard):
            assert choice.tile == choice.action.tile
    assert rnd.controls(1) is None


def test_a_rob_window_offers_the_win_and_the_pass() -> None:
    rnd = to_added_kong()
    rnd.apply(Kong(1, parse_tile("9p")))
    assert check_controls(rnd) == {"rob"}
    asked = rnd.controls(2)
    assert asked is not None
    assert asked.controls == (PickOne("rob", (Choice(Win(2)), Choice(Pass(2)))),)


def sichuan_after_exchange(seed: int) -> Round:
    rnd = Round.new("sichuan", {}, seed)
    for seat in range(4):
        default = rnd.default_action(seat)
        assert default is not None
        rnd.apply(default)
    return rnd


@pytest.mark.parametrize("seed", range(6))
def test_the_void_suggestion_is_the_hands_weakest_suit(seed: int) -> None:
    rnd = sichuan_after_exchange(seed)
    for seat in range(4):
        asked = rnd.controls(seat)
        assert asked is not None and asked.kind == "void"
        (pick,) = asked.controls
        assert isinstance(pick, PickOne)
        assert [c.suit for c in pick.choices] == [0, 1, 2]
        assert pick.suggested == suggest_void(rnd.concealed(seat))
        assert pick.choices[pick.suggested].action == ChooseVoid(seat, pick.suggested)


@pytest.mark.parametrize("seed", range(6))
def test_the_exchange_is_a_pick_of_three_per_suit_with_the_suggested_pile(seed: int) -> None:
    rnd = Round.new("sichuan", {}, seed)
    for seat in range(4):
        held = rnd.concealed(seat)
        asked = rnd.controls(seat)
        assert asked is not None and asked.kind == "exchange"
        picks = [c for c in asked.controls if isinstance(c, PickTiles)]
        assert len(picks) == len(asked.controls)
        assert [p.suit for p in picks] == [s for s in range(3) if sum(held[s * 9 : s * 9 + 9]) >= 3]
        for pick in picks:
            assert (pick.least, pick.most, pick.key, pick.action) == (3, 3, "exchange", "exchange")
            assert all(k // 9 == pick.suit for k in pick.tiles)
        (suggesting,) = [p for p in picks if p.suggested]
        pile = suggest_exchange(held)
        assert suggesting.answer(seat, suggesting.suggested) == Exchange(seat, pile)
        assert rnd.default_action(seat) == Exchange(seat, pile)


def test_the_bet_is_the_horses_then_a_factor() -> None:
    rnd = Round.new("mcr", {}, 0)
    asked = rnd.controls(0)
    assert asked is not None and asked.kind == "bet"
    horses, factors = asked.controls
    assert horses == PickNumbers("horses", "horses", (1, 2, 3, 4, 5, 6), 0, 2)
    assert isinstance(factors, PickOne)
    assert [c.number for c in factors.choices] == [1, 2, 4]
    assert horses.with_numbers(factors.choices[1].action, [5, 2]) == Bet(0, 2, (2, 5))


def test_the_swap_picks_held_tiles_up_to_swap_max_or_keeps_them() -> None:
    seed = seeds_rolling(4)[0]
    rnd = Round.new("mcr", {"swap_max": 3, "doubling": False, "horses": False}, seed, hand_number=2)
    assert rnd.prompt is not None and rnd.prompt.id == "swap"
    asked = rnd.controls(1)
    assert asked is not None
    tiles, keep = asked.controls
    assert isinstance(tiles, PickTiles) and isinstance(keep, PickOne)
    assert (tiles.least, tiles.most, len(tiles.tiles)) == (1, 3, 13)
    assert keep.choices == (Choice(Swap(1, ())),)


NO_BETS = {"doubling": False, "horses": False}


@pytest.mark.parametrize(
    ("options", "double", "kind", "default"),
    [
        pytest.param({}, None, "bet", lambda seat: Bet(seat, 1, ()), id="bet"),
        pytest.param(
            {"doubling": False}, None, "bet", lambda seat: Bet(seat, 1, ()), id="horses-only"
        ),
        pytest.param(NO_BETS, 2, "peek", lambda seat: Peek(seat, (seat + 1) % 4), id="peek"),
        pytest.param(NO_BETS, 4, "swap", lambda seat: Swap(seat, ()), id="swap"),
    ],
)
def test_mcrs_set_up_prompts_mark_the_answer_a_time_out_takes(
    options: dict[str, Any], double: int | None, kind: str, default: Callable[[int], Action]
) -> None:
    """No horses and ×1, one's 下家, keeping one's tiles: marked as 定缺's and 换三张's
    suggestions are, so the player sees what happens if they do not answer."""
    seed = 0 if double is None else seeds_rolling(double)[0]
    rnd = Round.new("mcr", options, seed, hand_number=2)
    assert rnd.prompt is not None and rnd.prompt.id == kind
    for seat in range(4):
        asked = rnd.controls(seat)
        assert asked is not None
        (pick,) = [c for c in asked.controls if isinstance(c, PickOne)]
        assert pick.suggested is not None
        assert pick.choices[pick.suggested].action == default(seat) == rnd.default_action(seat)


def test_controls_refuse_bad_picks() -> None:
    tiles = PickTiles("swap", "swap", (0, 0, 5), least=1, most=2)
    assert tiles.answer(3, [2, 0]) == Swap(3, (0, 5))
    for bad in ([], [0, 1, 2], [0, 0], [3], [-1]):
        with pytest.raises(ValueError):
            tiles.answer(3, bad)
    horses = PickNumbers("horses", "horses", (1, 2, 3), 0, 2)
    for wrong in ([1, 2, 3], [4], [2, 2], [0]):
        with pytest.raises(ValueError):
            horses.with_numbers(Bet(0, 1, ()), wrong)
    with pytest.raises(ValueError):
        horses.with_numbers(Swap(0, ()), [1])


def test_positions_of_takes_each_copy_once() -> None:
    assert positions_of([5, 5, 9], [1, 5, 5, 5, 9]) == (1, 2, 4)


@given(
    tiles=st.lists(st.integers(0, 26), max_size=8).map(lambda v: tuple(sorted(v))),
    least=st.integers(0, 4),
    span=st.integers(0, 4),
    indices=st.lists(st.integers(-1, 9), max_size=6),
)
def test_a_pick_of_tiles_answers_exactly_the_valid_positions(
    tiles: tuple[int, ...], least: int, span: int, indices: list[int]
) -> None:
    pick = PickTiles("exchange", "exchange", tiles, least, least + span)
    valid = (
        least <= len(indices) <= least + span
        and len(set(indices)) == len(indices)
        and all(0 <= i < len(tiles) for i in indices)
    )
    if not valid:
        with pytest.raises(ValueError):
            pick.answer(0, indices)
        return
    assert pick.answer(0, indices) == Exchange(0, tuple(sorted(tiles[i] for i in indices)))
