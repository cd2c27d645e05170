"""The hand's phases: the deal and set-aside, set-up prompts, turns, exhaustion, 血战-style
continuation, pass restrictions and refusals."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.actions import (
    Bet,
    ChooseVoid,
    Chow,
    Discard,
    Exchange,
    Kong,
    LastChance,
    Pass,
    Pong,
    Win,
)
from engine.errors import IllegalActionError
from engine.events import (
    ClaimOffered,
    Dealt,
    DiceRolled,
    Drew,
    HandEnded,
    HandStarted,
    Konged,
    PromptAnswered,
    Restricted,
    RestrictionCleared,
    SeatOut,
    TilesAside,
    WallExhausted,
)
from engine.round import Phase, Round
from engine.rules.play import Aside, EndReason, HandState, PassRules, WinLock
from engine.tiles import counts_of, parse_tile, parse_tiles
from tests.engine.round.helpers import deal, script
from tests.engine.round.plain import PLAIN, PlainNotes, PlainRules
from tests.engine.round.test_claims import PONG_AND_WIN, TWO_WINNERS

P5 = parse_tile("5p")


def _refused(rnd: Round, action, reason: str) -> IllegalActionError:
    before = rnd.snapshot()
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(action)
    assert err.value.reason == reason, err.value.message
    assert err.value.seat == action.seat
    assert not rnd.is_legal(action)
    assert rnd.snapshot() == before
    return err.value


# -- refusals ---------------------------------------------------------------------------


def test_out_of_turn() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    err = _refused(rnd, Discard(2, parse_tile("1m")), "not_your_turn")
    assert "seat 0" in err.message


def test_tile_not_held() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    err = _refused(rnd, Discard(0, parse_tile("9s")), "tile_not_held")
    assert "9s" in err.message


def test_discarding_during_a_claim_window() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    _refused(rnd, Discard(1, parse_tile("9p")), "claim_window_open")
    _refused(rnd, Discard(0, parse_tile("1z")), "claim_window_open")
    _refused(rnd, Pong(3), "nothing_to_claim")
    _refused(rnd, Win(1), "not_a_win")


def test_answering_twice() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(1))
    _refused(rnd, Pong(1), "already_answered")


def test_acting_after_the_hand_ended() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(2))
    rnd.apply(Pass(1))
    assert rnd.ended
    for seat in range(4):
        assert rnd.legal_actions(seat) == []
    _refused(rnd, Discard(3, parse_tile("1m")), "hand_over")
    _refused(rnd, Pass(1), "hand_over")


def test_own_turn_refusals() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    _refused(rnd, Pass(0), "nothing_to_pass")
    _refused(rnd, Pong(0), "nothing_to_claim")
    _refused(rnd, Win(0), "not_a_win")
    _refused(rnd, Kong(0, P5), "no_kong")


# -- the deal and the turn ----------------------------------------------------------------


def test_seeded_deal_is_reproducible_and_complete() -> None:
    a = Round.new(PLAIN, {}, seed=7)
    b = Round.new(PLAIN, {}, seed=7)
    assert a.dice == b.dice and a.dealt == b.dealt and a.undealt == b.undealt
    assert [len(h) for h in a.dealt] == [14, 13, 13, 13]
    assert a.tile_census() == counts_of(PLAIN.tiles)
    assert Round.new(PLAIN, {}, seed=8).dealt != a.dealt
    assert a.phase is Phase.TURN and a.turn == 0
    assert [e.seat for e in a.events if isinstance(e, Dealt)] == [0, 1, 2, 3]


def test_set_aside_from_the_back_and_replacements_before_it() -> None:
    rnd = Round.new(PLAIN, {"horses": 2}, seed=3)
    assert rnd.set_aside["horses"] == rnd.undealt[-2:]
    assert rnd.live_count == len(rnd.undealt) - 2
    assert rnd.tile_census() == counts_of(PLAIN.tiles)
    assert rnd.view(1).aside == {"horses": 2}


def test_a_turn_draws_from_the_front() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN, front="8s")
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(1))
    rnd.apply(Pass(2))
    assert rnd.turn == 1 and rnd.last_drawn(1) == parse_tile("8s")
    drew = [e for e in rnd.events if isinstance(e, Drew)]
    assert drew[-1].seat == 1 and not drew[-1].replacement


def test_heavenly_hand_self_drawn_at_the_start() -> None:
    hands = ["123m456m789m123p55s", "55p999p2468s1357z", "123456789s11m46p", "13579m1378p3579s"]
    rnd = deal(PLAIN, hands)
    assert Win(0) in rnd.legal_actions(0)
    rnd.apply(Win(0))
    win = rnd.wins[0]
    assert win.how == "self_draw" and win.context.draws == 0 and win.context.discards_before == 0
    assert rnd.ledger.nets() == [3, -1, -1, -1]


def test_concealed_kong_draws_a_replacement() -> None:
    hands = ["5555p123m456m789s1z", "55s999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]
    rnd = deal(PLAIN, hands, back="9s")
    rnd.apply(Kong(0, P5))
    assert [m.notation() for m in rnd.melds(0)] == ["{5555p}"]
    assert rnd.last_drawn(0) == parse_tile("9s")
    assert rnd.kongs[0].type.value == "concealed"
    # Others see that a concealed kong was made, not its tile.
    seen = [e for e in rnd.events_for(1) if isinstance(e, Konged)]
    assert seen and seen[0].tile is None
    assert rnd.view(1).seats[0].hidden_kongs == 1 and rnd.view(1).seats[0].melds == ()


def _discard_drawn_until_the_end(rnd: Round, *, stop_at_prompt: bool = False) -> None:
    while not rnd.ended and not (stop_at_prompt and rnd.prompt is not None):
        seat = rnd.to_act()[0]
        legal = rnd.legal_actions(seat)
        if rnd.phase in (Phase.CLAIM, Phase.ROB):
            if rnd.live_count == 0 and rnd.phase is Phase.CLAIM:
                assert all(isinstance(a, Win | Pass) for a in legal)
            rnd.apply(Pass(seat))
            continue
        if rnd.live_count == 0:
            assert not any(isinstance(a, Kong) for a in legal)
        drawn = rnd.last_drawn(seat)
        if drawn is not None and Discard(seat, drawn) in legal:
            rnd.apply(Discard(seat, drawn))
        else:
            rnd.apply(legal[-1])


def test_exhaustive_draw() -> None:
    rnd = Round.new(PlainRules(), {"min_total": 10}, seed=11)
    _discard_drawn_until_the_end(rnd)
    assert rnd.end_reason is EndReason.EXHAUSTED and rnd.wins == []
    assert rnd.live_count == 0
    assert rnd.ledger.lines == [] or all(p.reason == "kong" for p in rnd.ledger.lines)
    kinds = [e.type for e in rnd.events]
    assert "wall_exhausted" in kinds and kinds[-1] == "hand_ended"
    assert any(isinstance(e, WallExhausted) for e in rnd.events)
    ended = rnd.events[-1]
    assert isinstance(ended, HandEnded) and ended.reason == "exhausted"
    assert rnd.next_dealer_seat == 0


# -- 血战到底: winners leave ------------------------------------------------------------------


def test_winners_leave_and_play_continues_after_the_last_winner() -> None:
    bloody = PlainRules(multiple_winners=True, bloody=True, chow=False)
    rnd = deal(bloody, TWO_WINNERS, front="1m")
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(2))
    rnd.apply(Pass(1))
    rnd.apply(Pass(3))
    assert not rnd.ended
    assert not rnd.is_active(2)
    assert [e.seat for e in rnd.events if isinstance(e, SeatOut)] == [2]
    assert rnd.turn == 3 and rnd.last_drawn(3) == parse_tile("1m")
    assert rnd.legal_actions(2) == []
    _refused(rnd, Discard(2, parse_tile("1m")), "seat_out")
    # Payments from now on leave the winner out.
    assert rnd.view(0).seats[2].active is False


def test_after_two_winners_the_turn_passes_the_last_of_them() -> None:
    bloody = PlainRules(multiple_winners=True, bloody=True, chow=False)
    rnd = deal(bloody, TWO_WINNERS, front="1m")
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(2))
    rnd.apply(Win(3))
    rnd.apply(Pass(1))
    assert rnd.turn == 0 and rnd.last_drawn(0) == parse_tile("1m")


# -- pass restrictions ----------------------------------------------------------------------


LOCKS = PlainRules(chow=False, pass_rules=PassRules(pong_lock=True, win_lock=WinLock.ALL))
VALUE_LOCK = PlainRules(chow=False, pass_rules=PassRules(win_lock=WinLock.VALUE))
# S0 discards 5p: S1 can pong it, S2 can win on it. The next 5p comes from S1.
LOCK_HANDS = ["5p1234567z2468m13s", "55p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]


def _second_five(rules: PlainRules) -> Round:
    rnd = deal(rules, LOCK_HANDS, front="5p8s")
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(1))
    rnd.apply(Pass(2))
    assert rnd.turn == 1 and rnd.last_drawn(1) == P5
    return rnd


def test_passing_a_pong_and_a_win_locks_until_the_next_draw() -> None:
    rnd = _second_five(LOCKS)
    kinds = {(e.seat, e.kind) for e in rnd.events if isinstance(e, Restricted)}
    assert kinds == {(1, "pass_pong"), (2, "pass_win")}
    # S1 discards the 5p it drew; S2 may not win on it until it draws.
    rnd.apply(Discard(1, P5))
    offer = [e for e in rnd.events if isinstance(e, ClaimOffered)][-1]
    assert offer.seat == 2 and ("win", "pass_win") in offer.blocked
    assert rnd.phase is Phase.TURN and rnd.turn == 2
    assert any(isinstance(e, RestrictionCleared) and e.seat == 2 for e in rnd.events)


def test_pong_lock_withholds_the_pong() -> None:
    hands = ["9s1234567z2468m13s", "55p999p2468s1357z", "123456789m11s47p", "13579m1378p3579s"]
    rnd = deal(LOCKS, hands, front="2z6z5p5p")
    rnd.apply(Discard(0, parse_tile("9s")))
    for seat in (1, 2, 3):
        drawn = rnd.last_drawn(seat)
        assert drawn is not None
        rnd.apply(Discard(seat, drawn))
    rnd.apply(Pass(1))  # S3's 5p: S1 passes the pong
    assert [(e.seat, e.kind, e.tile) for e in rnd.events if isinstance(e, Restricted)] == [
        (1, "pass_pong", P5)
    ]
    rnd.apply(Discard(0, P5))
    offer = [e for e in rnd.events if isinstance(e, ClaimOffered)][-1]
    assert offer.seat == 1 and offer.options == () and offer.blocked == (("pong", "pass_pong"),)
    # Nobody could claim, so S1 draws, which clears the restriction.
    assert rnd.turn == 1
    assert any(isinstance(e, RestrictionCleared) and e.seat == 1 for e in rnd.events)
    # A pong of that 5p tried now is still refused for the reason it was withheld.
    err = _refused(rnd, Pong(1), "pass_pong")
    assert err.message == "seat 1 passed a pong of 5p and may not pong 5p until it draws"


CHOW_LOCKS = PlainRules(pass_rules=PassRules(win_lock=WinLock.ALL))
# S3 waits on 5p and passes S0's; S1 draws and discards another 5p, which S2 can chow.
LATE_HANDS = ["5p1234567z2468m13s", "999p2468s1357z13m", "46p13579s2468m12z", "123456789m11s46p"]


def test_a_withheld_claim_is_refused_for_its_reason_until_the_tile_is_taken() -> None:
    rnd = deal(CHOW_LOCKS, LATE_HANDS, front="5p")
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(3))
    rnd.apply(Discard(1, P5))
    assert rnd.phase is Phase.CLAIM and rnd.to_act() == [2]
    err = _refused(rnd, Win(3), "pass_win")
    assert err.message == (
        "seat 3 passed a win and may not win on a discard or rob a kong until it draws"
    )
    rnd.apply(Chow(2, (parse_tile("4p"), P5, parse_tile("6p"))))
    # The 5p is melded: nothing is left to answer, whatever withheld the win.
    _refused(rnd, Win(3), "not_your_turn")


def test_value_lock_allows_only_a_bigger_win() -> None:
    rnd = _second_five(VALUE_LOCK)
    restricted = [e for e in rnd.events if isinstance(e, Restricted)]
    assert [(e.seat, e.kind, e.value) for e in restricted] == [(2, "pass_win", 1)]
    rnd.apply(Discard(1, P5))
    assert rnd.turn == 2  # the equal win was withheld


def test_no_lock_without_pass_rules() -> None:
    rnd = _second_five(PLAIN)
    assert not any(isinstance(e, Restricted) for e in rnd.events)
    rnd.apply(Discard(1, P5))
    assert rnd.phase is Phase.CLAIM and Win(2) in rnd.legal_actions(2)


# -- set-up prompts -------------------------------------------------------------------------


def test_prompts_after_the_deal() -> None:
    rnd = Round.new(PLAIN, {"exchange": True, "void": True}, seed=5)
    assert rnd.phase is Phase.PROMPT and rnd.prompt is not None and rnd.prompt.id == "exchange"
    assert rnd.to_act() == [0, 1, 2, 3]
    picks: dict[int, Exchange] = {}
    for seat in range(4):
        legal = rnd.legal_actions(seat)
        exchanges = [a for a in legal if isinstance(a, Exchange)]
        assert legal and exchanges == legal
        picks[seat] = exchanges[0]
    _refused(rnd, ChooseVoid(0, 1), "prompt_open")
    _refused(rnd, Discard(0, rnd.dealt[0][0]), "prompt_open")
    rnd.apply(picks[0])
    _refused(rnd, picks[0], "already_answered")
    # Others see only that seat 0 committed.
    seen = [e for e in rnd.events_for(1) if isinstance(e, PromptAnswered)]
    assert seen[-1].seat == 0 and seen[-1].answer is None
    mine = [e for e in rnd.events_for(0) if isinstance(e, PromptAnswered)]
    assert mine[-1].answer == picks[0].args_json()
    for seat in (1, 2, 3):
        rnd.apply(picks[seat])
    mapping = rnd.fields["exchange_map"]
    for seat in range(4):
        given = counts_of(picks[seat].tiles)
        received = counts_of(picks[next(s for s in range(4) if mapping[s] == seat)].tiles)
        expected = [
            d - g + r for d, g, r in zip(counts_of(rnd.dealt[seat]), given, received, strict=True)
        ]
        assert list(rnd.concealed(seat)) == expected
    assert rnd.prompt is not None and rnd.prompt.id == "void"
    assert rnd.default_action(2) == ChooseVoid(2, 0)
    for seat in range(4):
        rnd.apply(ChooseVoid(seat, 0))
    assert rnd.phase is Phase.TURN
    # The chance value is in the script, so the replay needs no generator.
    again = Round.from_script(rnd.to_script(), ruleset=PLAIN)
    assert again.snapshot() == rnd.snapshot()


def test_prompts_before_the_deal_see_no_tiles() -> None:
    rnd = Round.new(PLAIN, {"bet": True}, seed=6)
    assert rnd.prompt is not None and rnd.prompt.stage.value == "before_deal"
    assert not any(isinstance(e, Dealt) for e in rnd.events)
    view = rnd.view(0)
    assert all(info.concealed is None and info.concealed_count == 0 for info in view.seats)
    for seat in range(4):
        rnd.apply(Bet(seat, 2 if seat == 1 else 1))
    assert rnd.rule_notes == PlainNotes(bets={0: 1, 1: 2, 2: 1, 3: 1})
    assert [e.seat for e in rnd.events if isinstance(e, Dealt)] == [0, 1, 2, 3]
    assert rnd.phase is Phase.TURN and rnd.view(0).seats[0].concealed is not None


@pytest.mark.parametrize(("position", "wins"), [(1, 1), (3, 0)])
def test_prompt_after_play_may_award_a_win(position: int, wins: int) -> None:
    rnd = Round.new(PlainRules(), {"min_total": 10, "last_chance": True}, seed=11)
    _discard_drawn_until_the_end(rnd, stop_at_prompt=True)
    assert rnd.prompt is not None and rnd.prompt.id == "last_chance"
    assert rnd.to_act() == [0] and not rnd.ended
    rnd.apply(LastChance(0, position))
    assert rnd.ended and len(rnd.wins) == wins
    # A win awarded after play ends the hand as won; without one the draw stands.
    reason = EndReason.WIN if wins else EndReason.EXHAUSTED
    assert rnd.end_reason is reason
    ended = rnd.events[-1]
    assert isinstance(ended, HandEnded) and ended.reason == reason.value
    assert rnd.result()["end"] == reason.value
    assert rnd.tile_census() == counts_of(PLAIN.tiles)
    if wins:
        assert rnd.wins[0].context.tile == parse_tile("1m")
        assert rnd.ledger.nets()[0] > 0
    again = Round.from_script(rnd.to_script(), ruleset=PLAIN)
    assert again.snapshot() == rnd.snapshot()


class DiceAfterBets(PlainRules):
    """Shows the dice, and a tile set aside face up, only once the bets are in."""

    dice_after_prompts = True

    def aside(self, state: HandState) -> Sequence[Aside]:
        return (Aside("shown", 1, face_up=True),)


def test_dice_and_face_up_tiles_wait_for_the_prompts_before_the_deal() -> None:
    rules = DiceAfterBets()
    rnd = Round.new(rules, {"bet": True}, seed=6)
    started = rnd.events[0]
    assert isinstance(started, HandStarted) and started.dice is None
    assert [e for e in rnd.events if isinstance(e, TilesAside)] == [TilesAside("shown", 1)]
    for viewer in (0, None):
        view = rnd.view(viewer)
        assert view.dice is None and view.aside == {"shown": 1}
    for seat in range(4):
        rnd.apply(Bet(seat, 1))
    shown = rnd.set_aside["shown"]
    types = [e.type for e in rnd.events]
    closed = types.index("prompt_closed")
    assert types[closed : closed + 4] == ["prompt_closed", "dice_rolled", "tiles_aside", "dealt"]
    assert DiceRolled(rnd.dice) in rnd.events
    assert TilesAside("shown", 1, shown) in rnd.events
    view = rnd.view(None)
    assert view.dice == rnd.dice and view.aside == {"shown": shown}
    again = Round.from_script(rnd.to_script(), ruleset=rules)
    assert again.events == rnd.events
    # Without the switch the dice are public from the start.
    plain = Round.new(PLAIN, {"bet": True}, seed=6)
    first = plain.events[0]
    assert isinstance(first, HandStarted) and first.dice == plain.dice == plain.view(0).dice
    assert not any(isinstance(e, DiceRolled) for e in plain.events)


def test_the_last_discard_is_known_claimed_or_not() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    assert rnd.last_discard is None
    rnd.apply(Discard(0, P5))
    assert rnd.last_discard == (0, P5)
    rnd.apply(Pass(1))
    rnd.apply(Pass(2))
    assert rnd.last_discard == (0, P5)
    drawn = rnd.last_drawn(1)
    assert drawn is not None
    rnd.apply(Discard(1, drawn))
    assert rnd.last_discard == (1, drawn)


def test_void_suit_first() -> None:
    hands = ["1m5p234567z2468s13s", "55p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"]
    rnd = deal(PLAIN, hands, options={"void": True})
    for seat in range(4):
        rnd.apply(ChooseVoid(seat, 0))
    legal = rnd.legal_actions(0)
    discards = [a for a in legal if isinstance(a, Discard)]
    assert discards == legal and [a.tile for a in discards] == [parse_tile("1m")]
    err = _refused(rnd, Discard(0, P5), "must_discard_void")
    assert "void" in err.message


def test_script_missing_a_chance_value() -> None:
    raw = script(
        PLAIN,
        ["5p1234567z2468m13s", "55p999p2468s1357z", "123456789m11s46p", "13579m1378p3579s"],
        options={"exchange": True},
        actions=[
            {"seat": s, "action": "exchange", "tiles": t}
            for s, t in enumerate(["246m", "246s", "123m", "135m"])
        ],
    )
    with pytest.raises(ValueError, match="exchange_map"):
        Round.from_script(raw, ruleset=PLAIN)


# -- what each seat sees ----------------------------------------------------------------------


def test_view_hides_other_hands() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    mine = rnd.view(1)
    assert mine.seats[1].concealed == tuple(counts_of(parse_tiles(PONG_AND_WIN[1])))
    assert all(mine.seats[s].concealed is None for s in (0, 2, 3))
    assert mine.seats[0].concealed_count == 14
    spectator = rnd.view(None)
    assert all(info.concealed is None for info in spectator.seats)
    assert rnd.view(None, reveal=frozenset({3})).seats[3].concealed is not None
    drew = [e for e in rnd.events_for(2) if isinstance(e, Dealt)]
    assert [e.tiles is not None for e in drew] == [False, False, True, False]


def test_visibility_hook_lets_a_seat_see_another() -> None:
    peeking = PlainRules(peek=True)
    rnd = deal(peeking, PONG_AND_WIN, front="8s")
    view = rnd.view(0)
    assert view.seats[1].concealed is not None and view.seats[2].concealed is None
    rnd.apply(Discard(0, P5))
    rnd.apply(Pass(1))
    rnd.apply(Pass(2))
    draws = [e for e in rnd.events_for(0) if isinstance(e, Drew)]
    assert draws[-1].seat == 1 and draws[-1].tile == parse_tile("8s")
    hidden = [e for e in rnd.events_for(3) if isinstance(e, Drew)]
    assert hidden[-1].tile is None
    offers = [e for e in rnd.events_for(3) if isinstance(e, ClaimOffered)]
    assert offers == []


def test_everything_is_shown_when_the_hand_ends() -> None:
    rnd = deal(PLAIN, PONG_AND_WIN)
    rnd.apply(Discard(0, P5))
    rnd.apply(Win(2))
    rnd.apply(Pass(1))
    assert all(info.concealed is not None for info in rnd.view(None).seats)
