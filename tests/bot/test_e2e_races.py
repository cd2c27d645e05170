"""Two people, or two clicks, at once: each gets a clear answer, nothing is done twice,
and no user's timing is logged as the bot's error."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from data.errors import NotFoundError
from data.models import TableStatus
from fakediscord import InteractionHandle, Person
from fakediscord.models import Message
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_more_failures import bot_errors


async def answered(handle: InteractionHandle, person: Person) -> str:
    """The words of the bot's answer, once a deferred one is completed."""
    callback = await handle.response()
    assert callback.message is not None
    if callback.type == 5:
        return (await person.next_edit(callback.message)).content
    return callback.message.content


def slowed(harness: Harness, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The store's ``name`` takes 0.3 s longer, as under another writer's lock."""
    original = getattr(harness.store, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await original(*args, **kwargs)

    monkeypatch.setattr(harness.store, name, slow)


@pytest.mark.parametrize(
    ("slow", "leave_first"), [("start_table", False), ("leave_seat", True)], ids=["start", "leave"]
)
async def test_a_guest_leaves_as_the_host_starts(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    slow: str,
    leave_first: bool,
) -> None:
    # The one clicked second reaches the store while the other's write is on its way.
    host = harness.owner
    guests = [harness.join(f"G{i}") for i in range(3)]
    lobby = await harness.open_table(host, "sichuan", *guests, rounds="1")
    slowed(harness, monkeypatch, slow)
    clicks = [(host, "Start"), (guests[0], "Leave")]
    if leave_first:
        clicks.reverse()
    handles = []
    for person, label in clicks:
        handles.append((label, person, await person.click(lobby, label=label)))
        await asyncio.sleep(0.05)
    said = {label: await answered(handle, person) for label, person, handle in handles}
    assert not any("went wrong" in text for text in said.values()), said
    if leave_first:
        assert said["Leave"] == "The table has already started."
    assert not bot_errors(caplog)


async def test_an_ai_seat_asked_for_as_the_table_fills_at_start(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    host = harness.owner
    guests = [harness.join(f"G{i}") for i in range(2)]
    lobby = await harness.open_table(host, "sichuan", *guests, rounds="1", fill_with_ai="true")
    clicks = await asyncio.gather(
        host.click(lobby, label="Start"),
        host.choose(lobby, "normal", placeholder="Add an AI player…"),
    )
    for handle in clicks:
        callback = await handle.response()
        if callback.message is not None:
            assert "went wrong" not in await answered(handle, host)
    assert not bot_errors(caplog)


async def lobbies_after(harness: Harness, first: int) -> list[int]:
    found = []
    for table_id in range(first + 1, first + 5):
        try:
            found.append((await harness.store.get_table(table_id)).id)
        except NotFoundError:
            continue
    return found


async def finished_session(harness: Harness) -> tuple[Person, Person, Message]:
    host, guest = harness.owner, harness.join("Guest")
    await harness.start_table(
        host, "sichuan", guest, rounds="1", fill_with_ai="true", turn_timer="0", claim_timer="0"
    )
    await play_out(harness, [player(harness, host), player(harness, guest)], host)
    summary = await host.next_message(
        where=lambda m: any(b.get("label") == "Play again" for b in m.buttons()), timeout=20
    )
    return host, guest, summary


async def test_play_again_pressed_twice_opens_one_table(harness: Harness) -> None:
    host, _, summary = await finished_session(harness)
    clicks = await asyncio.gather(
        host.click(summary, label="Play again"), host.click(summary, label="Play again")
    )
    said = await asyncio.gather(*(answered(c, host) for c in clicks))
    assert len(await lobbies_after(harness, 1)) == 1
    assert any("open in" in text for text in said), said


async def test_play_again_by_a_second_player_shows_the_table_the_first_opened(
    harness: Harness,
) -> None:
    host, guest, summary = await finished_session(harness)
    first = await answered(await host.click(summary, label="Play again"), host)
    second = await answered(await guest.click(summary, label="Play again"), guest)
    (opened,) = await lobbies_after(harness, 1)
    table = await harness.store.get_table(opened)
    assert first == second == f"Your table is open in <#{table.channel_id}>."


async def test_play_again_after_a_restart_shows_the_table_it_opened(harness: Harness) -> None:
    host, guest, summary = await finished_session(harness)
    first = await answered(await host.click(summary, label="Play again"), host)
    await harness.stop_bot()
    await harness.start_bot()
    second = await answered(await guest.click(summary, label="Play again"), guest)
    (opened,) = await lobbies_after(harness, 1)
    table = await harness.store.get_table(opened)
    assert first == second == f"Your table is open in <#{table.channel_id}>."


async def test_play_again_opens_a_new_table_once_the_one_it_opened_was_disbanded(
    harness: Harness,
) -> None:
    host, guest, summary = await finished_session(harness)
    await answered(await host.click(summary, label="Play again"), host)
    (first,) = await lobbies_after(harness, 1)
    lobby = await host.next_message(where=lambda m: f"table #{first}" in m.content)
    await (await host.click(lobby, label="Disband")).response()
    said = await answered(await guest.click(summary, label="Play again"), guest)
    (opened,) = [t for t in await lobbies_after(harness, 1) if t != first]
    table = await harness.store.get_table(opened)
    assert said == f"Your table is open in <#{table.channel_id}>."
    assert (await harness.store.get_table(1)).played_again_id == opened


async def test_two_deciding_votes_at_once_disband_once(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    a, b, c = harness.owner, harness.join("B"), harness.join("C")
    lobby = await harness.start_table(a, "guangdong", b, c, rounds="4", fill_with_ai="true")
    table_id = harness.running().id
    thread = harness.fake.world.channels[lobby.channel_id]
    asked = await a.run("/table disband", channel=thread)
    poll = (await asked.response()).message
    assert poll is not None
    clicks = await asyncio.gather(b.click(poll, label="Disband"), c.click(poll, label="Disband"))
    await asyncio.gather(*(h.response() for h in clicks))
    await a.next_message(where=lambda m: "refunded" in m.content, timeout=10)
    await asyncio.sleep(0.5)
    posts = [m for m in a.messages(thread) if "refunded" in m.content]
    assert len(posts) == 1, [m.content for m in posts]
    assert (await harness.store.get_table(table_id)).status is TableStatus.DISBANDED
    assert not bot_errors(caplog)


async def test_a_table_disbanded_while_its_first_hand_is_dealt(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan", rounds="4", fill_with_ai="true")
    thread = harness.fake.world.channels[lobby.channel_id]
    await (await host.click(lobby, label="Start")).response()
    await answered(await host.run("/table disband", channel=thread), host)
    await asyncio.sleep(1.0)
    posts = [m for m in host.messages(thread) if "refunded" in m.content]
    assert len(posts) == 1, [m.content for m in posts]
    assert not bot_errors(caplog)


async def test_a_double_join_is_told_it_is_seated_not_that_the_table_is_full(
    harness: Harness,
) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    clicks = await asyncio.gather(
        guest.click(lobby, label="Join"), guest.click(lobby, label="Join")
    )
    callbacks = await asyncio.gather(*(c.response() for c in clicks))
    refused = [c.message.content for c in callbacks if c.type == 4 and c.message is not None]
    assert refused == ["You are already seated."], refused
