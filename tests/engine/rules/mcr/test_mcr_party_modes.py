"""The five dice modes (mcr.md §4.5), each started by the dice of a round script, with its
effect on play and on settlement; and the live draws of their chance values."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.actions import Action, LastChance, Peek, Swap, Win
from engine.ai import make_player
from engine.errors import IllegalActionError
from engine.events import HandStarted, Notice
from engine.round import Round, View
from engine.rules.mcr.modes import WEALTH_VALUES
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.peak import TEMPLATES
from engine.rules.mcr.ruleset import RULESET, McrFacts, notes
from engine.simulate import check_hand, play_out
from engine.tiles import counts_of, format_tiles, parse_tile, parse_tiles
from engine.wall import roll_dice
from tests.engine.round.helpers import hand_state
from tests.engine.rules.mcr.mcr_examples import P4
from tests.engine.rules.mcr.mcr_scripts import (
    bets,
    discard_drawn_to_end,
    fans,
    lines,
    notices,
    play,
    script,
)


def seeds_rolling(double: int) -> list[int]:
    """Seeds whose first roll is ``double``-``double`` (a hand after the first one of a
    session rolls only its own dice)."""
    return [s for s in range(3000) if roll_dice(random.Random(s)) == (double, double)]


def facts(rnd: Round, viewer: int | None) -> McrFacts:
    found = rnd.view(viewer).facts
    assert isinstance(found, McrFacts)
    return found


def new_hand(seed: int, options: dict[str, object] | None = None) -> Round:
    return Round.new("mcr", options or {}, seed, hand_number=2)


class NoWinPlayer:
    """The normal AI, except that it never declares a win: hands run to the wall's end."""

    def __init__(self) -> None:
        self._ai = make_player("normal")

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        choices = [a for a in legal if not isinstance(a, Win)]
        return self._ai.choose(view, choices, default)


# Seat 2 wins 12 on seat 1's 2p (the P2 hand of §6.3).
PEEK_HANDS = ["1m5m9p68p579sESWNCP", "13579m579p1357sE", "123m123p123s34p99s", "2468m468p2468sSW"]


def peek_script(moves: str, dice: tuple[int, int] = (2, 2)) -> dict[str, object]:
    return script(PEEK_HANDS, bets() + moves, draws="2p", indicator="F", dice=dice)


# -- the dice come after the bets (§4.1) -----------------------------------------------


def test_the_dice_their_mode_and_the_indicator_are_shown_only_once_the_bets_are_in() -> None:
    seed = seeds_rolling(5)[0]
    rnd = new_hand(seed)
    assert rnd.prompt is not None and rnd.prompt.id == "bet"
    started = rnd.events[0]
    assert isinstance(started, HandStarted) and started.dice is None
    assert [e.type for e in rnd.events] == [
        "hand_started",
        "tiles_aside",
        "tiles_aside",
        "prompt_opened",
    ]
    for viewer in (0, 1, None):
        view = rnd.view(viewer)
        assert view.dice is None and view.aside["indicator"] == 1
        assert isinstance(view.facts, McrFacts)
        assert not view.facts.announced and view.facts.wildcard is None
    for seat in range(4):
        action = rnd.default_action(seat)
        assert action is not None
        rnd.apply(action)
    indicator = rnd.set_aside["indicator"]
    opened = [e.to_json() for e in rnd.events[4:]]
    types = [e["type"] if e["type"] != "notice" else e["name"] for e in opened]
    assert types[types.index("bets") :][:6] == [
        "bets",
        "prompt_closed",
        "dice_rolled",
        "tiles_aside",
        "dice_mode",
        "wildcard",
    ]
    assert {"type": "dice_rolled", "dice": [5, 5]} in opened
    assert {
        "type": "tiles_aside",
        "name": "indicator",
        "count": 1,
        "tiles": format_tiles(indicator),
    } in opened
    view = rnd.view(2)
    assert view.dice == (5, 5) and view.aside["indicator"] == indicator
    assert isinstance(view.facts, McrFacts) and view.facts.mode == "wealth"


# -- 2-2 火眼金睛 ------------------------------------------------------------------------


def test_peek_shows_the_chosen_hand_to_the_chooser_only() -> None:
    rnd = play(peek_script(", 0 peek 1, 1 peek 2, 2 peek 1, 3 peek 0, 0 discard N"))
    seen = {
        viewer: [s for s, info in enumerate(rnd.view(viewer).seats) if info.concealed is not None]
        for viewer in range(4)
    }
    assert seen == {0: [0, 1], 1: [1, 2], 2: [1, 2], 3: [0, 3]}
    assert [info.concealed for info in rnd.view(None).seats] == [None] * 4
    # The drawn tile is part of the live view, for its owner and whoever watches him.
    assert rnd.turn == 1
    assert [rnd.view(v).seats[1].drawn for v in range(4)] == [parse_tile("2p")] * 3 + [None]
    assert facts(rnd, 1).peek == 2 and facts(rnd, None).peek is None


def test_peek_defaults_to_the_next_seat_and_changes_no_settlement() -> None:
    rnd = play(peek_script(""))
    assert [rnd.default_action(s) for s in range(4)] == [Peek(s, (s + 1) % 4) for s in range(4)]
    with pytest.raises(IllegalActionError):
        rnd.apply(Peek(1, 1))
    moves = ", 0 peek 1, 1 peek 2, 2 peek 3, 3 peek 0, 0 discard N, 1 discard 2p, 2 win"
    peeked = play(peek_script(moves)).result()
    plain = play(peek_script(", 0 discard N, 1 discard 2p, 2 win", dice=(3, 5))).result()
    assert peeked["mode"] == "peek" and plain["mode"] is None
    assert peeked["payments"] == plain["payments"]
    assert peeked["peek"] == [1, 2, 3, 0]


# -- 3-3 妙手回春 ---------------------------------------------------------------------------

# Seat 1 waits on 2p / 5p, seat 3 on 5p / 8p; seats 0 and 2 are not ready. Everyone
# discards what he draws until the wall runs out; the dealer draws the last of 76 tiles.
LAST_CHANCE_HANDS = [
    "1357m2468p159sEEN",
    "123m123p123s34p99s",
    "2468m2468p2468sN",
    "234m234p234s67p55s",
]


def last_chance_hand(tiles: list[str | None], options: dict[str, object] | None = None) -> Round:
    rnd = play(
        script(
            LAST_CHANCE_HANDS,
            bets(),
            dice=(3, 3),
            indicator="C",
            options=options or {},
            last_chance_tiles=tiles,
        )
    )
    discard_drawn_to_end(rnd)
    return rnd


def test_last_chance_offers_each_ready_player_one_pick_in_turn_order() -> None:
    rnd = last_chance_hand([None, "1z2p1z1z", None, "7z7z5p7z"])
    assert rnd.end_reason is not None and rnd.prompt is not None
    assert rnd.prompt.seats == (1,)
    rnd.apply(LastChance(1, 1))  # 东: a decoy
    assert rnd.prompt is not None and rnd.prompt.seats == (3,)
    rnd.apply(LastChance(3, 3))  # 5p: the winning tile
    assert rnd.ended
    result = rnd.result()
    (winner,) = result["winners"]
    assert (winner["seat"], winner["how"], winner["tile"]) == (3, "last_chance", "5p")
    assert ("last_tile_draw", 8) in fans(result)
    assert ("self_drawn", 1) not in fans(result)
    total = winner["total"]
    assert lines(result) == [(s, 3, 8 + total, "win_self_draw") for s in (0, 1, 2)]
    assert [(c["seat"], c["position"], c["hit"]) for c in result["last_chance"]] == [
        (1, 1, False),
        (3, 3, True),
    ]
    assert [n["data"]["hit"] for n in notices(rnd, "last_chance")] == [False, True]
    # The hit turns the exhaustive draw into a won hand (§4.5.2).
    assert result["end"] == "win"
    assert rnd.events[-1].to_json()["reason"] == "win"
    again = Round.from_script(rnd.to_script())
    assert again.snapshot() == rnd.snapshot()


def test_last_chance_misses_leave_the_draw_standing() -> None:
    rnd = last_chance_hand([None, "1z2p1z1z", None, "7z7z5p7z"])
    rnd.apply(LastChance(1, 4))
    rnd.apply(LastChance(3, 1))
    result = rnd.result()
    assert result["winners"] == [] and result["payments"] == []
    assert result["end"] == "exhausted"


def test_last_chance_only_after_an_exhaustive_draw_and_only_for_3_3() -> None:
    rnd = play(script(LAST_CHANCE_HANDS, bets(), dice=(2, 3), indicator="C"))
    discard_drawn_to_end(rnd)
    assert rnd.ended and rnd.result()["winners"] == []


def test_last_chance_tiles_hold_exactly_one_winner_the_best_wait() -> None:
    """Live hands: the AI plays without winning until the wall runs out; every chance's
    four tiles hold exactly one winning tile, the wait that scores most."""
    checked = 0
    for seed in seeds_rolling(3):
        rnd = new_hand(seed)
        players = [NoWinPlayer() for _ in range(4)]
        while rnd.prompt is None or rnd.prompt.id != "last_chance":
            if rnd.ended:
                break
            seat = rnd.to_act()[0]
            legal = rnd.legal_actions(seat)
            rnd.apply(players[seat].choose(rnd.view(seat), legal, rnd.default_action(seat)))
        if rnd.ended:
            continue
        state = hand_state(rnd, McrOptions)
        chances = notes(state).chances or []
        for chance in chances:
            found = RULESET.winning_tiles(state, chance.seat)
            assert sum(k in found for k in chance.tiles) == 1
            best = max(found, key=lambda k: (found[k].score.total, -k))
            assert best in chance.tiles
        checked += len(chances)
        if checked >= 3:
            break
    assert checked >= 3


# -- 4-4 偷天换日 ----------------------------------------------------------------------------

# The dealer swaps his two 北 for the two front wall tiles, 3s and 5m: 天和. Seat 2 swaps
# three tiles for the next three.
SWAP_HANDS = ["123m456p789s12s5m44z", "13579m1357p135sF", "2468m2468p2468sP", "13579m2468p246sS"]


def swap_hand(moves: str, options: dict[str, object] | None = None) -> Round:
    return play(
        script(
            SWAP_HANDS,
            bets() + moves,
            draws="3s5mESW",
            indicator="F",
            dice=(4, 4),
            options=options or {},
        )
    )


def test_swap_replaces_tiles_from_the_front_of_the_wall() -> None:
    rnd = swap_hand(", 0 swap 44z, 1 swap -, 2 swap 246m, 3 swap -")
    assert rnd.concealed(0)[parse_tile("N")] == 0
    assert rnd.concealed(0)[parse_tile("3s")] == 1
    held = rnd.concealed(2)
    assert [held[parse_tile(k)] for k in ("2m", "4m", "6m", "E", "S", "W")] == [0, 0, 0, 1, 1, 1]
    assert sorted(rnd.set_aside["swapped"]) == sorted(parse_tiles("44z246m"))
    assert rnd.view(1).aside["swapped"] == 5
    (counts,) = notices(rnd, "swaps")
    assert counts["data"] == {"counts": [2, 0, 3, 0]}
    own = [e for e in rnd.events_for(0) if isinstance(e, Notice) and e.name == "swap"]
    assert [e.data for e in own] == [{"gave": "44z", "got": "5m3s"}]
    assert not any(isinstance(e, Notice) and e.name == "swap" for e in rnd.events_for(1))


def test_swap_gives_the_dealer_a_heavenly_hand() -> None:
    rnd = swap_hand(", 0 swap 44z, 1 swap -, 2 swap 246m, 3 swap -, 0 win")
    result = rnd.result()
    assert fans(result)[0] == ("heavenly_hand", 88)
    total = result["winners"][0]["total"]
    assert lines(result) == [(s, 0, 8 + total, "win_self_draw") for s in (1, 2, 3)]


def test_swap_is_limited_to_held_tiles_and_swap_max() -> None:
    rnd = swap_hand("", options={"swap_max": 2})
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Swap(2, tuple(parse_tiles("246m"))))
    assert refused.value.reason == "too_many_tiles"
    with pytest.raises(IllegalActionError) as refused:
        rnd.apply(Swap(2, tuple(parse_tiles("1m"))))
    assert refused.value.reason == "tile_not_held"
    assert rnd.default_action(2) == Swap(2, ())


# -- 5-5 天降财神 ---------------------------------------------------------------------------


def test_wealth_does_not_help_a_hand_reach_the_minimum() -> None:
    """Seat 1 waits on 5m for 5 fan; 天降财神 88 does not make it a legal win."""
    hands = ["5m1m9m1s9s1234567z5p9p", "123m67m123p456s99p", "2468m2468p2468sN", "13579m13579pE8sW"]
    options = {"wildcard": False, "extra_fans": False, "horses": False, "doubling": False}
    rnd = play(script(hands, "0 discard 5m", dice=(5, 5), options=options, wealth_fan=88))
    assert Win(1) not in rnd.legal_actions(1)


def test_wealth_is_drawn_at_the_start_and_kept_secret() -> None:
    seed = seeds_rolling(5)[0]
    rnd = new_hand(seed)
    value = rnd.fields["wealth_fan"]
    assert value in WEALTH_VALUES
    started = next(e for e in rnd.events if isinstance(e, HandStarted))
    assert "wealth_fan" not in started.fields
    assert facts(rnd, 0).wealth_fan is None
    assert rnd.to_script()["wealth_fan"] == value
    play_out(rnd, [NoWinPlayer() for _ in range(4)])
    (revealed,) = notices(rnd, "revealed")
    assert "wealth_fan" not in revealed["data"]  # revealed only at a win
    (won,) = notices(play(P4), "revealed")
    assert won["data"]["wealth_fan"] == 28


# -- 6-6 巅峰时刻 ---------------------------------------------------------------------------


def test_peak_deals_from_templates_and_replays() -> None:
    seed = seeds_rolling(6)[0]
    rnd = new_hand(seed)
    templates = rnd.fields["peak_templates"]
    assert len(templates) == 4 and set(templates) <= {*TEMPLATES, "random"}
    started = next(e for e in rnd.events if isinstance(e, HandStarted))
    assert "peak_templates" not in started.fields
    hands = [counts_of(h) for h in rnd.dealt]
    assert [sum(h) for h in hands] == [14, 13, 13, 13]
    play_out(rnd, [make_player("normal") for _ in range(4)])
    assert check_hand(rnd) == []
    assert rnd.result()["peak_templates"] == templates
    (revealed,) = notices(rnd, "revealed")
    assert revealed["data"]["peak_templates"] == templates


def test_a_scripted_peak_hand_names_its_templates_and_settles_as_usual() -> None:
    templates = ["full_flush", "seven_pairs", "all_green", "nine_gates"]
    moves = ", 0 discard N, 1 discard 2p, 2 win"
    peak = play(
        script(
            PEEK_HANDS,
            bets() + moves,
            draws="2p",
            indicator="F",
            dice=(6, 6),
            peak_templates=templates,
        )
    ).result()
    plain = play(peek_script(moves, dice=(3, 5))).result()
    assert peak["mode"] == "peak" and peak["peak_templates"] == templates
    assert peak["payments"] == plain["payments"]
