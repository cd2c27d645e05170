"""Refused moves in the player's words: every reason code the engine can raise has a text
in each language, filled with what the refusal is about; through the fake Discord too."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.runtime.table as runtime_module
from bot.demo import control_name
from bot.i18n import EN, LOCALES, ZH_CN, catalog, placeholders, t
from bot.i18n.terms import tile_label
from bot.runtime.clicks import Answer
from bot.runtime.snapshots import Refused
from bot.tables.refusals import GENERIC, details, refusal_text
from data.models import PlayerSettings
from engine.actions import Action, Bet, ChooseVoid, Discard, Exchange
from engine.errors import Refusal
from engine.round import Round
from engine.session import Session
from engine.tiles import kinds_of, parse_tile, suit
from fakediscord.models import Message
from tests.bot.harness import Harness, player

ENGINE = Path(__file__).resolve().parents[2] / "engine"
REFUSERS = ("Refusal", "_refuse")
NAMES = ("East", "South", "West", "North")


def _callee(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _constants(trees: list[ast.Module]) -> dict[str, set[str]]:
    """Module-level names bound to a string, in every engine module."""
    found: dict[str, set[str]] = {}
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                for target in targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, set()).add(value.value)
    return found


def _reason_arguments(tree: ast.AST, passed: frozenset[str] = frozenset()) -> Iterator[ast.expr]:
    """The reason argument of every refusal made in ``tree``, leaving out a function's own
    parameter handed on (``_refuse(reason, message)`` builds what its callers name)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = frozenset(a.arg for a in node.args.args + node.args.kwonlyargs)
            yield from _reason_arguments(node, params)
            continue
        if isinstance(node, ast.Call) and _callee(node.func) in REFUSERS:
            keywords = [k.value for k in node.keywords if k.arg == "reason"]
            reason = node.args[0] if node.args else keywords[0]
            if not (isinstance(reason, ast.Name) and reason.id in passed):
                yield reason
        yield from _reason_arguments(node, passed)


def engine_reason_codes() -> set[str]:
    """Every reason code the engine and its rule sets refuse with, read from their source:
    a string literal, or a module constant holding one."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in ENGINE.rglob("*.py")]
    constants = _constants(trees)
    codes: set[str] = set()
    for tree in trees:
        for reason in _reason_arguments(tree):
            if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
                codes.add(reason.value)
            elif isinstance(reason, ast.Name) and len(constants.get(reason.id, ())) == 1:
                codes |= constants[reason.id]
            else:
                raise AssertionError(f"a reason code this test cannot read: {ast.unparse(reason)}")
    return codes


CODES = sorted(engine_reason_codes())


def test_the_source_scan_finds_the_engines_codes() -> None:
    assert len(CODES) >= 30
    assert {"not_your_turn", "tile_not_held", "void_meld", "own_pong_source", "pass_win"} <= set(
        CODES
    )


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", CODES)
def test_every_reason_code_has_a_text(code: str, locale: str) -> None:
    assert f"refusal.{code}" in catalog(locale)


# -- the details a text is filled with ------------------------------------------------------


def at_play(variant: str, seed: str) -> Round:
    """A hand of the rule set past its set-up prompts, each seat taking the default."""
    hand = Session(variant, seed=None).start_hand(seed)
    while hand.prompt is not None:
        seat = hand.to_act()[0]
        hand.apply(hand.ruleset.default_prompt_action(hand, hand.prompt, seat))
    return hand


def refused(hand: Round, action: Action, void: int | None = None) -> Refused:
    refusal = hand.check(action)
    assert refusal is not None
    seat = action.seat
    return Refused(refusal, action, hand.view(seat), tuple(hand.legal_actions(seat)), NAMES, void)


def unheld(hand: Round, seat: int) -> int:
    counts = hand.view(seat).seats[seat].concealed
    assert counts is not None
    return next(k for k, n in enumerate(counts) if not n)


def test_a_tile_not_held_is_named() -> None:
    hand = at_play("guangdong", "held")
    seat = hand.to_act()[0]
    missing = unheld(hand, seat)
    found = refused(hand, Discard(seat, missing))
    assert found.refusal.reason == "tile_not_held"
    assert refusal_text(found, "guangdong", EN) == f"You do not hold {tile_label(missing, EN)}."
    assert refusal_text(found, "guangdong", ZH_CN) == f"你手里没有 {tile_label(missing, ZH_CN)}。"


def test_whose_turn_it_is_is_named() -> None:
    hand = at_play("guangdong", "turn")
    turn = hand.to_act()[0]
    other = (turn + 1) % 4
    counts = hand.view(other).seats[other].concealed
    assert counts is not None
    held = kinds_of(counts)[0]
    found = refused(hand, Discard(other, held))
    assert found.refusal.reason == "not_your_turn"
    assert refusal_text(found, "guangdong", EN) == f"It is {NAMES[turn]}'s turn, not yours."
    assert refusal_text(found, "guangdong", ZH_CN) == f"现在轮到 {NAMES[turn]}，不是你。"


def test_mixed_suits_for_the_exchange_are_listed() -> None:
    hand = Session("sichuan", seed=None).start_hand("exchange")
    counts = hand.view(0).seats[0].concealed
    assert counts is not None
    by_suit = {suit(k): k for k in kinds_of(counts)}
    tiles = tuple(sorted(by_suit.values()))[:3]
    found = refused(hand, Exchange(0, tiles))
    assert found.refusal.reason == "exchange_mixed_suits"
    text = refusal_text(found, "sichuan", ZH_CN)
    assert text.startswith("三张牌要同一花色") and text != t(GENERIC, ZH_CN)


def test_the_void_suit_is_named() -> None:
    hand = Session("sichuan", seed=None).start_hand("void")
    while hand.prompt is not None and hand.prompt.id != "void":
        hand.apply(hand.ruleset.default_prompt_action(hand, hand.prompt, hand.to_act()[0]))
    for seat in range(4):
        hand.apply(ChooseVoid(seat, 0))
    turn = hand.to_act()[0]
    counts = hand.view(turn).seats[turn].concealed
    assert counts is not None
    kinds = kinds_of(counts)
    if not any(suit(k) == 0 for k in kinds):
        pytest.skip("this deal leaves the dealer no 万 to discard first")
    other = next(k for k in kinds if suit(k) != 0)
    found = refused(hand, Discard(turn, other), void=0)
    assert found.refusal.reason == "void_first"
    assert refusal_text(found, "sichuan", EN) == "Discard your void suit (Characters) first."


def test_a_detail_that_cannot_be_told_falls_back_to_the_general_text() -> None:
    hand = at_play("guangdong", "fallback")
    seat = hand.to_act()[0]
    found = refused(hand, Discard(seat, unheld(hand, seat)))
    unknown = dataclasses.replace(found, refusal=Refusal("brand_new", "?"))
    assert refusal_text(unknown, "guangdong", EN) == t(GENERIC, EN)
    no_void = dataclasses.replace(found, refusal=Refusal("void_first", "?"), void=None)
    assert refusal_text(no_void, "guangdong", EN) == t(GENERIC, EN)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_is_filled_in_a_situation_that_tells_everything(locale: str) -> None:
    hand = at_play("guangdong", "everything")
    seat = hand.to_act()[0]
    view = hand.view(seat)
    counts = view.seats[seat].concealed
    assert counts is not None
    absent = tuple(k for k, n in enumerate(counts) if not n)[:3]
    everything = Refused(
        Refusal("any", "?"),
        Exchange(seat, absent),
        dataclasses.replace(view, claim_tile=parse_tile("5m")),
        (Bet(seat, 1), Bet(seat, 2)),
        NAMES,
        1,
    )
    told = details(everything, locale)
    for code in CODES:
        key = f"refusal.{code}"
        assert placeholders(catalog(locale)[key]) <= told.keys(), key
        text = refusal_text(
            dataclasses.replace(everything, refusal=Refusal(code, "?")), "guangdong", locale
        )
        assert "{" not in text
        if code != "illegal":
            assert text != t(GENERIC, locale), code


# -- through Discord -----------------------------------------------------------------------


def offers_discard(message: Message) -> bool:
    return any(control_name(button["custom_id"]) == "discard" for button in message.buttons())


async def test_a_refused_move_is_answered_in_the_players_words(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = harness.owner
    await harness.store.save_player_settings(PlayerSettings(me.id, locale=ZH_CN))
    await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
    seat = player(harness, me)
    while True:
        prompt = harness.live(await me.next_prompt(timeout=20))
        if prompt.has_controls() and offers_discard(prompt):
            break
        if prompt.has_controls():
            await seat.answer(prompt)
    table = harness.running()
    async with table.lock:
        hand = table.hand
        assert hand is not None
        mine = table.seat_of(table.chair_of_user(me.id).chair)  # type: ignore[union-attr]
        counts = hand.view(mine).seats[mine].concealed
        actions = len(hand.actions)
    assert counts is not None
    missing = next(k for k, n in enumerate(counts) if not n and suit(k) == 0)
    # A control that names a tile the player does not hold, as an outdated client might.
    monkeypatch.setattr(
        runtime_module, "read", lambda click, controls, seat: Answer(Discard(seat, missing))
    )
    button = next(b for b in prompt.buttons() if control_name(b["custom_id"]) == "discard")
    clicked = await me.click(prompt, custom_id=button["custom_id"])
    answer = (await clicked.response()).message
    assert answer is not None and answer.ephemeral_for == me.id
    assert answer.content == f"你手里没有 {tile_label(missing, ZH_CN)}。"
    assert len(table.hand.actions) == actions  # type: ignore[union-attr]


def test_a_rule_set_words_a_refusal_its_own_way() -> None:
    hand = at_play("guangdong", "rob")
    seat = hand.to_act()[0]
    found = dataclasses.replace(
        refused(hand, Discard(seat, unheld(hand, seat))), refusal=Refusal("rob_only", "?")
    )
    assert "巴杠" in refusal_text(found, "sichuan", ZH_CN)
    assert "补杠" in refusal_text(found, "guangdong", ZH_CN)
