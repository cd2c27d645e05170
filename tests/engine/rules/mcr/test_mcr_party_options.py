"""Every MCR table option of mcr.md §5 changes what the spec says it changes."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from engine.actions import Action, Bet, Swap, Win
from engine.analysis import shanten
from engine.errors import IllegalActionError
from engine.round import Phase, Round
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.ruleset import RULESET
from engine.rules.mcr.scorer import MCR_SHAPES
from engine.session import Session
from engine.tiles import counts_of, parse_tile
from engine.wall import roll_dice
from tests.engine.round.helpers import hand_state
from tests.engine.rules.mcr.mcr_examples import P2, W1, W3
from tests.engine.rules.mcr.mcr_scripts import bets, fans, lines, play, script


def seed_rolling(double: int) -> int:
    return next(s for s in range(3000) if roll_dice(random.Random(s)) == (double, double))


def with_options(raw: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {**raw, "options": {**raw["options"], **options}}


def factors(actions: Iterable[Action]) -> set[int]:
    """The doubling factors of a bet prompt's legal actions, every one of them a bet."""
    found: set[int] = set()
    for action in actions:
        assert isinstance(action, Bet)
        found.add(action.factor)
    return found


def without_horse_picks(raw: dict[str, Any]) -> dict[str, Any]:
    picks = [{**a, "horses": []} if a["action"] == "bet" else a for a in raw["actions"]]
    return {**raw, "actions": picks}


def test_preset_official_turns_the_party_rules_off() -> None:
    party = Round.new("mcr", {}, seed_rolling(2), hand_number=2)
    official = Round.new("mcr", {"preset": "official"}, seed_rolling(2), hand_number=2)
    assert party.prompt is not None and party.prompt.id == "bet"
    assert official.prompt is None and official.phase is Phase.TURN
    assert set(party.set_aside) == {"horses", "indicator"} and official.set_aside == {}
    assert (party.live_count, official.live_count) == (76, 83)
    # An explicit option overrides the preset's column.
    assert Round.new("mcr", {"preset": "official", "horses": True}, 1).set_aside.keys() == {
        "horses"
    }


def test_rounds_sets_the_session_length() -> None:
    assert Session("mcr", {}).hands_planned == 4
    assert Session("mcr", {"preset": "official"}).hands_planned == 16
    assert Session("mcr", {"rounds": 8}).hands_planned == 8
    assert [
        RULESET.next_fields(McrOptions(), hand_state(Round.new("mcr"), McrOptions), 1, n)[
            "round_wind"
        ]
        for n in (4, 5, 17)
    ] == [
        "E",
        "S",
        "E",
    ]


def test_min_fan_is_the_least_total_that_wins() -> None:
    """P2's winner has 12 fan."""
    below = play(with_options({**P2, "actions": P2["actions"][:-1]}, min_fan=13))
    assert Win(2) not in below.legal_actions(2)
    exact = play(with_options(P2, min_fan=12)).result()
    assert exact["winners"][0]["total"] == 12


def test_base_points_is_b_of_the_settlement() -> None:
    result = play(with_options(without_horse_picks(P2), base_points=2)).result()
    assert lines(result) == [
        (0, 2, 2, "win_discard"),
        (1, 2, 14, "win_discard"),
        (3, 2, 2, "win_discard"),
    ]


def test_extra_fans_adds_the_course_of_hand_fans() -> None:
    hands = ["123m456p789s123s55m", "13579m1357p135sF", "2468m2468p2468sP", "13579m2468p246sS"]
    on = play(script(hands, bets() + ", 0 win", indicator="F")).result()
    off = play(script(hands, bets() + ", 0 win", indicator="F", options={"extra_fans": False}))
    assert fans(on)[0] == ("heavenly_hand", 88)
    assert "heavenly_hand" not in [f for f, _ in fans(off.result())]


def test_doubling_allows_the_factors() -> None:
    on = play(script(P2["hands"], "", indicator="F", horses="3p6s7z8m8p8s"))
    assert factors(on.legal_actions(0)) == {1, 2, 4}
    assert factors(on.legal_actions(1)) == {1, 2}
    with pytest.raises(IllegalActionError) as refused:
        on.apply(Bet(1, 4, ()))
    assert refused.value.reason == "invalid_factor"
    off = play(with_options({**P2, "actions": []}, doubling=False))
    assert factors(off.legal_actions(0)) == {1}
    with pytest.raises(IllegalActionError):
        off.apply(Bet(0, 2, ()))


def test_horses_on_and_off() -> None:
    assert any(p["reason"] == "horse" for p in play(P2).result()["payments"])
    off = with_options(without_horse_picks(P2), horses=False)
    assert all(p["reason"] != "horse" for p in play(off).result()["payments"])
    fresh = play({**off, "actions": []})
    assert "horses" not in fresh.set_aside and fresh.live_count == 83 - 1
    with pytest.raises(IllegalActionError) as refused:
        fresh.apply(Bet(0, 1, (1,)))
    assert refused.value.reason == "horses_off"
    with pytest.raises(IllegalActionError) as refused:
        play({**P2, "actions": []}).apply(Bet(0, 1, (1, 2, 3)))
    assert refused.value.reason == "invalid_horses"


def test_wildcard_sets_aside_the_indicator_and_lets_wildcards_substitute() -> None:
    on = play(W3)
    assert on.set_aside["indicator"] == (parse_tile("9s"),) and on.live_count < 76
    assert on.result()["wildcard"] == "9s" and on.result()["winners"]
    no_win = with_options({**W3, "actions": W3["actions"][:-1]}, wildcard=False)
    off = play(no_win)
    assert "indicator" not in off.set_aside
    assert Win(0) not in off.legal_actions(0)


def test_wild_bonus_fan_is_the_no_wildcard_bonus() -> None:
    assert play(W1).result()["winners"][0]["total"] == 22
    none = play(with_options(W1, wild_bonus_fan=0)).result()
    assert none["winners"][0]["total"] == 14
    assert "no_wildcard" not in [f for f, _ in fans(none)]
    three = play(with_options(W1, wild_bonus_fan=3)).result()
    assert ("no_wildcard", 3) in fans(three)


@pytest.mark.parametrize(
    ("modes", "dice", "prompt"),
    [
        (["peek"], (2, 2), "peek"),
        ([], (2, 2), None),
        (["swap"], (2, 2), None),
        (["swap"], (4, 4), "swap"),
    ],
)
def test_dice_modes_lists_the_modes_that_may_start(
    modes: list[str], dice: tuple[int, int], prompt: str | None
) -> None:
    rnd = play(
        with_options({**P2, "dice": list(dice), "actions": P2["actions"][:4]}, dice_modes=modes)
    )
    assert (rnd.prompt.id if rnd.prompt else None) == prompt


def test_swap_max_limits_the_swap_and_zero_skips_it() -> None:
    raw = {**P2, "dice": [4, 4], "actions": P2["actions"][:4]}
    rnd = play(with_options(raw, swap_max=1))
    choices = {a.tiles for a in rnd.legal_actions(0) if isinstance(a, Swap)}
    assert choices == {(), *((k,) for k in rnd.dealt[0])}
    skipped = play(with_options(raw, swap_max=0))
    assert skipped.prompt is None and skipped.phase is Phase.TURN


def test_peak_noise_is_the_random_part_of_each_peak_hand() -> None:
    seed = seed_rolling(6)
    exact = Round.new("mcr", {"peak_noise": 0}, seed, hand_number=2)
    noisy = Round.new("mcr", {"peak_noise": 6}, seed, hand_number=2)
    templates = exact.fields["peak_templates"]
    for seat, hand in enumerate(exact.dealt):
        if templates[seat] != "random":
            assert shanten(counts_of(hand), 0, MCR_SHAPES) == (-1 if seat == 0 else 0)
    assert exact.dealt != noisy.dealt
