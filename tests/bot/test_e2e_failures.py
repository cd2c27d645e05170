"""What goes wrong at a table, through the fake Discord: closed DMs, wrong clicks, time-outs,
restarts and Discord's 3-second deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from data.models import TableStatus
from fakediscord.driver import Person
from fakediscord.models import Message
from tests.bot.harness import Harness, play_out, player

TURN = "Choose a tile to discard"


async def start_with_ai(harness: Harness, **options: str) -> Message:
    lobby = await harness.open_table(
        harness.owner, "sichuan", rounds="1", fill_with_ai="true", **options
    )
    started = await harness.owner.click(lobby, label="Start")
    await started.response()
    return lobby


async def next_controls(
    harness: Harness,
    person: Person,
    wanted: Callable[[Message], bool] = lambda m: True,
    **kwargs: Any,
) -> Message:
    """The next prompt that still shows controls ``wanted`` accepts, as it is now."""
    while True:
        prompt = await person.next_prompt(**kwargs)
        live = harness.live(prompt)
        if live.has_controls() and wanted(live):
            return live


def suggested(message: Message) -> bool:
    """The 定缺 prompt, with its suggested suit."""
    return any(
        ":void." in b["custom_id"] and "(suggested)" in (b.get("label") or "")
        for b in message.buttons()
    )


async def test_closed_dms_fall_back_to_the_thread(harness: Harness) -> None:
    me, stranger = harness.owner, harness.join("Stranger")
    me.close_dms()
    await start_with_ai(harness)
    notice = await me.next_message(where=lambda m: "DMs are closed" in m.content)
    assert f"<@{me.id}>" in notice.content
    refused = await stranger.click(notice, label="Show my hand")
    reply = await refused.response()
    assert reply.message is not None and "not seated" in reply.message.content
    shown = await me.click(notice, label="Show my hand")
    private = (await shown.response()).message
    assert private is not None and private.ephemeral_for == me.id and private.has_controls()
    await player(harness, me).answer(harness.live(private))
    assert not me.messages(me.dm), "no DM was delivered"


async def test_two_closed_dm_notices_at_once_leave_one_in_the_thread(harness: Harness) -> None:
    # A claim window's notice and a turn prompt's notice can be due for one player at the
    # same moment: they say the same, so one is sent, and none is left behind for good.
    me = harness.owner
    me.close_dms()
    await start_with_ai(harness)
    notice = await me.next_message(where=lambda m: "DMs are closed" in m.content)
    presenter = harness.playing().presenter
    chair = next(c for c, p in presenter.people.items() if p.user_id == me.id)
    await asyncio.gather(presenter._closed_dm_notice(chair), presenter._closed_dm_notice(chair))
    thread = harness.fake.world.channels[notice.channel_id]
    notices = [m for m in me.messages(thread) if "DMs are closed" in m.content]
    assert len(notices) == 1
    assert presenter.closed_notices[chair].id == notices[0].id


async def test_stale_and_second_clicks_change_nothing(harness: Harness) -> None:
    me = harness.owner
    lobby = await start_with_ai(harness)
    exchange = await next_controls(harness, me)
    shown = await me.run("/hand", channel=harness.fake.world.channels[lobby.channel_id])
    private = (await shown.response()).message
    assert private is not None and private.ephemeral_for == me.id
    seat = player(harness, me)
    await seat.answer(exchange)
    void = await next_controls(harness, me, suggested)
    label = next(b["label"] for b in void.buttons() if "(suggested)" in (b.get("label") or ""))
    first = await me.click(void, label=label)
    second = await me.click(void, label=label)
    assert (await first.response()).type == 7
    again = (await second.response()).message
    assert again is not None and "already answered" in again.content
    table = harness.running()
    actions = len(table.hand.actions)  # type: ignore[union-attr]
    select = harness.live(private).selects()[0]
    values = [o["value"] for o in select["options"]][:3]
    stale = await me.choose(private, *values, custom_id=select["custom_id"])
    answer = (await stale.response()).message
    assert answer is not None and "expired" in answer.content
    assert len(table.hand.actions) == actions  # type: ignore[union-attr]


async def test_time_out_plays_for_you_then_auto_play_until_back(harness: Harness) -> None:
    me = harness.owner
    await start_with_ai(harness, turn_timer="1", claim_timer="1")
    harness.pace_ai(0.3)
    back = await next_controls(
        harness, me, lambda m: any(b.get("label") == "I'm back" for b in m.buttons()), timeout=15
    )
    table = harness.running()
    assert table.chair_of_user(me.id).autoplay  # type: ignore[union-attr]
    clicked = await me.click(back, label="I'm back")
    assert (await clicked.response()).type == 7
    assert not table.chair_of_user(me.id).autoplay  # type: ignore[union-attr]


async def test_restart_mid_hand_continues_identically(harness: Harness) -> None:
    me = harness.owner
    await start_with_ai(harness)
    seat = player(harness, me)
    for _ in range(4):
        await seat.answer(await next_controls(harness, me))
    await asyncio.sleep(0.2)
    before = harness.running()
    async with before.lock:
        snapshot = before.hand.snapshot()  # type: ignore[union-attr]
        seqs = [p.seq for p in before.current.prompts.open]  # type: ignore[union-attr]
    await harness.stop_bot()
    await harness.start_bot()
    for _ in range(100):
        if harness.bot is not None and harness.bot.tables.running:
            table = harness.playing()
            if table.presenter.board is not None:
                break
        await asyncio.sleep(0.05)
    after = harness.running()
    assert after is not before
    assert after.hand.snapshot() == snapshot  # type: ignore[union-attr]
    assert [p.seq for p in after.current.prompts.open] == seqs  # type: ignore[union-attr]
    resumed = await me.next_message(where=lambda m: "continues where it stopped" in m.content)
    assert resumed is not None
    (settlement,) = await play_out(harness, [seat], me)
    assert "seed" in settlement.content


async def test_a_busy_table_still_answers_within_three_seconds(harness: Harness) -> None:
    me = harness.owner
    await start_with_ai(harness)
    prompt = await next_controls(harness, me)
    table = harness.running()
    select = prompt.selects()[0]
    values = [o["value"] for o in select["options"]][: select.get("min_values", 1)]
    async with table.lock:
        clicked = await me.choose(prompt, *values, custom_id=select["custom_id"])
        answer = await clicked.response(timeout=3)
        assert answer.type == 6
        assert answer.latency is not None and answer.latency < 3
        await asyncio.sleep(0.1)
    # The result follows: on the message itself, or as the next prompt, a new message.
    shown = await me.next_change(
        lambda c: c.message.channel_id == me.dm.id and c.kind in ("update", "create"), timeout=5
    )
    assert shown.message.id == prompt.id or shown.kind == "create"
    late = [t for t in harness.fake.interaction_timings() if not t.in_time]
    assert not late


async def test_back_after_the_store_closed_the_table_says_it_is_over(harness: Harness) -> None:
    """An I'm back click that lands just after the session's last hand was settled (the
    store has closed the table, the table has not yet stopped) gets a plain answer."""
    me = harness.owner
    await start_with_ai(harness, turn_timer="1", claim_timer="1")
    back = await next_controls(
        harness, me, lambda m: any(b.get("label") == "I'm back" for b in m.buttons()), timeout=15
    )
    table = harness.running()
    # No move happens meanwhile; the stand-in may have played the hand out already, and
    # then the store closed the table by finishing it.
    async with table.lock:
        if (await harness.store.get_table(table.id)).status is TableStatus.PLAYING:
            await harness.store.disband_table(table.id)
    clicked = await me.click(back, label="I'm back")
    answer = (await clicked.response()).message
    assert answer is not None and "This table is over" in answer.content
