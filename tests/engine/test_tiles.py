import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import wall
from engine.tiles import (
    MeldType,
    NotationError,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_str,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", [0, 1, 2]),
        ("19p", [9, 17]),
        ("5s", [22]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("ESWNCFP", [27, 28, 29, 30, 31, 32, 33]),
        ("3m 3m", [2, 2]),
    ],
)
def test_parse_tiles(text: str, expected: list[int]) -> None:
    assert parse_tiles(text) == expected


def test_honor_order_is_chinese() -> None:
    assert parse_tile("5z") == parse_tile("C")
    assert tile_name(parse_tile("5z")) == "中"
    assert tile_name(parse_tile("6z")) == "发"
    assert tile_name(parse_tile("7z")) == "白"


@pytest.mark.parametrize(
    ("text", "position", "char"),
    [
        ("12x", 2, "x"),
        ("8z", 0, "8"),
        ("123", 2, "3"),
        ("m", 0, "m"),
        ("0m", 0, "0"),
        ("1E", 1, "E"),
        ("12m[12", 3, "["),
        ("12m]", 3, "]"),
        ("[124m]", 0, "["),
        ("{555m}", 0, "{"),
        ("[1[2]3m]", 2, "["),
    ],
)
def test_notation_errors_name_character_and_position(text: str, position: int, char: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert err.value.position == position
    assert err.value.char == char
    assert f"position {position}" in str(err.value)


def test_melds() -> None:
    hand = parse_hand("23m456p55s[777s]{EEEE}[5555p][312m]")
    assert [m.type for m in hand.melds] == [
        MeldType.PUNG,
        MeldType.CONCEALED_KONG,
        MeldType.KONG,
        MeldType.CHOW,
    ]
    assert hand.melds[3].kind == parse_tile("1m")
    assert hand.melds[3].claimed == parse_tile("3m")
    assert hand.notation() == "23m456p55s[777s]{1111z}[5555p][123m]"
    assert len(hand.all_tiles()) == 7 + 3 + 4 + 4 + 3


def test_parse_tiles_refuses_melds() -> None:
    with pytest.raises(NotationError):
        parse_tiles("[123m]")


@given(st.lists(st.integers(0, 33), max_size=20))
def test_format_round_trips(kinds: list[int]) -> None:
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)
    assert parse_tiles(format_tiles(kinds, sort=False)) == kinds


def test_names_in_three_languages() -> None:
    assert tile_name(parse_tile("5m"), "zh-CN") == "五万"
    assert tile_name(parse_tile("5m"), "zh-TW") == "五萬"
    assert tile_name(parse_tile("E"), "zh-TW") == "東"
    assert tile_name(parse_tile("9s"), "en-US") == "9 Bamboo"
    assert tile_str(parse_tile("P")) == "7z"


@pytest.mark.parametrize("tiles", [wall.TILES_136, wall.TILES_108])
def test_seeded_deal_is_reproducible_and_conserves_tiles(tiles: tuple[int, ...]) -> None:
    a = wall.deal(wall.shuffled(tiles, random.Random(42)))
    b = wall.deal(wall.shuffled(tiles, random.Random(42)))
    assert a == b
    assert [len(h) for h in a.hands] == [14, 13, 13, 13]
    assert sorted([t for h in a.hands for t in h] + list(a.wall)) == sorted(tiles)


def test_deal_order_is_four_four_four_one_then_dealer() -> None:
    deal = wall.deal(list(range(136)))
    assert deal.hands[0][:4] == (0, 1, 2, 3)
    assert deal.hands[1][:4] == (4, 5, 6, 7)
    assert deal.hands[0][12:] == (48, 52)
    assert deal.hands[3][12] == 51
    assert deal.wall[0] == 53


def test_first_dealer_from_dice() -> None:
    assert wall.first_dealer_chair((3, 4)) == 2
    assert wall.first_dealer_chair((1, 1)) == 1
    assert wall.first_dealer_chair((2, 3)) == 0


def test_fingerprint_is_sha256_of_seed() -> None:
    assert wall.seed_fingerprint(1) == wall.seed_fingerprint("1")
    assert len(wall.seed_fingerprint(99)) == 64
