"""A claim clicked twice at once, its first click also delivered twice by the gateway:
the click that acted is answered with the player's new state, and the player ends up
looking at their current prompt, never at the stale claim (issue: a doubled claim click
stranded the claimant with timers off)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.demo import control_name
from fakediscord import Latency
from fakediscord.driver import InteractionHandle, Person
from fakediscord.models import Message
from tests.bot.harness import Harness, running_harness
from tests.bot.test_e2e_failures import next_controls

UPDATED, PRIVATE = 7, 4


def enabled(message: Message) -> dict[str, dict[str, object]]:
    return {control_name(b["custom_id"]): b for b in message.buttons() if not b.get("disabled")}


async def answer_plainly(person: Person, prompt: Message) -> InteractionHandle:
    """Pass claims, discard the suggested tile, take suggested set-up answers."""
    buttons = enabled(prompt)
    if "pass" in buttons:
        return await person.click(prompt, custom_id=str(buttons["pass"]["custom_id"]))
    if prompt.selects():
        select = prompt.selects()[0]
        options = [o["value"] for o in select["options"]]
        chosen = [o["value"] for o in select["options"] if o.get("default")]
        chosen += [v for v in options if v not in chosen]
        picked = chosen[: select.get("min_values", 1)]
        return await person.choose(prompt, *picked, custom_id=select["custom_id"])
    suggested = [b for b in prompt.buttons() if b.get("style") == 3] or prompt.buttons()
    return await person.click(prompt, custom_id=suggested[0]["custom_id"])


@pytest.mark.parametrize(
    ("variant", "kind", "options"),
    [
        ("guangdong", "pong", {}),
        ("mcr", "chow", {"options": "preset=official"}),
        ("guangdong", "pass", {}),
    ],
)
async def test_a_doubled_claim_click_leaves_the_player_on_their_prompt(
    tmp_path: Path, variant: str, kind: str, options: dict[str, str]
) -> None:
    latency = Latency(gateway=0.05, rest=0.05, jitter=0.02, seed=1)
    async with running_harness(tmp_path, latency=latency) as harness:
        await doubled_claim(harness, variant, kind, options)


async def doubled_claim(harness: Harness, variant: str, kind: str, options: dict[str, str]) -> None:
    me = harness.owner
    await harness.start_table(
        me, variant, rounds="4", fill_with_ai="true", turn_timer="0", claim_timer="0", **options
    )
    for _ in range(400):
        prompt = await next_controls(harness, me, timeout=10)
        buttons = enabled(prompt)
        if kind in buttons and "pass" in buttons:
            break
        await (await answer_plainly(me, prompt)).response()
    else:
        raise AssertionError(f"no {kind} was offered")
    custom_id = str(buttons[kind]["custom_id"])
    first = await me.click(prompt, custom_id=custom_id)
    second = await me.click(prompt, custom_id=custom_id)
    first.deliver_again()
    answers = await asyncio.gather(first.response(), second.response())
    assert answers[0].type == UPDATED, "the click that acted is answered with its result"
    assert answers[1].type == PRIVATE and answers[1].message is not None
    assert "already answered" in answers[1].message.content
    table = harness.running()
    chair = table.chair_of_user(me.id)
    assert chair is not None
    for _ in range(100):
        await asyncio.sleep(0.05)
        state = table.seat_state(chair.chair) if table.current is not None else None
        live = harness.live(prompt)
        if state is None or not state.asks:
            if not any(not b.get("disabled") for b in live.buttons()) and not live.selects():
                return
            continue
        seqs = {int(c["custom_id"].split(":")[4]) for c in live.buttons() + live.selects()}
        if seqs == {state.seq}:
            return
    raise AssertionError(f"the hand message still shows {harness.live(prompt).content!r}")
