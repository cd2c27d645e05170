"""The hand flow of a 国标 table (mcr.md §1.4-§1.6, §3): chow from 上家 only, claim
priority, one winner per discard, the minimum fan, the official settlement, exhaustive
draws, the last discard and the prevalent wind. Official tables unless said otherwise."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from engine.actions import Bet, Chow, Discard, Kong, Pass, Pong, Win
from engine.errors import IllegalActionError
from engine.events import ClaimOffered
from engine.round import Round
from engine.rules.play import EndReason
from engine.session import Session
from engine.tiles import parse_tile, parse_tiles
from tests.engine.rules.mcr.mcr_scripts import (
    discard_drawn_once,
    discard_drawn_to_end,
    lines,
    play,
    script,
)

OFFICIAL = {"preset": "official"}


def deal(hands: list[str], **kwargs: Any) -> Round:
    kwargs.setdefault("options", OFFICIAL)
    return play(script(hands, "", **kwargs))


def t(text: str) -> int:
    return parse_tile(text)


def chow(seat: int, tiles: str) -> Chow:
    a, b, c = parse_tiles(tiles)
    return Chow(seat, (a, b, c))


# -- claims ------------------------------------------------------------------------------

# The dealer's 3m: seat 1 (his 下家) may chow 123m; seat 2 holds 45m and 33m (pong only);
# seat 3 holds 24m and may not chow from the dealer.
CLAIMS = [
    "3m159p159s1234567z",
    "12m2468p2468s19p7m",
    "33m45m3579p3579s9m",
    "24m68m1239p678sWN",
]


def test_chow_only_from_the_previous_player() -> None:
    rnd = deal(CLAIMS)
    rnd.apply(Discard(0, t("3m")))
    assert chow(1, "123m") in rnd.legal_actions(1)
    assert not any(isinstance(a, Chow) for a in rnd.legal_actions(2))
    assert rnd.legal_actions(3) == []
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(chow(2, "345m"))
    assert refused.value.reason == "chow_wrong_seat"


def test_pong_beats_chow() -> None:
    rnd = deal(CLAIMS)
    rnd.apply(Discard(0, t("3m")))
    rnd.apply(chow(1, "123m"))
    rnd.apply(Pong(2))
    assert rnd.turn == 2
    assert [m.notation() for m in rnd.melds(2)] == ["[333m]"]
    assert rnd.melds(1) == []


# The dealer's 5p completes seat 2 (三色三同顺 8, 门前清 2, 平和 2 = 12) and seat 3
# (三色三同顺 8, 门前清 2, 平和 2, 断幺 2 = 14); seat 1 could pong it.
TWO_WINNERS = [
    "5p19m19p19s1234567z",
    "55p2468m2468s79pN",
    "123m123p123s34p99s",
    "234m234p234s67p55s",
]


def test_win_beats_pong_and_only_the_first_winner_in_turn_order_wins() -> None:
    rnd = deal(TWO_WINNERS)
    rnd.apply(Discard(0, t("5p")))
    assert Pong(1) in rnd.legal_actions(1)
    rnd.apply(Win(3))
    rnd.apply(Pong(1))
    rnd.apply(Win(2))
    result = rnd.result()
    assert [w["seat"] for w in result["winners"]] == [2]
    assert lines(result) == [
        (0, 2, 8 + 12, "win_discard"),
        (1, 2, 8, "win_discard"),
        (3, 2, 8, "win_discard"),
    ]
    assert result["net"] == [-20, -8, 36, -8]
    assert result["next_dealer"] == 1


def test_no_pass_restriction_after_declining_a_win() -> None:
    """Official MCR has no 过胡: seat 2 passes the 5p and wins on the next one."""
    rnd = deal(TWO_WINNERS, draws="5p")
    rnd.apply(Discard(0, t("5p")))
    rnd.apply(Pass(1))
    rnd.apply(Pass(2))
    rnd.apply(Pass(3))
    rnd.apply(Discard(1, t("5p")))
    rnd.apply(Win(2))
    rnd.apply(Pass(3))
    assert [w.seat for w in rnd.wins] == [2]


# -- the minimum ----------------------------------------------------------------------------

# Seat 1 waits on 5m / 8m for 门前清 2, 平和 2, 喜相逢 1: 5 fan.
BELOW = [
    "5m1m9m1s9s1234567z5p9p",
    "123m67m123p456s99p",
    "2468m2468p2468sN",
    "13579m13579pE8sW",
]


def test_a_win_below_the_minimum_is_not_offered() -> None:
    rnd = deal(BELOW)
    rnd.apply(Discard(0, t("5m")))
    assert Win(1) not in rnd.legal_actions(1)
    offer = next(e for e in rnd.events if isinstance(e, ClaimOffered) and e.seat == 1)
    assert ("win", "below_minimum") in offer.blocked
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Win(1))
    assert refused.value.reason == "below_minimum"


def test_min_fan_zero_allows_any_win() -> None:
    rnd = deal(BELOW, options={**OFFICIAL, "min_fan": 0})
    rnd.apply(Discard(0, t("5m")))
    rnd.apply(Win(1))
    (win,) = rnd.wins
    assert win.score.total < 8
    assert lines(rnd.result())[0] == (0, 1, 8 + win.score.total, "win_discard")


# -- settlement ------------------------------------------------------------------------------


def test_self_draw_pays_base_plus_fan_from_each() -> None:
    """The dealer self-draws 9p for 清一色 24, 不求人 4, 连六 1, 幺九刻 1 = 30."""
    rnd = deal(
        ["1112334567899pN", "13579m1357s5pESW", "2468m2468s168pFP", "13579m2468s7pSWE"],
        draws="EFW9p",
    )
    for seat, tile in ((0, "N"), (1, "E"), (2, "F"), (3, "W")):
        rnd.apply(Discard(seat, t(tile)), close_windows=True)
    rnd.apply(Win(0), close_windows=True)
    assert lines(rnd.result()) == [
        (1, 0, 38, "win_self_draw"),
        (2, 0, 38, "win_self_draw"),
        (3, 0, 38, "win_self_draw"),
    ]


# Seat 2 pongs the dealer's 5m and later adds the fourth; seat 3 (46m, 789m, 123p, 456s,
# 99p) robs it: 抢杠和 8, 花龙 8, 门前清 2, 平和 2, 喜相逢 1, 嵌张 1 = 22.
ROB = script(
    ["5m1m9m1s9s1234567z8p1p", "2468p2468s1379mN", "55m1357p1357s19mE", "46m789m123p456s99p"],
    "0 discard 5m, 2 pong, 2 discard E, 3 discard S, 0 discard W, 1 discard C, 2 kong 5m, 3 win",
    draws="SWC5m",
    options=OFFICIAL,
)


def test_robbing_a_kong_is_paid_by_the_robbed_player() -> None:
    rnd = play(ROB)
    result = rnd.result()
    assert result["winners"][0]["how"] == "rob_kong"
    assert ("robbing_the_kong", 8) in [(f["id"], f["fan"]) for f in result["winners"][0]["fans"]]
    assert result["winners"][0]["total"] == 22
    assert lines(result) == [
        (0, 3, 8, "win_discard"),
        (1, 3, 8, "win_discard"),
        (2, 3, 30, "win_rob_kong"),
    ]
    assert rnd.kongs == []


def test_an_exhaustive_draw_pays_nothing() -> None:
    rnd = deal(CLAIMS)
    discard_drawn_to_end(rnd)
    result = rnd.result()
    assert result["end"] == "exhausted" and result["winners"] == []
    assert result["payments"] == [] and result["net"] == [0, 0, 0, 0]
    assert result["next_dealer"] == 1
    # 83 live tiles: seats 1, 2, 3, 0 draw in turn, so seat 3 draws and discards the last.
    assert rnd.last_discard == (3, rnd.discards(3)[-1].tile)


def test_an_exhaustive_draw_with_horses_only_shows_them() -> None:
    rnd = deal(CLAIMS, options={}, horses="1m5m9m2p6p1z")
    for seat in range(4):
        rnd.apply(Bet(seat, 1, (1, 2)))
    discard_drawn_to_end(rnd)
    result = rnd.result()
    assert result["payments"] == []
    assert [h["seat"] for h in result["horses"]] == [0, 0, 0, 1, 1, 0]


def test_after_the_last_live_tile_no_kong_and_the_last_discard_can_only_be_won() -> None:
    """83 live tiles: seat 3 draws the last one, his fourth 9s, and discards a 7m, which
    the dealer could otherwise pong (77m) or chow (89m)."""
    hands = ["77m89m159p158s1234z", "2468p2468s1357mN", "1357p1357s246mE9m", "999s7m135m39p13s6zS"]
    rnd = deal(hands, replacements="9s")
    rnd.apply(Discard(0, t("N")))
    while rnd.live_count:
        discard_drawn_once(rnd)
    assert rnd.turn == 3 and rnd.last_drawn(3) == t("9s")
    assert Kong(3, t("9s")) not in rnd.legal_actions(3)
    rnd.apply(Discard(3, t("7m")))
    assert rnd.legal_actions(0) == []
    assert rnd.ended and rnd.end_reason is EndReason.EXHAUSTED


# -- sessions ---------------------------------------------------------------------------------


def test_the_deal_passes_every_hand_and_the_wind_changes_every_four() -> None:
    session = Session("mcr", {"preset": "official", "rounds": 8}, seed=3)
    winds, dealers = [], []
    for _ in range(8):
        rnd = session.start_hand()
        winds.append(rnd.fields["round_wind"])
        assert session.dealer is not None
        dealers.append(session.dealer)
        discard_drawn_to_end(rnd)
        session.finish_hand()
    assert winds == ["E"] * 4 + ["S"] * 4
    assert [(b - a) % 4 for a, b in pairwise(dealers)] == [1] * 7
