"""AI players: legal play everywhere, sensible set-up choices, and normal beating random."""

from __future__ import annotations

import pytest

from engine.actions import ChooseVoid, Exchange
from engine.ai import LEVELS, make_player
from engine.round import Round
from engine.rules.base import RuleError
from engine.rules.registry import VARIANTS, find_ruleset
from engine.simulate import play_out, simulate
from engine.suggestions import suggest_exchange, suggest_void
from engine.tiles import counts_of, parse_tiles
from tests.engine.round.plain import PLAIN, PlainRules


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        make_player("grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_hands_to_the_end(level: str) -> None:
    rules = PlainRules(multiple_winners=True, bloody=True, chow=False, suited_only=True)
    for seed in range(3):
        rnd = Round.new(rules, {"exchange": True, "void": True}, seed)
        play_out(rnd, [make_player(level, seed * 4 + s) for s in range(4)])
        assert rnd.ended


def test_normal_beats_random_by_a_wide_margin() -> None:
    stats = simulate(PLAIN, 40, seed=3, levels=["normal", "random", "random", "random"])
    assert stats.failures == []
    wins = stats.wins_by_chair
    assert wins[0] >= 0.6 * stats.hands
    assert wins[0] > 5 * max(wins[1:])
    assert stats.net_by_chair[0] > 0


def test_void_and_exchange_suggestions() -> None:
    counts = counts_of(parse_tiles("19m1234567p2379s"))
    assert suggest_void(counts) == 0  # fewest tiles: 万
    # 万 has fewer than three tiles, so the pile comes from 条, keeping its best part.
    assert suggest_exchange(counts) == tuple(parse_tiles("279s"))
    # A run and a pair: the run's value is kept over the odd tiles.
    assert suggest_exchange(counts_of(parse_tiles("19m1234567p12399s"))) == tuple(
        parse_tiles("199s")
    )


def test_ai_prompt_answers_are_the_hints() -> None:
    rnd = Round.new(PLAIN, {"exchange": True, "void": True}, seed=8)
    player = make_player("normal")
    for seat in range(4):
        action = player.choose(rnd.view(seat), rnd.legal_actions(seat), rnd.default_action(seat))
        assert action == Exchange(seat, suggest_exchange(rnd.concealed(seat)))
        rnd.apply(action)
    for seat in range(4):
        action = player.choose(rnd.view(seat), rnd.legal_actions(seat), rnd.default_action(seat))
        assert isinstance(action, ChooseVoid)
        rnd.apply(action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_real_rule_sets_simulate_cleanly(variant: str) -> None:
    try:
        rules = find_ruleset(variant)
    except RuleError:
        pytest.skip(f"{variant} is not implemented yet")
    stats = simulate(rules, 6, seed=1, levels=["normal", "basic", "random", "normal"])
    assert stats.failures == []
    assert stats.hands == 6


@pytest.mark.parametrize("variant", VARIANTS)
def test_normal_does_not_lose_to_basic(variant: str) -> None:
    """Normal sits at chairs 0 and 2, basic at 1 and 3; over a seeded run normal wins money."""
    stats = simulate(find_ruleset(variant), 200, seed=5, levels=["normal", "basic"] * 2)
    assert stats.failures == []
    net = stats.net_by_chair
    assert net[0] + net[2] > 0 > net[1] + net[3]
