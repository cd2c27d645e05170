"""The requests benchmark: every way of sending edits the fake's message, and the writes
it counts are the writes made."""

import time

import pytest

from benchmarks import requests


def test_every_way_of_sending_is_measured_with_both_bodies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert requests.main(["--requests", "2", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line[:24].strip(): line[24:] for line in lines[1:]}
    assert set(rows) == {
        "discord.py Message.edit",
        "the bot's Message.edit",
        "discord.py HTTPClient",
        "HTTPClient, body built",
        "aiohttp alone",
        "aiohttp, body built",
        "one write on a stream",
        "nine writes on a stream",
    }
    assert rows["one write on a stream"].split().count("1") == 2
    assert rows["nine writes on a stream"].split().count("9") == 2
    for row in rows.values():
        assert row.count(" ms, ") == 2


def test_requests_can_be_priced_after_a_pause(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    assert requests.main(["--requests", "2", "--rounds", "1", "--pause", "0.05"]) == 0
    # Two requests of eight ways with two bodies, each followed by its pause.
    assert time.monotonic() - started >= 2 * 8 * 2 * 0.05
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 9
    assert all(line.count(" ms, ") == 2 for line in lines[1:])
