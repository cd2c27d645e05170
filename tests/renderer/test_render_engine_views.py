"""Every state of random play, seen from every seat, becomes the pictures' descriptions;
some of them are drawn. A view the renderer cannot read fails here rather than in a
player's DM (rare states have tests of their own: a drawn tile gone into an added kong
that may be robbed, in tests/engine/round/test_claims.py)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from engine.actions import Bet
from engine.ai import make_player
from engine.round import Round
from engine.tiles import parse_tile
from renderer import engine_views, render_hand, render_settlement, render_table
from renderer.engine_views import SeatText
from renderer.models import Labels
from tests.engine.rules.guangdong.guangdong_scripts import play as play_script
from tests.engine.rules.guangdong.test_guangdong_rounds import E4

SEATS = [SeatText(f"P{seat}", seat * 10) for seat in range(4)]
NAMES = ["a", "b", "c", "d"]
DRAW_EVERY = 25


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(6))
def test_every_view_of_random_play_is_drawable(variant: str, seed: int) -> None:
    labels = Labels()
    hand = Round.new(variant, {}, seed)
    players = [make_player("random" if seat % 2 else "basic", seed + seat) for seat in range(4)]
    step = 0
    while not hand.ended:
        seat = hand.to_act()[0]
        choices = hand.legal_actions(seat)
        view = hand.view(seat)
        action = (
            choices[0]
            if hand.prompt is not None
            else players[seat].choose(view, choices, hand.default_action(seat))
        )
        hand.apply(action)
        step += 1
        table = engine_views.table_view(hand.view(None), SEATS, labels, "t")
        for viewer in range(4):
            mine = engine_views.hand_view(hand.view(viewer), viewer, labels, "t", None)
            if step % DRAW_EVERY == viewer:
                render_hand(mine)
        if step % DRAW_EVERY == 0:
            render_table(table)
    render_settlement(engine_views.settlement_view(hand, ["a", "b", "c", "d"], labels, "t"))


def _buy_some(seat: int) -> tuple[int, ...]:
    return (1, 4) if seat % 2 else (4,)


def _play(
    hand: Round,
    seed: int,
    on_step: Callable[[Round], None] = lambda hand: None,
    horses: Callable[[int], tuple[int, ...]] = _buy_some,
) -> None:
    """Random play to the end; MCR bets double and buy ``horses`` (by seat: positions)
    so that they show."""
    players = [make_player("random" if seat % 2 else "basic", seed + seat) for seat in range(4)]
    while not hand.ended:
        seat = hand.to_act()[0]
        if hand.prompt is not None and hand.prompt.id == "bet":
            hand.apply(Bet(seat, factor=2, horses=horses(seat)))
            continue
        choices = hand.legal_actions(seat)
        action = (
            choices[0]
            if hand.prompt is not None
            else players[seat].choose(hand.view(seat), choices, hand.default_action(seat))
        )
        hand.apply(action)
        on_step(hand)


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_the_latest_discard_is_ringed_and_named_while_it_lies_in_its_river(
    variant: str,
) -> None:
    labels = Labels()
    seen = {"ringed": 0, "claimed": 0}

    def check(hand: Round) -> None:
        view = hand.view(None)
        table = engine_views.table_view(view, SEATS, labels, "t")
        assert view.last_discard == hand.last_discard
        if hand.last_discard is None:
            assert table.last_discard is None
            return
        seat, tile = hand.last_discard
        river = view.seats[seat].discards
        if river and river[-1].tile == tile and river[-1].claimed_by is None:
            seen["ringed"] += 1
            assert table.last_discard == seat
            assert table.seats[seat].discards[-1] == tile
            assert table.caption == f"P{seat} 打出 {labels.tile_text(tile)}"
        else:
            seen["claimed"] += 1
            assert table.last_discard is None and table.caption == ""

    for seed in range(3):
        _play(Round.new(variant, {}, seed), seed, check)
    assert seen["ringed"] and seen["claimed"]


def test_blood_battle_winners_show_their_tile_and_order_on_the_table() -> None:
    hand = Round.new("sichuan", {}, 5)
    _play(hand, 5)
    table = engine_views.table_view(hand.view(None), SEATS, Labels(), "t")
    orders = engine_views.win_orders(hand.wins)
    assert len(set(orders.values())) > 1
    for win in hand.wins:
        seat = table.seats[win.seat]
        assert seat.won_tile == win.context.tile and seat.won_order == orders[win.seat]
    settlement = engine_views.settlement_view(hand, NAMES, Labels(), "t")
    assert [w.seat for w in settlement.winners] == [w.seat for w in hand.wins]
    assert [w.order for w in settlement.winners] == [orders[w.seat] for w in hand.wins]


def _win(seat: int, from_seat: int | None, tile: int, discards_before: int) -> Any:
    """The parts of a win its place in the order and its settlement line depend on."""
    context = SimpleNamespace(
        seat=seat,
        from_seat=from_seat,
        tile=tile,
        discards_before=discards_before,
        hand=SimpleNamespace(concealed=(0, 1, 2), melds=()),
    )
    score = SimpleNamespace(total=3, value=5, fans=(), extra={})
    return SimpleNamespace(seat=seat, context=context, score=score, how="discard")


def test_winners_of_one_discard_share_their_place() -> None:
    wins = [_win(0, None, 3, 10), _win(1, 3, 7, 20), _win(2, 3, 7, 20), _win(3, None, 7, 20)]
    assert engine_views.win_orders(wins) == {0: 1, 1: 2, 2: 2, 3: 3}


@pytest.mark.parametrize("variant", ["mcr", "guangdong"])
def test_each_horse_line_belongs_to_its_horse(variant: str) -> None:
    lines = 0
    for seed in range(8):
        hand = Round.new(variant, {"min_fan": 0} if variant == "mcr" else {}, seed)
        _play(hand, seed)
        view = engine_views.settlement_view(hand, NAMES, Labels(), "t")
        for line, shown in zip(hand.ledger.lines, view.payments, strict=True):
            extra = dict(line.extra)
            if "horse" not in extra:
                assert shown.horse is None
                continue
            lines += 1
            assert shown.horse is not None
            horse = view.horses[shown.horse]
            assert horse.kind == parse_tile(str(extra["horse"]))
            assert horse.target == extra["horse_seat"]
            assert horse.buyer == extra.get("buyer")
        if variant == "mcr":
            assert view.factors == (2, 2, 2, 2)
    assert lines


def test_mcr_settles_only_the_horses_someone_bought() -> None:
    """万马奔腾's horses are each player's bet: a horse nobody bought moves nothing and
    belongs to nobody (not to the dealer, whose horses only 广东 has)."""
    for seed in range(4):
        nobody = Round.new("mcr", {"min_fan": 0, "horses": True}, seed)
        _play(nobody, seed, horses=lambda seat: ())
        aside = nobody.view(None).aside["horses"]
        assert isinstance(aside, tuple)
        assert len(aside) == 6
        view = engine_views.settlement_view(nobody, NAMES, Labels(), "t")
        assert view.horses == () and all(p.horse is None for p in view.payments)

        one = Round.new("mcr", {"min_fan": 0, "horses": True}, seed)
        _play(one, seed, horses=lambda seat: (2,) if seat == 3 else ())
        view = engine_views.settlement_view(one, NAMES, Labels(), "t")
        aside = one.view(None).aside["horses"]
        assert isinstance(aside, tuple)
        assert [(h.buyer, h.kind) for h in view.horses] == [(3, aside[1])]


def test_a_capped_win_says_what_it_was_worth_before_the_cap() -> None:
    """四川 caps the 番 it pays (``total``) below what the hand is worth (``value``)."""
    capped = engine_views.winner_view(_win(1, 0, 5, 9), engine_views.Naming())
    assert capped.total == 3 and capped.capped_from == 5 and capped.from_seat == 0
    under = _win(1, 0, 5, 9)
    under.score.value = 3
    assert engine_views.winner_view(under, engine_views.Naming()).capped_from is None


def test_the_prevailing_wind_is_read_from_the_rule_set() -> None:
    hand = Round.new("mcr", {}, 0)
    assert engine_views.table_view(hand.view(None), SEATS, Labels(), "t").round_wind == 0
    other = Round.new("guangdong", {}, 0)
    assert engine_views.table_view(other.view(None), SEATS, Labels(), "t").round_wind is None


def test_a_robbed_kong_is_not_called_a_deal_in() -> None:
    # guangdong.md §E4: seat 3 robs seat 2's added kong; seat 2 discarded nothing.
    hand = play_script(E4)
    settlement = engine_views.settlement_view(hand, NAMES, Labels(), "t")
    (winner,) = settlement.winners
    assert (winner.seat, winner.from_seat, winner.robbed) == (3, 2, True)
    render_settlement(settlement)
