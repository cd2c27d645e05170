"""The examples of docs/round-scripts.md replay to the results they show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.replay import replay

DOC = Path(__file__).resolve().parents[3] / "docs" / "round-scripts.md"


def _examples() -> list[tuple[str, dict, dict]]:
    text = DOC.read_text(encoding="utf-8")
    examples = text.split("## Examples", 1)[1]
    out = []
    for section in re.split(r"^### ", examples, flags=re.MULTILINE)[1:]:
        name = section.split("\n", 1)[0].strip()
        blocks = re.findall(r"```json\n(.*?)\n```", section, flags=re.DOTALL)
        assert len(blocks) == 2, f"example {name} needs a script and a result"
        out.append((name, json.loads(blocks[0]), json.loads(blocks[1])))
    return out


@pytest.mark.parametrize(("name", "script", "expected"), _examples())
def test_documented_example_replays(name: str, script: dict, expected: dict) -> None:
    assert script["variant"] == name
    code, result = replay(script)
    assert code == 0
    result.pop("events")
    result.pop("final")
    assert result == expected
