"""MCR keeps its dice back until the bets are in; the bot must not show them earlier. What
the dice trigger is told as players name it."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, ZH_CN, t
from bot.runtime.snapshots import BoardState
from bot.tables.narration import Narrator
from bot.tables.prompts import content, table_title
from engine.events import DiceRolled, Won
from engine.round import Round
from engine.tiles import parse_tile
from tests.bot.test_prompts_from_engine import play


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


def test_the_dice_mode_is_named_and_explained_for_the_whole_hand() -> None:
    # Seed 79 rolls 2-2: 火眼金睛.
    shown, _ = play("mcr", 79)
    moded = [s for s in shown if s.view.facts.mode is not None]
    assert moded and {s.view.facts.mode for s in moded} == {"peek"}
    state = moded[-1]
    assert t("mode.peek.explained", ZH_CN) in content(state, ZH_CN)
    quiet = content(state, ZH_CN, notices=False)
    assert "🎲 火眼金睛" in quiet and t("mode.peek.explained", ZH_CN) not in quiet
    before = next(s for s in shown if s.view.facts.mode is None)
    assert "火眼金睛" not in content(before, ZH_CN)
    # The thread's table message and picture carry it in their title.
    board = BoardState(state.facts, 1, state.view, (0, 0, 0, 0), (False,) * 4, (False,) * 4, ())
    assert table_title(board, ZH_CN).endswith(" · 火眼金睛")
