"""Settings read from the environment (and a ``.env`` file beside the project), once."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from dotenv import dotenv_values

from bot.pacing import Pacing
from bot.shards import ShardRangeError, check_shards, parse_shards
from bot.variants import MAX_TIMER
from data.backend import is_postgres_url
from data.postgres_problems import shown_url, url_problem
from renderer import fonts

TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy the token.
  3. Put it in a file named .env here:   DISCORD_TOKEN=your-token
     (copy .env.example to .env to see every setting).
  4. Invite the bot with the URL printed in README.md ("Invite the bot").

To see the whole product without a token, run the offline demo instead:
  make demo
"""


#: More picture processes than this would only take memory: a process draws about 500
#: pictures a second.
MAX_PICTURE_PROCESSES = 16
#: Least seconds between two edits of a table message, by default (the least: Discord
#: allows a channel's messages about an edit a second) and at most (past a minute the
#: table's thread would no longer follow the hand).
TABLE_REFRESH = Pacing().table_edit_interval
MAX_TABLE_REFRESH = 60.0
#: The most shards a bot may be split into here: Discord asks for one per 1,000 servers
#: or so, and the largest bots run a few thousand. Far more only costs memory (every
#: shard id is held at start) before Discord refuses them.
MAX_SHARD_COUNT = 10_000
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: The exit status of a process that will not work until its operator changes something:
#: a setting, the token, the database. The cluster launcher does not start it again, and
#: neither does systemd with ``RestartPreventExitStatus=2`` (docs/scaling.md). argparse
#: exits with it for a malformed command line, which is the same kind of mistake.
MUST_CHANGE = 2
#: The exit status of a process that may work when started again later: Discord or the
#: database could not be reached, or a cluster's shards were taken over. An uncaught
#: error exits with it too.
TRY_AGAIN = 1


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database: Path
    dev_guild_id: int | None
    log_level: str
    turn_timer: int
    claim_timer: int
    #: A PostgreSQL server's database, which several bot processes can share; when None the
    #: store is the SQLite file at ``database``.
    database_url: str | None = None
    #: The shards this process runs (``SHARDS``, e.g. ``0-3``) out of ``shard_count``
    #: (``SHARD_COUNT``); None for both: every shard Discord asks for, in this process.
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    #: Processes that draw the pictures (``PICTURE_PROCESSES``); 0 draws them in threads
    #: of this process, where they compete with the event loop (``bot.pictures``).
    picture_processes: int = 0
    #: Least seconds between two edits of a table message (``TABLE_REFRESH_SECONDS``): the
    #: moves in between show together at the next edit, for a picture drawn and uploaded
    #: once instead of for every move (docs/scaling.md).
    table_refresh: float = TABLE_REFRESH

    @property
    def fenced(self) -> bool:
        """Whether this process holds its shards under PostgreSQL locks, as a member of a
        cluster whose other processes may run the other shards (docs/scaling.md)."""
        return self.shard_ids is not None and self.database_url is not None

    @property
    def store_database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(TOKEN_HELP)
        return cls(
            token=token,
            database=Path(env.get("DATABASE_PATH", "mahjong.sqlite3")),
            dev_guild_id=_optional_int(env, "DEV_GUILD_ID"),
            log_level=_log_level(env),
            turn_timer=_timer(env, "DEFAULT_TURN_TIMER", 20),
            claim_timer=_timer(env, "DEFAULT_CLAIM_TIMER", 10),
            database_url=_database_url(env),
            picture_processes=_count(env, "PICTURE_PROCESSES", 1),
            table_refresh=_table_refresh(env),
        ).with_shards(env.get("SHARDS", ""), env.get("SHARD_COUNT", ""))

    def with_shards(self, shards: str, shard_count: str) -> Settings:
        """These settings running ``shards`` (``0-3``) of ``shard_count`` shards; both
        empty: every shard, in this process. A process that runs some of the shards
        shares the tables with other processes, which needs PostgreSQL."""
        shards, shard_count = shards.strip(), shard_count.strip()
        if not shards and not shard_count:
            return self
        count = whole_number(shard_count)
        if count is None:
            raise SettingsError(
                "SHARD_COUNT (--shard-count) must be set, a whole number, with SHARDS (--shards)"
            )
        if count > MAX_SHARD_COUNT:
            raise SettingsError(
                f"SHARD_COUNT (--shard-count) must be from 1 to {MAX_SHARD_COUNT:,}, not"
                f" {shard_count}: Discord recommends about one shard per 1,000 servers"
            )
        try:
            ids = parse_shards(shards, count) if shards else tuple(range(count))
            check_shards(ids, count)
        except ShardRangeError as exc:
            raise SettingsError(f"SHARDS: {exc}") from None
        if len(ids) < count and self.database_url is None:
            raise SettingsError(
                f"this process would run shards {shards} of {count}, leaving the others to"
                " other processes, and they can only share the tables in PostgreSQL: set"
                " DATABASE_URL=postgresql://… (docs/scaling.md), or run every shard here"
                " (leave SHARDS empty)"
            )
        return replace(self, shard_ids=ids, shard_count=count)


def load_dotenv(path: Path, env: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """Fill unset variables from a ``.env`` file (quotes, comments and ``export`` as
    python-dotenv reads them); real environment variables win."""
    if not path.is_file():
        return
    for key, value in dotenv_values(path, encoding="utf-8").items():
        if value is not None:
            env.setdefault(key, value)


def check_font() -> None:
    """Refuse to start without a font the pictures can use (``MAHJONG_FONT``, else an
    installed CJK font): without one the bot would look online while every picture
    fails. The pictures read the font from the process's environment, so this does."""
    try:
        fonts.font_source()
    except fonts.FontNotFoundError as exc:
        raise SettingsError(str(exc)) from None


def whole_number(value: str) -> int | None:
    """``value`` as a whole number, if it is written in ASCII digits (``int`` would take
    other scripts' digits, and ``isdigit`` passes ``²``, which ``int`` refuses)."""
    return int(value) if value.isascii() and value.isdigit() else None


def _log_level(env: dict[str, str]) -> str:
    value = env.get("LOG_LEVEL", "").strip()
    level = value.upper() or "INFO"
    if level not in LOG_LEVELS:
        names = f"{', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}"
        raise SettingsError(f"LOG_LEVEL must be {names}, not {value!r}")
    return level


def _timer(env: dict[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    seconds = whole_number(value)
    # The same cap as a table's own timers (/table create, /admin config).
    if seconds is None or seconds > MAX_TIMER:
        raise SettingsError(
            f"{name} must be a whole number of seconds from 0 to {MAX_TIMER:,}"
            f" (0 = no timer), not {value!r}"
        )
    return seconds


def _count(env: dict[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    count = whole_number(value)
    if count is None or count > MAX_PICTURE_PROCESSES:
        raise SettingsError(
            f"{name} must be a whole number from 0 to {MAX_PICTURE_PROCESSES}, not {value!r}"
        )
    return count


def _table_refresh(env: dict[str, str]) -> float:
    value = env.get("TABLE_REFRESH_SECONDS", "").strip()
    if not value:
        return TABLE_REFRESH
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not TABLE_REFRESH <= seconds <= MAX_TABLE_REFRESH:
        raise SettingsError(
            f"TABLE_REFRESH_SECONDS must be a number of seconds from {TABLE_REFRESH:g} to"
            f" {MAX_TABLE_REFRESH:g}, not {value!r}"
        )
    return seconds


def _optional_int(env: dict[str, str], name: str) -> int | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    server_id = whole_number(value)
    if server_id is None:
        raise SettingsError(f"{name} must be a Discord server id (digits only), not {value!r}")
    return server_id


def _database_url(env: dict[str, str]) -> str | None:
    value = env.get("DATABASE_URL", "").strip()
    if not value:
        return None
    if not is_postgres_url(value):
        raise SettingsError(
            "DATABASE_URL must be a postgresql:// URL (postgresql://user:password@host/database);"
            " leave it empty to keep the SQLite file of DATABASE_PATH"
        )
    problem = url_problem(value)
    if problem is not None:
        raise SettingsError(f"DATABASE_URL {shown_url(value)} {problem[0]}: {problem[1]}")
    return value
