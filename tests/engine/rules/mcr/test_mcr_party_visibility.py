"""What each seat and each spectator may see (mcr.md §4.5.1 火眼金睛, §4.6 旁观看牌):
every event of whole simulated hands is checked for every viewer, as it is handed out."""

from __future__ import annotations

import random

from engine.actions import Peek
from engine.ai import make_player
from engine.events import (
    ClaimOffered,
    Dealt,
    Drew,
    Event,
    Konged,
    Notice,
    Passed,
    PromptAnswered,
    Restricted,
    RestrictionCleared,
)
from engine.round import Round
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.ruleset import notes
from engine.wall import roll_dice
from tests.engine.round.helpers import hand_state

HANDS = 12


def seeds_rolling(double: int, count: int) -> list[int]:
    found = [s for s in range(5000) if roll_dice(random.Random(s)) == (double, double)]
    return found[:count]


def allowed(rnd: Round, viewer: int | None, reveal: frozenset[int]) -> set[int]:
    """The seats whose tiles ``viewer`` may see: its own, its 火眼金睛 target's; a
    spectator only the seats that let spectators see their hands."""
    if viewer is None:
        return set(reveal)
    target = notes(hand_state(rnd, McrOptions)).peek.get(viewer)
    return {viewer} | ({target} if target is not None else set())


def leaks(event: Event, viewer: int | None, seats: set[int]) -> bool:
    """Whether ``event`` carries private information ``viewer`` may not hold: the tiles of
    a seat outside ``seats``, or any other seat's choices (seeing a hand shows its tiles
    only)."""
    owner = event.owner()
    if owner is None or owner == viewer or (event.hand_tiles and owner in seats):
        return False
    if isinstance(event, Dealt):
        return event.tiles is not None
    if isinstance(event, Drew | Konged):
        return event.tile is not None
    if isinstance(event, PromptAnswered):
        return event.answer is not None
    if isinstance(event, Notice):
        return event.data != event.public
    return isinstance(event, ClaimOffered | Passed | Restricted | RestrictionCleared)


def play_checking(rnd: Round, seed: int, reveal: frozenset[int] = frozenset()) -> int:
    """Play the hand with random AI seats; after every action, hand each viewer the new
    events and check them and its view. Returns how many events were checked."""
    players = [make_player("random", seed * 4 + s) for s in range(4)]
    checked = 0
    given = dict.fromkeys((0, 1, 2, 3, None), 0)
    while not rnd.ended:
        seat = rnd.to_act()[0]
        rnd.apply(players[seat].choose(rnd.view(seat), rnd.legal_actions(seat)))
        if rnd.ended:
            break
        for viewer, start in given.items():
            # 旁观看牌 opens hands to spectators only.
            shows = reveal if viewer is None else frozenset()
            seats = allowed(rnd, viewer, shows)
            fresh = rnd.events_for(viewer, start, shows)
            assert not [e for e in fresh if leaks(e, viewer, seats)], (seed, viewer)
            given[viewer] = len(rnd.events)
            checked += len(fresh)
            view = rnd.view(viewer, shows)
            shown = {s for s, info in enumerate(view.seats) if info.concealed is not None}
            assert shown <= seats
            assert all(info.drawn is None for s, info in enumerate(view.seats) if s not in seats)
    return checked


def test_peek_hands_show_the_target_to_its_chooser_only() -> None:
    total = 0
    for seed in seeds_rolling(2, HANDS):
        rnd = Round.new("mcr", {}, seed, hand_number=2)
        total += play_checking(rnd, seed)
        targets = notes(hand_state(rnd, McrOptions)).peek
        assert sorted(targets) == [0, 1, 2, 3]
        # Mid-hand the whole log, re-read, still shows each chooser only its target.
        again = Round.from_script({**rnd.to_script(), "actions": rnd.to_script()["actions"][:-1]})
        for viewer in range(4):
            seats = allowed(again, viewer, frozenset())
            assert not [e for e in again.events_for(viewer) if leaks(e, viewer, seats)]
    assert total > 1000


def test_a_watcher_never_learns_the_watched_seat_s_choices() -> None:
    """Seat 1 watches seat 2, whose own secret target, claim offers and passes stay its own."""
    seed = seeds_rolling(2, 1)[0]
    rnd = Round.new("mcr", {}, seed, hand_number=2)
    while rnd.prompt is not None:
        peeking = rnd.prompt.id == "peek"
        for seat in rnd.to_act():
            chosen = Peek(seat, 2) if peeking and seat == 1 else rnd.default_action(seat)
            assert chosen is not None
            rnd.apply(chosen)
    ai = make_player("normal")
    offered = 0
    while not rnd.ended and offered < 2:
        seat = rnd.to_act()[0]
        rnd.apply(ai.choose(rnd.view(seat), rnd.legal_actions(seat)))
        offered = sum(1 for e in rnd.events if isinstance(e, ClaimOffered) and e.seat == 2)
    assert offered == 2
    seen = [e for e in rnd.events_for(1) if e.owner() == 2]
    (peek,) = [e for e in seen if isinstance(e, PromptAnswered) and e.prompt == "peek"]
    assert peek.answer is None
    assert not [e for e in seen if isinstance(e, ClaimOffered | Passed)]
    assert [e.tiles is not None for e in seen if isinstance(e, Dealt)] == [True]
    assert all(e.tile is not None for e in seen if isinstance(e, Drew))
    assert [s for s, info in enumerate(rnd.view(1).seats) if info.concealed] == [1, 2]


def test_the_peek_target_is_watched_live() -> None:
    seed = seeds_rolling(2, 1)[0]
    rnd = Round.new("mcr", {}, seed, hand_number=2)
    while rnd.prompt is not None:
        for seat in rnd.to_act():
            rnd.apply(rnd.default_action(seat) or rnd.legal_actions(seat)[0])
    # Defaults: everyone watches his 下家.
    for viewer in range(4):
        target = (viewer + 1) % 4
        seats = rnd.view(viewer).seats
        assert seats[target].concealed == tuple(rnd.concealed(target))
        assert all(seats[s].concealed is None for s in range(4) if s not in (viewer, target))
    ai = make_player("normal")
    while rnd.turn != 2 and not rnd.ended:
        seat = rnd.to_act()[0]
        rnd.apply(ai.choose(rnd.view(seat), rnd.legal_actions(seat)))
    drawn = [e for e in rnd.events_for(0) if isinstance(e, Drew) and e.seat == 1]
    assert drawn and all(e.tile is not None for e in drawn)
    assert all(e.tile is None for e in rnd.events_for(2) if isinstance(e, Drew) and e.seat == 1)


def test_spectators_see_only_the_hands_their_players_allow() -> None:
    for seed in [*seeds_rolling(2, 2), 11, 12]:
        rnd = Round.new("mcr", {}, seed, hand_number=2)
        assert play_checking(rnd, seed, reveal=frozenset({1})) > 0
    rnd = Round.new("mcr", {}, 11, hand_number=2)
    while rnd.prompt is not None:
        for seat in rnd.to_act():
            rnd.apply(rnd.default_action(seat) or rnd.legal_actions(seat)[0])
    assert [i.concealed is not None for i in rnd.view(None).seats] == [False] * 4
    allowed_one = rnd.view(None, frozenset({2})).seats
    assert [i.concealed is not None for i in allowed_one] == [False, False, True, False]
    dealt = [e for e in rnd.events_for(None, 0, frozenset({2})) if isinstance(e, Dealt)]
    assert [e.tiles is not None for e in dealt] == [False, False, True, False]
