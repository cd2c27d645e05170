"""The database connection as the query modules see it, whichever the backend.

It is the part of aiosqlite's connection they use: `execute`, `execute_fetchall` and
`executemany`, with SQLite's placeholders (`?` in order, or `:name` with a mapping). An
aiosqlite connection is one as it is; `PgConnection` (data/postgres_connection.py) is one
over asyncpg. SQL written for this interface must run on both SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, overload

Parameters = Sequence[Any] | Mapping[str, Any]


class Row(Protocol):
    """A result row: by column name or position, and unpacked in column order."""

    @overload
    def __getitem__(self, key: str, /) -> Any: ...
    @overload
    def __getitem__(self, key: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Parameters = ..., /) -> Awaitable[Cursor]: ...

    def execute_fetchall(
        self, sql: str, parameters: Parameters = ..., /
    ) -> Awaitable[Iterable[Row]]: ...

    def executemany(self, sql: str, parameters: Iterable[Parameters], /) -> Awaitable[Cursor]: ...
