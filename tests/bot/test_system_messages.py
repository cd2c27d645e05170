"""What a player's hand message and result DM say of their own situation, drawn from real
hands of the engine: 显示系统消息 (mcr.md §4.6) on, the system notices too (claim hints,
their own 血战 win with its fan breakdown), off, only what needs their action; a capped
win says so; each fan counted; a discarder waits for the others."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import EN, ZH_CN
from bot.runtime.notes import Note
from bot.tables.prompts import content, win_lines
from bot.tables.settlement import player_result
from engine.ai import make_player
from engine.round import Round
from engine.session import Session
from engine.tiles import parse_tile
from tests.bot.test_prompts_from_engine import seat_state
from tests.engine.rules.sichuan.sichuan_tables import Table
from tests.engine.rules.sichuan.sichuan_tables import play as sichuan_play
from tests.engine.rules.sichuan.test_sichuan_round import E10, E10_ACTIONS


def a_win_while_play_goes_on() -> tuple[Round, int]:
    """A 血战 hand just after a seat won while the others play on; the winner."""
    for seed in range(50):
        hand = Session("sichuan", seed=None).start_hand(f"seed-{seed}")
        ai = make_player("random", seed)
        while not hand.ended:
            seat = hand.to_act()[0]
            prompt = hand.prompt
            default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
            hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), default))
            view = hand.view(None)
            won = [s.seat for s in view.seats if not s.active]
            if won and not hand.ended:
                return hand, won[0]
    raise AssertionError("no hand had a win before its end")


def test_system_notices_show_only_for_players_who_want_them() -> None:
    hand, winner = a_win_while_play_goes_on()
    hint = Note("pass_pong", tiles=(parse_tile("5m"),))
    state = replace(seat_state(hand, winner), notes=(hint,))
    (won,) = win_lines(state, EN)
    wanted = content(state, EN)
    assert won in wanted and "no pung of" in wanted
    quiet = content(state, EN, notices=False)
    assert won not in quiet and "no pung of" not in quiet
    assert quiet.splitlines()[:2] == wanted.splitlines()[:2], "the title and headline stay"


def test_a_capped_win_in_the_hand_message_says_it_was_capped() -> None:
    # sichuan.md E10 with 自摸加番: 7 番 capped at 4, the winner out while the others play on.
    table = Table(
        **{**E10.__dict__, "options": {"exchange_three": False, "self_draw_bonus": "add_fan"}}
    )
    hand = sichuan_play(table, E10_ACTIONS)
    (line,) = win_lines(seat_state(hand, 0), ZH_CN)
    assert "封顶" in line and "原 7" in line


def test_the_result_dm_counts_each_fan() -> None:
    table = Table(
        **{**E10.__dict__, "options": {"exchange_three": False, "self_draw_bonus": "add_fan"}}
    )
    result = player_result(sichuan_play(table, E10_ACTIONS), 0, ZH_CN)
    assert "根 2" in result and "自摸 1" in result, "two 根 are worth 2"
    assert "）（" not in result and "））" not in result, "no brackets inside brackets"


def test_a_discarder_waiting_on_claims_waits_for_the_others_not_themself() -> None:
    for seed in range(50):
        hand = Session("guangdong", seed=None).start_hand(f"seed-{seed}")
        ai = make_player("random", seed)
        while not hand.ended and hand.phase.value != "claim":
            seat = hand.to_act()[0]
            hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), None))
        if hand.phase.value == "claim":
            break
    discarder = hand.view(None).turn
    assert discarder is not None and not hand.legal_actions(discarder)
    headline = content(seat_state(hand, discarder), EN).splitlines()[1]
    assert headline == "Waiting for the others"
