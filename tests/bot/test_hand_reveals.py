"""What a rule set shows everyone at a moment it decides: MCR's bets once all four are
in (mcr.md §4.1), the 火眼金睛 targets and 巅峰时刻 hands at the end of the hand
(§4.1 step 7, §4.5.1, §4.5.5), Guangdong's 连庄 (guangdong.md §5), every pong a
player barred themselves from by passing (guangdong.md §6), and 血战's 刮风 only for the
kongs that pay it (sichuan.md §4)."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES
from bot.runtime.hands import round_result
from bot.runtime.notes import Note, SeatNotes
from bot.runtime.snapshots import BoardState, HandFacts
from bot.tables.narration import Narrator
from bot.tables.prompts import note_texts, seat_texts, title
from bot.tables.settlement import settlement_view, summary
from engine.actions import Bet
from engine.ai.strategy import ShantenPlayer
from engine.events import ClaimOffered, Drew, Konged, Notice, Paid, Won
from engine.ledger import Payment
from engine.round import Round
from engine.tiles import parse_tile
from tests.engine.rules.guangdong.guangdong_scripts import play, script
from tests.engine.rules.guangdong.test_guangdong_rounds import E1, E2, E4, E5, E10
from tests.engine.rules.sichuan.sichuan_tables import Table as SichuanTable
from tests.engine.rules.sichuan.sichuan_tables import play as sichuan_play
from tests.engine.rules.sichuan.test_sichuan_round import E4 as SICHUAN_E4
from tests.engine.rules.sichuan.test_sichuan_round import E4_ACTIONS as SICHUAN_E4_ACTIONS
from tests.engine.rules.sichuan.test_sichuan_round import E5 as SICHUAN_E5
from tests.engine.rules.sichuan.test_sichuan_round import E5_ACTIONS as SICHUAN_E5_ACTIONS

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def _notices(hand: Round, name: str) -> list[Notice]:
    return [e for e in hand.events if isinstance(e, Notice) and e.name == name]


def _with_dice(mode: str, dice: tuple[int, int]) -> Round:
    """A party hand whose dealer rolls ``dice``, which start ``mode``."""
    for seed in range(5000):
        hand = Round.new("mcr", {"dice_modes": [mode]}, seed)
        if hand.dice == dice:
            return hand
    raise AssertionError(f"no seed rolls {dice}")


def _play_out(hand: Round) -> Round:
    player = ShantenPlayer("basic")
    while not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(
            player.choose(hand.view(seat), hand.legal_actions(seat), hand.default_action(seat))
        )
    return hand


@pytest.mark.parametrize("locale", LOCALES)
def test_the_bets_are_told_once_all_four_are_in(locale: str) -> None:
    hand = Round.new("mcr", {"dice_modes": []}, 3)
    for seat in range(4):
        hand.apply(
            Bet(seat, 4 if seat == 0 else 2 if seat == 1 else 1, (1, 3) if seat == 1 else ())
        )
    (bets,) = _notices(hand, "bets")
    line = Narrator("mcr", NAMES, locale).line(bets)
    assert "Ann ×4" in line and "Bob ×2" in line and "Cat ×1" in line
    assert "1" in line.split("Bob ×2", 1)[1] and "3" in line.split("Bob ×2", 1)[1]


def test_the_end_of_an_eagle_eye_hand_lists_who_watched_whom() -> None:
    hand = _play_out(_with_dice("peek", (2, 2)))
    (revealed,) = _notices(hand, "revealed")
    targets = revealed.data["peek"]
    watched = [f"{NAMES[s]} watched {NAMES[t]}" for s, t in enumerate(targets) if t is not None]
    assert watched
    text = summary(hand, NAMES, "en", "seed")
    assert all(w in text for w in watched)
    assert "Eagle Eye" in Narrator("mcr", NAMES, "en").line(revealed)
    assert "火眼金睛" in summary(hand, NAMES, "zh-CN", "seed")


@pytest.mark.parametrize(("locale", "mode"), [("en", "Peak Moment"), ("zh-TW", "巔峰時刻")])
def test_the_end_of_a_peak_hand_names_every_seats_template(locale: str, mode: str) -> None:
    hand = _play_out(_with_dice("peak", (6, 6)))
    (revealed,) = _notices(hand, "revealed")
    text = summary(hand, NAMES, locale, "seed")
    assert mode in text
    assert all(name in text.split(mode, 1)[1] for name in NAMES)
    assert len(revealed.data["peak_templates"]) == 4


def test_a_hand_without_such_a_mode_reveals_nothing_more() -> None:
    hand = _play_out(Round.new("mcr", {"dice_modes": []}, 11))
    text = summary(hand, NAMES, "en", "seed")
    assert "watched" not in text and "Peak Moment" not in text


@pytest.mark.parametrize(("locale", "words"), [("en", "dealer repeat 2"), ("zh-CN", "连庄 2")])
def test_a_guangdong_dealer_who_keeps_the_deal_shows_the_streak(locale: str, words: str) -> None:
    # The dealer of E10 keeps the deal twice: his third hand in a row.
    continued = Round.from_script({**E10, "horse_count": 4, "dealer_streak": 3, "actions": []})
    assert continued.view(None).facts.continued == 2
    facts = HandFacts(1, "guangdong", 3, 8, ("A", "B", "C", "D"), (0, 1, 2, 3), continued=2)
    assert title(facts, locale).endswith(words)
    fresh = HandFacts(1, "guangdong", 1, 8, ("A", "B", "C", "D"), (0, 1, 2, 3))
    assert "repeat" not in title(fresh, "en")


def test_every_pong_passed_before_a_draw_stays_named() -> None:
    hands = ["F13579m1357p135sW", "C2468m2468p246sE", "CCFF234m78m45p99s", "C5m3468p179sSWNN"]
    raw = script(
        hands,
        "0 discard W, 1 discard E, 2 discard 2s, 3 discard C, 2 pass, 0 discard F, 2 pass",
        draws="1m2s3s4s5s",
        options={"horses": False},
    )
    notes = SeatNotes()
    notes.absorb(play(raw).events)
    (text,) = note_texts(notes.of(2), NAMES, "en")
    assert "Red" in text and "Green" in text
    (pass_pong,) = notes.of(2)
    assert pass_pong.tiles == (parse_tile("C"), parse_tile("F"))


def test_a_withheld_claim_is_told_with_its_tile_while_its_window_is_open() -> None:
    # guangdong.md §E4: the rob is withheld because the pong came from the robber's discard.
    notes = SeatNotes()
    blocked = (("win", "own_pong_source"),)
    notes.absorb([ClaimOffered(1, parse_tile("7s"), 2, (), blocked=blocked, rob=True)])
    (en,) = note_texts(notes.of(1), NAMES, "en", "guangdong")
    assert "7 Bamboo" in en and "claimed from your discard" in en
    (zh,) = note_texts(notes.of(1), NAMES, "zh-CN", "guangdong")
    assert zh.startswith("7条 不能") and "过" not in zh, "no pass restriction is involved"
    notes.absorb([Drew(3, None)])
    assert notes.of(1) == (), "the next draw closes the window"


@pytest.mark.parametrize(
    ("variant", "words"), [("guangdong", "也不能抢杠"), ("sichuan", "比放过的番更大")]
)
def test_a_passed_win_is_told_as_the_rule_set_bars_it(variant: str, words: str) -> None:
    (text,) = note_texts((Note("pass_win"),), NAMES, "zh-CN", variant)
    assert words in text


def test_a_seat_that_bet_above_one_shows_its_stakes_beside_its_name() -> None:
    hand = Round.new("mcr", {"dice_modes": []}, 3)
    facts = HandFacts(1, "mcr", 1, 4, ("A", "B", "C", "D"), (0, 1, 2, 3))

    def board() -> BoardState:
        no = (False, False, False, False)
        return BoardState(
            facts, 0, hand.view(None), (0, 0, 0, 0), no, (False, False, True, False), ()
        )

    # Bets are secret until all four are in.
    assert [s.note for s in seat_texts(board(), "en")] == ["", "", "AI", ""]
    for seat in range(4):
        hand.apply(Bet(seat, 4 if seat == 0 else 2 if seat == 2 else 1, ()))
    assert [s.note for s in seat_texts(board(), "en")] == ["×4", "", "×2 · AI", ""]


@pytest.mark.parametrize(("locale", "wind"), [("zh-CN", "刮风"), ("zh-TW", "颳風"), ("en", "wind")])
def test_an_added_kong_is_wind_only_when_its_money_is_paid(locale: str, wind: str) -> None:
    # 血战: an added kong of the tile just drawn (巴杠) collects 刮风 money; one of a tile
    # held earlier (绕杠) collects nothing, so its announcement cannot say 刮风.
    narrator = Narrator("sichuan", NAMES, locale)
    added = narrator.line(Konged(1, "added", parse_tile("5m")))
    assert wind not in added and NAMES[1] in added
    paid = Paid(tuple(Payment(s, 1, 1, "kong_added") for s in (0, 2, 3)))
    assert wind in narrator.line(paid) and "3" in narrator.line(paid)
    assert wind in narrator.line(Konged(1, "exposed", parse_tile("5m"), from_seat=0))


@pytest.mark.parametrize(("locale", "word"), [("en", "rob"), ("zh-CN", "抢杠")])
def test_a_robbed_kong_is_told_once(locale: str, word: str) -> None:
    # guangdong.md §E4: Dan robs Cat's added kong.
    hand = play(E4)
    lines = Narrator("guangdong", ["Ann", "Bob", "Cat", "Dan"], locale).lines(hand.events_for(None))
    assert len([line for line in lines if word in line]) == 1, lines


def test_a_win_on_a_discard_after_a_kong_and_its_call_transfer_are_told() -> None:
    # sichuan.md E5: Dan kongs, discards 2万, Bob wins on it and takes Dan's kong money.
    hand = sichuan_play(SICHUAN_E5, SICHUAN_E5_ACTIONS)
    lines = Narrator("sichuan", ["Ann", "Bob", "Cat", "Dan"], "zh-CN").lines(hand.events_for(None))
    assert "Bob 胡 Dan 的 2万（杠上炮）" in lines
    assert "呼叫转移：Dan 的杠钱 6 转给 Bob" in lines


def test_a_guangdong_big_hu_is_named_and_its_kinds_do_not_seem_to_add_up() -> None:
    # guangdong.md §2.2: big hus never stack; a big hu pays ×2 whatever its kinds.
    (big,) = settlement_view(play(E2), ["A", "B", "C", "D"], "zh-CN", "t").winners
    assert (big.title, big.multiplier, big.total) == ("大胡", 2, None)
    assert big.fans and all(line.value is None for line in big.fans)
    (small,) = settlement_view(play(E1), ["A", "B", "C", "D"], "zh-CN", "t").winners
    assert (small.title, small.fans) == ("小胡（鸡胡）", ())


@pytest.mark.parametrize("bloom_fan", [True, False])
def test_a_kong_bloom_is_called_one_with_or_without_its_fan(bloom_fan: bool) -> None:
    # sichuan.md E4: Bob wins on his kong's replacement tile; the option only adds the +1.
    options = {"exchange_three": False, "kong_bloom": bloom_fan}
    hand = sichuan_play(
        SichuanTable(**{**SICHUAN_E4.__dict__, "options": options}), SICHUAN_E4_ACTIONS
    )
    names = ["Ann", "Bob", "Cat", "Dan"]
    # 血战 says 杠上花 (sichuan.md §3), as its fan list and its options do.
    assert summary(hand, names, "zh-CN", "seed").startswith("Bob 杠上花 3条")
    lines = Narrator("sichuan", names, "zh-CN").lines(hand.events_for(None))
    assert "Bob 杠上花 3条" in lines
    assert "Bob 槓上花 3條" in Narrator("sichuan", names, "zh-TW").lines(hand.events_for(None))
    assert not any("杠上开花" in line for line in lines)
    # /history reads the kind the store keeps.
    assert [win.how for win in round_result(hand).wins] == ["kong_bloom"]


def test_a_guangdong_kong_bloom_keeps_its_name_and_says_who_pays_it() -> None:
    # guangdong.md E5: Cat kongs Bob's 3s and wins on the replacement; Bob pays alone.
    hand = play(E5)
    assert summary(hand, NAMES, "zh-CN", "seed").startswith("Cat 杠上开花 3筒")
    reasons = {line.reason for line in settlement_view(hand, NAMES, "zh-CN", "t").payments}
    assert "杠上开花（放杠者付）" in reasons and "点杠花" not in reasons
    (en,) = {line.reason for line in settlement_view(hand, NAMES, "en", "t").payments} - {
        "exposed kong"
    }
    assert en == "win on a claimed kong's replacement"


@pytest.mark.parametrize(
    ("variant", "locale", "said"),
    [
        ("sichuan", "zh-CN", "Bob 巴杠 5万"),
        ("sichuan", "zh-TW", "Bob 巴槓 5萬"),
        ("guangdong", "zh-CN", "Bob 补杠 5万"),
        ("mcr", "zh-TW", "Bob 補槓 5萬"),
    ],
)
def test_an_added_kong_is_called_as_the_rule_set_calls_it(
    variant: str, locale: str, said: str
) -> None:
    # sichuan.md §2 and §4: 血战 calls a tile added to one's own pung a 巴杠.
    narrator = Narrator(variant, NAMES, locale)
    assert narrator.line(Konged(1, "added", parse_tile("5m"))) == said


def test_sichuan_kong_money_names_the_added_kong_as_bagang() -> None:
    paid = Paid(tuple(Payment(s, 1, 1, "kong_added") for s in (0, 2, 3)))
    assert Narrator("sichuan", NAMES, "zh-CN").line(paid) == "Bob 刮风，收 3（巴杠）"


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("zh-CN", "Cat 点炮，Bob 胡 3万"),
        ("zh-TW", "Cat 放槍，Bob 胡 3萬"),
        ("en", "Bob wins on Cat's 3 Characters"),
    ],
)
def test_a_win_on_a_discard_names_the_discarder_once(locale: str, said: str) -> None:
    # Players say "Cat 点炮，Bob 胡 3万": who dealt in, who won, on what.
    won = Won(1, "discard", parse_tile("3m"), 2, 1)
    line = Narrator("guangdong", NAMES, locale).line(won)
    assert line == said and line.count("Cat") == 1
