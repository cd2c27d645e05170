"""The engine asks rule sets questions and never compares variant names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules.base import RuleError
from engine.rules.play import RuleSet
from engine.rules.registry import VARIANTS, find_ruleset
from engine.simulate import main as simulate_main

ENGINE = Path(__file__).resolve().parents[3] / "engine"


def test_no_variant_branches_outside_the_registry() -> None:
    # A comparison with a name, or a membership test in a literal list of names.
    pattern = re.compile(r"variant\s*(==|!=)|variant\s+(not\s+)?in\s*[(\[{\"']")
    offenders = [
        str(path.relative_to(ENGINE))
        for path in ENGINE.rglob("*.py")
        if path.name != "registry.py" and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_rule_sets_are_rule_sets(variant: str) -> None:
    try:
        rules = find_ruleset(variant)
    except RuleError as exc:
        assert "not available yet" in str(exc)
        return
    assert isinstance(rules, RuleSet)
    assert rules.variant == variant
    assert len(rules.tiles) in (108, 136)
    rules.parse_options({})


def test_unknown_variant() -> None:
    with pytest.raises(RuleError, match="unknown variant"):
        find_ruleset("riichi")


def test_simulate_command_reports_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_main(["--variant", "all", "--hands", "2", "--seed", "1", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(VARIANTS)
    import json

    for line, variant in zip(lines, VARIANTS, strict=True):
        report = json.loads(line)
        assert report["variant"] == variant
        assert "unavailable" in report or report["failures"] == []
