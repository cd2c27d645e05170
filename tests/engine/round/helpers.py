"""Building hands for the engine's tests: explicit deals, walls and quick play-outs, and a
hand seen as its rule set's hooks see it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from engine.actions import Action
from engine.round import Round
from engine.rules.base import OptionsT
from engine.rules.play import HandState, RuleSet
from engine.tiles import counts_of, format_tiles, parse_tiles


def script(
    rules: RuleSet,
    hands: Sequence[str],
    *,
    front: str = "",
    back: str = "",
    actions: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    **fields: Any,
) -> dict[str, Any]:
    """A round script: the four hands, the wall starting with ``front`` (draw order) and
    ending with ``back`` (its last tile is the first replacement draw), the rest of the
    tile set in between in kind order."""
    used = [k for h in hands for k in parse_tiles(h)]
    head = parse_tiles(front)
    tail = parse_tiles(back)
    left = counts_of(rules.tiles)
    for k in used + head + tail:
        left[k] -= 1
        assert left[k] >= 0, f"too many copies of kind {k}"
    middle = [k for k in range(34) for _ in range(left[k])]
    wall = head + middle + tail
    return {
        "variant": rules.variant,
        "options": options or {},
        "dealer": dealer,
        "dice": [3, 4],
        "hands": list(hands),
        "wall": format_tiles(wall, sort=False),
        **fields,
        "actions": list(actions),
    }


def deal(rules: RuleSet, hands: Sequence[str], **kwargs: Any) -> Round:
    """A hand dealt as given, before any action."""
    return Round.from_script(script(rules, hands, **kwargs), ruleset=rules)


def random_play(rnd: Round, seed: int, limit: int = 10_000) -> list[Action]:
    """Random legal actions until the hand ends; returns them."""
    rng = random.Random(seed)
    done: list[Action] = []
    while not rnd.ended and len(done) < limit:
        seat = rng.choice(rnd.to_act())
        action = rng.choice(rnd.legal_actions(seat))
        rnd.apply(action)
        done.append(action)
    return done


def hand_state(rnd: Round, options_type: type[OptionsT]) -> HandState[OptionsT]:
    """``rnd`` as the hooks of a rule set reading ``options_type`` see it: a ``Round``
    holds its options as the base ``TableOptions``, which a type checker cannot match to
    the rule set's own options class."""
    assert isinstance(rnd.options, options_type)
    return cast(HandState[OptionsT], rnd)
