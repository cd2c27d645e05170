"""What a restarted bot needs beyond the hands: auto-play (托管), owed session summaries and
the table a Play again opened."""

from __future__ import annotations

import pytest

from data import NotFoundError, SeatError, StateError, TableStatus
from data.sql_store import SqlStore
from tests.data.store_support import ALICE, BOB, CAROL, DAVE, MakeTable, PlayRound, no_win


async def test_autoplay_is_kept_on_the_seat(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE, BOB, None, CAROL))
    assert not any(seat.autoplay for seat in table.seats)
    await store.set_autoplay(table.id, BOB, True)
    seats = (await store.get_table(table.id)).seats
    assert [seat.autoplay for seat in seats] == [False, True, False, False]
    (live,) = await store.live_tables()
    assert [seat.autoplay for seat in live.table.seats] == [False, True, False, False]
    await store.set_autoplay(table.id, BOB, False)
    assert not any(seat.autoplay for seat in (await store.get_table(table.id)).seats)


async def test_autoplay_needs_a_player_of_a_table_in_play(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table((ALICE, BOB, None, CAROL))
    with pytest.raises(SeatError, match="does not sit"):
        await store.set_autoplay(table.id, DAVE, True)
    lobby = await make_table((ALICE,), start=False)
    with pytest.raises(StateError, match="lobby"):
        await store.set_autoplay(lobby.id, ALICE, True)


async def test_summary_is_due_after_the_last_hand_until_marked(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=1)
    assert await store.summaries_due() == []
    with pytest.raises(StateError, match="playing"):
        await store.mark_summary_posted(table.id)
    await play_round(table, no_win())
    (due,) = await store.summaries_due()
    assert (due.id, due.status, len(due.seats)) == (table.id, TableStatus.FINISHED, 4)
    await store.mark_summary_posted(table.id)
    await store.mark_summary_posted(table.id)
    assert await store.summaries_due() == []


async def test_disbanded_tables_owe_no_summary(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(rounds=1)
    await store.disband_table(table.id)
    assert await store.summaries_due() == []
    with pytest.raises(StateError, match="disbanded"):
        await store.mark_summary_posted(table.id)


async def test_play_again_links_a_finished_table_to_one_new_table(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=1)
    again = await make_table((ALICE,), start=False)
    with pytest.raises(StateError, match="playing"):
        await store.set_played_again(table.id, again_id=again.id)
    await play_round(table, no_win())
    assert (await store.get_table(table.id)).played_again_id is None
    with pytest.raises(NotFoundError):
        await store.set_played_again(table.id, again_id=999)
    assert await store.set_played_again(table.id, again_id=again.id) == again.id
    other = await make_table((BOB,), start=False)
    # A second link, from another process or a press that raced the first, keeps the first.
    assert await store.set_played_again(table.id, again_id=other.id) == again.id
    assert (await store.get_table(table.id)).played_again_id == again.id
    assert (await store.get_table(again.id)).played_again_id is None
    # Once the table it opened has ended, the next Play again links its own.
    await store.disband_table(again.id)
    assert await store.set_played_again(table.id, again_id=other.id) == other.id
