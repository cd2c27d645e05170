"""Agreement with PyMahjongGB 1.4.0 on 20,000 seeded winning hands of every shape.

Same total and the same fans with the same counts, hand by hand. The hands come from
``engine.rules.mcr.samples``: standard hands with concealed and declared chows, pungs and
kongs, 七对, 连七对, 十三幺, 全不靠, 七星不靠, 组合龙 with a set and a pair, 九莲宝灯, every
combination of the four win flags and both winds.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.rules.mcr.fans import OFFICIAL_FANS
from engine.rules.mcr.samples import random_win
from engine.tiles import MeldType
from tests.engine.rules.mcr.mcr_oracle import our_fans, reference_fans

HANDS = 20_000
SEED = 20_240_601
SHAPES = (
    "seven_pairs",
    "seven_shifted_pairs",
    "thirteen_orphans",
    "lesser_honors_and_knitted_tiles",
    "greater_honors_and_knitted_tiles",
    "knitted_straight",
    "nine_gates",
)


def test_agrees_with_the_reference_on_seeded_hands() -> None:
    rng = random.Random(SEED)
    mismatches = []
    fans_seen: Counter[str] = Counter()
    flags_seen = set()
    winds_seen = set()
    melds_seen: set[MeldType] = set()
    for _ in range(HANDS):
        facts = random_win(rng)
        ours = our_fans(facts)
        theirs = reference_fans(facts)
        if ours != theirs:
            mismatches.append((facts.hand.notation(), facts.win_tile, facts, ours, theirs))
        fans_seen.update(ours)
        flags_seen.add((facts.self_drawn, facts.fourth_tile, facts.kong_related, facts.last_tile))
        winds_seen.add((facts.seat_wind, facts.round_wind))
        melds_seen.update(m.type for m in facts.hand.melds)
    assert mismatches == []
    # The sample covers every fan a hand can score (花牌 never: no flowers), every shape,
    # every kind of meld and every combination of the flags and the winds.
    assert [f.id for f in OFFICIAL_FANS if f.id not in fans_seen] == ["flower_tiles"]
    assert all(fans_seen[shape] for shape in SHAPES)
    assert melds_seen == set(MeldType)
    assert len(flags_seen) == 16
    assert len(winds_seen) == 16
