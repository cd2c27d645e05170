"""Dealing a table's hands one after another, and storing what a hand came to.

Each hand is a :class:`~engine.round.Round` built from a fresh seed. The first dealer is
chosen by the first dice the hand's seed rolls (counted from chair 0, as every rule set
says); later dealers, and the session-derived script fields, follow from the hand before.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from data.models import Payment, RoundResult, Win
from engine.round import Round
from engine.wall import first_dealer_chair, roll_dice, seed_fingerprint


@dataclass(frozen=True, slots=True)
class Deal:
    """A new hand and the seed it came from."""

    hand: Round
    seed: str

    @property
    def fingerprint(self) -> str:
        return seed_fingerprint(self.seed)

    def setup(self) -> dict[str, Any]:
        """The hand's round script without actions: what the store keeps to replay it."""
        script = self.hand.to_script()
        script.pop("actions", None)
        return script


def new_seed() -> str:
    return secrets.token_hex(16)


def first_deal(variant: str, options: Mapping[str, Any], seed: str) -> Deal:
    """Hand 1: the seed's first roll picks the dealer's chair."""
    dealer = first_dealer_chair(roll_dice(random.Random(seed)))
    hand = Round.new(variant, options, seed, dealer=dealer, hand_number=1)
    return Deal(hand, seed)


def next_deal(
    variant: str, options: Mapping[str, Any], seed: str, previous: Round, hand_number: int
) -> Deal:
    """Hand ``hand_number`` after ``previous``: its next dealer and session fields."""
    next_seat = previous.next_dealer_seat or 0
    fields = previous.ruleset.next_fields(previous.options, previous, next_seat, hand_number)
    dealer = (previous.dealer + next_seat) % 4
    hand = Round.new(variant, options, seed, dealer=dealer, fields=fields, hand_number=hand_number)
    return Deal(hand, seed)


def replayed(setup: Mapping[str, Any], actions: list[dict[str, Any]]) -> Round:
    """A stored hand rebuilt from its setup and actions."""
    return Round.from_script({**setup, "actions": actions})


def round_result(hand: Round) -> RoundResult:
    """The finished hand as the store records it."""
    result = hand.result()
    wins = [
        Win(
            seat=w["seat"],
            how=w["how"],
            total=w["total"],
            fans=w["fans"],
            from_seat=w.get("from_seat"),
        )
        for w in result["winners"]
    ]
    payments = [
        Payment(
            payer=p["payer"],
            payee=p["payee"],
            amount=p["amount"],
            reason=p["reason"],
            extra={k: v for k, v in p.items() if k not in ("payer", "payee", "amount", "reason")}
            or None,
        )
        for p in result["payments"]
    ]
    return RoundResult(
        wins=wins, payments=payments, net=result["net"], next_dealer=result["next_dealer"]
    )
