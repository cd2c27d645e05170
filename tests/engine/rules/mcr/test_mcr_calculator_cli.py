"""``python -m engine.score`` end to end for ``"variant": "mcr"``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]

LINES: list[dict[str, object]] = [
    # E1: 三色三同顺, 门前清, 平和, 老少副.
    {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "9m"},
    # E16 with its winds.
    {
        "variant": "mcr",
        "hand": "SSSWWW123m45p99s",
        "win_tile": "6p",
        "seat_wind": "W",
        "round_wind": "S",
    },
    # E20 below the minimum; then with min_fan 0; then with the table options of §5.
    {"variant": "mcr", "hand": "[123m][567p][345s]88pWW", "win_tile": "W"},
    {
        "variant": "mcr",
        "hand": "[123m][567p][345s]88pWW",
        "win_tile": "W",
        "options": {"min_fan": 0},
    },
    {
        "variant": "mcr",
        "hand": "[123m][567p][345s]88pWW",
        "win_tile": "W",
        "options": {"preset": "official", "horses": True, "wildcard": False, "base_points": 8},
    },
    # W2: a wildcard.
    {"variant": "mcr", "hand": "12456789m9sEE55p", "win_tile": "5p", "wildcard": "9s"},
    # Waits.
    {"variant": "mcr", "hand": "1112345678999m", "query": "waits"},
    {"variant": "mcr", "hand": "19m19p19sESWNCFP", "query": "waits"},
    {"variant": "mcr", "hand": "1111m22p33p44s55s6s", "query": "waits"},
    # Errors.
    {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "5m"},
    {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "9m", "options": {"x": 1}},
    {
        "variant": "mcr",
        "hand": "123m123p123s78m55s",
        "win_tile": "9m",
        "options": {"min_fan": 100},
    },
    {"variant": "mcr", "hand": "123m123p123s78m55s5s", "win_tile": "9m"},
    {"variant": "mcr", "hand": "1111m123p123s78m5s", "win_tile": "1m"},
    {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "9m", "wildcard": 5},
    {"variant": "mcr", "hand": "123m123p123s78x55s", "win_tile": "9m"},
    {"variant": "mcr", "hand": "123m123p123s78m55s", "win_tile": "9m", "seat_wind": "X"},
]


def run(lines: list[dict[str, object]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input="\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    return [json.loads(x) for x in done.stdout.splitlines()]


def test_mcr_lines_end_to_end() -> None:
    answers = run(LINES)
    assert len(answers) == len(LINES)
    e1, e16, e20, e20_casual, e20_official, w2, gates, orphans, pairs, *errors = answers

    assert e1["total"] == 13 and e1["meets_minimum"] is True
    assert [f["id"] for f in e1["fans"]] == [
        "mixed_triple_chow",
        "concealed_hand",
        "all_chows",
        "two_terminal_chows",
    ]
    assert "substitution" not in e1
    assert (e16["total"], e16["fans"][0]["zh"]) == (8, "圈风刻")
    assert (e20["total"], e20["meets_minimum"]) == (1, False)
    assert (e20_casual["total"], e20_casual["meets_minimum"]) == (1, True)
    assert e20_official["ok"] is True
    assert (w2["total"], w2["substitution"]) == (19, {"8": "3m"})

    assert gates == {"ok": True, "shanten": 0, "waits": [f"{r}m" for r in range(1, 10)]}
    assert orphans["waits"] == ["1m", "9m", "1p", "9p", "1s", "9s", *(f"{r}z" for r in range(1, 8))]
    # Four of a kind stands as two of seven pairs: the single 6s is the only wait.
    assert pairs == {"ok": True, "shanten": 0, "waits": ["6s"]}

    assert all(answer["ok"] is False for answer in errors)
    not_winning, unknown, invalid, too_many, fifth, bad_wild, notation, wind = (
        str(answer["error"]) for answer in errors
    )
    assert "does not win" in not_winning
    assert "unknown mcr option 'x'" in unknown
    assert "invalid value 100" in invalid
    assert "15 tiles" in too_many
    assert "5 copies of 1m" in fifth
    assert "'wildcard'" in bad_wild
    assert "'x' at position 14" in notation
    assert "seat_wind" in wind
