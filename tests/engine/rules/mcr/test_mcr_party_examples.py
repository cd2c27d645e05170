"""The worked examples of mcr.md §6.2 (wildcards) and §6.3 (party settlement) played
through the round engine as round scripts: every payment line and every net asserted."""

from __future__ import annotations

from tests.engine.rules.mcr.mcr_examples import P1, P2, P3, P4, W1, W3
from tests.engine.rules.mcr.mcr_scripts import fans, lines, play

B = 8

# -- §6.3 party settlement ---------------------------------------------------------------


def test_p1_doubling_multiplies_each_line_by_both_factors() -> None:
    result = play(P1).result()
    assert fans(result) == [
        ("pure_straight", 16),
        ("all_chows", 2),
        ("mixed_double_chow", 1),
        ("self_drawn", 1),
    ]
    assert result["winners"][0]["total"] == 20
    assert lines(result) == [
        (0, 1, 224, "win_self_draw"),  # 28 × 4 × 2
        (2, 1, 56, "win_self_draw"),  # 28 × 1 × 2
        (3, 1, 112, "win_self_draw"),  # 28 × 2 × 2
    ]
    assert result["net"] == [-224, 392, -56, -112]
    assert [b["factor"] for b in result["bets"]] == [4, 2, 1, 2]


def test_p2_horses_copy_the_lines_of_their_seats() -> None:
    result = play(P2).result()
    assert result["winners"][0]["total"] == 12
    assert lines(result) == [
        (0, 2, B, "win_discard"),
        (1, 2, B + 12, "win_discard"),
        (3, 2, B, "win_discard"),
        # 3p (seat 0 → seat 2): 0 → 2 would be 0 → 0 and is dropped.
        (1, 0, 20, "horse"),
        (3, 0, 8, "horse"),
        # 6s (seat 0 → seat 1)
        (0, 2, 20, "horse"),
        # 白 (seat 3 → seat 2): 3 → 2 would be 3 → 3 and is dropped.
        (0, 3, 8, "horse"),
        (1, 3, 20, "horse"),
    ]
    assert result["net"] == [-8, -60, 56, 12]
    horse = next(p for p in result["payments"] if p["reason"] == "horse")
    assert horse == {
        "payer": 1,
        "payee": 0,
        "amount": 20,
        "reason": "horse",
        "horse": "3p",
        "horse_seat": 2,
        "buyer": 0,
        "position": 1,
        "copy_of": 2,
    }
    assert [(h["tile"], h["seat"], h["buyers"]) for h in result["horses"]][:3] == [
        ("3p", 2, [0]),
        ("6s", 1, [0]),
        ("7z", 2, [3]),
    ]


def test_p3_dealer_self_draw_with_doubling_and_horses() -> None:
    result = play(P3).result()
    assert result["winners"][0]["total"] == 30
    assert lines(result) == [
        (1, 0, 76, "win_self_draw"),
        (2, 0, 76, "win_self_draw"),
        (3, 0, 152, "win_self_draw"),
        # 1z of seat 0 (→ seat 0, himself): his own win once more, not doubled again.
        (1, 0, 76, "horse"),
        (2, 0, 76, "horse"),
        (3, 0, 152, "horse"),
        # 5m of seat 1 (→ seat 0): 1 → 0 would be 1 → 1 and is dropped.
        (2, 1, 76, "horse"),
        (3, 1, 152, "horse"),
        # 2s of seat 2 (→ seat 1), then 4z of seat 2 (→ seat 3).
        (2, 0, 76, "horse"),
        (2, 0, 152, "horse"),
    ]
    assert result["net"] == [836, 76, -456, -456]


def test_p4_wildcard_and_god_of_wealth() -> None:
    result = play(P4).result()
    winner = result["winners"][0]
    assert fans(result) == [
        ("pure_straight", 16),
        ("concealed_hand", 2),
        ("one_voided_suit", 1),
        ("god_of_wealth", 28),
    ]
    assert winner["total"] == 47
    # The engine lists the concealed tiles in tile order: the 9s is the 11th (index 10).
    assert winner["substitution"] == {"10": "3m"}
    assert lines(result) == [
        (0, 1, 55, "win_discard"),
        (2, 1, 8, "win_discard"),
        (3, 1, 8, "win_discard"),
    ]
    assert result["net"] == [-55, 71, -8, -8]
    assert result["mode"] == "wealth" and result["wealth_fan"] == 28


# -- §6.2 wildcards --------------------------------------------------------------------


def test_w1_natural_reading_with_the_no_wildcard_bonus() -> None:
    result = play(W1).result()
    assert fans(result) == [
        ("mixed_triple_chow", 8),
        ("no_wildcard", 8),
        ("concealed_hand", 2),
        ("all_chows", 2),
        ("all_simples", 2),
    ]
    assert result["winners"][0]["substitution"] == {}
    assert lines(result) == [
        (0, 3, 8, "win_discard"),
        (1, 3, 8, "win_discard"),
        (2, 3, 30, "win_discard"),
    ]
    assert result["net"] == [-8, -8, -30, 46]


def test_w3_a_self_drawn_wildcard_substitutes() -> None:
    result = play(W3).result()
    assert fans(result) == [
        ("mixed_straight", 8),
        ("fully_concealed_hand", 4),
        ("prevalent_wind", 2),
        ("seat_wind", 2),
        ("single_wait", 1),
    ]
    assert result["winners"][0]["substitution"] == {"win": "5s"}
    assert lines(result) == [
        (1, 0, 25, "win_self_draw"),
        (2, 0, 25, "win_self_draw"),
        (3, 0, 25, "win_self_draw"),
    ]
    assert result["net"] == [75, -25, -25, -25]


def test_w2_the_natural_reading_does_not_win_without_the_wildcard() -> None:
    """The W2 hand with wildcards off: the 5p does not complete it, so no win is offered."""
    no_wild = dict(P4, options={"wildcard": False}, actions=P4["actions"][:-1])
    rnd = play(no_wild)
    assert all(a.name != "win" for a in rnd.legal_actions(1))
