import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import (
    EN,
    LOCALES,
    ZH_CN,
    ZH_TW,
    MissingTextError,
    catalog,
    has,
    placeholders,
    resolve_locale,
    t,
)
from bot.i18n.terms import ai_number, fan_name, player_name, player_names, tile_label
from bot.i18n.translator import CatalogTranslator, text
from bot.pictures import labels
from engine.rules.guangdong.bighu import KINDS
from engine.rules.mcr.fans import ALL_FANS
from engine.rules.sichuan.patterns import PATTERNS, TITLES
from engine.tiles import parse_tile
from tests.bot.hanzi import SIMPLIFIED_ONLY, TRADITIONAL_ONLY

BOT = Path(__file__).resolve().parents[2] / "bot"
# Discord's rule for command and option names (lower case where a script has case).
NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_key_exists_in_every_locale() -> None:
    keys = [set(catalog(locale)) for locale in LOCALES]
    assert keys[0] == keys[1] == keys[2]


@pytest.mark.parametrize("key", sorted(catalog(EN)))
def test_placeholders_match_across_locales(key: str) -> None:
    fields = {locale: placeholders(catalog(locale)[key]) for locale in LOCALES}
    assert fields[ZH_CN] == fields[ZH_TW] == fields[EN], key


def test_every_key_the_code_names_exists() -> None:
    namespaces = {key.split(".")[0] for key in catalog(EN)}
    used: set[str] = set()
    for path in BOT.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for literal in re.findall(r'"([a-z][a-z0-9_]*(?:\.[a-z0-9_\-]+)+)"', source):
            if literal.split(".")[0] in namespaces and not literal.endswith(".png"):
                used.add(literal)
    assert len(used) > 100
    missing = sorted(key for key in used if not has(key))
    assert not missing


@pytest.mark.parametrize(
    ("discord_locale", "override", "expected"),
    [
        ("zh-CN", None, ZH_CN),
        ("zh-TW", None, ZH_TW),
        (discord.Locale.taiwan_chinese, None, ZH_TW),
        ("en-US", None, EN),
        ("fr", None, EN),
        (None, None, EN),
        ("en-GB", ZH_TW, ZH_TW),
        ("zh-CN", EN, EN),
        ("zh-CN", "klingon", ZH_CN),
    ],
)
def test_locale_resolution(discord_locale: object, override: str | None, expected: str) -> None:
    assert resolve_locale(discord_locale, override) == expected


@pytest.mark.parametrize(
    ("tile", "locale", "label"),
    [
        ("5m", ZH_CN, "5万"),
        ("5m", ZH_TW, "5萬"),
        ("9s", ZH_CN, "9条"),
        ("1z", ZH_CN, "东"),
        ("1z", ZH_TW, "東"),
        ("6z", ZH_TW, "發"),
        ("3p", EN, "3 Dots"),
        ("7z", EN, "White"),
    ],
)
def test_tile_labels_as_players_say_them(tile: str, locale: str, label: str) -> None:
    assert tile_label(parse_tile(tile), locale) == label


def test_mahjong_terms_read_as_players_say_them() -> None:
    assert t("reason.kong_concealed", ZH_CN) == "暗杠"
    assert t("reason.kong_concealed", ZH_TW) == "暗槓"
    assert t("reason.win_discard", ZH_CN) == "点炮"
    assert t("reason.win_discard", ZH_TW) == "放槍"
    assert t("fan.sichuan.kong_bloom", ZH_CN) == "杠上花"
    assert t("option.mcr.min_fan", ZH_CN) == "起胡番数"
    assert t("fan.waits", ZH_TW, tiles="").startswith("聽牌")
    assert t("controls.claim.pong", EN) == "Pung"
    assert t("reason.win_discard", EN) == "deal-in"
    assert t("reason.win_self_draw", EN) == "self-draw"


def test_english_says_pung_never_pong() -> None:
    said = {key: text for key, text in catalog(EN).items() if re.search(r"\bpong", text, re.I)}
    assert not said


@pytest.mark.parametrize("locale", [ZH_CN, ZH_TW])
def test_a_win_is_hu_except_in_the_official_mcr_fan_names(locale: str) -> None:
    """简体 and 繁體 players write 胡 for a win; MCR's fans keep the names of 《中国麻将竞赛
    规则》 (碰碰和, 平和, 无番和, 天和, 和绝张 …), also where a text names them."""
    texts = catalog(locale)
    names = sorted(
        {text for key, text in texts.items() if key.startswith("fan.mcr.")}, key=len, reverse=True
    )
    assert any("和" in name for name in names)
    other = {}
    for key, written in texts.items():
        if key.startswith("fan.mcr."):
            continue
        bare = written
        for name in names:
            bare = bare.replace(name, "")
        if "和" in bare:
            other[key] = written
    assert not other


#: The languages' own names, written in their own script wherever they are offered.
ENDONYMS = frozenset({"choice.language.en", "choice.language.zh-CN", "choice.language.zh-TW"})


def test_the_character_table_is_sound() -> None:
    assert not SIMPLIFIED_ONLY & TRADITIONAL_ONLY
    assert {"万", "发", "杠", "点", "听", "条", "东"} <= SIMPLIFIED_ONLY
    assert {"萬", "發", "槓", "點", "聽", "條", "東"} <= TRADITIONAL_ONLY


@pytest.mark.parametrize(
    ("locale", "foreign"), [(ZH_TW, SIMPLIFIED_ONLY), (ZH_CN, TRADITIONAL_ONLY)]
)
def test_each_chinese_catalog_keeps_to_its_own_script(locale: str, foreign: frozenset[str]) -> None:
    wrong = {
        key: "".join(sorted(set(text) & foreign))
        for key, text in catalog(locale).items()
        if key not in ENDONYMS and set(text) & foreign
    }
    assert not wrong


# What a Chinese text may write in Latin letters: what the player types or reads as it is.
NOTATION = re.compile(
    r"`[^`]*`"  # option names and values in backticks
    r"|\{\w*\}"  # placeholders
    r"|/\S+"  # slash commands
    r"|\b[a-z_]+=\S+"  # name=value, as /table options takes them
    r"|[\[{]?(?:[0-9]+[mpsz])+[\]}]?"  # tile notation: 5m, 123m456p, [555p]
)
PROPER_NAMES = ("Discord", "SHA-256")


def latin_words(text: str) -> list[str]:
    for name in PROPER_NAMES:
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]+", NOTATION.sub(" ", text))


def test_notation_is_not_taken_for_english() -> None:
    kept = "例如 123m456p789s11z[555p] `max_fan` /fan {name} max_fan=5，Discord、SHA-256"
    assert latin_words(kept) == []
    assert latin_words("预设：party 派对") == ["party"]
    assert latin_words("算不了：unknown character 'x'") == ["unknown", "character", "x"]


@pytest.mark.parametrize("locale", [ZH_CN, ZH_TW])
def test_no_english_words_in_the_chinese_catalogs(locale: str) -> None:
    found = {
        key: latin_words(text)
        for key, text in catalog(locale).items()
        if key not in ENDONYMS and latin_words(text)
    }
    assert not found


def test_catalog_fan_names_agree_with_the_engine() -> None:
    for fan in ALL_FANS:
        line = {"id": fan.id, "zh": fan.zh, "en": fan.en}
        assert fan_name("mcr", line, ZH_CN) == fan.zh
        assert fan_name("mcr", line, EN) == fan.en
        assert catalog(ZH_TW)[f"fan.mcr.{fan.id}"]
    for pattern in PATTERNS:
        line = {"id": pattern.id, "zh": pattern.zh, "en": pattern.en}
        assert fan_name("sichuan", line, ZH_CN) == pattern.zh
        assert fan_name("sichuan", line, EN) == pattern.en
    for kind in KINDS:
        line = {"id": kind.id, "zh": kind.zh, "en": kind.en}
        assert fan_name("guangdong", line, ZH_CN) == kind.zh
        assert fan_name("guangdong", line, EN) == kind.en
    for title in TITLES:
        assert t(f"title.sichuan.{title.id}", ZH_CN) == title.zh


def test_unknown_fan_keeps_the_engines_name() -> None:
    line = {"id": "brand_new", "zh": "新番", "en": "New Fan"}
    assert fan_name("mcr", line, ZH_TW) == "新番"
    assert fan_name("mcr", line, EN) == "New Fan"


def test_command_names_are_valid_discord_names() -> None:
    for locale in LOCALES:
        for key, value in catalog(locale).items():
            if key.startswith(("cmd.", "opt.")) and key.endswith(".name"):
                assert NAME.match(value) and value == value.lower(), (locale, key, value)
            if key.startswith(("cmd.", "opt.")) and key.endswith(".description"):
                assert 1 <= len(value) <= 100, (locale, key)
            if key.startswith("choice."):
                assert 1 <= len(value) <= 100, (locale, key)


async def test_translator_answers_chinese_locales_from_the_catalog() -> None:
    translator = CatalogTranslator()
    name = text("cmd.table.create.name")
    # The translator reads only the string's key: the context names no real command.
    context = app_commands.TranslationContext(  # type: ignore[call-overload]
        app_commands.TranslationContextLocation.command_name, None
    )
    assert name.message == "create"
    assert await translator.translate(name, discord.Locale.chinese, context) == "开桌"
    assert await translator.translate(name, discord.Locale.taiwan_chinese, context) == "開桌"
    assert await translator.translate(name, discord.Locale.french, context) is None
    plain = app_commands.locale_str("no key")
    assert await translator.translate(plain, discord.Locale.chinese, context) is None


def test_plural_texts_have_both_forms_everywhere() -> None:
    keys = set(catalog(EN))
    bases = {key.rsplit(".", 1)[0] for key in keys if key.endswith((".one", ".other"))}
    assert bases
    for base in bases:
        assert {f"{base}.one", f"{base}.other"} <= keys, base
        assert base not in keys, base
        for locale in LOCALES:
            texts = catalog(locale)
            assert placeholders(texts[f"{base}.one"]) == placeholders(texts[f"{base}.other"])
            if locale != EN:
                # Chinese has no plural: both forms say the same.
                assert texts[f"{base}.one"] == texts[f"{base}.other"], (locale, base)


@pytest.mark.parametrize(
    ("key", "values", "one", "other"),
    [
        ("lobby.title", {"variant": "MCR", "table": 7}, "**MCR · 1 hand**", "**MCR · 4 hands**"),
        ("cards.balance", {}, "**1** room card.", "**4** room cards."),
        ("table.disbanded", {}, "1 room card refunded", "4 room cards refunded"),
        ("error.cooldown", {}, "in 1 second.", "in 4 seconds."),
        ("lobby.too_many_mine", {}, "have 1 open table waiting", "have 4 open tables waiting"),
    ],
)
def test_english_counts_agree_with_their_nouns(
    key: str, values: dict[str, object], one: str, other: str
) -> None:
    assert one in t(key, EN, count=1, **values)
    assert other in t(key, EN, count=4, **values)


def test_a_plural_text_needs_its_count() -> None:
    with pytest.raises(MissingTextError):
        t("cards.balance", EN)
    with pytest.raises(TypeError):
        t("cards.balance", EN, count="3")
    assert t("admin.granted", EN, count=-1, user="@a", delta="-1", balance=2) == (
        "@a: -1 room card, now 2."
    )


@pytest.mark.parametrize("stored", ["电脑3", "電腦3", "AI 3"])
def test_ai_names_read_in_every_language(stored: str) -> None:
    assert ai_number(stored) == 3
    assert player_name(stored, True, ZH_CN) == "电脑3"
    assert player_name(stored, True, ZH_TW) == "電腦3"
    assert player_name(stored, True, EN) == "AI 3"
    # A person may be called anything, AI names included.
    assert player_name(stored, False, ZH_TW) == stored


def test_names_the_bot_did_not_give_stay_as_they_are() -> None:
    assert ai_number("Robot") is None
    assert player_name("Robot", True, ZH_CN) == "Robot"
    assert player_names(("AI 1", "小明"), (True,), ZH_TW) == ("電腦1", "小明")


def test_pictures_name_tiles_as_the_reader_says_them() -> None:
    """The table picture's caption ("AI 3 discards 1 Character") names tiles as the
    messages do: singular for one, winds in words, each language its own."""
    english = labels(EN)
    assert english.tile_text(0) == "1 Character" and english.tile_text(27) == "East"
    assert labels(ZH_TW).tile_text(0) == "1萬"
    assert labels(ZH_CN).tile_text(31) == tile_label(31, ZH_CN)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_provisional_rating_and_its_move_share_one_bracket(locale: str) -> None:
    """1620（定级中，+120）, not 1620（定级中）（+120）."""
    values = {"place": 1, "name": "Sam", "score": "+8", "rating": 1620, "change": "+120"}
    line = t("table.standing_rated_provisional", locale, **values)
    assert "1620" in line and "+120" in line
    assert line.count("（") + line.count("(") == 1
