"""Rule sets by name. The only place in the engine where a variant name selects code."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine.rules.base import Calculator, RuleError

if TYPE_CHECKING:
    from engine.rules.play import RuleSet

VARIANTS = ("mcr", "guangdong", "sichuan")

# Each rule set's calculator lives in engine.rules.<variant>.calculator as CALCULATOR.
_CALCULATOR_MODULES = {v: f"engine.rules.{v}.calculator" for v in VARIANTS}
# Each rule set's round rules live in engine.rules.<variant>.ruleset as RULESET.
_RULESET_MODULES = {v: f"engine.rules.{v}.ruleset" for v in VARIANTS}


def _load(variant: str, modules: dict[str, str], what: str) -> ModuleType:
    if variant not in VARIANTS:
        raise RuleError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    try:
        return importlib.import_module(modules[variant])
    except ModuleNotFoundError as exc:
        if exc.name and modules[variant].startswith(exc.name):
            raise RuleError(f"{what} for variant {variant!r} is not available yet") from None
        raise


def find_calculator(variant: str) -> Calculator[Any]:
    calculator: Calculator[Any] = _load(variant, _CALCULATOR_MODULES, "scoring").CALCULATOR
    return calculator


def find_ruleset(variant: str) -> RuleSet[Any]:
    """The round rules of ``variant`` (``engine.rules.<variant>.ruleset.RULESET``)."""
    ruleset: RuleSet[Any] = _load(variant, _RULESET_MODULES, "play").RULESET
    return ruleset
