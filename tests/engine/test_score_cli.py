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
