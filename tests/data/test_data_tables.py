"""Players, server settings, tables and seats."""

from __future__ import annotations

import dataclasses

import pytest

from data import (
    CardPayer,
    GuildConfig,
    GuildConfigChange,
    HostAloneError,
    LobbyLimitError,
    NotFoundError,
    PlayerSettings,
    PriceNotSetError,
    Seat,
    SeatError,
    StateError,
    Table,
    TableStatus,
    Variant,
)
from data.models import DEFAULT_ROOM_CARD_PRICES
from data.sql_store import SqlStore
from engine.rules.base import RuleError
from engine.rules.registry import VARIANTS, find_ruleset
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    GUILD,
    OTHER_GUILD,
    FakeClock,
    MakeTable,
)

# Player settings and server settings


async def test_player_settings_default_and_round_trip(store: SqlStore) -> None:
    assert await store.player_settings(ALICE) == PlayerSettings(
        ALICE,
        locale=None,
        spectators_see_hand=False,
        show_system_messages=True,
        auto_play_on_timeout=True,
    )
    chosen = PlayerSettings(ALICE, "zh-TW", True, False, False)
    await store.save_player_settings(chosen)
    assert await store.player_settings(ALICE) == chosen
    await store.touch_member(GUILD, ALICE, "Alice")
    cleared = dataclasses.replace(chosen, locale=None)
    await store.save_player_settings(cleared)
    assert await store.player_settings(ALICE) == cleared


async def test_dm_channel_is_kept_for_known_and_new_players(store: SqlStore) -> None:
    assert await store.dm_channel_id(ALICE) is None
    await store.save_dm_channel_id(ALICE, 900)
    assert await store.dm_channel_id(ALICE) == 900
    await store.touch_member(GUILD, BOB, "Bob")
    await store.save_dm_channel_id(BOB, 901)
    assert await store.dm_channel_id(BOB) == 901
    assert (await store.player_settings(ALICE)) == PlayerSettings(ALICE)


async def test_guild_config_default_and_round_trip(store: SqlStore) -> None:
    config = await store.guild_config(GUILD)
    assert config == GuildConfig(
        GUILD,
        table_category_id=None,
        turn_timer=20,
        claim_timer=10,
        starter_cards=10,
        daily_cards=0,
        room_card_prices={1: 1, 4: 2, 8: 3, 16: 4},
        card_payer=CardPayer.CREATOR,
    )
    change = GuildConfigChange(
        table_category_id=77,
        turn_timer=0,
        claim_timer=15,
        starter_cards=0,
        daily_cards=3,
        room_card_prices={4: 1, 8: 2},
        card_payer=CardPayer.SPLIT,
    )
    changed = GuildConfig(GUILD, 77, 0, 15, 0, 3, {1: 1, 4: 1, 8: 2, 16: 4}, CardPayer.SPLIT)
    assert await store.update_guild_config(GUILD, change) == changed
    assert await store.guild_config(GUILD) == changed
    assert await store.guild_config(OTHER_GUILD) == GuildConfig(OTHER_GUILD)


@pytest.mark.parametrize(
    "changes",
    [
        {"turn_timer": -1},
        {"claim_timer": -5},
        {"starter_cards": -1},
        {"daily_cards": -2},
        {"room_card_prices": {}},
        {"room_card_prices": {0: 1}},
        {"room_card_prices": {4: -1}},
        {"card_payer": "everyone"},
    ],
)
def test_guild_config_rejects_bad_values(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        GuildConfig(GUILD, **changes)  # type: ignore[arg-type]


def test_price_lookup() -> None:
    config = GuildConfig(GUILD)
    assert [config.price_for(rounds) for rounds in (1, 4, 8, 16)] == [1, 2, 3, 4]
    with pytest.raises(PriceNotSetError) as missing:
        config.price_for(12)
    assert (missing.value.guild_id, missing.value.rounds) == (GUILD, 12)
    # A server that set some prices pays the default for the others.
    some = GuildConfig(GUILD, room_card_prices={8: 5})
    assert [some.price_for(rounds) for rounds in (1, 4, 8, 16)] == [1, 2, 5, 4]


@pytest.mark.parametrize("variant", VARIANTS)
def test_default_prices_cover_every_rounds_of_every_rule_set(variant: str) -> None:
    """One price table serves all rule sets: every `rounds` a table may choose has a
    default price, and no other count has one."""
    ruleset = find_ruleset(variant)
    for rounds in range(33):
        try:
            ruleset.parse_options({"rounds": rounds})
        except RuleError:
            assert rounds not in DEFAULT_ROOM_CARD_PRICES
        else:
            assert rounds in DEFAULT_ROOM_CARD_PRICES


async def test_member_names_per_server(store: SqlStore, clock: FakeClock) -> None:
    first = await store.touch_member(GUILD, ALICE, "Alice")
    clock.advance(days=1)
    await store.touch_member(OTHER_GUILD, ALICE, "Ali")
    again = await store.touch_member(GUILD, ALICE, "Alice")
    assert (again.display_name, again.joined_at) == ("Alice", first.joined_at)
    assert (await store.touch_member(OTHER_GUILD, ALICE, "Ali")).display_name == "Ali"


# Tables and seats


async def test_create_table(store: SqlStore, clock: FakeClock) -> None:
    table = await store.create_table(
        guild_id=GUILD,
        channel_id=55,
        creator_id=ALICE,
        creator_name="Alice",
        variant=Variant.GUANGDONG,
        options={"horses": True, "base_stake": 2},
        rounds=8,
    )
    assert (table.guild_id, table.channel_id, table.creator_id) == (GUILD, 55, ALICE)
    assert (table.variant, table.rounds, table.status) == (Variant.GUANGDONG, 8, TableStatus.LOBBY)
    assert table.options == {"horses": True, "base_stake": 2}
    assert table.seats == (Seat(0, "Alice", ALICE),)
    assert (table.created_at, table.started_at, table.price) == (clock.now, None, None)
    assert await store.get_table(table.id) == table


async def test_lobby_message_and_channel_lookup(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table(start=False)
    assert await store.table_in_channel(900) is None
    await store.set_lobby_message(table.id, channel_id=900, message_id=901)
    found = await store.table_in_channel(900)
    assert found is not None and (found.id, found.lobby_message_id) == (table.id, 901)
    await store.disband_table(table.id)
    assert await store.table_in_channel(900) is None
    with pytest.raises(NotFoundError):
        await store.set_lobby_message(999, channel_id=1, message_id=2)


async def test_seats_fill_in_order_with_ai(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE,), start=False)
    assert await store.take_seat(table.id, display_name="Bob", user_id=BOB) == Seat(1, "Bob", BOB)
    ai = await store.take_seat(table.id, display_name="AI", ai_level=2)
    assert (ai.chair, ai.is_ai, ai.ai_level) == (2, True, 2)
    await store.take_seat(table.id, display_name="Carol", user_id=CAROL)
    with pytest.raises(SeatError, match="full"):
        await store.take_seat(table.id, display_name="Dave", user_id=DAVE)
    with pytest.raises(SeatError, match="already"):
        await store.take_seat(table.id, display_name="Bob", user_id=BOB)
    with pytest.raises(ValueError):
        await store.take_seat(table.id, display_name="?", user_id=DAVE, ai_level=1)
    with pytest.raises(ValueError):
        await store.take_seat(table.id, display_name="?")
    with pytest.raises(ValueError):
        await store.take_seat(table.id, display_name="?", ai_level=-1)


async def test_leaving_moves_later_arrivals_down(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE, BOB, None, CAROL), start=False)
    await store.leave_seat(table.id, BOB)
    seats = (await store.get_table(table.id)).seats
    assert [(s.chair, s.user_id) for s in seats] == [(0, ALICE), (1, None), (2, CAROL)]
    assert (await store.take_seat(table.id, display_name="Erin", user_id=ERIN)).chair == 3
    with pytest.raises(SeatError, match="does not sit"):
        await store.leave_seat(table.id, DAVE)


async def test_a_host_who_stands_up_hands_the_table_to_the_next_person(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table((ALICE, None, CAROL, ERIN), start=False)
    await store.leave_seat(table.id, ALICE)
    after = await store.get_table(table.id)
    # Carol sat down first after Alice: she hosts from chair 0, the AI seat and Erin follow.
    assert after.creator_id == CAROL
    assert [(s.chair, s.user_id) for s in after.seats] == [(0, CAROL), (1, None), (2, ERIN)]
    await store.leave_seat(table.id, ERIN)
    with pytest.raises(HostAloneError):
        await store.leave_seat(table.id, CAROL)
    assert (await store.get_table(table.id)).creator_id == CAROL


async def test_an_ai_seat_can_be_taken_away_and_later_arrivals_move_down(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table((ALICE, None, CAROL), start=False)
    with pytest.raises(SeatError, match="not an AI seat"):
        await store.remove_ai_seat(table.id, 2)
    await store.remove_ai_seat(table.id, 1)
    seats = (await store.get_table(table.id)).seats
    assert [(s.chair, s.user_id) for s in seats] == [(0, ALICE), (1, CAROL)]
    with pytest.raises(SeatError):
        await store.remove_ai_seat(table.id, 3)


async def test_seats_and_options_are_fixed_once_playing(
    store: SqlStore, make_table: MakeTable
) -> None:
    table = await make_table((ALICE, BOB, CAROL, None))
    with pytest.raises(StateError):
        await store.leave_seat(table.id, BOB)
    with pytest.raises(StateError):
        await store.take_seat(table.id, display_name="Erin", user_id=ERIN)
    with pytest.raises(StateError):
        await store.set_table_options(table.id, options={}, rounds=1)


async def test_start_needs_four_players(store: SqlStore, make_table: MakeTable) -> None:
    table = await make_table((ALICE, BOB, None), start=False)
    with pytest.raises(StateError, match="3 players"):
        await store.start_table(table.id, key="s")


async def test_missing_table(store: SqlStore) -> None:
    with pytest.raises(NotFoundError, match="table 42"):
        await store.get_table(42)


async def test_open_lobbies_are_capped_per_member_and_per_server(store: SqlStore) -> None:
    await store.update_guild_config(
        GUILD, GuildConfigChange(lobbies_per_member=2, lobbies_per_server=3)
    )

    async def lobby(creator: int) -> Table:
        return await store.create_table(
            guild_id=GUILD,
            channel_id=None,
            creator_id=creator,
            creator_name=str(creator),
            variant=Variant.SICHUAN,
            options={},
            rounds=1,
        )

    first = await lobby(ALICE)
    await lobby(ALICE)
    with pytest.raises(LobbyLimitError) as mine:
        await lobby(ALICE)
    assert mine.value.per_member and mine.value.limit == 2
    await lobby(BOB)
    with pytest.raises(LobbyLimitError) as everyone:
        await lobby(CAROL)
    assert not everyone.value.per_member and everyone.value.limit == 3
    # A lobby that closes frees its place; tables in play do not count.
    await store.disband_table(first.id)
    await lobby(CAROL)
    assert (await store.guild_config(GUILD)).lobbies_per_server == 3


async def test_a_servers_lobbies_are_listed_oldest_first(
    store: SqlStore, make_table: MakeTable
) -> None:
    first = await make_table((ALICE,), start=False)
    await make_table()
    other = await make_table((BOB,), start=False, guild_id=OTHER_GUILD)
    second = await make_table((CAROL,), start=False)
    assert await store.lobby_ids(GUILD) == [first.id, second.id]
    assert await store.lobby_ids(OTHER_GUILD) == [other.id]
