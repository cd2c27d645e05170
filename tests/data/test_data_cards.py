"""Room cards: the ledger rules, idempotency, charging and refunds (sichuan.md §6)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any, TypedDict, Unpack

import pytest

from data import (
    CardKind,
    CardPayer,
    GuildConfigChange,
    IdempotencyKeyError,
    InsufficientCardsError,
    PriceNotSetError,
    StateError,
    TableStatus,
    Variant,
)
from data.cards import card_shares
from data.sql_store import SqlStore
from tests.data.databases import Database
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    OTHER_GUILD,
    FakeClock,
    MakeTable,
    PlayRound,
    discard_win,
    setup_for,
)

ROOT = Path(__file__).resolve().parents[2]


class _ConfigChanges(TypedDict, total=False):
    """The settings of a GuildConfig a test may change (all but its guild)."""

    table_category_id: int | None
    turn_timer: int
    claim_timer: int
    starter_cards: int
    daily_cards: int
    room_card_prices: dict[int, int]
    card_payer: CardPayer
    lobbies_per_member: int
    lobbies_per_server: int


async def _set_config(store: SqlStore, **changes: Unpack[_ConfigChanges]) -> None:
    await store.update_guild_config(GUILD, GuildConfigChange(**changes))


async def _ledger_totals(
    database: Database,
) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """(sum of movements, cached balance) per member, read past the store."""
    sums = await database.fetch(
        "SELECT guild_id, user_id, SUM(delta) FROM card_movements GROUP BY guild_id, user_id"
    )
    cached = await database.fetch("SELECT guild_id, user_id, card_balance FROM guild_members")
    return {(g, u): s for g, u, s in sums}, {(g, u): b for g, u, b in cached if b}


# Shares


@pytest.mark.parametrize(
    ("price", "payer", "humans", "expected"),
    [
        (3, CardPayer.CREATOR, [1, 2, 3, 4], [(1, 3)]),
        (3, CardPayer.SPLIT, [1, 2, 3, 4], [(1, 1), (2, 1), (3, 1)]),
        (4, CardPayer.SPLIT, [1, 2, 3, 4], [(1, 1), (2, 1), (3, 1), (4, 1)]),
        (6, CardPayer.SPLIT, [1, 2, 3, 4], [(1, 2), (2, 2), (3, 1), (4, 1)]),
        (2, CardPayer.SPLIT, [1, 3], [(1, 1), (3, 1)]),
        (3, CardPayer.SPLIT, [1], [(1, 3)]),
        (0, CardPayer.CREATOR, [1, 2], []),
    ],
)
def test_card_shares(
    price: int, payer: CardPayer, humans: list[int], expected: list[tuple[int, int]]
) -> None:
    assert card_shares(price, payer, 1, humans) == expected


# Grants, takes, starter and daily cards


async def test_starter_cards_are_granted_once(store: SqlStore) -> None:
    first = await store.touch_member(GUILD, ALICE, "Alice")
    again = await store.touch_member(GUILD, ALICE, "Alice Li")
    assert first.card_balance == again.card_balance == 10
    assert again.display_name == "Alice Li"
    history = await store.card_history(GUILD, ALICE)
    assert [(m.kind, m.delta, m.balance_after) for m in history] == [(CardKind.STARTER, 10, 10)]


async def test_no_starter_cards_when_off(store: SqlStore) -> None:
    await _set_config(store, starter_cards=0)
    member = await store.touch_member(GUILD, ALICE, "Alice")
    assert member.card_balance == 0
    assert await store.card_history(GUILD, ALICE) == []


async def test_balances_are_per_server(store: SqlStore) -> None:
    await store.touch_member(GUILD, ALICE, "Alice")
    await store.grant_cards(OTHER_GUILD, ALICE, 3, key="g", actor_id=BOB)
    assert await store.card_balance(GUILD, ALICE) == 10
    assert await store.card_balance(OTHER_GUILD, ALICE) == 13
    assert await store.card_balance(GUILD, BOB) == 0


async def test_grant_and_take(store: SqlStore) -> None:
    granted = await store.grant_cards(GUILD, ALICE, 5, key="i1", actor_id=BOB, note="prize")
    assert (granted.kind, granted.delta, granted.balance_after) == (CardKind.GRANT, 5, 15)
    assert (granted.actor_id, granted.note, granted.replayed) == (BOB, "prize", False)
    taken = await store.grant_cards(GUILD, ALICE, -15, key="i2", actor_id=BOB)
    assert (taken.kind, taken.delta, taken.balance_after) == (CardKind.TAKE, -15, 0)
    assert await store.card_balance(GUILD, ALICE) == 0


async def test_take_beyond_balance_is_refused(store: SqlStore) -> None:
    await store.touch_member(GUILD, ALICE, "Alice")
    with pytest.raises(InsufficientCardsError) as refused:
        await store.grant_cards(GUILD, ALICE, -11, key="i1", actor_id=BOB)
    assert (refused.value.balance, refused.value.price, refused.value.user_id) == (10, 11, ALICE)
    assert await store.card_balance(GUILD, ALICE) == 10


async def test_zero_grant_is_an_error(store: SqlStore) -> None:
    with pytest.raises(ValueError, match="0 cards"):
        await store.grant_cards(GUILD, ALICE, 0, key="i1", actor_id=BOB)


async def test_same_key_returns_the_first_movement(store: SqlStore) -> None:
    first = await store.grant_cards(GUILD, ALICE, 5, key="i1", actor_id=BOB)
    second = await store.grant_cards(GUILD, ALICE, 5, key="i1", actor_id=BOB)
    assert second == dataclasses.replace(first, replayed=True)
    assert await store.card_balance(GUILD, ALICE) == 15


@pytest.mark.parametrize(
    ("guild", "user", "amount"), [(GUILD, ALICE, 6), (GUILD, BOB, 5), (GUILD, ALICE, -5)]
)
async def test_key_reused_for_another_request_is_refused(
    store: SqlStore, guild: int, user: int, amount: int
) -> None:
    await store.grant_cards(GUILD, ALICE, 5, key="i1", actor_id=BOB)
    with pytest.raises(IdempotencyKeyError):
        await store.grant_cards(guild, user, amount, key="i1", actor_id=BOB)
    assert await store.card_balance(GUILD, ALICE) == 15


async def test_concurrent_requests_with_one_key_move_cards_once(
    store: SqlStore, database: Database
) -> None:
    results = await asyncio.gather(
        *(store.grant_cards(GUILD, ALICE, 5, key="same", actor_id=BOB) for _ in range(50))
    )
    assert len({movement.id for movement in results}) == 1
    assert sum(not movement.replayed for movement in results) == 1
    assert await store.card_balance(GUILD, ALICE) == 15
    assert len(await store.card_history(GUILD, ALICE)) == 2


async def test_concurrent_takes_never_go_negative(store: SqlStore, database: Database) -> None:
    outcomes = await asyncio.gather(
        *(store.grant_cards(GUILD, ALICE, -3, key=f"t{n}", actor_id=BOB) for n in range(10)),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, InsufficientCardsError)]
    assert len(refused) == 7
    assert await store.card_balance(GUILD, ALICE) == 1
    sums, cached = await _ledger_totals(database)
    assert sums == cached


async def test_daily_cards_once_per_utc_day(store: SqlStore, clock: FakeClock) -> None:
    assert await store.claim_daily_cards(GUILD, ALICE) is None
    await _set_config(store, daily_cards=2)
    first = await store.claim_daily_cards(GUILD, ALICE)
    assert first is not None and (first.kind, first.delta, first.balance_after) == (
        CardKind.DAILY,
        2,
        12,
    )
    await _set_config(store, daily_cards=5)
    clock.advance(hours=11, minutes=59)
    again = await store.claim_daily_cards(GUILD, ALICE)
    assert again == dataclasses.replace(first, replayed=True)
    clock.advance(minutes=1)
    tomorrow = await store.claim_daily_cards(GUILD, ALICE)
    assert tomorrow is not None and (tomorrow.delta, tomorrow.replayed) == (5, False)
    assert await store.card_balance(GUILD, ALICE) == 17


async def test_history_pages_newest_first(store: SqlStore) -> None:
    for n in range(5):
        await store.grant_cards(GUILD, ALICE, n + 1, key=f"i{n}", actor_id=BOB)
    page = await store.card_history(GUILD, ALICE, limit=3)
    assert [m.delta for m in page] == [5, 4, 3]
    rest = await store.card_history(GUILD, ALICE, limit=3, before_id=page[-1].id)
    assert [m.delta for m in rest] == [2, 1, 10]


async def test_ledger_is_append_only_and_consistent(store: SqlStore, database: Database) -> None:
    await store.grant_cards(GUILD, ALICE, 5, key="i1", actor_id=BOB)
    for statement in (
        "UPDATE card_movements SET delta = 50",
        "DELETE FROM card_movements",
        "INSERT INTO card_movements (guild_id, user_id, kind, delta, balance_after, key, "
        f"created_at) VALUES ({GUILD}, {ALICE}, 'grant', 5, 99, 'forged', 0)",
        "INSERT INTO card_movements (guild_id, user_id, kind, delta, balance_after, key, "
        f"created_at) VALUES ({GUILD}, {ALICE}, 'take', -16, -1, 'negative', 0)",
    ):
        with pytest.raises(database.refusal):
            await database.execute(statement)
    sums, cached = await _ledger_totals(database)
    assert sums == cached == {(GUILD, ALICE): 15}


# Table prices, charges and refunds


async def test_creating_a_table_needs_the_whole_price(store: SqlStore) -> None:
    await _set_config(store, starter_cards=2)
    with pytest.raises(InsufficientCardsError) as refused:
        await store.create_table(
            guild_id=GUILD,
            channel_id=None,
            creator_id=ALICE,
            creator_name="Alice",
            variant=Variant.MCR,
            options={},
            rounds=8,
        )
    assert (refused.value.balance, refused.value.price) == (2, 3)
    with pytest.raises(PriceNotSetError):
        await store.create_table(
            guild_id=GUILD,
            channel_id=None,
            creator_id=ALICE,
            creator_name="Alice",
            variant=Variant.MCR,
            options={},
            rounds=2,
        )


async def test_raising_rounds_needs_the_new_price(store: SqlStore, make_table: MakeTable) -> None:
    await _set_config(store, starter_cards=3)
    table = await make_table(rounds=8, start=False)
    with pytest.raises(InsufficientCardsError):
        await store.set_table_options(table.id, options={"max_fan": 5}, rounds=16)
    lowered = await store.set_table_options(table.id, options={"max_fan": 5}, rounds=4)
    assert (lowered.rounds, lowered.options) == (4, {"max_fan": 5})


async def test_start_charges_the_creator(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(rounds=8)
    assert (table.status, table.price, table.card_payer) == (
        TableStatus.PLAYING,
        3,
        CardPayer.CREATOR,
    )
    spends = [m for m in await store.card_history(GUILD, ALICE) if m.kind is CardKind.SPEND]
    assert [(m.delta, m.table_id) for m in spends] == [(-3, table.id)]
    assert [await store.card_balance(GUILD, user) for user in (ALICE, BOB)] == [7, 10]


async def test_split_charges_humans_creator_first(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE, None, BOB, CAROL), rounds=16, payer=CardPayer.SPLIT)
    assert table.price == 4
    balances = [await store.card_balance(GUILD, user) for user in (ALICE, BOB, CAROL)]
    assert balances == [8, 9, 9]


async def test_start_refused_when_a_payer_is_short(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(
        (ALICE, BOB, CAROL, DAVE), rounds=16, start=False, payer=CardPayer.SPLIT
    )
    await store.grant_cards(GUILD, CAROL, -10, key="drain", actor_id=ALICE)
    with pytest.raises(InsufficientCardsError) as refused:
        await store.start_table(table.id, key="s1")
    assert (refused.value.user_id, refused.value.balance, refused.value.price) == (CAROL, 0, 1)
    assert (await store.get_table(table.id)).status is TableStatus.LOBBY
    balances = [await store.card_balance(GUILD, user) for user in (ALICE, BOB, CAROL, DAVE)]
    assert balances == [10, 10, 0, 10]


async def test_price_is_fixed_at_start(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(rounds=4)
    await _set_config(store, room_card_prices={4: 9}, card_payer=CardPayer.SPLIT)
    refunds = await store.disband_table(table.id)
    assert [(m.user_id, m.delta) for m in refunds] == [(ALICE, 2)]
    assert (await store.get_table(table.id)).price == 2


async def test_start_with_same_key_charges_once(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(start=False)
    results = await asyncio.gather(*(store.start_table(table.id, key="k") for _ in range(30)))
    assert all(len(result) == 1 for result in results)
    assert len({result[0].id for result in results}) == 1
    assert sum(not result[0].replayed for result in results) == 1
    assert await store.card_balance(GUILD, ALICE) == 8


async def test_second_start_with_another_key_is_refused(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table(start=False)
    await store.start_table(table.id, key="k1")
    with pytest.raises(StateError, match="playing"):
        await store.start_table(table.id, key="k2")
    other = await make_table(start=False)
    with pytest.raises(IdempotencyKeyError):
        await store.start_table(other.id, key="k1")
    assert await store.card_balance(GUILD, ALICE) == 10 - 2


async def test_concurrent_starts_never_overdraw(store: SqlStore, make_table: MakeTable) -> None:
    # Five lobbies of one member at once: past the default cap, so the cap is lifted.
    await _set_config(store, lobbies_per_member=0)
    lobbies = [await make_table(rounds=8, start=False) for _ in range(5)]
    outcomes = await asyncio.gather(
        *(store.start_table(table.id, key=f"s{table.id}") for table in lobbies),
        return_exceptions=True,
    )
    assert sum(isinstance(o, InsufficientCardsError) for o in outcomes) == 2
    assert await store.card_balance(GUILD, ALICE) == 1


async def test_disband_before_first_hand_ends_refunds_each_payer_once(
    store: SqlStore, make_table: MakeTable, database: Database
) -> None:
    table = await make_table(rounds=16, payer=CardPayer.SPLIT)
    await store.begin_round(table.id, seed="s", setup=setup_for())
    results = await asyncio.gather(*(store.disband_table(table.id) for _ in range(20)))
    first = next(result for result in results if not result[0].replayed)
    assert sorted((m.user_id, m.delta, m.kind) for m in first) == [
        (user, 1, CardKind.REFUND) for user in (ALICE, BOB, CAROL, DAVE)
    ]
    assert sum(not result[0].replayed for result in results) == 1
    assert [await store.card_balance(GUILD, u) for u in (ALICE, BOB, CAROL, DAVE)] == [10] * 4
    assert (await store.get_table(table.id)).status is TableStatus.DISBANDED
    sums, cached = await _ledger_totals(database)
    assert sums == cached


async def test_disband_after_first_hand_keeps_the_cards(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=4)
    await play_round(table, discard_win(1, 0, 8, 3))
    assert await store.disband_table(table.id) == []
    assert await store.card_balance(GUILD, ALICE) == 8


async def test_disband_lobby_moves_nothing(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(start=False)
    assert await store.disband_table(table.id) == []
    assert await store.card_balance(GUILD, ALICE) == 10
    with pytest.raises(StateError):
        await store.start_table(table.id, key="late")


# Several processes at once


async def _run_clients(
    database: Database, plans: list[list[list[Any]]], *, as_cluster: bool = False
) -> list[dict[str, Any]]:
    """Run each plan in a process of its own (tests/data/ledger_client.py), all released at
    once; each one's outcomes, one per request, and the time its requests spanned. As a
    cluster, each process holds a shard's lock throughout, as a bot process does."""
    clients = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.data.ledger_client",
            database.location,
            json.dumps(plan),
            *([str(shard)] if as_cluster else []),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for shard, plan in enumerate(plans)
    ]
    for client in clients:
        assert client.stdout is not None
        assert await client.stdout.readline() == b"ready\n"
    outputs = await asyncio.gather(*(client.communicate(b"go\n") for client in clients))
    assert [client.returncode for client in clients] == [0] * len(clients)
    reports = []
    for stdout, _ in outputs:
        *outcomes, span = [json.loads(line) for line in stdout.splitlines()]
        reports.append({"outcomes": outcomes, **span})
    return reports


@pytest.mark.parametrize("as_cluster", [False, True], ids=["processes", "cluster"])
async def test_two_processes_spending_from_one_balance_at_once(
    store: SqlStore, make_table: MakeTable, database: Database, as_cluster: bool
) -> None:
    """As a cluster: the two processes hold shard locks meanwhile, on PostgreSQL only (a
    cluster's processes hold their shards' locks and write through the store at once)."""
    if as_cluster and database.name != "postgresql":
        pytest.skip("a cluster needs PostgreSQL")
    # Alice has 50 cards. Both processes take the same 40 keyed cards, from either end so that
    # they meet, then 30 each under keys of their own: 10 of those 60 can be paid. Bob can pay
    # for 3 of his 5 lobbies, which both start under the same keys. Both disband one started
    # table of another server.
    await store.grant_cards(GUILD, ALICE, 40, key="stake", actor_id=BOB)
    # Five lobbies of one member at once: past the default cap, so the cap is lifted.
    await _set_config(store, lobbies_per_member=0)
    lobbies = [await make_table((BOB, ALICE, CAROL, DAVE), rounds=8, start=False) for _ in range(5)]
    refunded = await make_table(guild_id=OTHER_GUILD, rounds=16, payer=CardPayer.SPLIT)
    shared = [["take", GUILD, ALICE, 1, f"shared-{n}"] for n in range(40)]
    starts = [["start", lobby.id, f"start-{lobby.id}"] for lobby in lobbies]
    plans = [
        [*order, *starts, ["disband", refunded.id], *own]
        for order, own in (
            (shared, [["take", GUILD, ALICE, 1, f"a-{n}"] for n in range(30)]),
            (shared[::-1], [["take", GUILD, ALICE, 1, f"b-{n}"] for n in range(30)]),
        )
    ]
    reports = await _run_clients(database, plans, as_cluster=as_cluster)
    first, second = reports
    assert first["started"] < second["ended"] and second["started"] < first["ended"]
    # (first process's outcome, second's) of each request of the first plan, by request.
    outcome = [
        {json.dumps(request): o for request, o in zip(plan, report["outcomes"], strict=True)}
        for plan, report in zip(plans, reports, strict=True)
    ]

    def pairs(requests: list[list[Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        return [(outcome[0][json.dumps(r)], outcome[1][json.dumps(r)]) for r in requests]

    # Each shared key is charged once, and the other process gets that same movement back.
    for a, b in pairs(shared):
        assert sorted((a["result"], b["result"])) == ["applied", "replayed"]
        assert a["ids"] == b["ids"]
    own = [o["result"] for report in reports for o in report["outcomes"][46:]]
    assert (own.count("applied"), own.count("refused")) == (10, 50)
    assert await store.card_balance(GUILD, ALICE) == 0

    started = [(a["result"], b["result"]) for a, b in pairs(starts)]
    assert [pair.count("applied") for pair in started].count(1) == 3
    assert all(
        pair in {("applied", "replayed"), ("replayed", "applied"), ("refused", "refused")}
        for pair in started
    )
    assert await store.card_balance(GUILD, BOB) == 10 - 3 * 3

    # The table's payers were refunded once, by whichever process came first.
    ((a, b),) = pairs([["disband", refunded.id]])
    assert sorted((a["result"], b["result"])) == ["applied", "replayed"]
    refunds = await database.fetch(
        f"SELECT user_id, delta FROM card_movements WHERE table_id = {refunded.id} "
        "AND kind = 'refund' ORDER BY user_id"
    )
    assert refunds == [(user, 1) for user in (ALICE, BOB, CAROL, DAVE)]
    assert [await store.card_balance(OTHER_GUILD, u) for u in (ALICE, BOB, CAROL, DAVE)] == [10] * 4

    sums, cached = await _ledger_totals(database)
    assert sums == cached | {(GUILD, ALICE): 0}
