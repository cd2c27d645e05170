"""PyMahjongGB 1.4.0, the spec's reference calculator, as a test oracle in our terms."""

from __future__ import annotations

import MahjongGB

from engine.rules.base import WinFacts
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.fans import BY_ID, OFFICIAL_FANS
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.samples import reference_arguments

_ID_BY_EN = {f.en: f.id for f in OFFICIAL_FANS}


def reference_fans(facts: WinFacts) -> dict[str, int] | None:
    """The reference's fans of a win as {id: count}; None when it says the hand does not win.

    Every fan's Chinese name and value are checked against our table on the way.
    """
    try:
        fans = MahjongGB.MahjongFanCalculator(**reference_arguments(facts))
    except TypeError as exc:
        if "ERROR_NOT_WIN" in str(exc):
            return None
        raise
    out = {}
    for value, count, zh, en in fans:
        fan = BY_ID[_ID_BY_EN[en]]
        assert (fan.zh, fan.value) == (zh, value), (fan, zh, value)
        out[fan.id] = count
    return out


def our_fans(facts: WinFacts, options: McrOptions | None = None) -> dict[str, int]:
    result = score_win(facts, options or McrOptions())
    assert result.total == sum(line.fan * line.count for line in result.fans)
    return {line.id: line.count for line in result.fans}
