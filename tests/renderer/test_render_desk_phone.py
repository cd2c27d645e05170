"""Scaled to 360 px wide, as a phone shows a DM's picture, every face-up tile of a hand
message's picture (the player's own, the others' melds and discards, the waits) is at
least 18 px wide, and nothing leaves the picture. Measured on the picture's plan."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.ai import make_player
from engine.round import Round
from engine.tiles import Meld, MeldType
from renderer import desk, engine_views
from renderer.desk import DeskPlan
from renderer.engine_views import SeatText
from renderer.models import DeskView, HandView, Labels, OpponentView
from renderer.reference import reference_desk
from renderer.sprites import BACK

PHONE_WIDTH = 360
MIN_PHONE_TILE = 18


#: The seats of random play, with each kind of note.
SEATS = [
    SeatText(f"Player {seat}", seat * 100, note)
    for seat, note in enumerate(("", "", "托管", "电脑"))
]


def played(variant: str, seed: int) -> Iterator[Round]:
    """A hand of random play, after each of its steps."""
    hand = Round.new(variant, {}, seed)
    players = [make_player("random" if seat % 2 else "basic", seed + seat) for seat in range(4)]
    while not hand.ended:
        seat = hand.to_act()[0]
        choices = hand.legal_actions(seat)
        action = (
            choices[0]
            if hand.prompt is not None
            else players[seat].choose(hand.view(seat), choices, hand.default_action(seat))
        )
        hand.apply(action)
        yield hand


def problems(plan: DeskPlan) -> list[str]:
    width, height = plan.size
    scale = PHONE_WIDTH / width
    out = []
    for tile in plan.tiles:
        x, y, w, h = tile.box
        if tile.placed.face != BACK and tile.width * scale < MIN_PHONE_TILE:
            out.append(f"{tile.part.value} tile {tile.width * scale:.1f} px wide")
        if x < 0 or y < 0 or x + w > width or y + h > height:
            out.append(f"{tile.part.value} tile at {tile.box} outside {plan.size}")
    for sprite in plan.sprites:
        x, y, w, h = sprite.box
        if x < 0 or y < 0 or x + w > width or y + h > height:
            out.append(f"a sprite at {sprite.box} outside {plan.size}")
    return out


def kong(kind: int, owner: int) -> Meld:
    return Meld(MeldType.KONG, kind, claimed=kind, from_seat=(owner + 1) % 4, added=True)


def crowded() -> DeskView:
    """Four kongs for everyone, full rivers, nine waits, a win: the widest a desk gets."""
    others = tuple(
        OpponentView(
            f"Player {s} 名字很长很长很长很长",
            place,
            s,
            melds=tuple(kong(9 * (i % 3) + s + i, s) for i in range(4)),
            discards=tuple(range(24)),
            void_suit=s % 3,
            won_tile=4,
            note="托管",
            current=s == 3,
            live=s == 3,
        )
        for s, place in zip((1, 2, 3), ("下家", "对家", "上家"), strict=True)
    )
    hand = HandView(
        concealed=(0,),
        drawn=0,
        melds=tuple(kong(27 + i, 0) for i in range(4)),
        waits=tuple(range(9)),
        title="一个很长很长很长很长很长很长很长很长很长很长的标题",
    )
    return DeskView(hand, others, wall_left=3, wait_left=(3,) * 9, won_tile=5, won_order=1)


def test_the_crowded_desk_and_the_reference_read_on_a_phone() -> None:
    for view in (crowded(), reference_desk()):
        plan = desk.plan(view)
        assert not problems(plan)
        assert plan.size[0] == desk.WIDTH


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("seed", range(3))
def test_every_desk_of_random_play_reads_on_a_phone(variant: str, seed: int) -> None:
    for hand in played(variant, seed):
        for viewer in range(4):
            view = engine_views.desk_view(hand.view(viewer), viewer, SEATS, Labels(), "t", None)
            assert not problems(desk.plan(view))
