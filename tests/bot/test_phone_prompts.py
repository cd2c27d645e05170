"""The 听牌 help of a hand message and its controls, read from the engine's own hands."""

from __future__ import annotations

import discord

from bot.i18n import EN, ZH_CN
from bot.runtime.snapshots import HandFacts, SeatState
from bot.tables.prompts import content, controls, picture
from bot.views.components import GameButton, GameSelect
from engine.readiness import readiness
from engine.round import Round
from engine.rules.registry import find_ruleset
from engine.tiles import parse_tiles
from tests.engine.round.helpers import deal

NAMES = ("东家", "South", "西家", "North")
# The dealer is ready but for its 东 (waiting on 5条 and 9条); seat 1 holds nine gates.
READY = ("234567m789p5599sE", "1112345678999m", "1234567p123456s", "7899p3456789sES")
PLAIN_MCR = {"doubling": False, "horses": False, "wildcard": False, "dice_modes": []}


def state_of(hand: Round, seat: int) -> SeatState:
    facts = HandFacts(1, hand.variant, 1, 1, NAMES, (0, 1, 2, 3))
    return SeatState(
        facts=facts,
        chair=seat,
        seat=seat,
        revision=1,
        view=hand.view(seat),
        legal=tuple(hand.legal_actions(seat)),
        controls=hand.controls(seat),
        seq=1,
        deadline=None,
        autoplay=False,
        human=True,
        readiness=readiness(hand, seat),
    )


def test_a_discard_that_leaves_the_hand_ready_says_what_it_waits_on() -> None:
    hand = deal(find_ruleset("guangdong"), READY)
    state = state_of(hand, 0)
    assert "打东 → 听5条9条，剩4张" in content(state, ZH_CN).splitlines()
    assert "Discard East → Waiting on 5, 9 Bamboo: 4 left" in content(state, EN)
    green = [
        i
        for i in controls(state, EN)
        if isinstance(i, GameButton) and i.style is discord.ButtonStyle.success
    ]
    assert [i.label for i in green if i.cid.arg.startswith("discard.")] == ["🀀 East"]


def test_a_ready_hand_shows_its_waits_and_the_copies_left() -> None:
    hand = deal(find_ruleset("guangdong"), READY)
    state = state_of(hand, 1)
    lines = content(state, ZH_CN).splitlines()
    assert "听1万2万3万4万5万6万7万8万9万，剩23张" in lines
    desk = picture(state, ZH_CN)
    assert desk.hand.waits == tuple(parse_tiles("123456789m"))
    assert desk.wait_left == (1, 3, 3, 3, 3, 3, 3, 3, 1)


def test_declaring_ready_names_the_waits_of_each_discard() -> None:
    hand = deal(find_ruleset("mcr"), READY, options=PLAIN_MCR)
    state = state_of(hand, 0)
    (ready,) = [
        i for i in controls(state, ZH_CN) if isinstance(i, GameSelect) and "ready" in i.cid.arg
    ]
    assert [o.label for o in ready.options] == ["东 → 听5条9条，剩4张"]


def test_a_wide_wait_reads_whole_in_english_within_discords_limit() -> None:
    # The dealer declares ready on the nine gates by discarding 东: nine waits.
    gates = ("1112345678999mE", "1234567p123456s", "7899p3456789sSW", "2345p2345s6sNNCF")
    hand = deal(find_ruleset("mcr"), gates, options=PLAIN_MCR)
    state = state_of(hand, 0)
    (ready,) = [
        i for i in controls(state, EN) if isinstance(i, GameSelect) and "ready" in i.cid.arg
    ]
    (option,) = [o for o in ready.options if o.label.startswith("East")]
    assert option.label.endswith("Waiting on 1, 2, 3, 4, 5, 6, 7, 8, 9 Characters: 23 left")
    assert all(len(o.label) <= 100 for o in ready.options)
