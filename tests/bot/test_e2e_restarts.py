"""What a restart keeps besides the hands, through the fake Discord: a player on auto-play
(托管) stays on it, a session summary cut off by a stop is posted afterwards, and every
player's DM channel is known without opening it again."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.tables.manager import TableManager
from data.models import Table
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
