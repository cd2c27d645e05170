"""The one interface the bot uses to keep its data.

`SqliteStore` (data/sqlite.py) implements it on an embedded SQLite file. docs/store.md says
when another backend would be needed and how it plugs in behind this protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from data.models import (
    CardMovement,
    GuildConfig,
    GuildConfigChange,
    LeaderboardEntry,
    LiveTable,
    Member,
    Period,
    PlayerProfile,
    PlayerSettings,
    PlayerStats,
    Ranking,
    Rating,
    RoundInfo,
    RoundRecord,
    RoundResult,
    RoundSummary,
    Season,
    Seat,
    Table,
    Variant,
)


class Store(Protocol):
    """Every method that changes data is one transaction: it happens whole or not at all.

    Methods that move room cards take an idempotency `key` (a retried interaction's id, say):
    a second call with the same key returns the first result, marked `replayed`, and moves
    nothing. Times come from the store's clock."""

    async def close(self) -> None: ...

    # Players and servers

    async def touch_member(self, guild_id: int, user_id: int, display_name: str) -> Member:
        """Record a user seen in a server and their current name; the first time, grant the
        server's starter cards."""
        ...

    async def player_settings(self, user_id: int) -> PlayerSettings: ...

    async def save_player_settings(self, settings: PlayerSettings) -> None: ...

    async def dm_channel_id(self, user_id: int) -> int | None:
        """The user's DM channel with the bot, once one was opened."""
        ...

    async def save_dm_channel_id(self, user_id: int, channel_id: int) -> None: ...

    async def guild_config(self, guild_id: int) -> GuildConfig: ...

    async def update_guild_config(
        self,
        guild_id: int,
        change: GuildConfigChange,
        *,
        first_timers: tuple[int, int] | None = None,
    ) -> GuildConfig:
        """Apply the settings `change` names over the stored ones, in one transaction,
        and return the server's settings saved; a server not configured before takes
        `first_timers` for the timers `change` does not name (`GuildConfigChange`)."""
        ...

    async def mark_test_commands(self, guild_id: int) -> None:
        """The bot registered its slash commands in this server alone (``DEV_GUILD_ID``),
        a copy Discord keeps until the bot removes it."""
        ...

    async def test_command_guilds(self) -> list[int]:
        """The servers holding such a copy."""
        ...

    async def forget_test_commands(self, guild_id: int) -> None:
        """The server's copy of the commands was removed."""
        ...

    # Room cards

    async def card_balance(self, guild_id: int, user_id: int) -> int: ...

    async def card_history(
        self, guild_id: int, user_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[CardMovement]:
        """Movements newest first; pass the last id seen as `before_id` for the next page."""
        ...

    async def grant_cards(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        key: str,
        actor_id: int,
        note: str | None = None,
        display_name: str | None = None,
    ) -> CardMovement:
        """An admin's grant (amount > 0) or take (amount < 0) to a member, admitted as
        `touch_member` does (with their name in the server, when given) in the same
        transaction; a take beyond the balance raises InsufficientCardsError and keeps
        nothing."""
        ...

    async def claim_daily_cards(self, guild_id: int, user_id: int) -> CardMovement | None:
        """Today's (UTC) daily grant, made once per day; None when the server has it off."""
        ...

    # Tables

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        creator_id: int,
        creator_name: str,
        variant: Variant,
        options: Mapping[str, Any],
        rounds: int,
    ) -> Table:
        """Open a lobby with the creator in chair 0; refused (InsufficientCardsError) when the
        creator cannot pay the whole price, and (LobbyLimitError) past the server's caps on
        open lobbies, the creator's own or the server's (GuildConfig)."""
        ...

    async def set_lobby_message(
        self, table_id: int, *, channel_id: int, message_id: int
    ) -> None: ...

    async def set_played_again(self, table_id: int, *, again_id: int) -> int:
        """Record that the finished table's Play again opened ``again_id``, unless the
        table linked before is still open or in play. Returns the table linked."""
        ...

    async def set_table_options(
        self, table_id: int, *, options: Mapping[str, Any], rounds: int
    ) -> Table:
        """Change options in the lobby; raising `rounds` needs the creator to afford the price."""
        ...

    async def take_seat(
        self,
        table_id: int,
        *,
        display_name: str,
        user_id: int | None = None,
        ai_level: int | None = None,
    ) -> Seat:
        """Seat a player (user_id) or an AI (ai_level) in the next free chair of a lobby."""
        ...

    async def leave_seat(self, table_id: int, user_id: int) -> None:
        """Stand a player up in the lobby; later arrivals move down one chair. The host
        hands the table to the first person seated after them (HostAloneError when
        there is none)."""
        ...

    async def remove_ai_seat(self, table_id: int, chair: int) -> None:
        """Take the AI seat at ``chair`` away in the lobby; later arrivals move down one
        chair. SeatError when that chair is not an AI seat."""
        ...

    async def start_table(self, table_id: int, *, key: str) -> list[CardMovement]:
        """Fix the price and who pays, charge every payer, and mark the table playing."""
        ...

    async def disband_table(self, table_id: int) -> list[CardMovement]:
        """End a table; refund every charge if its first hand has not ended."""
        ...

    async def set_autoplay(self, table_id: int, user_id: int, on: bool) -> None:
        """Put a player of a table in play on auto-play (托管) or take them off it; the
        table's seats carry it, so a restarted bot keeps playing for them."""
        ...

    async def summaries_due(self) -> list[Table]:
        """Finished tables whose session summary is not marked posted: a bot that stopped
        after a table's last `finish_round` posts them when it restarts."""
        ...

    async def mark_summary_posted(self, table_id: int) -> None:
        """Record that a finished table's session summary is posted (the first mark stands)."""
        ...

    async def get_table(self, table_id: int) -> Table: ...

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The lobby or playing table of a channel or thread, if any."""
        ...

    async def lobby_ids(self, guild_id: int) -> list[int]:
        """The server's lobbies waiting for players, oldest first."""
        ...

    async def table_standings(self, table_id: int) -> tuple[int, int, int, int]:
        """Each chair's summed net over the table's finished hands."""
        ...

    # Rounds

    async def begin_round(self, table_id: int, *, seed: str, setup: Mapping[str, Any]) -> RoundInfo:
        """Store the next hand's setup: a round script (Contract 2) without its actions."""
        ...

    async def append_action(self, round_id: int, seq: int, action: Mapping[str, Any]) -> None:
        """Store one accepted action before it is announced. `seq` must be the round's next
        number (0 first), else ActionSequenceError: the same action is never stored twice."""
        ...

    async def finish_round(self, round_id: int, result: RoundResult) -> bool:
        """Store a hand's result, count it in statistics and give it its replay code; True
        when it was the table's last hand and the table is now finished, its players then
        rated from the session's placements (data/ratings.py)."""
        ...

    async def replay_code(self, round_id: int) -> str | None:
        """A finished hand's short code; None for a hand still in play."""
        ...

    async def round_by_code(self, code: str) -> RoundRecord | None:
        """The finished hand of a code (case, spaces and dashes ignored), of any server:
        the caller checks it is asked for in the hand's own server."""
        ...

    async def round_script(self, round_id: int) -> dict[str, Any]:
        """A finished round as a round script, for replays."""
        ...

    async def round_record(self, round_id: int) -> RoundRecord: ...

    async def live_tables(self) -> list[LiveTable]:
        """Every table in play, with its current round's setup and actions, for a restart."""
        ...

    # Statistics

    async def leaderboard(
        self,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        period: Period = Period.ALL,
        ranking: Ranking = Ranking.NET,
        min_games: int = 0,
        limit: int = 10,
        offset: int = 0,
        season: int | None = None,
    ) -> list[LeaderboardEntry]:
        """Ranked players of a server (or all servers with guild_id None), one rule set (or
        all with variant None). By rating, or with a season (its number in the server),
        the board reads ratings (period ignored; games are the rated sessions' hands);
        NotFoundError for a season the server never had. Only players with `min_games`
        hands are ranked, or on the boards that read ratings but by win rate, that many
        rated sessions."""
        ...

    async def rating(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        season: int | None = None,
    ) -> Rating | None:
        """A player's rating; None before their first rated session."""
        ...

    async def session_ratings(self, table_id: int) -> dict[int, tuple[Rating | None, Rating]]:
        """Each rated player's rating in the table's server and rule set before and after
        its session (before is None for their first), by user id; empty until it ends."""
        ...

    async def player_profile(
        self, user_id: int, *, guild_id: int | None = None, variant: Variant | None = None
    ) -> PlayerProfile:
        """What /stats draws: totals, the rating and its history, placements, fans."""
        ...

    # Seasons

    async def running_season(self, guild_id: int) -> Season | None: ...

    async def seasons(self, guild_id: int) -> list[Season]: ...

    async def start_season(self, guild_id: int, *, actor_id: int | None = None) -> Season:
        """Start the server's next season; SeasonError while one runs."""
        ...

    async def end_season(self, guild_id: int) -> Season:
        """End the running season; SeasonError when none runs."""
        ...

    async def player_stats(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        period: Period = Period.ALL,
    ) -> PlayerStats: ...

    async def recent_rounds(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        limit: int = 10,
    ) -> list[RoundSummary]: ...
