"""``score_win``, the round engine's entry: course-of-hand fans (§2.4) and 天降财神 (§4.5.4)."""

from __future__ import annotations

import pytest

from engine.rules.base import RuleError, WinFacts
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.options import McrOptions
from engine.tiles import parse_hand, parse_tile

CHICKEN = ("[123m][567p][345s]88pWW", "8p")  # E19: 无番和
E1 = ("123m123p123s78m55s", "9m")  # 三色三同顺 8, 门前清 2, 平和 2, 老少副 1


def win(hand: str, tile: str, self_drawn: bool = False) -> WinFacts:
    return WinFacts(hand=parse_hand(hand), win_tile=parse_tile(tile), self_drawn=self_drawn)


def fans(
    hand: str,
    tile: str,
    self_drawn: bool = False,
    options: McrOptions | None = None,
    extra_fans: tuple[str, ...] = (),
) -> list[tuple[str, int]]:
    result = score_win(win(hand, tile, self_drawn), options or McrOptions(), extra_fans=extra_fans)
    return [(f.zh, f.fan) for f in result.fans]


def test_the_calculator_never_awards_extra_fans_by_itself() -> None:
    assert fans(*CHICKEN) == [("无番和", 8)]


def test_declared_ready_adds_to_a_chicken_hand() -> None:
    result = score_win(win(*CHICKEN), McrOptions(), extra_fans=["declared_ready"])
    assert [(f.zh, f.fan) for f in result.fans] == [("无番和", 8), ("报听", 1)]
    assert result.total == 9


def test_extra_fans_need_their_table_option() -> None:
    off = McrOptions.parse({"preset": "official"})
    assert fans(*CHICKEN, options=off, extra_fans=("declared_ready",)) == [("无番和", 8)]


def test_heavenly_ready_excludes_declared_ready() -> None:
    both = fans(*E1, extra_fans=("heavenly_ready", "declared_ready"))
    assert ("天听", 8) in both and ("报听", 1) not in both


def test_earthly_hand_excludes_the_concealed_hand() -> None:
    result = score_win(win(*E1), McrOptions(), extra_fans=["earthly_hand"])
    assert [(f.zh, f.fan) for f in result.fans] == [
        ("地和", 64),
        ("三色三同顺", 8),
        ("平和", 2),
        ("老少副", 1),
    ]
    assert result.total == 75


def test_heavenly_hand_tries_every_kind_as_the_winning_tile() -> None:
    # 1112345678999p + 5p is 九莲宝灯 only with 5p as the winning tile.
    result = score_win(
        win("1112345678999p", "9p", True), McrOptions(), extra_fans=["heavenly_hand"]
    )
    assert [(f.zh, f.fan) for f in result.fans] == [
        ("九莲宝灯", 88),
        ("天和", 88),
        ("清龙", 16),
        ("四归一", 2),
    ]
    result = score_win(
        win("1112345678999p", "5p", True), McrOptions(), extra_fans=["heavenly_hand"]
    )
    assert result.total == 88 + 88 + 2 + 1
    # 天和 leaves out 不求人, 自摸 and the wait fans.
    assert fans(*E1, True, extra_fans=("heavenly_hand",)) == [
        ("天和", 88),
        ("三色三同顺", 8),
        ("平和", 2),
        ("老少副", 1),
    ]


def test_god_of_wealth_is_added_last_and_never_helps_the_minimum() -> None:
    result = score_win(win(*E1), McrOptions(), wealth_fan=28)
    assert (result.fans[0].id, result.fans[0].zh, result.fans[0].fan) == (
        "god_of_wealth",
        "天降财神",
        28,
    )
    assert result.total == 41
    below = score_win(win("[123m][567p][345s]88pWW", "W"), McrOptions(), wealth_fan=88)
    assert (below.total, below.meets_minimum) == (89, False)
    equal = score_win(win(*E1), McrOptions(), wealth_fan=8)
    assert [f.id for f in equal.fans][:2] == ["mixed_triple_chow", "god_of_wealth"]


def test_extra_fans_count_toward_the_minimum() -> None:
    result = score_win(
        win("[123m][567p][345s]88pWW", "W"), McrOptions(), extra_fans=["heavenly_ready"]
    )
    assert (result.total, result.meets_minimum) == (9, True)


def test_unknown_extra_fans_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown extra fan 'blessing'"):
        score_win(win(*E1), McrOptions(), extra_fans=["blessing"])


def test_a_hand_that_does_not_win_is_refused_even_with_heavenly_hand() -> None:
    with pytest.raises(RuleError):
        score_win(win("123m123p123s78m55s", "1p", True), McrOptions(), extra_fans=["heavenly_hand"])


def test_official_preset_defaults_and_overrides() -> None:
    official = McrOptions.parse({"preset": "official"})
    assert official.extra_fans is False and official.rounds == 16
    assert official.dice_modes == ()
    assert McrOptions.parse({"preset": "official", "horses": True}).horses is True
    party = McrOptions.parse({})
    assert party == McrOptions()
    assert party.extra_fans is True and party.min_fan == 8
    assert McrOptions.parse({"dice_modes": ["peek"]}).dice_modes == ("peek",)
    with pytest.raises(RuleError, match="invalid value"):
        McrOptions.parse({"dice_modes": ["peek", "peek"]})
    with pytest.raises(RuleError, match="unknown mcr option"):
        McrOptions.parse({"minimum": 8})
