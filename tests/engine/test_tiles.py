import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import wall
from engine.score import handle
from engine.tiles import (
    ALIASES,
    MeldType,
    NotationError,
    format_tiles,
    normalise,
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


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("12x", "unknown_char"),
        ("8z", "no_tile"),
        ("123", "no_suit"),
        ("m", "no_digits"),
        ("1E", "digits_before_honor"),
        ("12m[12", "unclosed"),
        ("12m]", "closes_nothing"),
        ("[124m]", "bad_meld"),
        ("{555m}", "bad_kong"),
        ("[1[2]3m]", "nested"),
    ],
)
def test_notation_errors_say_what_is_wrong(text: str, code: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert err.value.code == code


def test_notation_error_messages_are_unchanged_for_the_notation() -> None:
    with pytest.raises(NotationError) as err:
        parse_hand("12x")
    assert str(err.value) == "unknown character 'x' ('x' at position 2 of '12x')"
    with pytest.raises(NotationError) as err:
        parse_tile("12m")
    assert (err.value.code, err.value.position) == ("one_tile", 0)
    with pytest.raises(NotationError) as err:
        parse_tiles("1m[2m]")
    assert (err.value.code, err.value.char) == ("melds_here", "[")


@pytest.mark.parametrize(
    ("written", "notation"),
    [
        ("123万456筒789条东东中中中", "123m456p789sEECCC"),
        ("123萬456筒789條東東中中中", "123m456p789sEECCC"),
        ("一二三萬", "123m"),
        ("九索九条", "99s"),
        ("五饼五餅五筒", "555p"),
        ("东南西北中发白", "ESWNCFP"),
        ("東南西北中發白", "ESWNCFP"),
        ("1234567字", "1234567z"),
        ("１２３ｍ　Ｅ", "123m E"),
        ("1万2m三萬", "123m"),
    ],
)
def test_chinese_forms_are_aliases_of_the_notation(written: str, notation: str) -> None:
    assert parse_tiles(written) == parse_tiles(notation)
    assert len(normalise(written)) == len(written)


def test_chinese_melds() -> None:
    hand = parse_hand("二三四万[七七七条]{東東東東}[中中中]")
    assert hand.notation() == "234m[777s]{1111z}[555z]"
    assert parse_tile("發") == parse_tile("F") == parse_tile("6z")
    assert parse_tile("白") == parse_tile("7z")


def test_every_alias_is_one_character_for_one() -> None:
    assert all(len(k) == 1 and len(v) == 1 for k, v in ALIASES.items())
    assert set(ALIASES.values()) <= set("mpsz123456789ESWNCFP")


@pytest.mark.parametrize(
    ("text", "position", "char", "code"),
    [
        ("123万x", 4, "x", "unknown_char"),
        ("万", 0, "万", "no_digits"),
        ("8字", 0, "8", "no_tile"),
        ("12东", 2, "东", "digits_before_honor"),
        ("十万", 0, "十", "unknown_char"),
        ("一二三", 2, "三", "no_suit"),
        ("[一二四万]", 0, "[", "bad_meld"),
        ("²m", 0, "²", "unknown_char"),
    ],
)
def test_errors_in_chinese_name_the_character_as_written(
    text: str, position: int, char: str, code: str
) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert (err.value.position, err.value.char, err.value.code) == (position, char, code)
    assert f"'{char}' at position {position}" in str(err.value)
    assert err.value.text == text


def test_the_calculator_reads_chinese_hands_as_the_notation() -> None:
    written = {"variant": "mcr", "hand": "一二三万123筒123条78万55条", "win_tile": "9万"}
    notation = {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "9m"}
    assert handle(written) == handle(notation)
    assert handle(notation)["total"] == 13
    waits = handle({"variant": "guangdong", "hand": "1112345678999萬", "query": "waits"})
    assert waits == handle({"variant": "guangdong", "hand": "1112345678999m", "query": "waits"})
    error = handle({"variant": "mcr", "hand": "123x", "win_tile": "5m"})["error"]
    assert error == "unknown character 'x' ('x' at position 3 of '123x')"


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
    assert tile_name(parse_tile("1m"), "en") == "1 Character"
    assert tile_name(parse_tile("1p"), "en") == "1 Dot"
    assert tile_name(parse_tile("2p"), "en") == "2 Dots"
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
