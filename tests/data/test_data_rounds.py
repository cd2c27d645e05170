"""Rounds: setup, the action log, results and round scripts."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable

import pytest

from data import (
    ActionSequenceError,
    NotFoundError,
    Payment,
    RoundResult,
    StateError,
    TableStatus,
    Variant,
    Win,
)
from data.sql_store import SqlStore
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    MakeTable,
    PlayRound,
    discard_win,
    no_win,
    self_draw_win,
    setup_for,
)


def _action(seq: int) -> dict[str, object]:
    return {"seat": seq % 4, "action": "discard", "tile": f"{seq % 9 + 1}m"}


async def test_round_script_round_trip(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(variant=Variant.MCR)
    script = setup_for(
        Variant.MCR,
        dealer=2,
        round_wind="E",
        wealth_fan=None,
        last_chance_tiles=["1z", "5z"],
        note="东南西北中发白",
    )
    info = await store.begin_round(table.id, seed="c0ffee", setup=script)
    assert (info.hand_number, info.dealer, info.dice, info.seed) == (1, 2, (3, 4), "c0ffee")
    script["actions"] = [
        {"seat": 1, "action": "bet", "factor": 2, "horses": [1, 4]},
        {"seat": 0, "action": "discard", "tile": "5z", "declare_ready": True},
        {"seat": 3, "action": "chow", "tiles": "345m"},
        {"seat": 2, "action": "win"},
    ]
    for seq, action in enumerate(script["actions"]):
        await store.append_action(info.id, seq, action)
    await store.finish_round(info.id, discard_win(2, 0, 40, 24))
    assert await store.round_script(info.id) == script


async def test_setup_is_validated(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table()
    good = setup_for(Variant.SICHUAN)
    bad_setups = [
        {key: value for key, value in good.items() if key != "wall"},
        {**good, "actions": []},
        {**good, "variant": "mcr"},
        {**good, "dealer": 4},
        {**good, "dice": [0, 3]},
        {**good, "dice": [1]},
        {**good, "hands": ["1m"] * 3},
    ]
    for setup in bad_setups:
        with pytest.raises(ValueError):
            await store.begin_round(table.id, seed="s", setup=setup)


async def test_rounds_follow_one_another(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    lobby = await make_table(start=False)
    with pytest.raises(StateError, match="lobby"):
        await store.begin_round(lobby.id, seed="s", setup=setup_for())
    table = await make_table(rounds=4)
    first = await store.begin_round(table.id, seed="s1", setup=setup_for())
    with pytest.raises(StateError, match="in play"):
        await store.begin_round(table.id, seed="s2", setup=setup_for())
    assert await store.finish_round(first.id, no_win()) is False
    later = [await play_round(table, no_win()) for _ in range(3)]
    assert [first.hand_number] + [info.hand_number for info in later] == [1, 2, 3, 4]
    finished = await store.get_table(table.id)
    assert finished.status is TableStatus.FINISHED and finished.finished_at is not None
    with pytest.raises(StateError):
        await store.begin_round(table.id, seed="s3", setup=setup_for())


async def test_actions_must_come_in_sequence(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    with pytest.raises(ActionSequenceError) as gap:
        await store.append_action(info.id, 1, _action(1))
    assert (gap.value.seq, gap.value.expected) == (1, 0)
    await store.append_action(info.id, 0, _action(0))
    await store.append_action(info.id, 1, _action(1))
    with pytest.raises(ActionSequenceError) as repeat:
        await store.append_action(info.id, 1, _action(1))
    assert repeat.value.expected == 2
    with pytest.raises(NotFoundError):
        await store.append_action(9999, 0, _action(0))
    await store.finish_round(info.id, no_win())
    with pytest.raises(StateError, match="finished"):
        await store.append_action(info.id, 2, _action(2))


async def test_concurrent_appends_of_one_number_store_one(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    outcomes = await asyncio.gather(
        *(store.append_action(info.id, 0, {"seat": 0, "n": n}) for n in range(20)),
        return_exceptions=True,
    )
    assert sum(outcome is None for outcome in outcomes) == 1
    assert all(isinstance(o, ActionSequenceError) for o in outcomes if o is not None)
    live = await store.live_tables()
    assert live[0].current_round is not None and len(live[0].current_round.actions) == 1


async def test_no_actions_after_disband(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    await store.disband_table(table.id)
    with pytest.raises(StateError, match="disbanded"):
        await store.append_action(info.id, 0, _action(0))
    with pytest.raises(StateError, match="disbanded"):
        await store.finish_round(info.id, no_win())


async def test_unfinished_round_has_no_script(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    with pytest.raises(StateError, match="not finished"):
        await store.round_script(info.id)
    with pytest.raises(StateError, match="not finished"):
        await store.round_record(info.id)
    with pytest.raises(NotFoundError):
        await store.round_script(12345)


async def test_finish_twice_is_refused(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    assert await store.finish_round(info.id, no_win()) is False
    with pytest.raises(StateError, match="already finished"):
        await store.finish_round(info.id, no_win())


async def test_round_record_maps_seats_to_chairs_and_users(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table((ALICE, BOB, None, DAVE))
    # Dealer chair 3: seat 0 = Dave, seat 1 = Alice, seat 2 = Bob, seat 3 = the AI.
    result = RoundResult(
        wins=[
            Win(seat=1, how="discard", total=3, fans=[{"id": "all_pungs"}], from_seat=2),
            Win(seat=3, how="discard", total=1, from_seat=2),
        ],
        payments=[
            Payment(2, 1, 8, "win_discard"),
            Payment(2, 3, 2, "win_discard"),
            Payment(0, 3, 1, "horse", extra={"horse": "5m", "horse_seat": 3, "copy_of": 1}),
        ],
        net=[-1, 8, -10, 3],
        next_dealer=0,
    )
    info = await play_round(table, result, dealer=3)
    record = await store.round_record(info.id)
    assert (record.guild_id, record.variant, record.next_dealer) == (
        table.guild_id,
        Variant.SICHUAN,
        0,
    )
    by_chair = [(p.chair, p.seat, p.user_id, p.net, p.won, p.dealt_in) for p in record.players]
    assert by_chair == [
        (0, 1, ALICE, 8, True, 0),
        (1, 2, BOB, -10, False, 2),
        (2, 3, None, 3, True, 0),
        (3, 0, DAVE, -1, False, 0),
    ]
    assert record.players[0].display_name == "Alice" and record.players[0].hand_total == 3
    assert record.wins == tuple(result.wins) and record.payments == tuple(result.payments)
    assert [record.chair_of(line.payer) for line in record.payments] == [1, 1, 3]


async def test_standings_sum_each_chair(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table()
    await play_round(table, discard_win(1, 0, 8, 3), dealer=0)
    await play_round(table, self_draw_win(0, 2, 1), dealer=1)
    # Hand 2: dealer chair 1, so seat 0 is chair 1.
    assert await store.table_standings(table.id) == (-8 - 2, 8 + 6, -2, -2)


@pytest.mark.parametrize(
    ("wins", "payments", "net", "message"),
    [
        ([], [], [0, 0, 0], "4 entries"),
        ([], [Payment(0, 1, 5, "x")], [0, 0, 0, 0], "does not match"),
        ([Win(1, "discard", 2, from_seat=0), Win(1, "self_draw", 2)], [], [0] * 4, "twice"),
    ],
)
def test_round_result_is_checked(
    wins: list[Win], payments: list[Payment], net: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        RoundResult(wins=wins, payments=payments, net=net)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Win(seat=4, how="discard", total=1),
        lambda: Win(seat=1, how="discard", total=1, from_seat=1),
        lambda: Win(seat=1, how="discard", total=-1),
        lambda: Payment(0, 0, 1, "x"),
        lambda: Payment(0, 1, 0, "x"),
    ],
)
def test_lines_are_checked(build: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        build()


async def test_setup_given_is_not_changed(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE, BOB, CAROL, DAVE))
    setup = setup_for()
    kept = copy.deepcopy(setup)
    await store.begin_round(table.id, seed="s", setup=setup)
    assert setup == kept
