"""What happens around a hand reaches the phones of the people it concerns: a person in
their DMs notices a new DM or a mention, never an edit (fakediscord.mentions), so a disband
vote, a session's end and a table Play again sat them at each mention them."""

from __future__ import annotations

import asyncio
import re

from data.models import TableStatus
from fakediscord import DriverTimeout, Person
from fakediscord.models import Message
from tests.bot.harness import Harness
from tests.bot.test_e2e_races import answered, finished_session, lobbies_after


async def notifications(person: Person, *, quiet: float = 0.3) -> list[Message]:
    """Every notification that reaches ``person`` until none comes for ``quiet`` s."""
    got = []
    while True:
        try:
            got.append(await person.next_notification(timeout=quiet))
        except DriverTimeout:
            return got


async def poll_asked(harness: Harness, *people: Person) -> Message:
    """A table of the owner, ``people`` and AI seats in play, and the owner's disband
    poll, asked once what the deal sent each person has arrived."""
    host = harness.owner
    lobby = await harness.start_table(
        host, "guangdong", *people, rounds="4", fill_with_ai="true", turn_timer="0", claim_timer="0"
    )
    thread = harness.fake.world.channels[lobby.channel_id]
    await asyncio.sleep(0.5)
    for person in people:
        await notifications(person)
    poll = (await (await host.run("/table disband", channel=thread)).response()).message
    assert poll is not None
    return poll


async def test_a_disband_vote_mentions_the_voters_and_closes_with_its_outcome(
    harness: Harness,
) -> None:
    b, c = harness.join("B"), harness.join("C")
    poll = await poll_asked(harness, b, c)
    # The asker's own yes is in: the others are asked, by a mention that rings.
    assert sorted(poll.pinged_users) == sorted([b.id, c.id])
    assert re.search(r"<t:\d+:R>", poll.content), poll.content
    assert any(m.id == poll.id for m in await notifications(b))
    no = await b.click(poll, label="Keep playing")
    await no.response()
    no_again = await c.click(poll, label="Keep playing")
    await no_again.response()
    await asyncio.sleep(0.3)
    closed = harness.live(poll)
    assert closed.content == "The vote failed; play goes on." and not closed.has_controls()
    assert (await harness.store.get_table(harness.running().id)).status is TableStatus.PLAYING


async def test_a_vote_that_runs_out_closes_its_poll(harness: Harness) -> None:
    guest = harness.join("Guest")
    poll = await poll_asked(harness, guest)
    await asyncio.sleep(harness.pacing.vote_seconds + 0.5)
    closed = harness.live(poll)
    assert closed.content == "The vote failed; play goes on." and not closed.has_controls()


async def test_a_passed_vote_says_so_on_its_poll(harness: Harness) -> None:
    guest = harness.join("Guest")
    poll = await poll_asked(harness, guest)
    await (await guest.click(poll, label="Disband")).response()
    await harness.owner.next_message(where=lambda m: "disbanded" in m.content, timeout=10)
    closed = harness.live(poll)
    assert "voted to disband" in closed.content and not closed.has_controls()


async def test_the_end_of_a_session_mentions_its_players(harness: Harness) -> None:
    host, guest, summary = await finished_session(harness)
    assert sorted(summary.pinged_users) == sorted([host.id, guest.id])


async def test_play_again_tells_the_people_it_sat_down(harness: Harness) -> None:
    host, guest, summary = await finished_session(harness)
    await notifications(guest)
    await answered(await host.click(summary, label="Play again"), host)
    (opened,) = await lobbies_after(harness, 1)
    table = await harness.store.get_table(opened)
    told = [m for m in await notifications(guest) if m.channel_id == table.channel_id]
    assert len(told) == 1 and "kept yours" in told[0].content, [m.content for m in told]
    assert told[0].pinged_users == [guest.id]


async def test_a_table_disbanded_mid_hand_tells_each_person_and_takes_their_controls(
    harness: Harness,
) -> None:
    host, guest = harness.owner, harness.join("Guest")
    poll = await poll_asked(harness, guest)
    await (await guest.click(poll, label="Disband")).response()
    told = [m for m in await notifications(guest, quiet=1.0) if m.channel_id == guest.dm.id]
    assert [m.content for m in told] == ["The table is disbanded. 2 room cards refunded."]
    for person in (host, guest):
        assert not any(m.has_controls() for m in person.messages(person.dm)), person
