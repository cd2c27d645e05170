"""Why the engine refused a move, in the player's words.

Every reason code of :class:`~engine.errors.Refusal` has a catalog text
``refusal.<code>``, filled with what the refusal is about: the tile, the tiles the move
named, whose turn it is, the seat on the left, the 定缺 suit, the allowed bets. A text
whose details cannot be told in the moment falls back to the general "not allowed now".
"""

from __future__ import annotations

from collections import Counter

from bot.i18n import catalog, has, placeholders, t
from bot.i18n.terms import own_key, player_names, suit_label, tile_label, tiles_label
from bot.runtime.snapshots import Refused
from engine.actions import Action, Bet, Win

GENERIC = "click.refused"


def _subject_tile(refused: Refused) -> int | None:
    """The tile the move is about: the one it names, the discard being claimed, or the
    tile a self-drawn win would take; None when the move has none of these."""
    action, view = refused.action, refused.view
    named = getattr(action, "tile", None)
    if isinstance(named, int):
        return named
    if view.claim_tile is not None:
        return view.claim_tile
    if isinstance(action, Win):
        return view.seats[action.seat].drawn
    return None


def _named_tiles(action: Action) -> tuple[int, ...] | None:
    tiles = getattr(action, "tiles", None)
    return tuple(tiles) if isinstance(tiles, tuple) else None


def details(refused: Refused, locale: str) -> dict[str, str]:
    """Every detail the refused move allows telling, worded for ``locale``."""
    action, view, seat = refused.action, refused.view, refused.action.seat
    names = player_names(refused.names, refused.ai, locale)
    values: dict[str, str] = {"left": names[(seat + 3) % 4]}
    tile = _subject_tile(refused)
    if tile is not None:
        values["tile"] = tile_label(tile, locale)
    tiles = _named_tiles(action)
    if tiles is not None:
        values["tiles"] = tiles_label(tiles, locale)
        values["count"] = str(len(tiles))
    wanted = tiles if tiles is not None else (tile,) if tile is not None else ()
    held = view.seats[seat].concealed
    if wanted and held is not None:
        missing = Counter(wanted) - Counter({k: n for k, n in enumerate(held) if n})
        if missing:
            values["missing"] = tiles_label(sorted(missing.elements()), locale)
    if view.turn is not None:
        values["turn"] = names[view.turn]
    if refused.void is not None:
        values["suit"] = suit_label(refused.void, locale)
    factors = sorted({a.factor for a in refused.legal if isinstance(a, Bet)})
    if factors:
        values["factors"] = t("list.separator", locale).join(f"×{f}" for f in factors)
    return values


def refusal_text(refused: Refused, variant: str, locale: str) -> str:
    """The refusal's own text, in the rule set's words, with its details, or the general
    one."""
    key = own_key(variant, f"refusal.{refused.refusal.reason}")
    if not has(key):
        return t(GENERIC, locale)
    values = details(refused, locale)
    if not placeholders(catalog(locale)[key]) <= values.keys():
        return t(GENERIC, locale)
    return t(key, locale, **values)
