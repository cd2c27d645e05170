"""``/rules`` lists each option as one types it and, beside it, what it means in the
reader's words, as the lobby words it."""

from __future__ import annotations

from bot.cogs.rules import summary
from bot.i18n import EN, ZH_CN, ZH_TW

TIMERS = {"turn_timer": 20, "claim_timer": 10}


def line_of(text: str, name: str) -> str:
    (line,) = [line for line in text.splitlines() if line.startswith(f"`{name}`")]
    return line


def test_a_choice_is_given_as_typed_and_in_words() -> None:
    text = summary("sichuan", ZH_CN, TIMERS)
    assert line_of(text, "self_draw_bonus") == "`self_draw_bonus` = `add_base` · 自摸：加底"
    assert line_of(text, "kong_bloom_payer").endswith("点杠花：当点炮（点杠者付）")
    assert line_of(text, "turn_timer") == "`turn_timer` = `20` · 出牌时限：20 秒"
    # A number that needs no words is not said twice.
    assert line_of(text, "base_stake") == "`base_stake` = `1` · 底分"


def test_a_list_is_given_in_words_not_as_a_json_array_of_ids() -> None:
    for locale, first in ((ZH_CN, "天胡、地胡"), (ZH_TW, "天胡、地胡"), (EN, "Heavenly Hand, ")):
        line = line_of(summary("guangdong", locale, TIMERS), "big_hu_kinds")
        assert first in line and "[" not in line and "heavenly_hand" not in line


def test_the_answer_fits_one_message() -> None:
    for variant in ("mcr", "guangdong", "sichuan"):
        for locale in (ZH_CN, ZH_TW, EN):
            assert len(summary(variant, locale, TIMERS)) <= 2000
