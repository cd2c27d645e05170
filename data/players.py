"""Players: per-user settings, and per-server membership with its display name."""

from __future__ import annotations

from data.clock import from_ms
from data.connection import Connection
from data.models import Member, PlayerSettings


async def ensure_player(
    db: Connection, user_id: int, display_name: str | None, now_ms: int
) -> None:
    """Give a user a row with the default settings, and keep their latest name."""
    defaults = PlayerSettings(user_id)
    await db.execute(
        """
        INSERT INTO players (
            user_id, display_name, locale, spectators_see_hand, show_system_messages,
            auto_play_on_timeout, created_at, updated_at
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id) DO UPDATE SET
            display_name = excluded.display_name, updated_at = excluded.updated_at
        WHERE excluded.display_name IS NOT NULL
          AND excluded.display_name IS DISTINCT FROM players.display_name
        """,
        (
            user_id,
            display_name,
            defaults.locale,
            defaults.spectators_see_hand,
            defaults.show_system_messages,
            defaults.auto_play_on_timeout,
            now_ms,
            now_ms,
        ),
    )


async def ensure_member(
    db: Connection, guild_id: int, user_id: int, display_name: str | None, now_ms: int
) -> bool:
    """Record a user in a server (the player and guild rows must exist); True if new there."""
    cursor = await db.execute(
        """
        INSERT INTO guild_members (guild_id, user_id, display_name, card_balance, joined_at)
        VALUES (?, ?, ?, 0, ?)
        ON CONFLICT (guild_id, user_id) DO NOTHING
        """,
        (guild_id, user_id, display_name, now_ms),
    )
    if cursor.rowcount:
        return True
    if display_name is not None:
        await db.execute(
            """
            UPDATE guild_members SET display_name = ?
            WHERE guild_id = ? AND user_id = ? AND display_name IS DISTINCT FROM ?
            """,
            (display_name, guild_id, user_id, display_name),
        )
    return False


async def get_member(db: Connection, guild_id: int, user_id: int) -> Member | None:
    rows = list(
        await db.execute_fetchall(
            "SELECT * FROM guild_members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
    )
    if not rows:
        return None
    row = rows[0]
    return Member(
        guild_id=guild_id,
        user_id=user_id,
        display_name=row["display_name"],
        card_balance=row["card_balance"],
        joined_at=from_ms(row["joined_at"]),
    )


async def get_settings(db: Connection, user_id: int) -> PlayerSettings:
    rows = list(
        await db.execute_fetchall(
            """
            SELECT locale, spectators_see_hand, show_system_messages, auto_play_on_timeout
            FROM players WHERE user_id = ?
            """,
            (user_id,),
        )
    )
    if not rows:
        return PlayerSettings(user_id)
    row = rows[0]
    return PlayerSettings(
        user_id=user_id,
        locale=row["locale"],
        spectators_see_hand=bool(row["spectators_see_hand"]),
        show_system_messages=bool(row["show_system_messages"]),
        auto_play_on_timeout=bool(row["auto_play_on_timeout"]),
    )


async def save_settings(db: Connection, settings: PlayerSettings, now_ms: int) -> None:
    await db.execute(
        """
        INSERT INTO players (
            user_id, display_name, locale, spectators_see_hand, show_system_messages,
            auto_play_on_timeout, created_at, updated_at
        )
        VALUES (:user_id, NULL, :locale, :spectators, :system, :auto_play, :now, :now)
        ON CONFLICT (user_id) DO UPDATE SET
            locale = excluded.locale,
            spectators_see_hand = excluded.spectators_see_hand,
            show_system_messages = excluded.show_system_messages,
            auto_play_on_timeout = excluded.auto_play_on_timeout,
            updated_at = excluded.updated_at
        """,
        {
            "user_id": settings.user_id,
            "locale": settings.locale,
            "spectators": settings.spectators_see_hand,
            "system": settings.show_system_messages,
            "auto_play": settings.auto_play_on_timeout,
            "now": now_ms,
        },
    )


async def get_dm_channel(db: Connection, user_id: int) -> int | None:
    rows = list(
        await db.execute_fetchall("SELECT dm_channel_id FROM players WHERE user_id = ?", (user_id,))
    )
    return rows[0]["dm_channel_id"] if rows else None


async def save_dm_channel(db: Connection, user_id: int, channel_id: int, now_ms: int) -> None:
    await ensure_player(db, user_id, None, now_ms)
    await db.execute(
        "UPDATE players SET dm_channel_id = ?, updated_at = ? WHERE user_id = ?",
        (channel_id, now_ms, user_id),
    )
