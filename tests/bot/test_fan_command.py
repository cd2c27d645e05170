import re

import pytest

from bot.cogs.fan import answer_text, build_request, picture_view
from bot.i18n import EN, LOCALES, ZH_CN, ZH_TW, has
from engine.score import handle
from engine.tiles import NotationError, parse_hand
from renderer.hand import render_hand


def test_fourteen_tiles_win_on_the_last_written_tile() -> None:
    request, spec = build_request("guangdong", "11123456789999s", None, {"self_drawn": True})
    assert request["hand"] == "1112345678999s" and request["win_tile"] == "9s"
    assert spec is not None and len(spec.concealed) == 13
    answer = handle(request)
    assert answer["ok"]
    text = answer_text("guangdong", request, answer, ZH_CN)
    assert "清一色" in text and "大胡" in text


def test_thirteen_tiles_ask_for_the_waits() -> None:
    request, _ = build_request("guangdong", "1112345678999m", None, {"self_drawn": False})
    assert request == {"variant": "guangdong", "hand": "1112345678999m", "query": "waits"}
    answer = handle(request)
    text = answer_text("guangdong", request, answer, ZH_TW)
    assert "聽牌" in text and "9萬" in text


def test_sichuan_lines_and_capped_total() -> None:
    request, spec = build_request("sichuan", "11122233344455p", None, {"self_drawn": True})
    answer = handle(request)
    assert answer["ok"], answer
    text = answer_text("sichuan", request, answer, EN)
    assert "Full Flush: 2 fan" in text and "**3** fan" in text and "cap" not in text
    assert spec is not None
    png = render_hand(picture_view(request, spec, answer, EN))
    assert png.startswith(b"\x89PNG")
    # Seven pairs 2 + full flush 2 + a root 1 = 5, capped at 4: only then is the cap named.
    request, _ = build_request("sichuan", "11112233445566p", None, {"self_drawn": True})
    answer = handle(request)
    assert "**4** fan (capped; 5 before the cap)" in answer_text("sichuan", request, answer, EN)
    assert "封顶，原 5 番" in answer_text("sichuan", request, answer, ZH_CN)


def test_bad_notation_is_explained_in_the_players_words() -> None:
    request, spec = build_request("sichuan", "123x", None, {})
    answer = handle(request)
    assert spec is None and not answer["ok"]
    assert "Character 4 of the hand, “x”, is not a tile." in answer_text(
        "sichuan", request, answer, EN
    )
    assert answer_text("sichuan", request, answer, ZH_CN) == "算不了：手牌第 4 个字符“x”不是牌。"


@pytest.mark.parametrize(
    "written",
    ["123万456筒789条东东中中中", "一二三萬四五六筒七八九條東東中中中", "123m456p789s11z555z"],
)
def test_hands_written_in_chinese_score_as_the_notation(written: str) -> None:
    request, spec = build_request("mcr", written, None, {})
    assert request == build_request("mcr", "123m456p789s11z555z", None, {})[0]
    assert spec is not None
    answer = handle(request)
    assert answer["ok"], answer
    text = answer_text("mcr", request, answer, ZH_CN)
    assert "花龙" in text and "箭刻" in text


def test_a_chinese_winning_tile_and_wildcard() -> None:
    request, _ = build_request("mcr", "一二三万456筒789条东东中中", "中", {"wildcard": "5万"})
    answer = handle(request)
    assert answer["ok"], answer
    assert request["win_tile"] == "中"


# One bad input for each thing that can be wrong with /fan's arguments, the engine's
# English sentence for it, and what a Chinese reader is told instead.
PROBLEMS = [
    ("mcr", "123万x", None, {}, "第 5 个字符“x”不是牌"),
    ("mcr", "万123", None, {}, "第 1 个字符“万”前面没有数字"),
    ("mcr", "8字", None, {}, "没有这张牌"),
    ("mcr", "12东", None, {}, "没有写花色"),
    ("mcr", "123万4", None, {}, "最后的数字没有写花色"),
    ("mcr", "123m[124m]", None, {}, "吃、碰或杠"),
    ("mcr", "123m{555m}", None, {}, "暗杠"),
    ("mcr", "123m[555m", None, {}, "没有配对的括号"),
    ("mcr", "123m555m]", None, {}, "前面没有左括号"),
    ("mcr", "123m[5[55]m]", None, {}, "括号里不能再有括号"),
    ("mcr", "123m456p789s11z555z", "5m6m", {}, "胡牌张只写一张牌"),
    ("mcr", "123m456p789s11z555z", "[5m]", {}, "这里不能写吃碰杠"),
    ("mcr", "123m456p789s11z55z", "x", {}, "胡牌张第 1 个字符“x”不是牌"),
    ("mcr", "123m456p789s11z55z", None, {"wildcard": "9q"}, "宝牌第 2 个字符“q”不是牌"),
    ("mcr", "123万", None, {}, "一共 3 张牌"),
    ("mcr", "123m456p789s11z555z", "5m", {}, "一共 15 张牌"),
    ("mcr", "11111m2345678p11z", None, {}, "1万超过四张了"),
    ("sichuan", "123m456p789s11z555z", None, {}, "四川血战到底没有东这种牌"),
    ("guangdong", "123m456p789s55s[123m]", None, {}, "广东推倒胡不能吃"),
    ("guangdong", "123m456p789s11z555z", None, {"wildcard": "5m"}, "广东推倒胡不用宝牌"),
    ("mcr", "1357m2468p135799s", None, {}, "加上 9条，这手牌还是胡不了"),
]


@pytest.mark.parametrize(("variant", "hand", "win_tile", "flags", "said"), PROBLEMS)
def test_every_problem_is_told_in_the_players_language(
    variant: str, hand: str, win_tile: str | None, flags: dict[str, str], said: str
) -> None:
    request, _ = build_request(variant, hand, win_tile, flags)
    answer = handle(request)
    assert not answer["ok"]
    texts = {loc: answer_text(variant, request, answer, loc, (hand, win_tile)) for loc in LOCALES}
    assert said in texts[ZH_CN], texts[ZH_CN]
    english = answer["error"]
    for locale in (ZH_CN, ZH_TW):
        assert english not in texts[locale]
        # Latin letters only where the player wrote them.
        quoted = re.sub(r"[“「][^”」]*[”」]", "", texts[locale])
        assert not re.search(r"[A-Za-z]", quoted), texts[locale]
    assert texts[EN].startswith("Cannot score this hand. ")
    assert english not in texts[EN]


def test_every_notation_error_has_words() -> None:
    codes = set()
    for _, hand, win_tile, _, _ in PROBLEMS:
        for text in (hand, win_tile or "5m"):
            try:
                parse_hand(text)
            except NotationError as exc:
                codes.add(exc.code)
    assert len(codes) >= 10
    for code in codes:
        assert has(f"fan.notation.{code}"), code


@pytest.mark.parametrize(
    ("locale", "kinds", "total"),
    [
        (ZH_CN, ["清一色", "七对"], "**大胡** ×2"),
        (ZH_TW, ["清一色", "七對"], "**大胡** ×2"),
        (EN, ["Full Flush", "Seven Pairs"], "**Big hu** ×2"),
    ],
)
def test_a_guangdong_big_hu_lists_its_kinds_without_numbers(
    locale: str, kinds: list[str], total: str
) -> None:
    # guangdong.md §2.2: big hus never stack, so two kinds are still one 大胡, paid ×2;
    # "清一色 2番 / 七对 2番" would read as 4番. The settlement words it the same way.
    request, _ = build_request("guangdong", "1122335577889s", "9s", {"self_drawn": False})
    text = answer_text("guangdong", request, handle(request), locale)
    assert text.splitlines()[1:] == [*kinds, total]
    assert not any("番" in line or " fan" in line for line in text.splitlines()[1:])


def test_a_guangdong_small_hu_shows_no_factor() -> None:
    request, _ = build_request("guangdong", "123m456p789s11z22z", "2z", {"self_drawn": False})
    text = answer_text("guangdong", request, handle(request), ZH_CN)
    assert text.splitlines()[-1] == "小胡（鸡胡）" and "×" not in text
