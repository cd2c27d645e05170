"""Errors the store raises; each carries the fields its message names."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every refusal by the store."""


class StoreUnavailableError(StoreError):
    """The store cannot take the call just now: the database is locked by another
    process, the disk is full, a file cannot be written. Nothing of the call was kept,
    and the same call may work later."""


class NotFoundError(StoreError):
    """A table, round or other record does not exist."""

    def __init__(self, what: str, ident: int) -> None:
        super().__init__(f"{what} {ident} does not exist")
        self.what = what
        self.ident = ident


class StateError(StoreError):
    """The record exists but is not in a state that allows the change."""


class InsufficientCardsError(StoreError):
    """A movement would take a room-card balance below zero; nothing was changed."""

    def __init__(self, guild_id: int, user_id: int, balance: int, price: int) -> None:
        super().__init__(
            f"user {user_id} has {balance} room cards in guild {guild_id}, {price} needed"
        )
        self.guild_id = guild_id
        self.user_id = user_id
        self.balance = balance
        self.price = price


class IdempotencyKeyError(StoreError):
    """An idempotency key was reused for a different request."""

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was already used for a different request")
        self.key = key


class PriceNotSetError(StoreError):
    """The guild's price table has no entry for a table's round count."""

    def __init__(self, guild_id: int, rounds: int) -> None:
        super().__init__(f"guild {guild_id} has no room-card price for {rounds} hands")
        self.guild_id = guild_id
        self.rounds = rounds


class LobbyLimitError(StoreError):
    """A new lobby would pass a server's cap on open lobbies: the creator's own
    (``per_member``) or the server's."""

    def __init__(self, guild_id: int, limit: int, *, per_member: bool) -> None:
        whose = "this member" if per_member else "this server"
        super().__init__(f"guild {guild_id}: {whose} already has {limit} open lobbies")
        self.guild_id = guild_id
        self.limit = limit
        self.per_member = per_member


class SeatError(StoreError):
    """A seat change is impossible: table full, already seated, not seated."""


class HostAloneError(SeatError):
    """The host of a lobby stood up with no other person seated to hand it to."""


class ActionSequenceError(StoreError):
    """An action was appended with a sequence number other than the round's next one."""

    def __init__(self, round_id: int, seq: int, expected: int) -> None:
        super().__init__(f"round {round_id} expects action {expected}, got {seq}")
        self.round_id = round_id
        self.seq = seq
        self.expected = expected


class SchemaError(StoreError):
    """The database schema cannot be brought to this code's version."""


class UnusableDatabaseError(StoreError):
    """The database cannot be used as it is, found when the store opens: one sentence
    naming it (a SQLite file, or a PostgreSQL URL without its password), what is wrong
    and what to do."""

    def __init__(self, path: object, problem: str, advice: str) -> None:
        super().__init__(f"The database {path} {problem}: {advice}.")
        self.path = path
        self.problem = problem
        self.advice = advice


class DatabaseInUseError(UnusableDatabaseError):
    """Another process has the SQLite file open (`data.sqlite.LockFile`): unlike the file's
    other problems, this one goes away when that process stops."""


class SeasonError(StoreError):
    """A season cannot start (one is running: ``running`` is its number) or end (none is
    running: ``running`` is None) in a server."""

    def __init__(self, guild_id: int, running: int | None) -> None:
        if running is None:
            message = f"guild {guild_id} has no season running"
        else:
            message = f"guild {guild_id} is already in season {running}"
        super().__init__(message)
        self.guild_id = guild_id
        self.running = running
