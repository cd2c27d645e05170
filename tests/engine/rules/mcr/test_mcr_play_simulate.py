"""Whole sessions of AI play: every dice mode comes up from the seeded dice, and every
hand keeps the engine's invariants (tiles conserved, payments summing to zero, the round
script rebuilding the same hand)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.ai import make_player
from engine.rules.mcr.ruleset import RULESET, notes
from engine.session import Session
from engine.simulate import check_hand, play_out, simulate

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
            modes[notes(rnd).mode] += 1
            ends["win" if rnd.wins else "draw"] += 1
            session.finish_hand()
            played += 1
    assert set(modes) >= {"peek", "last_chance", "swap", "wealth", "peak"}
    assert ends["win"] > 0 and ends["draw"] > 0


def test_the_official_preset_simulates_cleanly() -> None:
    stats = simulate(RULESET, 40, 5, ["normal"] * 4, options={"preset": "official"})
    assert stats.failures == []
    assert stats.wins > 0
