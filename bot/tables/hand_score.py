"""算番 on a hand message: what the player's ready hand would score on each tile it waits
for, on a discard and self-drawn, worked out by the calculator (Contract 1) from what the
player's own view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.i18n.terms import fan_name, tile_label, variant_name, worth_text
from bot.runtime.snapshots import SeatState
from engine.rules.registry import find_calculator
from engine.score import handle
from engine.tiles import HandSpec, kinds_of, tile_str

WINDS = "ESWN"
SUIT_LETTERS = "mps"


def requests(
    state: SeatState, rules: Mapping[str, Any], tile: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The calculator's requests for a win on ``tile``: on a discard, and self-drawn."""
    info = state.view.seats[state.seat]
    assert info.concealed is not None
    spec = HandSpec(tuple(kinds_of(info.concealed)), tuple(info.melds))
    facts = state.view.facts
    options = dict(rules)
    if state.own_void is not None:
        options["void_suit"] = SUIT_LETTERS[state.own_void]
    base: dict[str, Any] = {
        "variant": state.facts.variant,
        "hand": spec.notation(),
        "win_tile": tile_str(tile),
        "seat_wind": WINDS[state.seat],
        "round_wind": WINDS[facts.round_wind or 0],
        "options": options,
    }
    if facts.wildcard is not None and find_calculator(state.facts.variant).allows_wildcard:
        base["wildcard"] = tile_str(facts.wildcard)
    return {**base, "self_drawn": False}, {**base, "self_drawn": True}


def scored(state: SeatState, rules: Mapping[str, Any], locale: str) -> str:
    """The 算番 answer: for each tile the hand waits for, its total on a discard and
    self-drawn, and the fans of the discard win."""
    variant = state.facts.variant
    waits = state.readiness.waits if state.readiness is not None else ()
    lines = [t("score.heading", locale, variant=variant_name(variant, locale))]
    if not waits:
        lines.append(t("score.not_ready", locale))
        return "\n".join(lines)
    for wait in waits:
        on_discard, self_drawn = (handle(r) for r in requests(state, rules, wait.tile))
        if not on_discard.get("ok") or not self_drawn.get("ok"):
            lines.append(t("score.cannot", locale, tile=tile_label(wait.tile, locale)))
            continue
        fans = t("list.separator", locale).join(
            fan_name(variant, line, locale) for line in on_discard["fans"]
        )
        lines.append(
            t(
                "score.line",
                locale,
                tile=tile_label(wait.tile, locale),
                discard=worth_text(variant, on_discard["total"], locale),
                self_drawn=worth_text(variant, self_drawn["total"], locale),
                fans=fans or "—",
            )
        )
        if on_discard.get("meets_minimum") is False:
            lines.append(t("score.below_minimum", locale))
    return "\n".join(lines)
