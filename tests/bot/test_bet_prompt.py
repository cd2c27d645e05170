"""MCR's bet prompt names only the bets the table plays (底分押倍, 万马奔腾 or both), and with
doubling off its one stake reads as confirming the horses."""

from __future__ import annotations

import pytest

from bot.i18n import EN, ZH_CN
from bot.tables.prompts import content, controls
from bot.views.components import GameButton
from engine.round import Round
from tests.bot.test_prompts_from_engine import seat_state


@pytest.mark.parametrize(
    ("options", "headline", "stake"),
    [
        ({}, "底分押倍与万马奔腾", "押 ×1"),
        ({"doubling": False}, "万马奔腾：买马", "确定"),
        ({"horses": False}, "底分押倍：选择倍数", "押 ×1"),
    ],
)
def test_the_bet_prompt_names_the_bets_the_table_plays(
    options: dict[str, bool], headline: str, stake: str
) -> None:
    hand = Round.new("mcr", options, "bets")
    assert hand.prompt is not None
    state = seat_state(hand, 0)
    assert content(state, ZH_CN).splitlines()[1].startswith(f"**{headline}**")
    labels = [i.label for i in controls(state, ZH_CN) if isinstance(i, GameButton)]
    assert any(label and label.startswith(stake) for label in labels), labels


def test_english_names_them_too() -> None:
    state = seat_state(Round.new("mcr", {"doubling": False}, "bets"), 0)
    assert "Horses: buy some, or none" in content(state, EN)
