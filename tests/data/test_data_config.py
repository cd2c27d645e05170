"""Server settings changed by several admins at once, an admin's grant that is refused, and
the minimum on a season's win-rate board: on both backends."""

from __future__ import annotations

import asyncio

import pytest

from data import (
    CardPayer,
    GuildConfig,
    GuildConfigChange,
    InsufficientCardsError,
    Ranking,
)
from data.sql_store import SqlStore
from tests.data.databases import Database
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    GUILD,
    OTHER_GUILD,
    MakeTable,
    PlayRound,
    discard_win,
)


async def test_two_changes_at_once_both_stay(store: SqlStore) -> None:
    await asyncio.gather(
        store.update_guild_config(GUILD, GuildConfigChange(starter_cards=3)),
        store.update_guild_config(GUILD, GuildConfigChange(daily_cards=2)),
        store.update_guild_config(GUILD, GuildConfigChange(room_card_prices={8: 5})),
        store.update_guild_config(GUILD, GuildConfigChange(room_card_prices={16: 7})),
    )
    config = await store.guild_config(GUILD)
    assert (config.starter_cards, config.daily_cards) == (3, 2)
    assert [config.price_for(rounds) for rounds in (1, 4, 8, 16)] == [1, 2, 5, 7]


async def test_a_change_keeps_what_it_does_not_name(store: SqlStore) -> None:
    first = GuildConfigChange(
        table_category_id=77, turn_timer=30, room_card_prices={4: 9}, card_payer=CardPayer.SPLIT
    )
    await store.update_guild_config(GUILD, first)
    saved = await store.update_guild_config(GUILD, GuildConfigChange(no_category=True))
    assert saved == GuildConfig(
        GUILD,
        table_category_id=None,
        turn_timer=30,
        room_card_prices={1: 1, 4: 9, 8: 3, 16: 4},
        card_payer=CardPayer.SPLIT,
    )
    assert await store.guild_config(GUILD) == saved


def test_a_category_and_no_category_at_once_is_refused() -> None:
    with pytest.raises(ValueError, match="category"):
        GuildConfigChange(table_category_id=77, no_category=True)


async def test_a_first_change_keeps_the_timers_the_server_played_with(store: SqlStore) -> None:
    first = await store.update_guild_config(
        GUILD, GuildConfigChange(claim_timer=12), first_timers=(45, 15)
    )
    assert (first.turn_timer, first.claim_timer) == (45, 12)
    # Configured now: the bot's timers no longer apply.
    later = await store.update_guild_config(
        GUILD, GuildConfigChange(starter_cards=1), first_timers=(60, 30)
    )
    assert (later.turn_timer, later.claim_timer) == (45, 12)


async def test_a_refused_take_keeps_nothing(store: SqlStore, database: Database) -> None:
    with pytest.raises(InsufficientCardsError):
        await store.grant_cards(
            GUILD, ALICE, -50, key="take", actor_id=BOB, display_name="Alice in this server"
        )
    assert await store.card_history(GUILD, ALICE) == []
    assert await database.fetch(f"SELECT * FROM guild_members WHERE user_id = {ALICE}") == []
    assert await database.fetch(f"SELECT * FROM players WHERE user_id = {ALICE}") == []


async def test_a_grant_writes_the_name_in_the_server(store: SqlStore, database: Database) -> None:
    await store.touch_member(GUILD, ALICE, "alice_account")
    await store.grant_cards(GUILD, ALICE, 5, key="grant", actor_id=BOB, display_name="Ali")
    names = await database.fetch(
        f"SELECT display_name FROM guild_members WHERE guild_id = {GUILD} AND user_id = {ALICE}"
    )
    assert names == [("Ali",)]


async def test_a_seasons_win_rate_minimum_counts_hands(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    await store.start_season(GUILD)
    session = await make_table((ALICE, BOB, CAROL, DAVE), rounds=4)
    for _ in range(4):
        await play_round(session, discard_win(0, 1, 5, 8))
    short = await make_table((ERIN, None, None, None), rounds=1)
    await play_round(short, discard_win(0, 1, 5, 8))
    board = await store.leaderboard(guild_id=GUILD, season=1, ranking=Ranking.WIN_RATE, min_games=4)
    # One session each, but Erin has played 1 hand, the others 4.
    assert [entry.stats.user_id for entry in board] == [ALICE, BOB, CAROL, DAVE]
    assert board[0].stats.games == 4


async def test_the_servers_given_test_commands_are_kept_until_forgotten(store: SqlStore) -> None:
    await store.mark_test_commands(OTHER_GUILD)
    await store.mark_test_commands(GUILD)
    await store.mark_test_commands(GUILD)
    assert await store.test_command_guilds() == sorted([GUILD, OTHER_GUILD])
    await store.forget_test_commands(GUILD)
    assert await store.test_command_guilds() == [OTHER_GUILD]
    # A server's settings are untouched by it.
    assert await store.guild_config(GUILD) == GuildConfig(GUILD)
