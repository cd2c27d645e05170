"""A person's standing orders, set with the toggles on their hand message: 摸切 (discard
each drawn tile) and 自动胡 (win whenever the hand can); and the one a declaration of
ready (MCR 报听) gives: the hand is locked, so every drawn tile the player does not win
with is discarded for them (mcr.md §2.4).

They are the person's own choices made ahead, so the moves they make count as the
person's. 摸切 lasts for the hand it was set in and steps aside whenever the turn offers
more than a discard (a win, a kong): those are asked as usual. 自动胡 lasts for the
session. Neither is kept across a restart; a declaration of ready is the hand's own, so
a restarted table keeps discarding for the player.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.actions import Action, Discard
from engine.round import Phase, Round

WIN = "win"


class Order(enum.Enum):
    """A toggle's name, as its control carries it."""

    DRAWN = "drawn"
    WIN = "win"


@dataclass(slots=True)
class StandingOrders:
    drawn: bool = False
    win: bool = False

    def toggle(self, order: Order) -> None:
        if order is Order.DRAWN:
            self.drawn = not self.drawn
        else:
            self.win = not self.win

    def is_on(self, order: Order) -> bool:
        return self.drawn if order is Order.DRAWN else self.win


def standing_action(hand: Round, seat: int, orders: StandingOrders) -> Action | None:
    """The move the seat's orders make now, if any."""
    legal = hand.legal_actions(seat)
    if orders.win:
        win = next((a for a in legal if a.name == WIN), None)
        if win is not None:
            return win
    if hand.phase is not Phase.TURN:
        return None
    if hand.ready(seat) is not None:
        # Locked by its declaration, the hand may only win or let the drawn tile go: it
        # goes at once unless a win is offered, which the player may take or pass.
        only = legal[0] if len(legal) == 1 else None
        return only if isinstance(only, Discard) else None
    if not orders.drawn:
        return None
    if any(not isinstance(a, Discard) for a in legal):
        return None
    drawn = hand.view(seat).seats[seat].drawn
    discard = Discard(seat, drawn) if drawn is not None else None
    return discard if discard in legal else None
