"""What a person who runs out of time does, as players of 雀魂 and 欢乐麻将 expect.

A claim or rob window passes; a set-up prompt takes the rule set's own answer (its
suggestion: the weakest suit for 定缺, the weakest three for 换三张); a turn discards the
tile just drawn. Only where none of these is legal (a drawn tile that 定缺 forbids, a turn
after a claim with no tile drawn) does the AI choose. Nothing here claims for the person:
a time-out never melds, kongs or wins on their behalf.
"""

from __future__ import annotations

from engine.actions import Action, Discard
from engine.round import Round


def timeout_action(hand: Round, seat: int) -> Action | None:
    """The seat's answer when its time is up; None when the AI must choose."""
    default = hand.default_action(seat)
    if default is not None:
        return default
    drawn = hand.view(seat).seats[seat].drawn
    if drawn is None:
        return None
    discard = Discard(seat, drawn)
    return discard if discard in hand.legal_actions(seat) else None
