import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.client import MahjongBot
from bot.pacing import Pacing
from bot.settings import Settings, SettingsError, load_dotenv
from data.sqlite import SqliteStore
from renderer import fonts

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
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
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
