"""Server settings (`/admin config`)."""

from __future__ import annotations

from data.codec import dump_json, load_json
from data.connection import Connection
from data.models import GuildConfig

_INSERT = """
INSERT INTO guilds (
    guild_id, table_category_id, turn_timer, claim_timer, starter_cards, daily_cards,
    room_card_prices, card_payer, lobbies_per_member, lobbies_per_server, created_at, updated_at
)
VALUES (:guild_id, :table_category_id, :turn_timer, :claim_timer, :starter_cards, :daily_cards,
        :room_card_prices, :card_payer, :lobbies_per_member, :lobbies_per_server, :now, :now)
"""

_INSERT_IF_NEW = _INSERT + "ON CONFLICT (guild_id) DO NOTHING"

# Saved by an admin: configured from then on (``configured_at``, kept from the first save).
_UPSERT = """
INSERT INTO guilds (
    guild_id, table_category_id, turn_timer, claim_timer, starter_cards, daily_cards,
    room_card_prices, card_payer, lobbies_per_member, lobbies_per_server, created_at, updated_at,
    configured_at
)
VALUES (:guild_id, :table_category_id, :turn_timer, :claim_timer, :starter_cards, :daily_cards,
        :room_card_prices, :card_payer, :lobbies_per_member, :lobbies_per_server, :now, :now, :now)
ON CONFLICT (guild_id) DO UPDATE SET
    table_category_id = excluded.table_category_id,
    turn_timer = excluded.turn_timer,
    claim_timer = excluded.claim_timer,
    starter_cards = excluded.starter_cards,
    daily_cards = excluded.daily_cards,
    room_card_prices = excluded.room_card_prices,
    card_payer = excluded.card_payer,
    lobbies_per_member = excluded.lobbies_per_member,
    lobbies_per_server = excluded.lobbies_per_server,
    updated_at = excluded.updated_at,
    configured_at = COALESCE(guilds.configured_at, excluded.updated_at)
"""


def _params(config: GuildConfig, now_ms: int) -> dict[str, object]:
    prices = {str(rounds): cards for rounds, cards in sorted(config.room_card_prices.items())}
    return {
        "guild_id": config.guild_id,
        "table_category_id": config.table_category_id,
        "turn_timer": config.turn_timer,
        "claim_timer": config.claim_timer,
        "starter_cards": config.starter_cards,
        "daily_cards": config.daily_cards,
        "room_card_prices": dump_json(prices),
        "card_payer": config.card_payer.value,
        "lobbies_per_member": config.lobbies_per_member,
        "lobbies_per_server": config.lobbies_per_server,
        "now": now_ms,
    }


async def ensure_guild(db: Connection, guild_id: int, now_ms: int) -> None:
    """Give a server its row, with the default settings, the first time it is seen."""
    await db.execute(_INSERT_IF_NEW, _params(GuildConfig(guild_id), now_ms))


async def get_config(db: Connection, guild_id: int) -> GuildConfig:
    rows = list(await db.execute_fetchall("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,)))
    if not rows:
        return GuildConfig(guild_id)
    row = rows[0]
    return GuildConfig(
        guild_id=guild_id,
        table_category_id=row["table_category_id"],
        turn_timer=row["turn_timer"],
        claim_timer=row["claim_timer"],
        starter_cards=row["starter_cards"],
        daily_cards=row["daily_cards"],
        room_card_prices={int(k): v for k, v in load_json(row["room_card_prices"]).items()},
        card_payer=row["card_payer"],
        lobbies_per_member=row["lobbies_per_member"],
        lobbies_per_server=row["lobbies_per_server"],
        configured=row["configured_at"] is not None,
    )


async def save_config(db: Connection, config: GuildConfig, now_ms: int) -> None:
    await db.execute(_UPSERT, _params(config, now_ms))


async def mark_test_commands(db: Connection, guild_id: int, now_ms: int) -> None:
    """The bot registered its slash commands in this server alone (``DEV_GUILD_ID``)."""
    await ensure_guild(db, guild_id, now_ms)
    await db.execute(
        "UPDATE guilds SET test_commands_at = ? WHERE guild_id = ?", (now_ms, guild_id)
    )


async def test_command_guilds(db: Connection) -> list[int]:
    """The servers that hold such a copy of the commands, oldest first."""
    sql = "SELECT guild_id FROM guilds WHERE test_commands_at IS NOT NULL ORDER BY guild_id"
    return [int(row[0]) for row in await db.execute_fetchall(sql)]


async def forget_test_commands(db: Connection, guild_id: int) -> None:
    """The server's copy of the commands was removed."""
    await db.execute("UPDATE guilds SET test_commands_at = NULL WHERE guild_id = ?", (guild_id,))
