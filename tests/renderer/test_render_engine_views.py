"""Every state of random play, seen from every seat, becomes the pictures' descriptions;
some of them are drawn. A view the renderer cannot read fails here rather than in a
player's DM (rare states have tests of their own: a drawn tile gone into an added kong
that may be robbed, in tests/engine/round/test_claims.py)."""

from __future__ import annotations

import pytest

from engine.ai import make_player
from engine.round import Round
from renderer import engine_views, render_hand, render_settlement, render_table
from renderer.engine_views import SeatText
from renderer.models import Labels

SEATS = [SeatText(f"P{seat}", seat * 10) for seat in range(4)]
DRAW_EVERY = 25


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(6))
def test_every_view_of_random_play_is_drawable(variant: str, seed: int) -> None:
    labels = Labels()
    hand = Round.new(variant, {}, seed)
    players = [make_player("random" if seat % 2 else "basic", seed + seat) for seat in range(4)]
    step = 0
    while not hand.ended:
        seat = hand.to_act()[0]
        choices = hand.legal_actions(seat)
        view = hand.view(seat)
        action = (
            choices[0]
            if hand.prompt is not None
            else players[seat].choose(view, choices, hand.default_action(seat))
        )
        hand.apply(action)
        step += 1
        table = engine_views.table_view(hand.view(None), SEATS, labels, "t")
        for viewer in range(4):
            mine = engine_views.hand_view(hand.view(viewer), viewer, labels, "t", None)
            if step % DRAW_EVERY == viewer:
                render_hand(mine)
        if step % DRAW_EVERY == 0:
            render_table(table)
    render_settlement(engine_views.settlement_view(hand, ["a", "b", "c", "d"], labels, "t"))
