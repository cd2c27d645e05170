"""What a restart keeps besides the hands, through the fake Discord: a player on auto-play
(托管) stays on it, a session summary cut off by a stop is posted afterwards, every
player's DM channel is known without opening it again, and the prompt from before the
restart makes way for the resumed one."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.tables.manager import TableManager
from data.models import Table
from fakediscord.driver import Person
from fakediscord.models import Message
from tests.bot.harness import FAST, TIMEOUT, Harness, play_out, player, running_harness

BACK = "I'm back"
OPEN_DM = "POST /users/@me/channels"


def offers_back(message: Message) -> bool:
    return any(b.get("label") == BACK for b in message.buttons())


async def running_again(harness: Harness) -> None:
    """Wait until the restarted bot has resumed its table and shown it."""
    for _ in range(200):
        bot = harness.bot
        if bot is not None and bot.tables.running and harness.playing().presenter.board is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the table was not resumed")


async def test_auto_play_survives_a_restart(tmp_path: Path) -> None:
    # AI moves take a while, so the hand is still on when the bot stops.
    slow = dataclasses.replace(FAST, ai_delay=0.3)
    async with running_harness(tmp_path, pacing=slow) as harness:
        me = harness.owner
        lobby = await harness.open_table(
            me, "sichuan", rounds="1", fill_with_ai="true", turn_timer="1", claim_timer="1"
        )
        started = await me.click(lobby, label="Start")
        await started.response()
        await me.next_prompt(where=offers_back, timeout=TIMEOUT)
        (seat,) = [s for s in (await harness.store.get_table(1)).seats if s.user_id == me.id]
        assert seat.autoplay
        await harness.stop_bot()
        await harness.start_bot()
        await running_again(harness)
        chair = harness.running().chair_of_user(me.id)
        assert chair is not None and chair.autoplay
        prompt = harness.live(await me.next_prompt(where=offers_back, timeout=TIMEOUT))
        back = await me.click(prompt, label=BACK)
        assert (await back.response()).type == 7
        assert not chair.autoplay
        (seat,) = [s for s in (await harness.store.get_table(1)).seats if s.user_id == me.id]
        assert not seat.autoplay


async def test_a_restarted_bot_reaches_players_without_opening_their_dms_again(
    tmp_path: Path,
) -> None:
    slow = dataclasses.replace(FAST, ai_delay=0.3)
    async with running_harness(tmp_path, pacing=slow) as harness:
        me = harness.owner
        await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
        before = await me.next_prompt(timeout=TIMEOUT)
        await harness.stop_bot()
        await harness.start_bot()
        await running_again(harness)
        after = await me.next_prompt(where=lambda m: m.id != before.id, timeout=TIMEOUT)
        assert after.channel_id == before.channel_id == me.dm.id
        assert harness.fake.metrics.requests[OPEN_DM] == 1


async def test_a_summary_cut_off_by_a_stop_is_posted_after_the_restart(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut_off = asyncio.Event()

    async def stopped_before_posting(*_: Any) -> None:
        cut_off.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(TableManager, "post_summary", stopped_before_posting)
    me = harness.owner
    lobby = await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, me)], me)
    await asyncio.wait_for(cut_off.wait(), TIMEOUT)
    due: list[Table] = await harness.store.summaries_due()
    assert [table.id for table in due] == [1]
    await harness.stop_bot()
    monkeypatch.undo()
    await harness.start_bot()
    summary = await me.next_message(where=lambda m: "session is over" in m.content)
    assert summary.channel_id == lobby.channel_id
    assert [b["label"] for b in summary.buttons()] == ["Play again"]
    # Marked once Discord has it: the mark follows the message by a moment.
    for _ in range(100):
        if not await harness.store.summaries_due():
            break
        await asyncio.sleep(0.02)
    assert await harness.store.summaries_due() == []


LIST_MESSAGES = "GET /channels/{channel_id}/messages"
DELETE_MESSAGE = "DELETE /channels/{channel_id}/messages/{message_id}"


async def prompt_at_restart(harness: Harness, me: Person) -> Message:
    """A Guangdong hand with three AI seats, played one move so that the prompt on the
    person's screen is a click's follow-up, as in play; returns that prompt."""
    await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
    seat = player(harness, me)
    assert await seat.answer(await me.next_prompt(timeout=TIMEOUT)) is not None
    return await me.next_message(channel=me.dm, where=Message.has_controls, timeout=TIMEOUT)


def live_controls(harness: Harness, person: Person) -> list[Message]:
    return [m for m in person.messages(person.dm) if m.has_controls()]


async def test_after_a_restart_the_dms_hold_one_live_prompt(tmp_path: Path) -> None:
    """The prompt on screen when the bot stopped keeps buttons that work (prompts keep
    their numbers): the resumed table's new hand message takes it away, so the person's
    DMs end with one prompt, which answers a click."""
    slow = dataclasses.replace(FAST, ai_delay=0.3)
    async with running_harness(tmp_path, pacing=slow) as harness:
        me = harness.owner
        before = await prompt_at_restart(harness, me)
        await harness.stop_bot()
        assert before.webhook_id is not None
        assert [m.id for m in live_controls(harness, me)] == [before.id]
        await harness.start_bot()
        await running_again(harness)
        after = await me.next_prompt(where=lambda m: m.id != before.id, timeout=TIMEOUT)
        await me.next_deletion(before, timeout=TIMEOUT)
        assert [m.id for m in live_controls(harness, me)] == [after.id]
        # One look at the DM channel, a few of its latest messages.
        assert harness.fake.metrics.requests[LIST_MESSAGES] == 1
        callback = await player(harness, me).answer(harness.live(after))
        assert callback is not None and callback.type == 7


@pytest.mark.parametrize("route", [LIST_MESSAGES, DELETE_MESSAGE])
async def test_a_refused_clean_up_after_a_restart_leaves_the_hand_going(
    tmp_path: Path, route: str
) -> None:
    """Discord refusing to list the DMs or to delete the old prompt leaves it there; the
    new prompt comes all the same and answers a click."""
    slow = dataclasses.replace(FAST, ai_delay=0.3)
    async with running_harness(tmp_path, pacing=slow) as harness:
        me = harness.owner
        before = await prompt_at_restart(harness, me)
        await harness.stop_bot()
        harness.fake.faults.fail(route, status=403, code=50001, message="Missing Access")
        await harness.start_bot()
        await running_again(harness)
        after = await me.next_prompt(where=lambda m: m.id != before.id, timeout=TIMEOUT)
        callback = await player(harness, me).answer(harness.live(after))
        assert callback is not None and callback.type == 7
        assert not harness.live(before).deleted
