"""A session: the hands (局) one table plays, with chairs, dealers and running scores.

Players keep a chair 0-3 for the whole session; in each hand, seat = (chair - dealer's
chair) mod 4. The first dealer comes from hand 1's dice; after each hand the rule set
names the next dealer (a seat of that hand) and the session-derived fields of the next
hand (Guangdong's horse count and dealer streak, MCR's prevalent wind).

Each hand is dealt from a seed. The caller may give every hand its own
(``start_hand(seed=...)``: the bot draws a fresh one per hand and stores it); otherwise
the seed is derived from the session's seed and the hand's number, so the whole session
is determined by its options, its seed and the players' actions. :meth:`Session.resume`
rebuilds a session from what a store keeps of it: the finished hands' count and chair
totals, and the last hand's seed and round script.

Room cards are the bot's business; the session only offers the numbers they depend on
(:attr:`Session.hands_planned`, :attr:`Session.hands_played`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
    seed: int | str
    script: Mapping[str, Any]
    net: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as a store keeps it: the seed it was dealt from and its round script (the
    setup, with the actions taken so far or without any)."""

    seed: int | str
    script: Mapping[str, Any]


class Session:
    """Several hands of one table. ``start_hand`` deals the next hand; once it has ended,
    ``finish_hand`` books it and fixes the next dealer.

    ``seed`` None makes a session whose hands take their seeds from the caller. ``dealer``
    (a chair) is None until hand 1 is dealt, unless ``first_dealer`` fixes it."""

    def __init__(
        self,
        variant: str | RuleSet[Any],
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = 0,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.ruleset = find_ruleset(variant) if isinstance(variant, str) else variant
        self.raw_options = dict(options or {})
        self.options = self.ruleset.read_options(self.raw_options)
        self.seed = seed
        self.hands_planned: int = self.options.planned_hands
        self.hands_played = 0
        self.scores = [0, 0, 0, 0]
        # The hands booked by this object; a resumed session counts the earlier ones only
        # in ``hands_played`` and ``scores``.
        self.history: list[HandRecord] = []
        self.current: Round | None = None
        self.current_seed: int | str | None = None
        self.dealer: int | None = first_dealer
        self._fields = self.ruleset.first_fields(self.options)

    # -- room-card and table facts ---------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.hands_played >= self.hands_planned

    @property
    def hand_number(self) -> int:
        """The number (1-based) of the current hand, or of the next one to deal."""
        return self.hands_played + 1

    def seat_of(self, chair: int) -> int:
        """The chair's seat in the current hand."""
        return (chair - self._dealer()) % 4

    def chair_of(self, seat: int) -> int:
        """The chair sitting at ``seat`` in the current hand."""
        return (seat + self._dealer()) % 4

    def _dealer(self) -> int:
        if self.dealer is None:
            raise ValueError("the first dealer is rolled when hand 1 is dealt")
        return self.dealer

    # -- hands -------------------------------------------------------------------------------

    def start_hand(self, seed: int | str | None = None) -> Round:
        """Deal the next hand from ``seed``, or from the session's seed when None. Without
        a fixed first dealer, hand 1's first roll of the dice picks the dealer's chair."""
        if self.over:
            raise ValueError("the session has played all its hands")
        if self.current is not None:
            raise ValueError("the current hand has not been finished")
        number = self.hand_number
        if seed is None:
            if self.seed is None:
                raise ValueError("this session's hands take their seeds from the caller")
            seed = hand_seed(self.seed, number)
        if self.dealer is None:
            self.dealer = first_dealer_chair(roll_dice(random.Random(seed)))
        self.current = Round.new(
            self.ruleset,
            self.raw_options,
            seed,
            dealer=self.dealer,
            fields=self._fields,
            hand_number=number,
        )
        self.current_seed = seed
        return self.current

    def finish_hand(self) -> HandRecord:
        """Book the ended current hand: chair scores, the next dealer and fields."""
        rnd = self.current
        if rnd is None or not rnd.ended or self.current_seed is None:
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
            rnd.dealer,
            self.current_seed,
            rnd.to_script(),
            (by_chair[0], by_chair[1], by_chair[2], by_chair[3]),
        )
        self.history.append(record)
        self.hands_played += 1
        self._follow(rnd, number + 1)
        self.current = None
        self.current_seed = None
        return record

    def _follow(self, ended: Round, number: int) -> None:
        """Fix the dealer and the session fields of hand ``number`` after ``ended``."""
        next_seat = ended.next_dealer_seat or 0
        self._fields = self.ruleset.next_fields(self.options, ended, next_seat, number)
        self.dealer = (ended.dealer + next_seat) % 4

    @classmethod
    def resume(
        cls,
        variant: str | RuleSet[Any],
        options: Mapping[str, Any] | None,
        *,
        hands_played: int = 0,
        scores: Sequence[int] = (0, 0, 0, 0),
        last_hand: StoredHand | None = None,
        current_hand: StoredHand | None = None,
    ) -> Session:
        """Rebuild a session from what a store keeps (a restart); its later hands take
        their seeds from the caller.

        ``hands_played`` and ``scores`` (by chair) count the finished hands. In the middle
        of a hand, ``current_hand`` is that hand: it is rebuilt with its seed, so chance
        values still to come are drawn as live play would, and the actions its script
        holds are applied (pass the setup alone to apply them one by one). Between hands,
        ``last_hand`` is the last finished one, whose end fixes the next dealer and fields.
        A current hand that has ended stays ``current`` until :meth:`finish_hand`."""
        session = cls(variant, options, seed=None)
        if last_hand is not None and current_hand is not None:
            raise ValueError("give the hand in play or, between hands, the last one; not both")
        if hands_played and last_hand is None and current_hand is None:
            raise ValueError("between hands the last finished hand fixes the next dealer")
        if len(scores) != 4:
            raise ValueError(f"scores needs 4 chairs, got {len(scores)}")
        session.hands_played = hands_played
        session.scores = list(scores)
        if last_hand is not None:
            last = session._rebuild(last_hand, hands_played)
            if not last.ended:
                raise ValueError("the last finished hand has not ended")
            session._follow(last, hands_played + 1)
        if current_hand is not None:
            rnd = session._rebuild(current_hand, hands_played + 1)
            session.dealer = rnd.dealer
            session.current = rnd
            session.current_seed = current_hand.seed
        return session

    def _rebuild(self, hand: StoredHand, number: int) -> Round:
        named = hand.script.get("variant")
        if named != self.ruleset.variant:
            raise ValueError(f"a {named!r} hand cannot resume a {self.ruleset.variant} session")
        return Round.from_script(
            hand.script, ruleset=self.ruleset, seed=hand.seed, hand_number=number
        )
