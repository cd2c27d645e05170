"""MCR keeps its dice back until the bets are in; the bot must not show them earlier."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES
from bot.tables.narration import Narrator
from engine.events import DiceRolled
from engine.round import Round


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
