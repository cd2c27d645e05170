"""Round scripts (Contract 2): reading one into what a hand is built from, and writing
the script of a hand so far.

A script fixes everything chance decides (options, dealer, dice, deal and wall, the
rule set's chance values) and lists the players' actions; ``Round.from_script`` builds
the hand from :func:`read_script` and ``Round.to_script`` writes it with
:func:`write_script`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.errors import ScriptError
from engine.round_state import RoundState
from engine.rules.base import RuleError, TableOptions
from engine.rules.play import RuleSet
from engine.rules.registry import find_ruleset
from engine.tiles import NUM_KINDS, NotationError, counts_of, format_tiles, parse_tiles, tile_str
from engine.wall import Deal

COMMON_SCRIPT_FIELDS = ("variant", "options", "dealer", "dice", "hands", "wall", "actions")


@dataclass(frozen=True, slots=True)
class ReadScript:
    """A valid round script, read: what the hand is built from and the actions to play.

    ``fields``: the session fields, holding from the start; ``fixed``: the chance values
    the script fixes, which join ``fields`` when the hand reaches them.
    """

    ruleset: RuleSet[Any]
    options: TableOptions
    raw_options: dict[str, Any]
    dealer: int
    dice: tuple[int, int]
    fields: dict[str, Any]
    fixed: dict[str, Any]
    deal: Deal
    actions: list[Action]


def read_script(script: Mapping[str, Any], ruleset: RuleSet[Any] | None = None) -> ReadScript:
    """Check and read a round script; a ScriptError names what is not valid.
    ``ruleset`` overrides the registry's rule set for the script's variant."""
    if not isinstance(script, Mapping):
        raise ScriptError("a round script must be a JSON object")
    variant = script.get("variant")
    if not isinstance(variant, str):
        raise ScriptError("missing field 'variant'")
    if ruleset is None:
        try:
            ruleset = find_ruleset(variant)
        except RuleError as exc:
            raise ScriptError(str(exc)) from None
    unknown = sorted(set(script) - set(COMMON_SCRIPT_FIELDS) - set(ruleset.script_fields))
    if unknown:
        raise ScriptError(f"unknown field '{unknown[0]}'")
    raw_options = script.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise ScriptError("'options' must be an object")
    try:
        options = ruleset.read_options(raw_options)
        extras = {k: script[k] for k in ruleset.script_fields if k in script}
        fixed = ruleset.check_fields(extras, options)
        fields = ruleset.first_fields(options)
        # Session fields hold from the start; chance values join ``fields`` when
        # the hand reaches them, exactly as in live play.
        fields.update({k: v for k, v in fixed.items() if k in fields})
    except RuleError as exc:
        raise ScriptError(str(exc)) from None
    dealer = script.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise ScriptError("'dealer' must be a chair 0-3")
    dice = script.get("dice")
    if (
        not isinstance(dice, list)
        or len(dice) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
    ):
        raise ScriptError("'dice' must be two dice, e.g. [3, 5]")
    built = script_deal(script, ruleset)
    raw_actions = script.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScriptError("'actions' must be a list")
    actions = []
    for index, raw in enumerate(raw_actions):
        try:
            actions.append(Action.from_json(raw))
        except ScriptError as exc:
            raise ScriptError(f"action {index}: {exc}") from None
    return ReadScript(
        ruleset=ruleset,
        options=options,
        raw_options=dict(raw_options),
        dealer=dealer,
        dice=(dice[0], dice[1]),
        fields=fields,
        fixed={k: v for k, v in fixed.items() if k not in fields},
        deal=built,
        actions=actions,
    )


def write_script(rnd: RoundState) -> dict[str, Any]:
    """The round script of ``rnd`` so far: replaying it rebuilds this state."""
    script: dict[str, Any] = {
        "variant": rnd.variant,
        "options": dict(rnd.raw_options),
        "dealer": rnd.dealer,
        "dice": list(rnd.dice),
        "hands": [format_tiles(h) for h in rnd.dealt],
        "wall": format_tiles(rnd.undealt, sort=False),
    }
    for name in rnd.ruleset.script_fields:
        if name in rnd.fields:
            script[name] = rnd.fields[name]
    script["actions"] = [a.to_json() for a in rnd.actions]
    return script


def script_deal(script: Mapping[str, Any], ruleset: RuleSet[Any]) -> Deal:
    """The script's ``hands`` and ``wall``, checked against the rule set's tiles."""
    hands_raw = script.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != 4:
        raise ScriptError("'hands' must list the four dealt hands, seat 0 first")
    hands = []
    for seat, text in enumerate(hands_raw):
        if not isinstance(text, str):
            raise ScriptError(f"hand of seat {seat} must be a string of tiles")
        try:
            tiles = parse_tiles(text)
        except NotationError as exc:
            raise ScriptError(f"hand of seat {seat}: {exc}") from None
        size = 14 if seat == 0 else 13
        if len(tiles) != size:
            raise ScriptError(f"hand of seat {seat} has {len(tiles)} tiles; it needs {size}")
        hands.append(tuple(tiles))
    wall_raw = script.get("wall")
    if not isinstance(wall_raw, str):
        raise ScriptError("'wall' must be the undealt tiles as one string, front first")
    try:
        wall = tuple(parse_tiles(wall_raw))
    except NotationError as exc:
        raise ScriptError(f"wall: {exc}") from None
    have = counts_of([k for h in hands for k in h] + list(wall))
    want = counts_of(ruleset.tiles)
    if have != want:
        for k in range(NUM_KINDS):
            if have[k] != want[k]:
                raise ScriptError(
                    f"hands and wall hold {have[k]} of {tile_str(k)}; "
                    f"{ruleset.variant} uses {want[k]}"
                )
    return Deal(tuple(hands), wall)
