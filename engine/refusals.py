"""Why an action is refused, in words a player understands.

The round (``engine.round``) knows which actions are legal; when one that is not is
tried, :func:`diagnose` says why, in the terms of the hand as it stands: someone else's
turn, a window still open, a void suit, a claim a pass restriction withholds, ...
"""

from __future__ import annotations

from engine.actions import Action, Chow, Discard, Kong, Pass, Pong, Win
from engine.errors import Refusal
from engine.phase import Phase, TurnMode
from engine.round_state import RoundState
from engine.rules.play import WinHow
from engine.tiles import MeldType, tile_str
from engine.windows import Offer, Window

# The actions that answer a claim or rob window.
ANSWERS = frozenset({"win", "kong", "pong", "chow", "pass"})


def diagnose(rnd: RoundState, action: Action) -> Refusal:
    """Why an action not in the legal list is refused, in words a player understands."""
    seat = action.seat
    if rnd.phase is Phase.END:
        return Refusal("hand_over", "the hand is over; no more actions are taken")
    if not rnd.is_active(seat):
        return Refusal("seat_out", f"seat {seat} has already won and is out of play")
    window = rnd.window
    if window is not None:
        return _diagnose_window(rnd, window, action)
    late = rnd.last_window
    # A pong can only answer a discard; a win or kong by the turn seat is its own move.
    if late is not None and (
        isinstance(action, Pong) or (seat != rnd.turn and isinstance(action, Win | Kong))
    ):
        refusal = late.withheld_refusal(action)
        if refusal is not None:
            return refusal
    if seat != rnd.turn:
        if action.name in ANSWERS - {"win", "kong"}:
            return Refusal("nothing_to_claim", f"seat {seat} has no discard to answer")
        return Refusal("not_your_turn", f"it is seat {rnd.turn}'s turn, not seat {seat}'s")
    return _diagnose_turn(rnd, action)


def _diagnose_window(rnd: RoundState, window: Window, action: Action) -> Refusal:
    seat = action.seat
    tile = window.tile
    if seat in window.answers:
        what = "kong" if window.rob else "discard"
        return Refusal("already_answered", f"seat {seat} has already answered this {what}")
    if action.name not in ANSWERS or seat == window.from_seat:
        return Refusal(
            "claim_window_open",
            f"wait: the other seats may still answer the {tile_str(tile)}",
        )
    if isinstance(action, Chow) and not window.rob:
        if not rnd.ruleset.allows_chow:
            return Refusal("chow_not_allowed", "chow is not allowed in this rule set")
        if seat != (window.from_seat + 1) % 4:
            return Refusal(
                "chow_wrong_seat",
                f"seat {seat} can only chow from its 上家 (seat {(seat + 3) % 4}), "
                f"not from seat {window.from_seat}",
            )
    refusal = window.withheld_refusal(action)
    if refusal is not None:
        return refusal
    offer = window.offers.get(seat, Offer())
    if isinstance(action, Win):
        how = WinHow.ROB_KONG if window.rob else WinHow.DISCARD
        return _win_refusal(rnd, seat, tile, how) or Refusal(
            "not_a_win", f"seat {seat} does not win with {tile_str(tile)}"
        )
    if window.rob:
        return Refusal("rob_only", "a kong being added can only be robbed, not claimed")
    if not offer.any:
        return Refusal("nothing_to_claim", f"seat {seat} cannot claim the {tile_str(tile)}")
    if isinstance(action, Chow):
        return Refusal("no_chow", f"seat {seat} cannot chow {tile_str(tile)} with those tiles")
    if rnd.live_count == 0 and action.name in ("pong", "kong"):
        return Refusal("last_discard", "the last discard can only be won, not claimed")
    if isinstance(action, Pong):
        return rnd.ruleset.refuse_meld(rnd, seat, tile, "pong") or Refusal(
            "no_pong", f"seat {seat} cannot pong {tile_str(tile)}"
        )
    if isinstance(action, Kong) and action.tile != tile:
        return Refusal("no_kong", f"only the {tile_str(tile)} just discarded can be konged now")
    return Refusal("no_kong", f"seat {seat} cannot kong {tile_str(tile)}")


def _win_refusal(rnd: RoundState, seat: int, tile: int, how: WinHow) -> Refusal | None:
    """The rule set's refusal of a win by ``seat`` with ``tile`` as things stand."""
    counts = list(rnd.concealed(seat))
    if how is not WinHow.SELF_DRAW:
        counts[tile] += 1
    complete = rnd.ruleset.is_complete(rnd, seat, counts, tile, how)
    ctx = rnd.win_context(seat, tile, how)
    score = rnd.ruleset.score_win(rnd, ctx) if complete else None
    return rnd.ruleset.refuse_win(rnd, ctx, score)


def _diagnose_turn(rnd: RoundState, action: Action) -> Refusal:
    seat = action.seat
    hand = rnd.concealed(seat)
    if isinstance(action, Discard):
        if not hand[action.tile]:
            return Refusal("tile_not_held", f"seat {seat} does not hold {tile_str(action.tile)}")
        drawn = rnd.last_drawn(seat)
        if rnd.ready(seat) is not None and drawn is not None and action.tile != drawn:
            return Refusal(
                "ready_locked",
                f"seat {seat} declared ready and must discard the {tile_str(drawn)} it drew",
            )
        refusal = rnd.ruleset.refuse_discard(rnd, seat, action.tile)
        if refusal is not None:
            return refusal
        if action.declare_ready:
            return Refusal(
                "cannot_declare_ready",
                f"discarding {tile_str(action.tile)} does not leave seat {seat} ready",
            )
        return Refusal("illegal", f"{action.describe()} is not allowed now")
    if isinstance(action, Pass):
        return Refusal("nothing_to_pass", f"it is seat {seat}'s turn: discard a tile")
    if isinstance(action, Pong | Chow):
        return Refusal("nothing_to_claim", f"seat {seat} has no discard to answer")
    if rnd.turn_mode is TurnMode.CLAIMED:
        return Refusal("must_discard", f"after a claim seat {seat} must discard")
    if isinstance(action, Win):
        for tile in rnd.win_tiles(seat):
            refusal = _win_refusal(rnd, seat, tile, WinHow.SELF_DRAW)
            if refusal is not None:
                return refusal
        return Refusal("not_a_win", f"seat {seat}'s hand is not a winning hand")
    if isinstance(action, Kong):
        tile = action.tile
        if rnd.live_count == 0:
            return Refusal("wall_empty", "no kong is possible: the wall is empty")
        if rnd.ready(seat) is not None:
            return Refusal("ready_locked", f"seat {seat} declared ready and may not kong")
        has_pung = any(m.type is MeldType.PUNG and m.kind == tile for m in rnd.melds(seat))
        if hand[tile] == 4 or (has_pung and hand[tile]):
            refusal = rnd.ruleset.refuse_meld(rnd, seat, tile, "kong")
            if refusal is not None:
                return refusal
        return Refusal(
            "no_kong", f"seat {seat} holds no four {tile_str(tile)} and no pung to add to"
        )
    return Refusal("illegal", f"{action.describe()} is not allowed now")
