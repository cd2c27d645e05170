"""Playing on a phone, through the fake Discord: every prompt notifies, a discard is one
tap, time-outs do what players expect.

An attentive person (``SimulatedPlayer(attentive=True)``) notices only what notifies
them, new messages and mentions, as a phone user does. To reach each kind of prompt
without playing whole hands, a hand is played by the engine (random AI, as in
``test_prompts_from_engine``) until the prompt opens for some seat; the bot's table, dealt
from the same seed, takes every action of that play but the last as stored moves, and
then the last one. The prompt then has to reach the attentive person of the prompt's
seat, whose hand message showed something else until then.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from bot.demo import SimulatedPlayer, control_name
from bot.runtime.table import Source, TableRuntime
from engine.actions import Action, Discard, Exchange, Pass
from engine.ai import make_player
from engine.round import Round
from engine.session import Session
from engine.suggestions import suggest_exchange, suggest_void
from fakediscord.driver import Person
from tests.bot.harness import TIMEOUT, Harness

pytestmark = pytest.mark.asyncio

QUICK = (0.01, 0.05)


@dataclass(frozen=True)
class Reached:
    """A prompt the engine's play reached: the actions before the one that opened it,
    that last action, and the seat the prompt waits for."""

    before: tuple[Action, ...]
    last: Action
    seat: int


def reach(hand: Round, kind: str, seed: int) -> Reached | None:
    """Random AI play of ``hand`` until a seat other than the last actor's is asked a
    prompt of ``kind``."""
    ai = make_player("random", seed)
    while not hand.ended:
        for seat in range(4):
            controls = hand.controls(seat)
            last = hand.actions[-1] if hand.actions else None
            wanted = controls is not None and controls.kind == kind
            if wanted and last is not None and last.seat != seat:
                return Reached(tuple(hand.actions[:-1]), last, seat)
        seat = hand.to_act()[0]
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), default))
    return None


async def seated(harness: Harness, variant: str, seed: str, **options: str) -> list[Person]:
    """Four people at a table whose first hand is dealt from ``seed``."""
    people = [harness.owner, harness.join("Bei"), harness.join("Chen"), harness.join("Dong")]
    assert harness.bot is not None
    harness.bot.tables.seeds = lambda: seed
    await harness.start_table(people[0], variant, *people[1:], rounds="1", **options)
    for _ in range(200):
        if harness.bot.tables.running and harness.running().current is not None:
            break
        await asyncio.sleep(0.01)
    return people


async def settled(harness: Harness) -> None:
    """Every hand message shows what it must by now."""
    await asyncio.sleep(0.05)
    for mail in harness.playing().presenter.mail.values():
        await mail.settled()


async def play_up_to(harness: Harness, variant: str, seed: int, kind: str) -> tuple[Any, ...]:
    """A table whose hand stands one move before a prompt of ``kind``; returns the
    people, the runtime, what was reached, the person asked and the one who moves."""
    people = await seated(harness, variant, f"seed-{seed}")
    runtime = harness.running()
    hand = Session(runtime.variant, runtime.rules, seed=None).start_hand(f"seed-{seed}")
    assert runtime.hand is not None and hand.snapshot() == runtime.hand.snapshot()
    reached = reach(hand, kind, seed)
    assert reached is not None, f"seed {seed} never reaches a {kind} prompt"
    async with runtime.lock:
        for action in reached.before:
            assert await runtime.act(action.seat, action, Source.PLAYER) is None
    by_chair = {runtime.chairs[c].user_id: p for c, p in enumerate(people)}
    asked = by_chair[runtime.chair_at(reached.seat).user_id]
    mover = by_chair[runtime.chair_at(reached.last.seat).user_id]
    return people, runtime, reached, asked, mover


PROMPTS = [
    ("sichuan", 0, "turn"),
    ("sichuan", 0, "claim"),
    ("sichuan", 0, "void"),
    ("guangdong", 0, "claim"),
    ("mcr", 0, "turn"),
    ("mcr", 1, "claim"),
    ("mcr", 79, "peek"),
    ("mcr", 62, "swap"),
    ("mcr", 165, "last_chance"),
    ("mcr", 208, "rob"),
]


@pytest.mark.parametrize(("variant", "seed", "kind"), PROMPTS)
async def test_every_prompt_reaches_an_attentive_person_as_a_new_message(
    harness: Harness, variant: str, seed: int, kind: str
) -> None:
    _, runtime, reached, asked, _ = await play_up_to(harness, variant, seed, kind)
    await settled(harness)
    asked.inbox.clear()
    attentive = SimulatedPlayer(asked, harness.fake.world.messages, attentive=True, glance=QUICK)
    stop = asyncio.Event()
    watching = asyncio.create_task(attentive.play(stop))
    async with runtime.lock:
        assert await runtime.act(reached.last.seat, reached.last, Source.PLAYER) is None
    try:
        for _ in range(400):
            if attentive.noticed:
                break
            await asyncio.sleep(0.01)
    finally:
        stop.set()
        await watching
    assert attentive.noticed, f"the {kind} prompt never notified {asked.name}"
    first = attentive.noticed[0]
    assert first.channel_id == asked.dm.id and first.has_controls()
    # It is the prompt of that kind, as the bot drew it for them.
    drawn = {s.seq for user, s in harness.shown if user == asked.id and s.kind == kind}
    controls = first.buttons() + first.selects()
    assert any(f":{seq}:" in c["custom_id"] for seq in drawn for c in controls)
    assert attentive.answers, "and they answered it"


async def test_the_first_prompts_of_a_hand_are_new_messages(harness: Harness) -> None:
    """换三张 and MCR's 押倍 and 买马 open as the hand is dealt: each person's first hand
    message of the hand, which notifies them."""
    for variant, kind in (("sichuan", "exchange"), ("mcr", "bet")):
        people = await seated(harness, variant, "seed-0")
        for person in people:
            notified = await person.next_notification(timeout=TIMEOUT)
            assert notified.channel_id == person.dm.id and notified.has_controls()
            names = {control_name(c["custom_id"]) for c in notified.buttons() + notified.selects()}
            assert kind in names or (kind == "bet" and "horses" in names), names
        await harness.playing().stop("done")
        for person in people:
            # A table that ends before its time tells each person in their DMs.
            assert (await person.next_notification(timeout=TIMEOUT)).content == "done"


async def test_a_discard_is_one_tap_on_the_tile(harness: Harness) -> None:
    _, runtime, reached, asked, _ = await play_up_to(harness, "guangdong", 0, "turn")
    chair = runtime.chair_at(reached.seat).chair
    state = runtime.seat_state(chair)
    assert state.kind != "turn"
    # The turn opens with the last move; then one tap on a tile discards it.
    await settled(harness)
    asked.inbox.clear()
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    notified = await asked.next_notification(timeout=TIMEOUT)
    message = harness.live(notified)
    discards = [b for b in message.buttons() if control_name(b["custom_id"]) == "discard"]
    turn = runtime.seat_state(chair)
    legal = {a.tile for a in turn.legal if isinstance(a, Discard)}
    assert len(discards) == len(legal)
    assert all(b.get("emoji", {}).get("id") for b in discards), "the bot's tile art"
    drawn = turn.view.seats[turn.seat].drawn
    if drawn is not None:
        assert discards[-1]["style"] == 1, "the drawn tile is last and marked"
    tap = await asked.click(message, custom_id=discards[0]["custom_id"])
    assert (await tap.response()).type == 7
    assert runtime.hand is not None
    last = runtime.hand.actions[-1]
    assert isinstance(last, Discard) and last.seat == turn.seat


async def test_the_suggestions_are_the_engines_and_one_tap_accepts_them(
    harness: Harness,
) -> None:
    people = await seated(harness, "sichuan", "seed-20")
    runtime = harness.running()
    me = people[0]
    chair = runtime.chair_of_user(me.id)
    assert chair is not None
    seat = runtime.seat_of(chair.chair)
    exchange = harness.live(await me.next_notification(timeout=TIMEOUT))
    assert runtime.hand is not None
    pile = suggest_exchange(runtime.hand.concealed(seat))
    accept = [b for b in exchange.buttons() if control_name(b["custom_id"]) == "exchange"]
    (button,) = accept
    tapped = await me.click(exchange, custom_id=button["custom_id"])
    assert (await tapped.response()).type == 7
    assert [a for a in runtime.hand.actions if a.seat == seat] == [Exchange(seat, pile)]
    async with runtime.lock:
        for other in range(4):
            if other != seat:
                hand = runtime.hand
                assert hand.prompt is not None
                default = hand.ruleset.default_prompt_action(hand, hand.prompt, other)
                await runtime.act(other, default, Source.PLAYER)
    void = harness.live(
        await me.next_notification(timeout=TIMEOUT)
        if not any(":void." in b["custom_id"] for b in me.messages(me.dm)[-1].buttons())
        else me.messages(me.dm)[-1]
    )
    suit = suggest_void(runtime.hand.concealed(seat))
    (marked,) = [b for b in void.buttons() if b.get("style") == 3]
    assert marked["custom_id"].endswith(f"void.0.{suit}")


async def test_time_outs_pass_a_claim_and_discard_the_drawn_tile(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen: list[tuple[str, int | None, Action]] = []
    act = TableRuntime.act

    async def recording(
        self: TableRuntime, seat: int, action: Action, source: Source, **kwargs: Any
    ) -> Any:
        if source is Source.TIMEOUT:
            hand = self._hand().hand
            chosen.append((hand.phase.value, hand.view(seat).seats[seat].drawn, action))
        return await act(self, seat, action, source, **kwargs)

    monkeypatch.setattr(TableRuntime, "act", recording)
    for kind in ("claim", "turn"):
        _, runtime, reached, _, _ = await play_up_to(harness, "guangdong", 0, kind)
        runtime.turn_timer = runtime.claim_timer = 1
        async with runtime.lock:
            await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
        for _ in range(300):
            if any(phase == kind for phase, _, _ in chosen):
                break
            await asyncio.sleep(0.01)
        await harness.playing().stop("done")
    phases = {phase: (drawn, action) for phase, drawn, action in chosen}
    _, claim_action = phases["claim"]
    assert claim_action == Pass(claim_action.seat)
    turn_drawn, turn_action = phases["turn"]
    assert turn_drawn is not None and turn_action == Discard(turn_action.seat, turn_drawn)


async def test_two_time_outs_put_a_person_on_auto_play_with_a_dm_that_says_so(
    harness: Harness,
) -> None:
    me = harness.owner
    await harness.start_table(
        me, "sichuan", rounds="1", fill_with_ai="true", turn_timer="1", claim_timer="1"
    )
    harness.pace_ai(0.3)
    while True:
        notified = await me.next_notification(timeout=TIMEOUT)
        if "auto-play" in notified.content:
            break
    assert "timed out twice" in notified.content
    assert [b["label"] for b in notified.buttons()] == ["I'm back"]
    back = await me.click(notified, label="I'm back")
    assert (await back.response()).type == 7
    chair = harness.running().chair_of_user(me.id)
    assert chair is not None and not chair.autoplay


def reach_win(hand: Round, seed: int) -> tuple[Action, ...] | None:
    """Random AI play until a seat has won and the others play on (血战到底); the
    actions up to that win."""
    ai = make_player("random", seed)
    while not hand.ended:
        gone = [s for s in range(4) if not hand.view(None).seats[s].active]
        if gone and hand.wins:
            return tuple(hand.actions)
        seat = hand.to_act()[0]
        prompt = hand.prompt
        default = hand.ruleset.default_prompt_action(hand, prompt, seat) if prompt else None
        hand.apply(ai.choose(hand.view(seat), hand.legal_actions(seat), default))
    return None


async def test_after_a_win_in_xuezhan_the_winner_sees_where_they_stand(harness: Harness) -> None:
    people = await seated(harness, "sichuan", "seed-20")
    runtime = harness.running()
    hand = Session(runtime.variant, runtime.rules, seed=None).start_hand("seed-20")
    actions = reach_win(hand, 20)
    assert actions is not None
    async with runtime.lock:
        for action in actions:
            assert await runtime.act(action.seat, action, Source.PLAYER) is None
    await settled(harness)
    (win,) = hand.wins
    chair = runtime.chair_at(win.seat)
    winner = next(p for p in people if p.id == chair.user_id)
    (shown,) = [m for m in winner.messages(winner.dm) if m.attachments]
    assert "Won #1 · waiting for the others" in shown.content
    assert "You won" in shown.content and "fan" in shown.content
    assert not shown.has_controls()
