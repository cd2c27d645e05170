"""Pictures showing every kind of thing their kind of picture draws. The table and hand
pictures take their fixed palettes from them, and the render benchmark draws them.

The late-game table has all 34 tile faces, melds of every kind, a revealed hand, horses,
a wildcard, the void of every suit, a win with its order, the prevailing wind, the ringed
latest discard with its caption, a note, names in Chinese and Latin letters, gains and
losses.
The hand has a drawn tile, melds, dimmed tiles, the void suit, a 宝牌 and waits. The desk
has that hand with the copies left of its waits, and three other seats with melds of
every kind, rivers, a ringed discard, a win, the void of every suit and a note, one of
them to move.
"""

from __future__ import annotations

from engine.tiles import Meld, MeldType, parse_hand, parse_tile, parse_tiles
from renderer.models import DeskView, HandView, HorseView, OpponentView, SeatView, TableView


def reference_hand() -> HandView:
    spec = parse_hand("1123m456p99s7z[777s]{4444z}")
    return HandView(
        concealed=spec.concealed,
        drawn=parse_tile("5m"),
        melds=spec.melds,
        legal_discards=frozenset(parse_tiles("1259m")),
        void_suit=1,
        waits=tuple(parse_tiles("14m7z")),
        wildcard=parse_tile("9s"),
        title="Alice 的手牌",
    )


def _river(first: int, count: int) -> tuple[int, ...]:
    return tuple((first + n) % 34 for n in range(count))


def late_game_table() -> TableView:
    seats = (
        SeatView(
            "庄家小明",
            1200,
            hand=tuple(parse_tiles("1234m567p1188s77z")),
            drawn=True,
            discards=_river(0, 20),
        ),
        SeatView(
            "Bob",
            -300,
            hand_count=10,
            melds=(Meld(MeldType.PUNG, 31, claimed=31, from_seat=0),),
            discards=_river(20, 19),
            void_suit=1,
            note="托管",
        ),
        SeatView(
            "西门吹雪",
            500,
            hand_count=7,
            melds=(
                Meld(MeldType.CHOW, 3, claimed=4, from_seat=1),
                Meld(MeldType.KONG, 20, claimed=20, from_seat=1, added=True),
            ),
            discards=_river(5, 19),
            void_suit=2,
            won_tile=5,
            won_order=1,
        ),
        SeatView(
            "Dave",
            -1400,
            hand_count=9,
            melds=(Meld(MeldType.CONCEALED_KONG, 27),),
            discards=_river(24, 19),
            void_suit=0,
        ),
    )
    return TableView(
        seats=seats,
        current=0,
        last_discard=3,
        caption="Dave 打出 9万",
        wall_left=12,
        round_wind=1,
        wildcard=12,
        horses=(
            *(HorseView() for _ in range(3)),
            *(HorseView(kind=k, target=k % 4) for k in (0, 13, 27)),
        ),
        title="国标麻将 · 南风圈 第3局",
    )


def reference_desk() -> DeskView:
    opponents = (
        OpponentView(
            "Bob",
            "下家",
            1,
            melds=(Meld(MeldType.PUNG, 31, claimed=31, from_seat=0),),
            discards=_river(20, 14),
            void_suit=1,
            note="托管",
        ),
        OpponentView(
            "西门吹雪",
            "对家",
            2,
            melds=(
                Meld(MeldType.CHOW, 3, claimed=4, from_seat=1),
                Meld(MeldType.KONG, 20, claimed=20, from_seat=1, added=True),
            ),
            discards=_river(5, 9),
            void_suit=2,
            won_tile=5,
        ),
        OpponentView(
            "Dave",
            "上家",
            3,
            melds=(Meld(MeldType.CONCEALED_KONG, 27),),
            discards=_river(24, 10),
            void_suit=0,
            current=True,
            live=True,
        ),
    )
    return DeskView(reference_hand(), opponents, wall_left=23, wait_left=(2, 3, 1), won_tile=None)
