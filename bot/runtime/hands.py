"""A hand's seed, and what the store keeps of a hand: its setup and its result.

Which hand comes next (the first dealer, the next dealer, the session fields) is the
engine's :class:`~engine.session.Session`; the bot gives each hand a fresh seed.
"""

from __future__ import annotations

import secrets
from typing import Any

from data.models import Payment, RoundResult, Win
from engine.round import Round
from engine.rules.play import ScoredWin


def new_seed() -> str:
    return secrets.token_hex(16)


def setup(hand: Round) -> dict[str, Any]:
    """The hand's round script without actions: what the store keeps to replay it."""
    script = hand.to_script()
    script.pop("actions", None)
    return script


def named_how(how: str, replacement: bool) -> str:
    """How a win came, as players name it: a self-draw on a kong's replacement tile is a
    kong bloom in every rule set, whether or not the rule set pays a fan for it (血战's
    option off) or names it in its own report (广东's)."""
    return "kong_bloom" if how == "self_draw" and replacement else how


def win_how(win: ScoredWin) -> str:
    """:func:`named_how` of a scored win."""
    return named_how(win.how, win.context.after_kong is not None)


def round_result(hand: Round) -> RoundResult:
    """The finished hand as the store records it (a win's kind as players name it)."""
    result = hand.result()
    wins = [
        Win(
            seat=w["seat"],
            how=win_how(scored),
            total=w["total"],
            fans=w["fans"],
            from_seat=w.get("from_seat"),
        )
        for w, scored in zip(result["winners"], hand.wins, strict=True)
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
