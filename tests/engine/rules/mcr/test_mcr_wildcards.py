"""宝牌 wildcards (mcr.md §4.3, §2.5, §6.2): natural first, the best substitution, 无宝.

The substitution search builds only substitutions that complete a shape; here it is
checked against trying every kind for every wildcard, for up to two wildcards, and the
waits query against the same brute force.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from itertools import product

import pytest

from engine.analysis import is_complete
from engine.rules.base import RuleError, ScoreResult, WinFacts, plain_waits
from engine.rules.mcr.calculator import CALCULATOR, score_win
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.samples import random_win
from engine.rules.mcr.scorer import MCR_SHAPES
from engine.score import handle
from engine.tiles import NUM_KINDS, HandSpec, counts_of, parse_hand, parse_tile


def facts(hand: str, win: str, wild: str, self_drawn: bool = False) -> WinFacts:
    return WinFacts(
        hand=parse_hand(hand),
        win_tile=parse_tile(win),
        self_drawn=self_drawn,
        wildcard=parse_tile(wild),
    )


def fans_of(result: ScoreResult) -> list[tuple[str, int, int]]:
    return [(f.zh, f.fan, f.count) for f in result.fans]


# -- the spec's examples -----------------------------------------------------------------


def test_w1_natural_reading_wins_with_the_no_wildcard_bonus() -> None:
    result = score_win(facts("234m234p234s67s55m", "8s", "2p"), McrOptions())
    assert fans_of(result) == [
        ("三色三同顺", 8, 1),
        ("无宝", 8, 1),
        ("门前清", 2, 1),
        ("平和", 2, 1),
        ("断幺", 2, 1),
    ]
    assert (result.total, result.substitution) == (22, {})


def test_w2_full_output_line() -> None:
    line = {
        "variant": "mcr",
        "hand": "12456789m9sEE55p",
        "win_tile": "5p",
        "wildcard": "9s",
    }
    fans = [
        ("pure_straight", "清龙", "Pure Straight", 16),
        ("concealed_hand", "门前清", "Concealed Hand", 2),
        ("one_voided_suit", "缺一门", "One Voided Suit", 1),
    ]
    assert handle(line) == {
        "ok": True,
        "total": 19,
        "fans": [{"id": i, "zh": zh, "en": en, "fan": fan, "count": 1} for i, zh, en, fan in fans],
        "meets_minimum": True,
        "substitution": {"8": "3m"},
    }


def test_w3_the_drawn_wildcard_substitutes_and_the_held_one_stays() -> None:
    result = score_win(facts("123m456p789s5sEEE", "9s", "9s", self_drawn=True), McrOptions())
    assert fans_of(result) == [
        ("花龙", 8, 1),
        ("不求人", 4, 1),
        ("圈风刻", 2, 1),
        ("门风刻", 2, 1),
        ("独听・单钓", 1, 1),
    ]
    assert (result.total, result.substitution) == (17, {"win": parse_tile("5s")})


# -- natural first, then the best substitution ---------------------------------------------

# 999m is wild: as itself 双箭刻 and the rest (19 with 无宝); as 中中中, 大三元 (93).
DRAGONS = ("999m789p33s66677z", "7z", "9m")


def test_a_natural_win_reaching_the_minimum_is_used_even_if_a_substitution_scores_more() -> None:
    result = score_win(facts(*DRAGONS), McrOptions())
    assert (result.total, result.substitution) == (19, {})
    assert ("无宝", 8, 1) in fans_of(result)


def test_below_the_minimum_the_best_substitution_is_used() -> None:
    result = score_win(facts(*DRAGONS), McrOptions(min_fan=30))
    assert result.total == 93
    assert result.substitution == {"0": 31, "1": 31, "2": 31}
    assert fans_of(result)[0] == ("大三元", 88, 1)


def test_when_nothing_reaches_the_minimum_the_best_reading_stands_natural_on_ties() -> None:
    # 88p are wild: as themselves 幺九刻 + 无宝 = 9; no substitution beats that.
    hand = ("[123m][567p][345s]88pWW", "W", "8p")
    result = score_win(facts(*hand), McrOptions(min_fan=88))
    assert (result.total, result.substitution, result.meets_minimum) == (9, {}, False)
    # Without the bonus the natural 1 loses to 五门齐 with a dragon pair.
    result = score_win(facts(*hand), McrOptions(min_fan=88, wild_bonus_fan=0))
    assert (result.total, result.meets_minimum) == (7, False)
    assert result.substitution == {"0": 31, "1": 31}


def test_no_wildcard_bonus_needs_a_wild_tile_and_counts_toward_the_minimum() -> None:
    chicken = "[123m][567p][345s]88pWW"
    held_in_meld = score_win(facts(chicken, "W", "1m"), McrOptions())
    assert ("无宝", 8, 1) in fans_of(held_in_meld) and held_in_meld.meets_minimum
    not_held = score_win(facts(chicken, "W", "5m"), McrOptions())
    assert (not_held.total, not_held.meets_minimum, not_held.substitution) == (1, False, {})
    disabled = score_win(facts(chicken, "W", "1m"), McrOptions(wild_bonus_fan=0))
    assert all(f.id != "no_wildcard" for f in disabled.fans)


def test_a_substituted_winning_tile_is_never_the_fourth_tile() -> None:
    hand = "123m456p78sEEE55s"
    natural = WinFacts(
        hand=parse_hand(hand), win_tile=parse_tile("9s"), self_drawn=True, fourth_tile=True
    )
    assert any(f.id == "last_tile" for f in score_win(natural, McrOptions()).fans)
    wild = replace(facts(hand, "C", "C", self_drawn=True), fourth_tile=True)
    result = score_win(wild, McrOptions())
    assert result.substitution == {"win": parse_tile("9s")}
    assert all(f.id != "last_tile" for f in result.fans)


def test_the_substituted_hand_never_holds_a_fifth_copy() -> None:
    # Four 中 wild, 1111m held: the wildcards may not make a fifth 1m.
    result = score_win(facts("1111234567mCCC", "C", "C", self_drawn=True), McrOptions())
    counts = counts_of(parse_hand("1111234567m").concealed)
    assert result.substitution is not None
    for kind in result.substitution.values():
        counts[kind] += 1
    assert max(counts) <= 4


def test_a_hand_that_cannot_win_is_refused() -> None:
    with pytest.raises(RuleError, match="does not win"):
        score_win(facts("19m19p19sESWNCCP", "5p", "5m"), McrOptions())


@pytest.mark.parametrize(
    ("hand", "win", "wild", "self_drawn", "total", "first_fan"),
    [
        ("12456789m9sEE55p", "5p", "9s", False, 19, "清龙"),  # one wildcard
        ("123m456p789s5sEEE", "9s", "9s", True, 17, "花龙"),  # two, one of them drawn
        ("19m19p19sESWNCCC", "F", "C", False, 88, "十三幺"),  # three
        ("19m19p19sESWCCCC", "N", "C", False, 88, "十三幺"),  # four held
        ("123m456p789sCCCC", "5s", "C", False, 15, "花龙"),  # four held, any set and pair
        ("12m5p99pEECCC[123s]", "C", "C", True, 10, "圈风刻"),  # three held and the drawn one
    ],
)
def test_one_to_four_wildcards(
    hand: str, win: str, wild: str, self_drawn: bool, total: int, first_fan: str
) -> None:
    result = score_win(facts(hand, win, wild, self_drawn), McrOptions())
    assert result.total == total
    assert result.fans[0].zh == first_fan


def test_four_wildcards_prefer_the_substitution_first_in_tile_order() -> None:
    # 十三幺 needs 中发白 and a duplicate: the duplicate is 1m, the first orphan.
    result = score_win(facts("19m19p19sESWCCCC", "N", "C"), McrOptions())
    assert result.substitution == {"9": parse_tile("1m"), "11": 32, "12": 33}


# -- against brute force -------------------------------------------------------------------


def brute_force(case: WinFacts, min_fan: int = 8) -> tuple[int, dict[str, int]]:
    """Every kind for every wildcard; the selection rules of §4.3 applied directly."""
    wild = case.wildcard
    assert wild is not None
    plain = replace(case, wildcard=None)
    natural = None
    with contextlib.suppress(RuleError):
        natural = score_win(plain, McrOptions(min_fan=min_fan)).total
    held = [*case.hand.concealed, case.win_tile, *(k for m in case.hand.melds for k in m.tiles)]
    bonus = 8 if wild in held else 0
    if natural is not None and natural + bonus >= min_fan:
        return natural + bonus, {}
    positions = [i for i, k in enumerate(case.hand.concealed) if k == wild]
    win_wild = case.self_drawn and case.win_tile == wild
    best: tuple[tuple[bool, int], tuple[int, ...], int, dict[str, int]] | None = None
    for kinds in product(range(NUM_KINDS), repeat=len(positions) + win_wild):
        if all(k == wild for k in kinds):
            continue
        concealed = list(case.hand.concealed)
        for p, k in zip(positions, kinds, strict=False):
            concealed[p] = k
        win = kinds[-1] if win_wild else case.win_tile
        hand = HandSpec(tuple(concealed), case.hand.melds)
        if max(counts_of([*hand.all_tiles(), win])) > 4:
            continue
        trial = replace(plain, hand=hand, win_tile=win)
        if win != case.win_tile:
            trial = replace(trial, fourth_tile=False)
        try:
            total = score_win(trial, McrOptions(min_fan=min_fan)).total
        except RuleError:
            continue
        rank = (total >= min_fan, total)
        key = (*sorted(kinds[: len(positions)]), *kinds[len(positions) :])
        if best is None or rank > best[0] or (rank == best[0] and key < best[1]):
            stood_for = zip(positions, sorted(kinds[: len(positions)]), strict=True)
            mapping = {str(p): k for p, k in stood_for if k != wild}
            if win_wild and win != wild:
                mapping["win"] = win
            best = (rank, key, total, mapping)
    if best is not None and best[2] >= min_fan:
        return best[2], best[3]
    if natural is not None and (best is None or natural + bonus >= best[2]):
        return natural + bonus, {}
    assert best is not None
    return best[2], best[3]


def wild_cases(count: int, seed: int) -> list[WinFacts]:
    """Winning hands with one or two tiles turned into wildcards, the drawn one included."""
    rng = random.Random(seed)
    out: list[WinFacts] = []
    while len(out) < count:
        case = random_win(rng)
        wild = rng.randrange(NUM_KINDS)
        tiles = list(case.hand.concealed)
        drawn = rng.random() < 0.35
        for _ in range(rng.choice((1, 2, 2)) - drawn):
            tiles[rng.randrange(len(tiles))] = wild
        if drawn:
            case = replace(case, win_tile=wild, self_drawn=True)
        hand = HandSpec(tuple(tiles), case.hand.melds)
        jokers = tiles.count(wild) + (case.self_drawn and case.win_tile == wild)
        if 1 <= jokers <= 2 and max(counts_of([*hand.all_tiles(), case.win_tile])) <= 4:
            out.append(replace(case, hand=hand, wildcard=wild))
    return out


@pytest.mark.parametrize("min_fan", [0, 8, 24])
def test_substitution_search_matches_brute_force(min_fan: int) -> None:
    for case in wild_cases(15, seed=min_fan):
        try:
            result = score_win(case, McrOptions(min_fan=min_fan))
        except RuleError:
            with pytest.raises(AssertionError):
                brute_force(case, min_fan)
            continue
        assert (result.total, result.substitution) == brute_force(case, min_fan), case


def brute_waits(hand: HandSpec, wild: int) -> tuple[int, list[int]]:
    positions = [i for i, k in enumerate(hand.concealed) if k == wild]
    held = counts_of(hand.all_tiles())
    best_shanten = 99
    found: set[int] = set()
    for kinds in product(range(NUM_KINDS), repeat=len(positions)):
        concealed = list(hand.concealed)
        for p, k in zip(positions, kinds, strict=True):
            concealed[p] = k
        trial = HandSpec(tuple(concealed), hand.melds)
        if max(counts_of(trial.all_tiles())) > 4:
            continue
        best_shanten = min(best_shanten, plain_waits(trial, MCR_SHAPES)[0])
        counts = counts_of(trial.concealed)
        everything = counts_of(trial.all_tiles())
        for k in range(NUM_KINDS):
            if held[k] >= 4 or everything[k] >= 4:
                continue
            counts[k] += 1
            if is_complete(counts, len(hand.melds), MCR_SHAPES):
                found.add(k)
            counts[k] -= 1
    return best_shanten, sorted(found) if best_shanten == 0 else []


def test_waits_with_wildcards_match_brute_force() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 12:
        case = random_win(rng)
        tiles = [*case.hand.concealed, case.win_tile]
        tiles.pop(rng.randrange(len(tiles)))
        wild = rng.choice(tiles)
        if rng.random() < 0.5:
            tiles[rng.randrange(len(tiles))] = wild
        hand = HandSpec(tuple(tiles), case.hand.melds)
        if not 1 <= tiles.count(wild) <= 2 or max(counts_of(hand.all_tiles())) > 4:
            continue
        assert CALCULATOR.waits(hand, wild, McrOptions()) == brute_waits(hand, wild), hand
        checked += 1


def test_waits_query_with_a_wildcard() -> None:
    answer = handle(
        {"variant": "mcr", "hand": "123m456p789s5sEEP", "query": "waits", "wildcard": "P"}
    )
    # The wildcard completes 东 or 5s beside a pair, or a set with the single 5s.
    assert answer == {"ok": True, "shanten": 0, "waits": ["3s", "4s", "5s", "6s", "7s", "1z"]}
