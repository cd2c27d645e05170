"""MCR keeps its dice back until the bets are in; the bot must not show them earlier. What
the dice trigger is told as players name it."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES
from bot.tables.narration import Narrator
from engine.events import DiceRolled, Won
from engine.round import Round
from engine.tiles import parse_tile


def test_mcr_dice_are_hidden_until_the_bets_are_in() -> None:
    hand = Round.new("mcr", {}, "dice-later")
    assert hand.view(None).dice is None
    while hand.prompt is not None:
        seat = hand.to_act()[0]
        default = hand.default_action(seat)
        assert default is not None
        hand.apply(default)
    assert hand.view(None).dice == hand.dice
    assert any(isinstance(e, DiceRolled) for e in hand.events_for(None))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_dice_roll_is_narrated(locale: str) -> None:
    line = Narrator("mcr", ["a", "b", "c", "d"], locale).line(DiceRolled((5, 5)))
    assert "5+5" in line


@pytest.mark.parametrize("locale", LOCALES)
def test_a_last_chance_hit_is_told_as_its_own_win(locale: str) -> None:
    # 妙手回春 (3-3): a self-drawn win on the tile the player picked, from nobody's discard.
    won = Won(3, "last_chance", parse_tile("5p"), None, 12)
    line = Narrator("mcr", ["a", "b", "c", "d"], locale).line(won)
    assert line.startswith("d ") and ("妙手回春" in line or "Last Chance" in line)
    assert not any(word in line for word in ("点炮", "放槍", "'s", " 的 "))
