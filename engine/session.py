"""A session: the hands (局) one table plays, with chairs, dealers and running scores.

Players keep a chair 0-3 for the whole session; in each hand, seat = (chair - dealer's
chair) mod 4. The first dealer comes from hand 1's dice; after each hand the rule set
names the next dealer (a seat of that hand) and the session-derived fields of the next
hand (Guangdong's horse count and dealer streak, MCR's prevalent wind). Each hand's seed
is derived from the session's seed and the hand's number, so the whole session is
determined by its options, its seed and the players' actions.

Room cards are the bot's business; the session only offers the numbers they depend on
(:attr:`Session.hands_planned`, :attr:`Session.hands_played`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.round import Round
from engine.rules.play import RuleSet
from engine.rules.registry import find_ruleset
from engine.wall import first_dealer_chair, roll_dice


def hand_seed(session_seed: int | str, number: int) -> int:
    """The seed of hand ``number`` (1-based) of a session."""
    digest = hashlib.sha256(f"{session_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand: its number (1-based), dealer's chair, seed, round script and
    each chair's net."""

    number: int
    dealer: int
    seed: int
    script: Mapping[str, Any]
    net: tuple[int, int, int, int]


class Session:
    """Several hands of one table. ``start_hand`` deals the next hand; once it has ended,
    ``finish_hand`` books it and fixes the next dealer."""

    def __init__(
        self,
        variant: str | RuleSet,
        options: Mapping[str, Any] | None = None,
        seed: int | str = 0,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.ruleset = find_ruleset(variant) if isinstance(variant, str) else variant
        self.raw_options = dict(options or {})
        self.options = self.ruleset.parse_options(self.raw_options)
        self.seed = seed
        self.hands_planned = self.ruleset.planned_hands(self.options)
        self.scores = [0, 0, 0, 0]
        self.history: list[HandRecord] = []
        self.current: Round | None = None
        if first_dealer is None:
            first_dealer = first_dealer_chair(roll_dice(random.Random(hand_seed(seed, 1))))
        self.dealer = first_dealer
        self._fields = self.ruleset.first_fields(self.options)

    # -- room-card and table facts ---------------------------------------------------------

    @property
    def hands_played(self) -> int:
        return len(self.history)

    @property
    def over(self) -> bool:
        return self.hands_played >= self.hands_planned

    @property
    def hand_number(self) -> int:
        """The number (1-based) of the current hand, or of the next one to deal."""
        return self.hands_played + 1

    def seat_of(self, chair: int) -> int:
        """The chair's seat in the current hand."""
        return (chair - self.dealer) % 4

    def chair_of(self, seat: int) -> int:
        """The chair sitting at ``seat`` in the current hand."""
        return (seat + self.dealer) % 4

    # -- hands -------------------------------------------------------------------------------

    def start_hand(self) -> Round:
        """Deal the next hand."""
        if self.over:
            raise ValueError("the session has played all its hands")
        if self.current is not None:
            raise ValueError("the current hand has not been finished")
        number = self.hand_number
        self.current = Round.new(
            self.ruleset,
            self.raw_options,
            hand_seed(self.seed, number),
            dealer=self.dealer,
            fields=self._fields,
            hand_number=number,
        )
        return self.current

    def finish_hand(self) -> HandRecord:
        """Book the ended current hand: chair scores, the next dealer and fields."""
        rnd = self.current
        if rnd is None or not rnd.ended:
            raise ValueError("there is no ended hand to finish")
        nets = rnd.ledger.nets()
        by_chair = [0, 0, 0, 0]
        for seat, net in enumerate(nets):
            by_chair[self.chair_of(seat)] = net
        for chair in range(4):
            self.scores[chair] += by_chair[chair]
        number = self.hand_number
        record = HandRecord(
            number,
            self.dealer,
            hand_seed(self.seed, number),
            rnd.to_script(),
            (by_chair[0], by_chair[1], by_chair[2], by_chair[3]),
        )
        self.history.append(record)
        next_seat = rnd.next_dealer_seat or 0
        self._fields = self.ruleset.next_fields(self.options, rnd, next_seat, number + 1)
        self.dealer = self.chair_of(next_seat)
        self.current = None
        return record

    @classmethod
    def resume(
        cls,
        variant: str | RuleSet,
        options: Mapping[str, Any] | None,
        seed: int | str,
        hands: Sequence[Sequence[Action]],
        *,
        first_dealer: int | None = None,
    ) -> Session:
        """Rebuild a session from each hand's accepted actions (a restart): every ended
        hand is booked again, and a last hand still in play is left as ``current``."""
        session = cls(variant, options, seed, first_dealer=first_dealer)
        for actions in hands:
            rnd = session.start_hand()
            for action in actions:
                rnd.apply(action)
            if rnd.ended:
                session.finish_hand()
        return session
