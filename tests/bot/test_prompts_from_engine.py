"""Controls are exactly the engine's legal actions, and every event can be told, in every
rule set and language: AI-played hands through the real engine, no Discord."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import LOCALES
from bot.tables.narration import Narrator
from bot.tables.prompts import CLAIM, ROB, TURN, SeatSnapshot, content, controls, prompt_kind
from bot.variants import is_playable
from bot.views.components import GameButton, GameSelect
from bot.views.controls import action_of
from bot.views.ids import MAX_LENGTH, CustomId
from engine.actions import Action, Discard
from engine.ai import make_player
from engine.round import Round
from engine.session import Session

NAMES = ("东家", "South", "西家", "North")
# Seeds whose hands, played by the random AI, reach every kind of prompt of the rule set
# (MCR: 62 偷天换日, 79 火眼金睛, 164 妙手回春, 208 a rob window).
SEEDS = {"mcr": (*range(6), 62, 79, 164, 208), "guangdong": range(8), "sichuan": range(8)}
PROMPTS = {
    "mcr": {TURN, CLAIM, ROB, "bet", "swap", "peek", "last_chance"},
    "guangdong": {TURN, CLAIM},
    "sichuan": {TURN, CLAIM, "exchange", "void"},
}


def snapshot(hand: Round, seat: int, locale: str) -> SeatSnapshot:
    view = hand.view(seat)
    legal = tuple(hand.legal_actions(seat))
    return SeatSnapshot(
        table_id=1,
        hand_no=1,
        seat=seat,
        variant=hand.variant,
        names=NAMES,
        locale=locale,
        title="t",
        view=view,
        legal=legal,
        prompt=prompt_kind(view, legal),
        seq=len(hand.actions) + 1,
        deadline=None,
        autoplay=False,
        options=hand.options.to_json(),
    )


def check_controls(snap: SeatSnapshot) -> None:
    items = controls(snap)
    assert items, snap.prompt
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)  # raises when Discord's layout limits are broken
    for item in items:
        assert isinstance(item, GameButton | GameSelect)
        raw = item.item.custom_id
        assert raw is not None and len(raw) <= MAX_LENGTH
        cid = CustomId.decode(raw)
        assert (cid.hand_no, cid.prompt_seq) == (1, snap.seq)
        if snap.prompt in (TURN, CLAIM, ROB) and isinstance(item, GameButton):
            assert action_of(cid, [], snap.seat) in snap.legal
    if snap.prompt == TURN:
        offered = {
            option.value
            for item in items
            if isinstance(item, GameSelect) and item.cid.kind == "discard"
            for option in item.item.options
        }
        legal = {
            a.to_json()["tile"]
            for a in snap.legal
            if isinstance(a, Discard) and not a.declare_ready
        }
        assert offered == legal


def play(variant: str, seed: int) -> tuple[list[SeatSnapshot], Round]:
    hand = Session(variant, seed=None).start_hand(f"seed-{seed}")
    ai = make_player("random", seed)
    shown: list[SeatSnapshot] = []
    while not hand.ended:
        for seat in range(4):
            if hand.legal_actions(seat):
                shown.append(snapshot(hand, seat, LOCALES[seed % 3]))
        seat = hand.to_act()[0]
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        action: Action = ai.choose(hand.view(seat), hand.legal_actions(seat), default)
        hand.apply(action)
    return shown, hand


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_controls_offer_exactly_the_legal_actions(variant: str) -> None:
    if not is_playable(variant):
        pytest.skip(f"{variant} play is not available yet")
    kinds: set[str | None] = set()
    for seed in SEEDS[variant]:
        shown, hand = play(variant, seed)
        for snap in shown:
            kinds.add(snap.prompt)
            check_controls(snap)
            assert content(snap)
        for locale in LOCALES:
            narrator = Narrator(variant, NAMES, locale)
            assert narrator.lines(hand.events_for(None))
            for seat in range(4):
                narrator.lines(hand.events_for(seat))
    assert PROMPTS[variant] <= kinds
