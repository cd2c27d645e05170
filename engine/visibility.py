"""Who sees what of a hand: the views the round hands out and the log as each viewer
may read it. These are the only ways private information leaves the engine.

A seat sees its own concealed tiles, and those of the seats the rule set shows it (MCR
火眼金睛) or the viewer's ``reveal`` adds; at the end everyone sees everything.
"""

from __future__ import annotations

from engine.events import Event
from engine.phase import Phase
from engine.round_state import RoundState
from engine.rules.play import WinHow
from engine.view import SeatInfo, View


def visible_copies(rnd: RoundState, tile: int, how: WinHow) -> int:
    """Copies of ``tile`` anyone can see, not counting the winning tile itself (和绝张)."""
    n = 0
    for seat in range(4):
        for d in rnd.discards(seat):
            if d.tile == tile and d.claimed_by is None:
                n += 1
        for m in rnd.melds(seat):
            if not m.concealed:
                n += m.tiles.count(tile)
    for name, tiles in rnd.set_aside.items():
        if rnd.aside_face_up(name):
            n += tiles.count(tile)
    if how is WinHow.DISCARD:
        n -= 1
    return n


def sees(rnd: RoundState, viewer: int | None, seat: int, reveal: frozenset[int]) -> bool:
    """Whether ``viewer`` (None: a spectator) may see ``seat``'s concealed tiles."""
    if rnd.phase is Phase.END or seat in reveal:
        return True
    if viewer is None:
        return False
    return viewer == seat or seat in rnd.ruleset.visible_hands(rnd, viewer)


def build_view(rnd: RoundState, viewer: int | None, reveal: frozenset[int]) -> View:
    """The hand as ``viewer`` may see it (None: a spectator). ``reveal`` adds seats
    whose concealed tiles this viewer may see (a player's 旁观看牌 setting)."""
    dealt = rnd.is_dealt
    seats = []
    for s in range(4):
        shown = dealt and sees(rnd, viewer, s, reveal)
        melds = tuple(m for m in rnd.melds(s) if shown or not m.concealed)
        seats.append(
            SeatInfo(
                seat=s,
                concealed=tuple(rnd.concealed(s)) if shown else None,
                concealed_count=sum(rnd.concealed(s)) if dealt else 0,
                melds=melds,
                hidden_kongs=len(rnd.melds(s)) - len(melds),
                discards=tuple(rnd.discards(s)),
                active=rnd.is_active(s),
                ready=rnd.ready(s) is not None,
                # While an added kong may be robbed, its tile (often the one just
                # drawn) has left the hand.
                drawn=rnd.last_drawn(s) if shown and rnd.phase is Phase.TURN else None,
            )
        )
    aside: dict[str, tuple[int, ...] | int] = {
        name: tiles if (rnd.shows_aside(name) or rnd.phase is Phase.END) else len(tiles)
        for name, tiles in rnd.set_aside.items()
    }
    window = rnd.window
    return View(
        variant=rnd.variant,
        viewer=viewer,
        dealer=rnd.dealer,
        dice=rnd.dice if rnd.dice_shown else None,
        phase=rnd.phase.value,
        turn=rnd.turn,
        live_count=rnd.live_count,
        seats=tuple(seats),
        claim_tile=window.tile if window else None,
        claim_from=window.from_seat if window else None,
        last_discard=rnd.last_discard,
        prompt=rnd.prompt.id if rnd.prompt is not None else None,
        aside=aside,
        wins=tuple(rnd.wins),
        payments=tuple(rnd.ledger.lines),
        shape_rules=rnd.ruleset.shape_rules(rnd, viewer) if viewer is not None else None,
        allows_chow=rnd.ruleset.allows_chow,
        facts=rnd.ruleset.view_facts(rnd, viewer),
        options=rnd.options,
    )


def events_for(
    rnd: RoundState, viewer: int | None, start: int, reveal: frozenset[int]
) -> list[Event]:
    """The log from ``start`` as ``viewer`` may see it (None: a spectator)."""
    out = []
    for event in rnd.events[start:]:
        owner = event.owner()
        # Seeing another seat's hand shows its tiles, never its choices.
        if (
            owner is None
            or owner == viewer
            or (event.hand_tiles and sees(rnd, viewer, owner, reveal))
        ):
            out.append(event)
            continue
        shown = event.redacted()
        if shown is not None:
            out.append(shown)
    return out
