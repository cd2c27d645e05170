"""Whole sessions of AI play: every dice mode comes up from the seeded dice, and every
hand keeps the engine's invariants (tiles conserved, payments summing to zero, the round
script rebuilding the same hand); and the figures a simulation prints for 国标."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai import make_player
from engine.round import Round
from engine.rules.mcr.options import DICE_MODES, McrOptions
from engine.rules.mcr.peak import dealt_shanten, shanten_figures
from engine.rules.mcr.ruleset import RULESET, notes
from engine.rules.play import Figure
from engine.session import Session
from engine.simulate import check_hand, play_out, simulate
from engine.wall import roll_dice
from tests.engine.round.helpers import hand_state

HANDS = 160


@pytest.mark.parametrize("level", ["random", "normal"])
def test_sessions_reach_every_mode_and_keep_the_invariants(level: str) -> None:
    modes: Counter[str | None] = Counter()
    ends: Counter[str] = Counter()
    players = [make_player(level, chair) for chair in range(4)]
    played = 0
    number = 0
    while played < HANDS:
        number += 1
        session = Session(RULESET, {}, f"mcr-{level}:{number}")
        while not session.over and played < HANDS:
            rnd = session.start_hand()
            play_out(rnd, [players[session.chair_of(seat)] for seat in range(4)])
            assert check_hand(rnd) == [], rnd.to_script()
            modes[notes(hand_state(rnd, McrOptions)).mode] += 1
            ends["win" if rnd.wins else "draw"] += 1
            session.finish_hand()
            played += 1
    assert set(modes) >= {"peek", "last_chance", "swap", "wealth", "peak"}
    assert ends["win"] > 0 and ends["draw"] > 0


def test_the_official_preset_simulates_cleanly() -> None:
    stats = simulate(RULESET, 40, 5, ["normal"] * 4, options={"preset": "official"})
    assert stats.failures == []
    assert stats.wins > 0


def test_simulation_figures_name_the_dice_mode_and_the_dealt_shanten() -> None:
    seed = next(s for s in range(3000) if roll_dice(random.Random(s)) == (6, 6))
    peak = Round.new("mcr", {}, seed, hand_number=2)
    figures = RULESET.hand_statistics(hand_state(peak, McrOptions))
    modes = {label: f for label, f in figures.items() if label.startswith("dice mode ")}
    assert list(modes) == [f"dice mode {m}" for m in ("none", *DICE_MODES)]
    assert {label for label, f in modes.items() if f.amount} == {"dice mode peak"}
    assert all(f.percent and f.out_of == 1 for f in modes.values())
    shanten = dealt_shanten(peak.dealt)
    assert figures["dealt shanten, 巅峰时刻 hands"] == Figure(sum(shanten) / 4)
    assert figures["dealt shanten, other hands"] == Figure(0, 0)
    plain = Round.new("mcr", {"preset": "official"}, seed, hand_number=2)
    figures = RULESET.hand_statistics(hand_state(plain, McrOptions))
    assert figures["dice mode none"].amount == 1
    assert figures["dealt shanten, 巅峰时刻 hands"] == Figure(0, 0)
    assert figures["dealt shanten, other hands"].out_of == 1


def test_simulation_notes_compare_peak_and_normal_deals_from_the_same_seeds() -> None:
    notes_of_run = RULESET.simulation_notes(RULESET.read_options({}), 30, 4)
    peak, normal = shanten_figures(30, 4, 3)
    assert notes_of_run == {
        "dealt shanten over 30 seeded 巅峰时刻 deals": round(peak, 2),
        "dealt shanten over 30 seeded normal deals": round(normal, 2),
    }
    assert peak < normal
    stats = simulate(RULESET, 8, 2, ["normal"] * 4)
    assert set(stats.notes) == {
        "dealt shanten over 8 seeded 巅峰时刻 deals",
        "dealt shanten over 8 seeded normal deals",
    }
    assert stats.figures["dice mode none"].out_of == 8
