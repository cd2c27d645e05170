"""Controls are exactly the engine's legal actions, read back through the runtime as a
click would be, and every event can be told, in every rule set and language: AI-played
hands through the real engine, no Discord."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.i18n import EN, LOCALES
from bot.ids import MAX_LENGTH, CustomId
from bot.runtime.clicks import ACT, AUTO, PICK, Answer, Chosen, Click, read
from bot.runtime.snapshots import HandFacts, SeatState
from bot.tables.narration import Narrator
from bot.tables.prompts import content, controls, headline
from bot.tables.scene import hand_view
from bot.variants import is_playable
from bot.views.components import GameButton, GameSelect, action_rows
from engine.actions import Action, Discard
from engine.ai import make_player
from engine.round import Round
from engine.session import Session
from renderer.hand import hand_order

NAMES = ("东家", "South", "西家", "North")
# Seeds whose hands, played by the random AI, reach every kind of prompt of the rule set
# (MCR: 62 偷天换日, 79 火眼金睛, 164 妙手回春, 208 a rob window).
SEEDS = {"mcr": (*range(6), 62, 79, 164, 208), "guangdong": range(8), "sichuan": range(8)}
PROMPTS = {
    "mcr": {"turn", "claim", "rob", "bet", "swap", "peek", "last_chance"},
    "guangdong": {"turn", "claim"},
    "sichuan": {"turn", "claim", "exchange", "void"},
}


def seat_state(hand: Round, seat: int) -> SeatState:
    facts = HandFacts(1, hand.variant, 1, 1, NAMES, (0, 1, 2, 3))
    return SeatState(
        facts=facts,
        chair=seat,
        seat=seat,
        revision=len(hand.actions),
        view=hand.view(seat),
        legal=tuple(hand.legal_actions(seat)),
        controls=hand.controls(seat),
        seq=len(hand.actions) + 1,
        deadline=None,
        autoplay=False,
        human=True,
    )


def clicks_of(item: GameButton | GameSelect) -> list[Click]:
    """Clicks a player can make on ``item``: the button, or each option of a select alone
    and, for a select of several, its first options together."""
    cid = item.cid
    if isinstance(item, GameButton):
        return [Click(cid.kind, cid.hand_no, cid.prompt_seq, cid.arg)]
    select = item
    values = [option.value for option in select.options]
    picks = [values[: select.min_values]] if select.min_values > 1 else [[v] for v in values]
    if select.max_values > 1:
        picks.append(values[: select.max_values])
    return [Click(cid.kind, cid.hand_no, cid.prompt_seq, cid.arg, tuple(p)) for p in picks]


def check_controls(state: SeatState, locale: str) -> None:
    items = controls(state, locale)
    assert items, state.kind
    assert state.controls is not None
    # Raises when Discord's layout limits are broken or a custom_id comes twice.
    action_rows(items)
    for item in items:
        assert isinstance(item, GameButton | GameSelect)
        raw = item.custom_id
        assert raw is not None and len(raw) <= MAX_LENGTH
        cid = CustomId.decode(raw)
        assert (cid.hand_no, cid.prompt_seq) == (1, state.seq)
        if cid.kind == AUTO:
            # 摸切 and 自动胡: the person's toggles, on their turn.
            assert state.kind == "turn" and cid.arg in ("drawn", "win")
            continue
        assert cid.kind in (ACT, PICK)
        for click in clicks_of(item):
            intent = read(click, state.controls, state.seat)
            assert intent is not None, click
            if isinstance(intent, Answer):
                assert intent.action in state.legal, (click, intent.action)
            else:
                assert isinstance(intent, Chosen)
    if state.kind == "turn":
        offered = {
            read(click, state.controls, state.seat)
            for item in items
            if isinstance(item, GameButton | GameSelect) and item.cid.kind != AUTO
            for click in clicks_of(item)
        }
        legal = {Answer(a) for a in state.legal if isinstance(a, Discard)}
        assert legal <= offered
        check_discard_buttons(state, items)


def check_discard_buttons(state: SeatState, items: list[Any]) -> None:
    """One button per legal tile, each one click, in the hand picture's order with the
    drawn tile last; one button when one tile may go."""
    assert state.controls is not None
    tiles = []
    for item in items:
        if isinstance(item, GameButton) and item.cid.arg.startswith("discard."):
            intent = read(clicks_of(item)[0], state.controls, state.seat)
            assert isinstance(intent, Answer) and isinstance(intent.action, Discard)
            assert not intent.action.declare_ready
            tiles.append(intent.action.tile)
    plain = {a.tile for a in state.legal if isinstance(a, Discard) and not a.declare_ready}
    assert sorted(tiles) == sorted(plain), "one button per distinct legal tile"
    shown = hand_order(hand_view(state.view, state.seat, EN, "", None))
    drawn = state.view.seats[state.seat].drawn
    places = {kind: i for i, kind in enumerate(shown)}
    if drawn is not None:
        places[drawn] = len(shown)
    assert tiles == sorted(tiles, key=places.__getitem__)


def play(variant: str, seed: int) -> tuple[list[SeatState], Round]:
    hand = Session(variant, seed=None).start_hand(f"seed-{seed}")
    ai = make_player("random", seed)
    shown: list[SeatState] = []
    while not hand.ended:
        for seat in range(4):
            if hand.legal_actions(seat):
                shown.append(seat_state(hand, seat))
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
        locale = LOCALES[seed % 3]
        for state in shown:
            kinds.add(state.kind)
            check_controls(state, locale)
            assert content(state, locale)
        for locale in LOCALES:
            narrator = Narrator(variant, NAMES, locale)
            assert narrator.lines(hand.events_for(None))
            for seat in range(4):
                narrator.lines(hand.events_for(seat))
    assert PROMPTS[variant] <= kinds


@pytest.mark.parametrize(
    ("locale", "ahead", "past"),
    [
        (EN, "⏱ in 20 seconds", "⏱ 5 seconds ago"),
        ("zh-CN", "20秒后截止", "5秒前截止"),
        ("zh-TW", "20 秒後截止", "5 秒前截止"),
    ],
)
def test_the_deadline_reads_before_and_after_it_passes(locale: str, ahead: str, past: str) -> None:
    # Discord draws <t:…:R> in the reader's language as a relative time: "in 20 seconds"
    # (20秒后), and once it has passed "5 seconds ago" (5秒前). The words around it read
    # both ways: not "until in 20 seconds", nor 截止 before 20秒后.
    hand = Session("guangdong", seed=None).start_hand("deadline")
    seat = hand.to_act()[0]
    state = replace(seat_state(hand, seat), deadline=2_000_000_000.0)
    line = headline(state, locale)
    stamp = "<t:2000000000:R>"
    assert line.startswith("**") and stamp in line
    drawn = {
        EN: ("in 20 seconds", "5 seconds ago"),
        "zh-CN": ("20秒后", "5秒前"),
        "zh-TW": ("20 秒後", "5 秒前"),
    }[locale]
    assert line.replace(stamp, drawn[0]).endswith(f" · {ahead}")
    assert line.replace(stamp, drawn[1]).endswith(f" · {past}")
