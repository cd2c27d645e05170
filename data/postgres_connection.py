"""asyncpg behind the connection interface of the query modules (data/connection.py).

The query modules write each statement once, with SQLite's placeholders: `?` in order, or
`:name` with a mapping. `PgConnection` rewrites them to PostgreSQL's `$1`, `$2`, ... (once
per statement text) and answers `execute`, `execute_fetchall` and `executemany` as
aiosqlite does. asyncpg prepares and caches each statement per connection.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data.connection import Parameters

# A connection of its own, or one lent by a pool (generic only in asyncpg's stubs).
AsyncpgConnection: TypeAlias = (
    "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"
)

# Quoted text, comments and PostgreSQL's :: casts are copied as they are; only the
# placeholders outside them are rewritten.
_TOKENS = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|::|\?|:([A-Za-z_][A-Za-z0-9_]*)""")


@dataclass(frozen=True, slots=True)
class Statement:
    """A statement in PostgreSQL's placeholders; `names` orders a mapping's values, and is
    None for `?` placeholders, whose values come in order."""

    sql: str
    names: tuple[str, ...] | None

    def arguments(self, parameters: Parameters) -> Sequence[Any]:
        if self.names is None:
            if isinstance(parameters, Mapping):
                raise TypeError("a statement with ? placeholders takes a sequence")
            return parameters
        if not isinstance(parameters, Mapping):
            raise TypeError("a statement with :name placeholders takes a mapping")
        return [parameters[name] for name in self.names]


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> Statement:
    """SQLite's placeholders as PostgreSQL's.

    >>> translate("SELECT * FROM t WHERE a = :a AND b = :b OR a = :a").sql
    'SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1'
    >>> translate("SELECT '?', x::text FROM t WHERE y = ? -- why?").sql
    "SELECT '?', x::text FROM t WHERE y = $1 -- why?"
    """
    names: list[str] = []
    positional = 0

    def placeholder(match: re.Match[str]) -> str:
        nonlocal positional
        name = match[1]
        if name is not None:
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"
        if match[0] == "?":
            positional += 1
            return f"${positional}"
        return match[0]

    text = _TOKENS.sub(placeholder, sql)
    if names and positional:
        raise ValueError("a statement mixes ? and :name placeholders")
    return Statement(text, tuple(names) if names else None)


@dataclass(frozen=True, slots=True)
class PgCursor:
    """What a statement reports, as aiosqlite's cursor does: the rows it changed."""

    rowcount: int


def _rowcount(status: str) -> int:
    """The row count at the end of a command tag such as 'INSERT 0 1' or 'UPDATE 3'."""
    count = status.rpartition(" ")[2]
    return int(count) if count.isdigit() else -1


class PgConnection:
    """One asyncpg connection, spoken to as the query modules speak to aiosqlite."""

    def __init__(self, connection: AsyncpgConnection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Parameters = ()) -> PgCursor:
        statement = translate(sql)
        status = await self._connection.execute(statement.sql, *statement.arguments(parameters))
        return PgCursor(_rowcount(status))

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[asyncpg.Record]:
        statement = translate(sql)
        return await self._connection.fetch(statement.sql, *statement.arguments(parameters))

    async def executemany(self, sql: str, parameters: Iterable[Parameters]) -> PgCursor:
        statement = translate(sql)
        rows = [statement.arguments(row) for row in parameters]
        if rows:
            await self._connection.executemany(statement.sql, rows)
        # asyncpg reports no count for a batch; no caller reads one.
        return PgCursor(-1)
