"""Recovery after a restart: every table in play with its round setup and action log."""

from __future__ import annotations

import dataclasses

from data import TableStatus, Variant
from data.sql_store import SqlStore
from tests.data.databases import Database
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    FakeClock,
    MakeTable,
    PlayRound,
    discard_win,
    setup_for,
)


async def test_live_tables_after_reopen(
    store: SqlStore,
    make_table: MakeTable,
    play_round: PlayRound,
    database: Database,
    clock: FakeClock,
) -> None:
    await make_table(start=False)
    disbanded = await make_table()
    await store.disband_table(disbanded.id)
    finished = await make_table(rounds=1)
    last = await store.begin_round(finished.id, seed="s", setup=setup_for())
    assert await store.finish_round(last.id, discard_win(1, 0, 8, 3)) is True

    mid_hand = await make_table((ALICE, None, BOB, None), variant=Variant.MCR, rounds=4)
    await play_round(mid_hand, discard_win(1, 0, 8, 3), dealer=2)
    setup = setup_for(Variant.MCR, dealer=3, round_wind="E")
    current = await store.begin_round(mid_hand.id, seed="beef", setup=setup)
    actions = [{"seat": n % 4, "action": "discard", "tile": f"{n % 9 + 1}p"} for n in range(40)]
    for seq, action in enumerate(actions):
        await store.append_action(current.id, seq, action)

    between = await make_table((CAROL, DAVE, ERIN, None), rounds=8)
    result = dataclasses.replace(discard_win(2, 3, 5, 1), next_dealer=2)
    previous = await play_round(between, result, dealer=0)
    await store.close()

    reopened = await database.open(clock)
    try:
        live = {entry.table.id: entry for entry in await reopened.live_tables()}
    finally:
        await reopened.close()

    assert set(live) == {mid_hand.id, between.id}
    playing = live[mid_hand.id]
    assert playing.table.status is TableStatus.PLAYING
    assert [seat.user_id for seat in playing.table.seats] == [ALICE, None, BOB, None]
    assert playing.hands_finished == 1
    # Hand 1 had dealer chair 2: seat 1 (the winner) is chair 3, seat 0 is chair 2.
    assert playing.standings == (0, 0, -8, 8)
    assert playing.current_round is not None
    assert playing.current_round.info == current
    assert playing.current_round.setup == setup
    assert playing.current_round.actions == actions
    assert playing.current_round.next_seq == 40

    waiting = live[between.id]
    assert waiting.current_round is None
    assert (waiting.hands_finished, waiting.last_round_id, waiting.next_dealer) == (
        1,
        previous.id,
        2,
    )
    assert waiting.standings == (0, 0, 5, -5)
