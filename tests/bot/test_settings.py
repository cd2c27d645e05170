import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.client import MahjongBot
from bot.pacing import Pacing
from bot.settings import MAX_SHARD_COUNT, MUST_CHANGE, Settings, SettingsError, load_dotenv
from bot.variants import MAX_TIMER
from data.sqlite import SqliteStore
from renderer import fonts
from tests.bot_process import run_bot

ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_explains_how_to_get_one() -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env({})
    assert "discord.com/developers" in str(err.value)
    assert "make demo" in str(err.value)


def test_settings_from_env() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "123", "DEFAULT_TURN_TIMER": "0"})
    assert s.token == "t"
    assert s.dev_guild_id == 123
    assert s.turn_timer == 0
    assert s.claim_timer == 10


def test_sqlite_is_the_store_unless_database_url_is_set() -> None:
    default = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert (default.database_url, default.store_database) == (None, Path("mahjong.sqlite3"))
    url = "postgresql://bot:pw@db.internal/mahjong"
    server = Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": f" {url} "})
    assert (server.database_url, server.store_database) == (url, url)


def test_database_url_must_be_postgresql() -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://db/mahjong"})


@pytest.mark.parametrize("name", ["DEV_GUILD_ID", "DEFAULT_TURN_TIMER", "DEFAULT_CLAIM_TIMER"])
def test_malformed_numbers_are_named(name: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "t", name: "abc"})


def test_dotenv_does_not_override_real_environment(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nA=from-file\nB='quoted'\n", encoding="utf-8")
    env = {"A": "real"}
    load_dotenv(env_file, env)
    assert env == {"A": "real", "B": "quoted"}


def test_dotenv_reads_quotes_comments_and_export(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        'DISCORD_TOKEN="abc.def" # the bot\'s token\n'
        "export LOG_LEVEL=DEBUG\n"
        "DATABASE_PATH='my db.sqlite3'\n",
        encoding="utf-8",
    )
    env: dict[str, str] = {}
    load_dotenv(env_file, env)
    assert env == {
        "DISCORD_TOKEN": "abc.def",
        "LOG_LEVEL": "DEBUG",
        "DATABASE_PATH": "my db.sqlite3",
    }


def test_every_setting_is_documented_in_env_example() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "bot" / "settings.py").read_text(encoding="utf-8")
    names = set(re.findall(r'env(?:\.get\(|, )"([A-Z][A-Z_]+)"', source))
    assert len(names) >= 6
    # The pictures' font is read where the pictures are drawn, from the same environment.
    names.add(fonts.ENV_VAR)
    for name in names:
        assert f"{name}=" in example, name


def test_run_without_token_exits_with_help(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr


def test_pictures_are_drawn_in_one_process_unless_told_otherwise() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).picture_processes == 1
    threads = Settings.from_env({"DISCORD_TOKEN": "t", "PICTURE_PROCESSES": "0"})
    assert threads.picture_processes == 0
    for bad in ("-1", "two", "99"):
        with pytest.raises(SettingsError, match="PICTURE_PROCESSES must be a whole number"):
            Settings.from_env({"DISCORD_TOKEN": "t", "PICTURE_PROCESSES": bad})


def test_table_messages_are_edited_at_most_once_a_second_unless_told_otherwise() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).table_refresh == 1.0
    slower = Settings.from_env({"DISCORD_TOKEN": "t", "TABLE_REFRESH_SECONDS": "2.5"})
    assert slower.table_refresh == 2.5
    for bad in ("0.5", "0", "-3", "soon", "nan", "inf", "61"):
        with pytest.raises(SettingsError, match="TABLE_REFRESH_SECONDS must be a number"):
            Settings.from_env({"DISCORD_TOKEN": "t", "TABLE_REFRESH_SECONDS": bad})


async def test_the_bot_paces_its_table_messages_by_the_setting(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "TABLE_REFRESH_SECONDS": "3"})
    store = await SqliteStore.open(tmp_path / "store.sqlite3")
    try:
        bot = MahjongBot(settings, store, sync_commands=False)
        assert bot.tables.pacing.table_edit_interval == 3.0
        # Everything else keeps its pace.
        assert replace(bot.tables.pacing, table_edit_interval=1.0) == Pacing()
    finally:
        await store.close()


def test_log_level_must_be_a_level_name() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t", "LOG_LEVEL": " debug "}).log_level == "DEBUG"
    with pytest.raises(SettingsError, match="LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR"):
        Settings.from_env({"DISCORD_TOKEN": "t", "LOG_LEVEL": "verbose"})


@pytest.mark.parametrize("name", ["DEFAULT_TURN_TIMER", "DEFAULT_CLAIM_TIMER"])
def test_default_timers_are_capped_as_a_tables_own(name: str) -> None:
    """The same cap as /table create and /admin config: a day."""
    day = Settings.from_env({"DISCORD_TOKEN": "t", name: str(MAX_TIMER)})
    assert MAX_TIMER in (day.turn_timer, day.claim_timer)
    for bad in (str(MAX_TIMER + 1), "99999999999999999999", "²"):
        with pytest.raises(SettingsError, match=f"{name} must be a whole number of seconds"):
            Settings.from_env({"DISCORD_TOKEN": "t", name: bad})


@pytest.mark.parametrize("name", ["DEV_GUILD_ID", "PICTURE_PROCESSES"])
def test_digits_of_other_scripts_are_refused_with_the_settings_name(name: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({"DISCORD_TOKEN": "t", name: "²"})


def test_the_shard_count_is_bounded() -> None:
    env = {"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://bot@db/mahjong"}
    most = Settings.from_env(env | {"SHARDS": "0", "SHARD_COUNT": f"{MAX_SHARD_COUNT}"})
    assert most.shard_count == MAX_SHARD_COUNT
    for bad in (f"{MAX_SHARD_COUNT + 1}", "99999999"):
        with pytest.raises(SettingsError) as caught:
            Settings.from_env(env | {"SHARDS": "0", "SHARD_COUNT": bad})
        assert str(caught.value).startswith("SHARD_COUNT (--shard-count) must be from 1 to 10,000")


@pytest.mark.parametrize(
    ("url", "shown", "problem"),
    [
        (
            "postgresql://mahjong:k3J/9xQvT+z8mW2a@db.internal:5432/mahjong",
            "postgresql://mahjong:***@db.internal:5432/mahjong",
            "has a /, ? or # in its password as it is",
        ),
        (
            "postgresql://bot:Xy?Zq9sec@127.0.0.1:1/db",
            "postgresql://bot:***@127.0.0.1:1/db",
            "has a /, ? or # in its password as it is",
        ),
        (
            "postgresql://bot:ab#cd9sec@127.0.0.1/db",
            "postgresql://bot:***@127.0.0.1/db",
            "has a /, ? or # in its password as it is",
        ),
        (
            "postgresql://bot:s3cret@PW9sec@127.0.0.1:1/db",
            "postgresql://bot:***@127.0.0.1:1/db",
            "has an @ in its user name or password as it is",
        ),
        (
            "postgresql://bot:pw9sec@127.0.0.1:notaport/db",
            "postgresql://bot:***@127.0.0.1:notaport/db",
            "has the port 'notaport', not a number from 1 to 65535",
        ),
        (
            "postgresql://bot:pw9sec@127.0.0.1:99999/db",
            "postgresql://bot:***@127.0.0.1:99999/db",
            "has the port '99999', not a number from 1 to 65535",
        ),
    ],
)
def test_a_malformed_database_url_is_named_without_its_password(
    url: str, shown: str, problem: str
) -> None:
    """Passwords made with ``openssl rand -base64`` hold / and +: unencoded, the drivers
    take part of them for the host or port, and fail showing it."""
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    message = str(caught.value)
    assert message.startswith(f"DATABASE_URL {shown} {problem}: ")
    assert "9sec" not in message and "\n" not in message
    if "port" not in problem:
        assert "percent-encode" in message


def test_run_with_a_font_that_is_not_there_stops_at_once(tmp_path: Path) -> None:
    """Else the bot would look online while every picture it draws fails."""
    settings = {
        "DISCORD_TOKEN": "unused",
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        fonts.ENV_VAR: str(tmp_path / "nonexistent.ttf"),
    }
    done = run_bot(tmp_path, **settings)
    assert done.returncode == MUST_CHANGE
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"{fonts.ENV_VAR}={tmp_path / 'nonexistent.ttf'} is not a file;")
