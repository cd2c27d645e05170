"""The calculator command line: every line answered, in order, never a crash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.score import handle, handle_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("not json", "invalid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"variant": "riichi", "hand": "1m"}', "unknown variant"),
        ('{"hand": "1m"}', "missing field 'variant'"),
        ('{"variant": "mcr", "hand": "1m", "colour": 1}', "unknown field 'colour'"),
        ('{"variant": "mcr", "query": "best_discard", "hand": "1m"}', "unknown query"),
    ],
)
def test_malformed_lines_are_named(line: str, fragment: str) -> None:
    answer = handle_line(line)
    assert answer["ok"] is False
    assert fragment in answer["error"]


def test_handle_refuses_non_objects() -> None:
    assert handle(3)["ok"] is False


def test_process_answers_every_line_in_order() -> None:
    lines = [
        "garbage",
        '{"variant": "nope"}',
        "",
        '{"hand": "123m"}',
        '{"variant": "mcr", "hand": "1m", "x": 1}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(answers) == 4  # blank lines are skipped
    assert all(a["ok"] is False for a in answers)
    assert "invalid JSON" in answers[0]["error"]
    assert "unknown variant" in answers[1]["error"]
    assert "variant" in answers[2]["error"]
    assert "unknown field" in answers[3]["error"]


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({"variant": "mcr", "hand": "1111234567899m", "win_tile": "1m"}, "5 copies of 1m"),
        (
            {"variant": "mcr", "hand": "1112345678999m", "win_tile": "5m", "self_drawn": 1},
            "true or false",
        ),
        ({"variant": "mcr", "hand": "112345678999m", "win_tile": "5m"}, "13 tiles"),
        ({"variant": "mcr", "hand": "1112345678999x", "win_tile": "5m"}, "'x' at position 13"),
        (
            {"variant": "mcr", "hand": "1112345678m[124p]", "win_tile": "5m"},
            "not a chow, pung or kong",
        ),
        (
            {"variant": "mcr", "hand": "1112345678999m", "win_tile": "5m", "seat_wind": "X"},
            "seat_wind",
        ),
        (
            {
                "variant": "mcr",
                "hand": "1112345678999m",
                "win_tile": "5m",
                "options": {"min_fan": -1},
            },
            "min_fan",
        ),
        (
            {
                "variant": "mcr",
                "hand": "1112345678999m",
                "win_tile": "5m",
                "options": {"colour": 1},
            },
            "unknown mcr option",
        ),
        ({"variant": "mcr", "hand": "1112345678999m"}, "win_tile"),
        (
            {"variant": "mcr", "hand": "1112345678999m", "query": "waits", "win_tile": "5m"},
            "no 'win_tile'",
        ),
        ({"variant": "mcr", "hand": "11123456789999m", "query": "waits"}, "13"),
        (
            {"variant": "guangdong", "hand": "1112345678999m", "win_tile": "5m", "wildcard": "1m"},
            "wildcard",
        ),
        ({"variant": "sichuan", "hand": "1112345678999m", "win_tile": "5z"}, "honor"),
        ({"variant": "mcr", "hand": "1113456789999m", "win_tile": "1p"}, "win"),
    ],
)
def test_bad_requests_name_the_problem(request_: dict, fragment: str) -> None:
    answer = handle(request_)
    assert answer["ok"] is False, answer
    assert fragment in answer["error"], answer["error"]


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
def test_every_variant_scores_and_answers_waits(variant: str) -> None:
    win = handle({"variant": variant, "hand": "1112345678999m", "win_tile": "5m"})
    assert win["ok"] is True and win["total"] >= 1
    waits = handle({"variant": variant, "hand": "1112345678999m", "query": "waits"})
    assert waits == {"ok": True, "shanten": 0, "waits": [f"{n}m" for n in range(1, 10)]}
