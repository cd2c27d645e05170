"""算番 on a hand message: a ready hand's score on each of its waits, by the calculator,
from the player's own view, in every rule set; and the button that asks for it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import EN, ZH_CN, ZH_TW
from bot.i18n.terms import tile_label, worth_text
from bot.tables import hand_score, prompts
from bot.views.components import GameButton
from engine.ai import make_player
from engine.readiness import readiness
from engine.round import Round
from engine.score import handle
from engine.session import Session
from tests.bot.harness import Harness, player
from tests.bot.test_prompts_from_engine import seat_state


def ready_moment(variant: str) -> tuple[Round, int]:
    """A hand of AI play stopped when a seat with 13 tiles waits for something."""
    for seed in range(40):
        hand = Session(variant, seed=None).start_hand(f"score-{seed}")
        ai = make_player("normal", seed)
        while not hand.ended:
            for seat in range(4):
                if readiness(hand, seat).waits and not hand.legal_actions(seat):
                    return hand, seat
            seat = hand.to_act()[0]
            prompt = hand.prompt
            default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
            hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), default))
    raise AssertionError(f"no ready hand in {variant}")


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_each_wait_is_scored_by_the_calculator(variant: str) -> None:
    hand, seat = ready_moment(variant)
    state = dataclasses.replace(seat_state(hand, seat), readiness=readiness(hand, seat))
    assert state.readiness is not None
    rules = hand.options.to_json()
    text = hand_score.scored(state, rules, EN)
    for wait in state.readiness.waits:
        on_discard, self_drawn = (handle(r) for r in hand_score.requests(state, rules, wait.tile))
        assert on_discard["ok"] and self_drawn["ok"], on_discard
        assert tile_label(wait.tile, EN) in text
        assert self_drawn["total"] >= on_discard["total"] or variant == "guangdong"
    assert "\n" in text


@pytest.mark.parametrize(
    ("variant", "locale", "said", "unsaid"),
    [
        ("mcr", EN, " fan on a discard · ", "Total"),
        ("mcr", ZH_CN, "：别人点炮 ", "合计"),
        ("sichuan", ZH_CN, " 番 · 自摸 ", "计 "),
        ("mcr", ZH_TW, "：別人放槍 ", "合計"),
        ("guangdong", EN, "hu (chicken hand) on a discard", "Total"),
    ],
)
def test_each_wait_says_what_it_is_worth_from_the_winners_side(
    variant: str, locale: str, said: str, unsaid: str
) -> None:
    # A win on someone else's discard, not "if I deal in" (放槍 alone would read so), and
    # the figure bare: the line already says what it is ("12 fan on a discard").
    hand, seat = ready_moment(variant)
    state = dataclasses.replace(seat_state(hand, seat), readiness=readiness(hand, seat))
    text = hand_score.scored(state, hand.options.to_json(), locale)
    lines = [line for line in text.splitlines()[1:] if "·" in line]
    assert lines and all(said in line and unsaid not in line for line in lines), text


def test_a_worth_is_its_number_or_the_rule_sets_name_for_it() -> None:
    assert worth_text("mcr", 12, EN) == "12 fan"
    assert worth_text("sichuan", 3, ZH_TW) == "3 番"
    assert worth_text("guangdong", 2, ZH_CN) == "大胡"
    assert worth_text("guangdong", 1, EN) == "Small hu (chicken hand)"


def test_the_button_shows_while_the_hand_is_ready() -> None:
    hand, seat = ready_moment("sichuan")
    state = dataclasses.replace(seat_state(hand, seat), readiness=readiness(hand, seat))
    labels = [i.label for i in prompts.controls(state, ZH_CN) if isinstance(i, GameButton)]
    assert "算番" in labels
    unready = dataclasses.replace(state, readiness=None)
    assert "算番" not in [
        i.label for i in prompts.controls(unready, ZH_CN) if isinstance(i, GameButton)
    ]


async def test_score_my_hand_answers_privately(harness: Harness) -> None:
    me = harness.owner
    await harness.start_table(me, "sichuan", rounds="16", fill_with_ai="true")
    seat = player(harness, me)
    for _ in range(1000):
        prompt = harness.live(await me.next_prompt(timeout=20))
        if any(b.get("label") == "Score my hand" for b in prompt.buttons()):
            break
        await seat.answer(prompt)
    else:
        raise AssertionError("the hand never got ready")
    clicked = await me.click(prompt, label="Score my hand")
    answer = (await clicked.response()).message
    assert answer is not None and answer.ephemeral_for == me.id
    assert "what your ready hand scores" in answer.content
    assert "self-drawn" in answer.content
