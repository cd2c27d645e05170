"""Whole hands played through the engine by the AI and by random play, with the options
drawn at random: invariants that must hold for every hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai import make_player
from engine.events import Paid, SeatOut, Won
from engine.round import Round
from engine.rules.sichuan import settle
from engine.tiles import NUM_KINDS

REASONS = {
    settle.WIN_SELF_DRAW,
    settle.WIN_DISCARD,
    settle.WIN_ROB_KONG,
    settle.WIN_KONG_BLOOM_DISCARDER,
    settle.KONG_CONCEALED,
    settle.KONG_EXPOSED,
    settle.KONG_EXPOSED_SIDE,
    settle.KONG_ADDED,
    settle.CALL_TRANSFER,
    settle.FLOWER_PIG,
    settle.NOT_READY,
    settle.KONG_REFUND,
}
END_CHECKS = {settle.FLOWER_PIG, settle.NOT_READY, settle.KONG_REFUND}


def random_options(rng: random.Random) -> dict[str, Any]:
    return {
        "base_stake": rng.choice((1, 2, 5)),
        "max_fan": rng.choice((3, 4, 5, 6)),
        "side_pay": rng.random() < 0.5,
        "heaven_earth": rng.random() < 0.5,
        "concealed_middle": rng.random() < 0.5,
        "self_draw_bonus": rng.choice(("add_base", "add_fan")),
        "kong_bloom_payer": rng.choice(("discarder", "all")),
        "flower_pig": rng.random() < 0.5,
        "exchange_three": rng.random() < 0.8,
        "exchange_direction": rng.choice(("random", "counterclockwise", "clockwise", "opposite")),
    }


def play_out(seed: int, level: str) -> Round:
    rng = random.Random(seed)
    rnd = Round.new("sichuan", random_options(rng), seed)
    players = [make_player(level, seed * 4 + s) for s in range(4)]
    while not rnd.ended:
        seat = rnd.to_act()[0]
        legal = rnd.legal_actions(seat)
        assert all(rnd.is_legal(a) for a in legal)
        rnd.apply(players[seat].choose(rnd.view(seat), legal, rnd.default_action(seat)))
    return rnd


def check_out_seats(rnd: Round) -> None:
    """After a seat wins it never pays again and receives only its 退税 refunds."""
    out: set[int] = set()
    pending: set[int] = set()
    for event in rnd.events:
        if isinstance(event, Won):
            pending.add(event.seat)
        elif isinstance(event, SeatOut):
            out.add(event.seat)
        elif isinstance(event, Paid):
            for line in event.lines:
                assert line.payer not in out
                assert line.payee not in out or line.reason == settle.KONG_REFUND
            out |= pending
            pending.clear()


@pytest.mark.parametrize("level", ["basic", "random"])
def test_playouts_keep_every_invariant(level: str) -> None:
    for seed in range(40):
        rnd = play_out(seed, level)
        result = rnd.result()
        assert sum(result["net"]) == 0
        assert rnd.tile_census() == [4] * 27 + [0] * (NUM_KINDS - 27)
        assert {p["reason"] for p in result["payments"]} <= REASONS
        winners = {w["seat"] for w in result["winners"]}
        assert len(winners) == len(result["winners"]) <= 3
        if len(winners) == 3:
            assert result["end"] == "win"
            assert not END_CHECKS & {p["reason"] for p in result["payments"]}
        else:
            assert result["end"] == "exhausted"
            assert {c["seat"] for c in result["checks"]} == set(range(4)) - winners
        check_out_seats(rnd)
        assert_same_replay(rnd, result)


def assert_same_replay(rnd: Round, result: dict[str, Any]) -> None:
    """The hand's script replays to the same result, every event included."""
    assert Round.from_script(rnd.to_script()).result() == result
