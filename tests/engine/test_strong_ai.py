"""The strong AI's rules of thumb, on views built from a real hand's, and every level's
one invariant: it answers with one of the legal actions."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, Win
from engine.ai import LEVELS, ShantenPlayer, StrongPlayer, make_player
from engine.analysis import ShapeRules
from engine.round import Round
from engine.rules.play import DiscardRecord, RuleFacts
from engine.simulate import play_out
from engine.tiles import Meld, MeldType, counts_of, parse_tile, parse_tiles
from engine.view import View


def turn_view(
    variant: str,
    hand: str,
    *,
    options: dict[str, Any] | None = None,
    others: dict[int, dict[str, Any]] | None = None,
    live: int = 40,
    shape_rules: ShapeRules | None = None,
    facts: RuleFacts | None = None,
) -> View:
    """Seat 0's view on its turn holding ``hand`` (14 tiles); ``others`` changes what
    the other seats show (discards, melds, ready)."""
    base = Round.new(variant, options or {}, 1).view(0)
    counts = tuple(counts_of(parse_tiles(hand)))
    seats = [dataclasses.replace(base.seats[0], concealed=counts, concealed_count=14, melds=())]
    for seat in (1, 2, 3):
        info = dataclasses.replace(base.seats[seat], concealed_count=13, melds=(), discards=())
        seats.append(dataclasses.replace(info, **(others or {}).get(seat, {})))
    return dataclasses.replace(
        base,
        phase="turn",
        turn=0,
        prompt=None,
        live_count=live,
        seats=tuple(seats),
        claim_tile=None,
        claim_from=None,
        shape_rules=shape_rules if shape_rules is not None else base.shape_rules,
        facts=facts if facts is not None else base.facts,
    )


def sichuan_view(
    hand: str, voids: tuple[int, ...], others: dict[int, dict[str, Any]] | None = None
) -> View:
    """A 血战 turn view after 定缺: seat 0 void in ``voids[0]``."""
    return turn_view(
        "sichuan",
        hand,
        others=others,
        shape_rules=ShapeRules(seven_pairs=True, max_suits=2, void_suit=voids[0]),
        facts=RuleFacts(voids=voids),
    )


def discards_of(view: View) -> list[Action]:
    info = view.seats[0]
    assert info.concealed is not None
    return [Discard(0, k) for k, n in enumerate(info.concealed) if n]


def river(text: str) -> tuple[DiscardRecord, ...]:
    return tuple(DiscardRecord(k) for k in parse_tiles(text))


def pungs(text: str, from_seat: int = 0) -> tuple[Meld, ...]:
    return tuple(Meld(MeldType.PUNG, k, claimed=k, from_seat=from_seat) for k in parse_tiles(text))


def test_it_does_not_throw_into_a_ready_hand_when_a_safe_tile_exists() -> None:
    """血战: seat 1 shows three pongs in 条 and has discarded for long (ready, most
    likely) and is void in 筒. Of two discards as good for the hand, normal throws the
    1s that may win for seat 1; strong throws the 9p seat 1 cannot win on."""
    view = sichuan_view(
        "1s5p9p2p4p7p3s5s7s999s6p8s",
        (0, 1, 0, 0),
        others={1: {"melds": pungs("258s"), "discards": river("1m2m3m4m1p9p3p4m8p7m6m")}},
    )
    legal = discards_of(view)
    assert ShantenPlayer("normal").choose(view, legal) == Discard(0, parse_tile("1s"))
    assert StrongPlayer().choose(view, legal) == Discard(0, parse_tile("9p"))


def test_mcr_keeps_a_path_to_eight_fans() -> None:
    """Official MCR: throwing 5m leaves two waits that cannot reach 8 fans; throwing
    4s leaves one that does (花龙). Normal counts waits; strong counts winnable ones."""
    view = turn_view("mcr", "1235m234789p2344s", options={"preset": "official"})
    legal = discards_of(view)
    assert ShantenPlayer("normal").choose(view, legal) == Discard(0, parse_tile("5m"))
    assert StrongPlayer().choose(view, legal) == Discard(0, parse_tile("4s"))


def test_sichuan_throws_its_void_suit_first() -> None:
    view = sichuan_view("1123m456789p1279s", (2, 0, 1, 0))
    choice = StrongPlayer().choose(view, discards_of(view))
    assert isinstance(choice, Discard) and choice.tile // 9 == 2


def test_sichuan_keeps_a_full_flush_in_the_making() -> None:
    """Two 万 tiles off a 筒 flush, one step from ready either way: normal throws a
    筒 tile, strong a 万 one, as the flush (+2 番) would pay four times as much."""
    view = sichuan_view("35m223346677889p", (2, 0, 1, 0))
    legal = discards_of(view)
    assert ShantenPlayer("normal").choose(view, legal) == Discard(0, parse_tile("9p"))
    choice = StrongPlayer().choose(view, legal)
    assert isinstance(choice, Discard) and choice.tile // 9 == 0


def test_a_win_is_always_taken_where_a_self_draw_pays_no_more() -> None:
    view = turn_view("sichuan", "11123456789m55p5p")
    assert StrongPlayer().choose(view, [Win(0), *discards_of(view)]) == Win(0)


class Checked:
    """A player whose every answer must be one of the legal actions it was given."""

    def __init__(self, player: Any) -> None:
        self.player = player

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        action = self.player.choose(view, legal, default)
        assert action in legal
        return action


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["mcr", "guangdong", "sichuan"]),
    seed=st.integers(0, 10_000),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
)
def test_every_level_answers_with_a_legal_action(
    variant: str, seed: int, levels: list[str]
) -> None:
    rnd = Round.new(variant, {}, seed)
    play_out(rnd, [Checked(make_player(level, seed + i)) for i, level in enumerate(levels)])
    assert rnd.ended


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_strong_plays_whole_hands_of_every_rule_set(variant: str) -> None:
    for seed in range(3):
        rnd = Round.new(variant, {}, seed)
        play_out(rnd, [Checked(StrongPlayer(seed + i)) for i in range(4)])
        assert rnd.ended
