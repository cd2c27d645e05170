"""A hand's seed, and what the store keeps of a hand: its setup and its result.

Which hand comes next (the first dealer, the next dealer, the session fields) is the
engine's :class:`~engine.session.Session`; the bot gives each hand a fresh seed.
"""

from __future__ import annotations

import secrets
from typing import Any

from data.models import Payment, RoundResult, Win
from engine.round import Round


def new_seed() -> str:
    return secrets.token_hex(16)


def setup(hand: Round) -> dict[str, Any]:
    """The hand's round script without actions: what the store keeps to replay it."""
    script = hand.to_script()
    script.pop("actions", None)
    return script


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
