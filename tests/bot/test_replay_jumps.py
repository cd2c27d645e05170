"""Where each replay jump lands: just after the first matching action from the step on."""

from __future__ import annotations

from bot.replays import Marks
from engine.events import Claimed, Discarded, Event, Konged, Won

# A stored action and the events it produced.
Step = tuple[dict[str, object], list[Event]]


def marks(*actions: Step) -> Marks:
    marked = Marks()
    for raw, events in actions:
        marked.add(raw, events)
    return marked


DISCARD_0: Step = ({"seat": 0, "action": "discard", "tile": "5m"}, [Discarded(0, 4)])
PASS_1: Step = ({"seat": 1, "action": "pass"}, [])
PONG_2: Step = ({"seat": 2, "action": "pong"}, [Claimed(2, "pong", (4, 4, 4), 4, 0)])
DISCARD_2: Step = ({"seat": 2, "action": "discard", "tile": "1p"}, [Discarded(2, 9)])
KONG_3: Step = ({"seat": 3, "action": "kong", "tile": "1p"}, [Konged(3, "exposed", 9, 2)])
CONCEALED_1: Step = ({"seat": 1, "action": "kong", "tile": "9s"}, [Konged(1, "concealed", 26)])
RON_1: Step = ({"seat": 1, "action": "win"}, [Won(1, "discard", 9, 2, 8)])
TSUMO_0: Step = ({"seat": 0, "action": "win"}, [Won(0, "self_draw", 9, None, 8)])


def test_my_next_move_skips_passes_and_other_seats() -> None:
    hand = marks(DISCARD_0, PASS_1, PONG_2, DISCARD_2, RON_1)
    assert hand.jump("mine", 1, 0) == 5  # seat 1's pass is no move; its win is
    assert hand.jump("mine", 0, 0) == 1
    assert hand.jump("mine", 0, 1) is None
    assert hand.jump("mine", 2, 3) == 4


def test_claims_are_chows_pongs_kongs_and_wins_of_a_discard() -> None:
    hand = marks(DISCARD_0, PONG_2, DISCARD_2, KONG_3, CONCEALED_1, RON_1, TSUMO_0)
    assert hand.jump("claim", 0, 0) == 2
    assert hand.jump("claim", 0, 2) == 4  # the exposed kong of a discard
    assert hand.jump("claim", 0, 4) == 6  # a concealed kong is no claim; a win on a discard is
    assert hand.jump("claim", 0, 6) is None  # a self-drawn win is no claim


def test_the_win_and_the_next_win() -> None:
    hand = marks(DISCARD_0, RON_1, DISCARD_2, TSUMO_0)
    assert hand.jump("win", 0, 0) == 2
    assert hand.jump("win", 0, 2) == 4
    assert hand.jump("win", 0, 4) is None
    assert marks(DISCARD_0, PASS_1).jump("win", 0, 0) is None
