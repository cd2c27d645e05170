"""Seeing another seat's hand (a rule set's ``visible_hands``, a spectator's ``reveal``)
shows its tiles and never its private choices: prompt answers, claim offers, passes,
restrictions and private notices stay with their owner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action
from engine.ai import make_player
from engine.events import (
    ClaimOffered,
    Dealt,
    Drew,
    Event,
    Notice,
    Passed,
    PromptAnswered,
    Restricted,
)
from engine.round import Round
from engine.rules.play import HandState, PassRules, Prompt, WinLock
from tests.engine.round.plain import PlainRules


class Whispering(PlainRules):
    """Each seat watches its 下家; every bet is also told privately to its bettor."""

    def resolve_prompt(
        self, state: HandState, prompt: Prompt, answers: Mapping[int, Action]
    ) -> None:
        super().resolve_prompt(state, prompt, answers)
        for seat in sorted(answers):
            state.emit(Notice("bet_told", {"factor": 2}, seat, {}))


RULES = Whispering(
    chow=False, peek=True, pass_rules=PassRules(pong_lock=True, win_lock=WinLock.ALL)
)


def choices_of_others(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """The events that carry a choice of a seat other than ``viewer``."""
    return [
        e
        for e in events
        if e.owner() not in (None, viewer) and not e.hand_tiles and e.redacted() != e
    ]


def played(seed: int) -> Round:
    rnd = Round.new(RULES, {"bet": True}, seed=seed)
    players = [make_player("random", seed * 4 + s) for s in range(4)]
    while not rnd.ended:
        seat = rnd.to_act()[0]
        rnd.apply(players[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
    return rnd


def test_a_watcher_sees_the_watched_tiles_but_not_the_watched_choices() -> None:
    kinds: set[type] = set()
    for seed in range(6):
        rnd = played(seed)
        kinds |= {type(e) for e in rnd.events if e.owner() is not None}
        # Mid-hand, rebuilt from the script without its last action.
        script = rnd.to_script()
        mid = Round.from_script({**script, "actions": script["actions"][:-1]}, ruleset=RULES)
        for hand in (mid, rnd):
            for viewer in range(4):
                given = hand.events_for(viewer)
                assert choices_of_others(given, viewer) == [], (seed, viewer)
                watched = (viewer + 1) % 4
                drew = [e for e in given if isinstance(e, Drew) and e.seat == watched]
                assert drew and all(e.tile is not None for e in drew)
                dealt = [e for e in given if isinstance(e, Dealt) and e.seat == watched]
                assert [e.tiles is not None for e in dealt] == [True]
    # The hands exercised every kind of private choice.
    assert {PromptAnswered, ClaimOffered, Passed, Restricted, Notice} <= kinds


def test_a_spectator_let_see_a_hand_sees_its_tiles_but_not_its_choices() -> None:
    for seed in range(3):
        rnd = played(seed)
        script = rnd.to_script()
        mid = Round.from_script({**script, "actions": script["actions"][:-1]}, ruleset=RULES)
        given = mid.events_for(None, reveal=frozenset({2}))
        assert choices_of_others(given, None) == []
        drew = [e for e in given if isinstance(e, Drew) and e.seat == 2]
        assert drew and all(e.tile is not None for e in drew)
        assert all(e.tile is None for e in given if isinstance(e, Drew) and e.seat != 2)


def test_the_owner_still_gets_its_own_choices() -> None:
    rnd = played(1)
    for seat in range(4):
        given = rnd.events_for(seat)
        answers = [e for e in given if isinstance(e, PromptAnswered) and e.seat == seat]
        assert answers and all(e.answer is not None for e in answers)
        told = [e for e in given if isinstance(e, Notice) and e.seat == seat]
        assert [e.data for e in told] == [{"factor": 2}]
