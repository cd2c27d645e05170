"""Generic properties of every rule set under random legal play (Hypothesis).

Each rule set, the test-only ones and every real one present in the tree, must keep:
tiles conserved, payments summing to zero, ``legal_actions`` and ``is_legal`` agreeing,
private hands hidden from other seats, a seat's drawn tile in its own hand, and the
round script of any prefix of play rebuilding exactly the live state.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from engine.round import Phase, Round
from engine.rules.base import RuleError
from engine.rules.play import PassRules, RuleSet, WinLock
from engine.rules.registry import VARIANTS, find_ruleset
from engine.tiles import counts_of
from tests.engine.round.plain import PlainRules


def _real(variant: str) -> RuleSet | None:
    try:
        return find_ruleset(variant)
    except RuleError:
        return None


CASES: list[Any] = [
    pytest.param(PlainRules(), {}, id="plain"),
    pytest.param(
        PlainRules(),
        {"exchange": True, "void": True, "horses": 3, "bet": True, "last_chance": True},
        id="plain-setup",
    ),
    pytest.param(
        PlainRules(chow=False, pass_rules=PassRules(pong_lock=True, win_lock=WinLock.ALL)),
        {},
        id="plain-locks",
    ),
    pytest.param(
        PlainRules(
            chow=False,
            multiple_winners=True,
            bloody=True,
            suited_only=True,
            pass_rules=PassRules(pong_lock=True, win_lock=WinLock.VALUE),
        ),
        {"void": True},
        id="plain-bloody",
    ),
    *(
        pytest.param(
            _real(v),
            {},
            id=v,
            marks=pytest.mark.skipif(_real(v) is None, reason=f"{v} is not implemented yet"),
        )
        for v in VARIANTS
    ),
]


def _probes(rnd: Round, data: st.DataObject) -> list[Action]:
    """A few actions of every kind for random seats: most of them illegal."""
    seat = data.draw(st.integers(0, 3))
    tile = data.draw(st.integers(0, 33))
    return [
        Discard(seat, tile),
        Pong(seat),
        Kong(seat, tile),
        Win(seat),
        Pass(seat),
        Chow(seat, (tile % 27 // 9 * 9, tile % 27 // 9 * 9 + 1, tile % 27 // 9 * 9 + 2)),
    ]


def _check_state(rnd: Round, tiles: list[int], data: st.DataObject) -> None:
    assert rnd.tile_census() == tiles
    assert sum(rnd.ledger.nets()) == 0
    if rnd.ended:
        assert rnd.to_act() == []
    else:
        assert rnd.to_act()
    for action in _probes(rnd, data):
        if rnd.phase is Phase.PROMPT:
            continue
        assert rnd.is_legal(action) == (action in rnd.legal_actions(action.seat))
    for seat in range(4):
        view = rnd.view(seat)
        mine = view.seats[seat]
        if mine.drawn is not None:
            assert mine.concealed is not None and mine.concealed[mine.drawn] > 0
        for other in range(4):
            hidden = view.seats[other].concealed is None
            shown = (
                rnd.ended
                or other == seat
                or other in rnd.ruleset.visible_hands(rnd, seat)
                or (rnd.phase is Phase.PROMPT and view.seats[other].concealed_count == 0)
            )
            assert hidden != shown or view.seats[other].concealed_count == 0


@pytest.mark.parametrize(("rules", "options"), CASES)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_legal_play_keeps_every_invariant(
    rules: RuleSet, options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    rnd = Round.new(rules, options, seed)
    tiles = counts_of(rules.tiles)
    # Mostly whole hands; sometimes a hand cut short, to replay an unfinished script.
    stop = data.draw(st.one_of(st.just(10**6), st.integers(0, 300)), label="stop after")
    steps = 0
    while not rnd.ended and steps < stop:
        seat = data.draw(st.sampled_from(rnd.to_act()), label="seat")
        legal = rnd.legal_actions(seat)
        assert legal, f"seat {seat} must act but has no legal action"
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        assert rnd.is_legal(action)
        rnd.apply(action)
        steps += 1
        if steps % 7 == 0 or rnd.ended:
            _check_state(rnd, tiles, data)
    again = Round.from_script(rnd.to_script(), ruleset=rules)
    assert again.snapshot() == rnd.snapshot()
    assert [e.to_json() for e in again.events] == [e.to_json() for e in rnd.events]
