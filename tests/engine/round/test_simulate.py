"""``python -m engine.simulate`` adds up the rule set's figures of every hand
(``RuleSet.hand_statistics``) and prints them with its notes of the run
(``RuleSet.simulation_notes``), in text and in JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from engine.rules.play import Figure, HandState, WinHow
from engine.rules.registry import find_ruleset
from engine.simulate import main, simulate
from tests.engine.round.plain import PlainOptions, PlainRules

HANDS = 24


class Counting(PlainRules):
    """Reports three figures per hand and keeps what it reported."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, int, int]] = []

    def hand_statistics(self, state: HandState[PlainOptions]) -> Mapping[str, Figure]:
        wins = len(state.wins)
        self_drawn = sum(1 for w in state.wins if w.context.how is WinHow.SELF_DRAW)
        melds = sum(len(state.melds(s)) for s in range(4))
        self.seen.append((wins, self_drawn, melds))
        return {
            "won hands": Figure(1 if wins else 0, percent=True),
            "self-drawn share of wins": Figure(self_drawn, wins, percent=True),
            "melds per hand": Figure(melds),
            "never counted": Figure(0, 0),
        }

    def simulation_notes(self, options: PlainOptions, hands: int, seed: int) -> Mapping[str, float]:
        return {"hands asked for": hands}


def test_each_figure_is_its_amounts_over_its_out_ofs() -> None:
    rules = Counting()
    stats = simulate(rules, HANDS, 2, ["random"] * 4)
    assert len(rules.seen) == HANDS
    won = sum(1 for wins, _, _ in rules.seen if wins)
    wins = sum(wins for wins, _, _ in rules.seen)
    self_drawn = sum(s for _, s, _ in rules.seen)
    melds = sum(m for _, _, m in rules.seen)
    assert 0 < won < HANDS and wins > 0
    assert stats.to_json()["figures"] == {
        "won hands": round(won / HANDS, 4),
        "self-drawn share of wins": round(self_drawn / wins, 4),
        "melds per hand": round(melds / HANDS, 4),
        "never counted": None,
    }
    assert stats.to_json()["notes"] == {"hands asked for": HANDS}


def test_the_report_prints_the_figures_and_notes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Counting()
    monkeypatch.setattr("engine.simulate.find_ruleset", lambda variant: rules)
    assert main(["--variant", "sichuan", "--hands", "12", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    figures = simulate(Counting(), 12, 3, ["normal"] * 4).to_json()["figures"]
    assert f"  won hands: {figures['won hands']:.1%}\n" in text
    assert f"  melds per hand: {figures['melds per hand']}\n" in text
    assert "  never counted: -\n" in text
    assert "  hands asked for: 12\n" in text
    assert text.rstrip().endswith("checks: all passed")
    assert main(["--variant", "sichuan", "--hands", "12", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["figures"] == figures
    assert report["notes"] == {"hands asked for": 12}


@pytest.mark.parametrize(
    ("variant", "labels"),
    [
        ("sichuan", {"hands ending in 查叫", "winners per hand"}),
        ("guangdong", {"big-hu share of wins", "horse payout per hand"}),
        ("mcr", {"dice mode none", "dice mode peak", "dealt shanten, 巅峰时刻 hands"}),
    ],
)
def test_every_rule_set_reports_its_figures(variant: str, labels: set[str]) -> None:
    stats = simulate(find_ruleset(variant), 4, 1, ["normal"] * 4)
    assert labels <= set(stats.figures)
    assert stats.failures == []
