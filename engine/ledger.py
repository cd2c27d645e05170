"""The settlement ledger: every payment of a hand as a line payer -> payee.

Every rule and every horse writes into one ledger; nets are derived from it, so they
always sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str
    # Fields a rule set adds to the printed line (a horse line's tile and copied line).
    extra: tuple[tuple[str, int | str], ...] = ()

    def to_json(self) -> dict[str, int | str]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            **dict(self.extra),
        }


@dataclass(slots=True)
class Ledger:
    """Payment lines in the order the rule set writes them; seats of the hand."""

    lines: list[Payment] = field(default_factory=list)

    def pay(
        self,
        payer: int,
        payee: int,
        amount: int,
        reason: str,
        extra: tuple[tuple[str, int | str], ...] = (),
    ) -> None:
        if payer == payee:
            raise ValueError(f"seat {payer} cannot pay itself ({reason})")
        if amount < 0:
            raise ValueError(f"negative payment {amount} ({reason})")
        if amount:
            self.lines.append(Payment(payer, payee, amount, reason, extra))

    def extend(self, lines: list[Payment]) -> None:
        for p in lines:
            self.pay(p.payer, p.payee, p.amount, p.reason, p.extra)

    def nets(self, seats: int = 4) -> list[int]:
        net = [0] * seats
        for p in self.lines:
            net[p.payer] -= p.amount
            net[p.payee] += p.amount
        return net

    def to_json(self) -> list[dict[str, int | str]]:
        return [p.to_json() for p in self.lines]
