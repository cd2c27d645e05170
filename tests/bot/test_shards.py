"""Shard ranges: parsing them, splitting the shards evenly, and the settings that use them."""

from __future__ import annotations

import pytest

from bot.__main__ import parse_arguments
from bot.client import budget_share
from bot.settings import Settings, SettingsError
from bot.shards import ShardRangeError, format_shards, parse_shards, shard_of, split_shards

URL = "postgresql://bot@db/mahjong"


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("0-3", (0, 1, 2, 3)),
        ("5", (5,)),
        ("0,2,5-6", (0, 2, 5, 6)),
        (" 3-4 , 1 ", (1, 3, 4)),
        ("1-2,2-3", (1, 2, 3)),
    ],
)
def test_shard_lists_are_read(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shards(text) == ids
    assert parse_shards(format_shards(ids)) == ids


@pytest.mark.parametrize("text", ["", "a", "1-", "-2", "3-1", "1..2", "1;2"])
def test_malformed_shard_lists_are_refused(text: str) -> None:
    with pytest.raises(ShardRangeError):
        parse_shards(text)


def test_shards_must_exist() -> None:
    with pytest.raises(ShardRangeError, match="shard 8 does not exist with 8"):
        parse_shards("4-8", 8)


@pytest.mark.parametrize(
    ("count", "processes"), [(8, 1), (8, 2), (8, 3), (7, 7), (10, 4), (1, 1), (64, 5)]
)
def test_splitting_covers_every_shard_once_in_even_ranges(count: int, processes: int) -> None:
    ranges = split_shards(count, processes)
    assert len(ranges) == processes
    assert [shard for part in ranges for shard in part] == list(range(count))
    sizes = [len(part) for part in ranges]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert all(part == tuple(range(part[0], part[-1] + 1)) for part in ranges)


def test_more_processes_than_shards_is_refused() -> None:
    with pytest.raises(ShardRangeError, match="each process needs a shard"):
        split_shards(2, 3)


def test_the_sharding_formula() -> None:
    assert shard_of(1 << 22, 2) == 1 and shard_of(2 << 22, 2) == 0 and shard_of(5, 4) == 0


def env(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": "t", **values}


def test_settings_read_a_shard_range() -> None:
    settings = Settings.from_env(env(SHARDS="0-3", SHARD_COUNT="8", DATABASE_URL=URL))
    assert settings.shard_ids == (0, 1, 2, 3) and settings.shard_count == 8
    assert settings.fenced and budget_share(settings) == 0.5


def test_no_shards_is_one_process_for_all() -> None:
    settings = Settings.from_env(env())
    assert settings.shard_ids is None and not settings.fenced and budget_share(settings) == 1


def test_a_count_alone_means_every_shard() -> None:
    settings = Settings.from_env(env(SHARD_COUNT="4"))
    assert settings.shard_ids == (0, 1, 2, 3) and not settings.fenced


def test_part_of_the_shards_needs_postgresql() -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL=postgresql"):
        Settings.from_env(env(SHARDS="0-3", SHARD_COUNT="8"))


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"SHARDS": "0-3"}, "SHARD_COUNT"),
        ({"SHARDS": "0-3", "SHARD_COUNT": "x"}, "SHARD_COUNT"),
        ({"SHARDS": "2-9", "SHARD_COUNT": "8"}, "shard 8 does not exist"),
        ({"SHARDS": "0-", "SHARD_COUNT": "8"}, "ranges such as"),
        ({"SHARD_COUNT": "0"}, "1 or more"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(values: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env(DATABASE_URL=URL, **values))


def test_the_command_line_takes_shards() -> None:
    arguments = parse_arguments(["--shards", "0-3", "--shard-count", "8"])
    assert (arguments.shards, arguments.shard_count) == ("0-3", "8")
