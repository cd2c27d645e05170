"""A hand message that does not reach its player, through the fake Discord: a prompt whose
send fails is sent again until it arrives, and a player whose DMs turn out to be closed is
mentioned in the thread whenever something waits for them there."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.runtime.snapshots import SeatState
from bot.runtime.table import Source
from bot.tables import prompts
from bot.tables.handmail import Rendered
from fakediscord.driver import Person
from fakediscord.models import Message
from tests.bot.harness import TIMEOUT, Harness
from tests.bot.test_e2e_phone import play_up_to, seated, settled

pytestmark = pytest.mark.asyncio

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CLOSED = "DMs are closed"
#: Seconds a prompt has to arrive once its send may go again: the first retry waits a
#: second (``bot.tables.sender.RETRY_FIRST``).
SOON = 5.0


def failed_posts(harness: Harness, person: Person) -> int:
    """The bot's messages to ``person``'s DMs that Discord answered with an error."""
    return sum(
        1
        for mark in harness.fake.metrics.timeline
        if mark.route == POST and mark.channel_id == person.dm.id and mark.status >= 400
    )


async def quiet(harness: Harness) -> None:
    """Nothing is on its way to Discord: the table message is up and shows the latest,
    and so does every hand message."""
    presenter = harness.playing().presenter
    async with asyncio.timeout(TIMEOUT):
        while presenter.board is None or presenter.board.message is None:
            await asyncio.sleep(0.01)
    await presenter.board.settled()
    await settled(harness)


async def notice_for(person: Person) -> Message:
    """The next thread notice that mentions ``person`` for their closed DMs."""
    notified = await person.next_notification(timeout=SOON)
    assert CLOSED in notified.content and f"<@{person.id}>" in notified.content
    return notified


async def test_a_prompt_whose_dm_fails_is_sent_again(harness: Harness) -> None:
    _, runtime, reached, asked, _ = await play_up_to(harness, "guangdong", 0, "turn")
    await quiet(harness)
    asked.inbox.clear()
    # The turn's new message is the one request that posts a message after this move.
    harness.fake.faults.fail(POST, status=503)
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    notified = await asked.next_notification(timeout=SOON)
    assert failed_posts(harness, asked) == 1, "the first try failed"
    assert notified.channel_id == asked.dm.id and harness.live(notified).has_controls()


async def test_a_prompt_whose_picture_fails_is_drawn_again(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, runtime, reached, asked, _ = await play_up_to(harness, "guangdong", 0, "turn")
    await quiet(harness)
    asked.inbox.clear()
    chair = runtime.chair_of_user(asked.id)
    assert chair is not None
    render = prompts.render
    failures: list[SeatState] = []

    async def failing_once(state: SeatState, *args: Any, **kwargs: Any) -> Rendered:
        if state.chair == chair.chair and state.kind == "turn" and not failures:
            failures.append(state)
            raise RuntimeError("the picture process died")
        return await render(state, *args, **kwargs)

    monkeypatch.setattr(prompts, "render", failing_once)
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    notified = await asked.next_notification(timeout=SOON)
    assert failures, "the first drawing failed"
    assert notified.channel_id == asked.dm.id and harness.live(notified).has_controls()


async def test_a_failed_edit_is_sent_again_by_the_next_touch(harness: Harness) -> None:
    """An edit that failed left the old picture on the player's screen: the same state
    shown again (the table's refresh after a failed click answer) edits it, rather than
    being taken for shown."""
    _, runtime, reached, _, mover = await play_up_to(harness, "guangdong", 0, "turn")
    await quiet(harness)
    presenter = harness.playing().presenter
    chair = runtime.chair_of_user(mover.id)
    assert chair is not None
    (before,) = [m for m in mover.messages(mover.dm) if harness.live(m).has_controls()]
    # The mover's hand message is the one message this move edits: the table message
    # holds still for it.
    board = presenter.board
    assert board is not None
    board.touch = lambda: None  # type: ignore[method-assign]
    harness.fake.faults.fail(EDIT, status=503)
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    await settled(harness)
    assert harness.live(before).has_controls(), "the edit failed: its controls are still there"
    presenter.refresh(chair.chair)
    await settled(harness)
    assert not harness.live(before).has_controls()


async def test_a_failing_prompt_is_tried_until_the_table_stops(harness: Harness) -> None:
    """Each try waits twice as long as the one before (1 s, then 2 s): the table stops
    during the second wait, and nothing is sent after it."""
    _, runtime, reached, asked, _ = await play_up_to(harness, "guangdong", 0, "turn")
    await quiet(harness)
    known = {m.id for m in asked.messages(asked.dm)}
    harness.fake.faults.fail(POST, status=503, times=2)
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    async with asyncio.timeout(SOON):
        while failed_posts(harness, asked) < 2:
            await asyncio.sleep(0.05)
    await harness.playing().stop("done")
    await asyncio.sleep(3.0)
    sent = [m for m in asked.messages(asked.dm) if m.id not in known]
    assert not any(harness.live(m).has_controls() for m in sent), "no prompt after the stop"


async def test_a_claimant_whose_closed_dms_are_found_in_a_claim_window_is_mentioned(
    harness: Harness,
) -> None:
    """A restart into a claim window: every hand message is new and has not yet found the
    DMs closed when the window is told. Each is mentioned as it finds out, the claimant as
    well as the others (decision 12: a window mentions everyone alike)."""
    people, runtime, reached, asked, mover = await play_up_to(harness, "guangdong", 0, "claim")
    async with runtime.lock:
        await runtime.act(reached.last.seat, reached.last, Source.PLAYER)
    await settled(harness)
    others = [p for p in people if p not in (asked, mover)]
    for person in (asked, *others):
        person.close_dms()
        person.inbox.clear()
    await harness.stop_bot()
    await harness.start_bot()
    for person in (asked, *others):
        await notice_for(person)


async def test_a_player_with_closed_dms_is_mentioned_when_put_on_auto_play(
    harness: Harness,
) -> None:
    """托管 asks nothing of the player, yet they must notice it: its "I'm back" is
    behind the notice's Show my hand."""
    me = harness.owner
    me.close_dms()
    await seated(harness, "guangdong", "seed-0")
    await notice_for(me)
    await settled(harness)
    me.inbox.clear()
    runtime = harness.running()
    chair = runtime.chair_of_user(me.id)
    assert chair is not None
    await runtime.hand_over(chair.chair)
    await notice_for(me)
