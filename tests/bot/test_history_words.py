"""/history names a win the way its rule set's players do."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.cogs.stats import history_line
from data.models import RoundSummary, Variant


def summary(variant: Variant, how: str) -> RoundSummary:
    return RoundSummary(
        round_id=1,
        table_id=1,
        guild_id=1,
        variant=variant,
        hand_number=1,
        finished_at=datetime(2026, 1, 1, tzinfo=UTC),
        chair=0,
        net=12,
        won=True,
        how=how,
        hand_total=3,
        self_draw=True,
        dealt_in=0,
    )


def test_a_kong_bloom_is_named_in_each_rule_sets_words() -> None:
    assert "杠上花" in history_line(summary(Variant.SICHUAN, "kong_bloom"), "zh-CN")
    assert "杠上开花" in history_line(summary(Variant.GUANGDONG, "kong_bloom"), "zh-CN")
