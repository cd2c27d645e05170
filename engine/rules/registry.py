"""Rule sets by name. The only place in the engine where a variant name selects code."""

from __future__ import annotations

import importlib

from engine.rules.base import Calculator, RuleError

VARIANTS = ("mcr", "guangdong", "sichuan")

# Each rule set's calculator lives in engine.rules.<variant>.calculator as CALCULATOR.
_CALCULATOR_MODULES = {v: f"engine.rules.{v}.calculator" for v in VARIANTS}


def find_calculator(variant: str) -> Calculator:
    if variant not in VARIANTS:
        raise RuleError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    try:
        module = importlib.import_module(_CALCULATOR_MODULES[variant])
    except ModuleNotFoundError as exc:
        if exc.name and _CALCULATOR_MODULES[variant].startswith(exc.name):
            raise RuleError(f"scoring for variant {variant!r} is not available yet") from None
        raise
    calculator: Calculator = module.CALCULATOR
    return calculator
