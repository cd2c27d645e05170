"""The lobby in words: where one option ends and the next begins, and an AI seat's level
said once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.i18n import EN, LOCALES, ZH_CN, ZH_TW, t
from bot.tables import lobby
from bot.variants import ruleset
from data.models import Seat, Table, TableStatus, Variant


def a_table(variant: str, seats: tuple[Seat, ...] = ()) -> Table:
    """A lobby of ``variant`` with its default rules and the timers."""
    options = {**ruleset(variant).parse_options({}), "turn_timer": 20, "claim_timer": 10}
    return Table(
        id=7,
        guild_id=1,
        channel_id=None,
        lobby_message_id=None,
        creator_id=10,
        variant=Variant(variant),
        options=options,
        rounds=4,
        status=TableStatus.LOBBY,
        price=None,
        card_payer=None,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        started_at=None,
        finished_at=None,
        seats=seats,
    )


@pytest.mark.parametrize(
    ("locale", "end_of_list"),
    [
        (ZH_CN, "十三幺；出牌时限"),
        (ZH_TW, "十三幺；出牌時限"),
        (EN, "Thirteen Orphans; Time to discard"),
    ],
)
def test_a_list_option_ends_where_the_next_option_begins(locale: str, end_of_list: str) -> None:
    # 广东 lists every rule, its big-hu kinds among them: the options are set apart more
    # strongly than the kinds, so the list visibly ends before the timers.
    text = lobby.options_text(a_table("guangdong"), locale)
    assert end_of_list in text
    inner, outer = t("list.separator", locale), t("lobby.option_separator", locale)
    assert inner != outer and inner.strip() not in outer


@pytest.mark.parametrize(
    ("locale", "seat"),
    [(ZH_CN, "2. 电脑1（普通）"), (ZH_TW, "2. 電腦1（普通）"), (EN, "2. AI 1 (normal)")],
)
def test_an_ai_seat_says_ai_once(locale: str, seat: str) -> None:
    table = a_table("mcr", (Seat(0, "Host", 10), Seat(1, "电脑1", ai_level=None)))
    lines = lobby.seat_lines(table, locale)
    assert lines[1] == seat


def test_every_language_sets_options_apart() -> None:
    assert all(t("lobby.option_separator", locale).strip() for locale in LOCALES)
