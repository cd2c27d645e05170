"""Pictures of mahjong tables as PNG bytes, drawn with Pillow from plain descriptions.

The caller fills the frozen views in ``renderer.models`` (tile kinds, ``engine.tiles.Meld``
and already-worded strings) and gets PNG bytes back; nothing here knows about Discord.
"""

from renderer import desk, fonts, hand, sprites, table, text
from renderer.desk import render_desk
from renderer.fonts import FontNotFoundError
from renderer.hand import hand_order, render_hand, render_tiles
from renderer.lobby import render_lobby
from renderer.models import (
    ChairView,
    DeskView,
    FanLine,
    HandView,
    HorseView,
    Labels,
    LobbyView,
    OpponentView,
    OptionLine,
    PaymentLine,
    SeatView,
    SettlementView,
    TableView,
    WinnerView,
)
from renderer.settlement import render_settlement
from renderer.table import render_table

__all__ = [
    "ChairView",
    "DeskView",
    "FanLine",
    "FontNotFoundError",
    "HandView",
    "HorseView",
    "Labels",
    "LobbyView",
    "OpponentView",
    "OptionLine",
    "PaymentLine",
    "SeatView",
    "SettlementView",
    "TableView",
    "WinnerView",
    "clear_caches",
    "hand_order",
    "render_desk",
    "render_hand",
    "render_lobby",
    "render_settlement",
    "render_table",
    "render_tiles",
]


def clear_caches() -> None:
    """Forget every loaded font, tile sprite and text sprite, and the table and hand
    pictures' palettes and cached layers (to measure cold renders)."""
    fonts.clear_caches()
    sprites.clear_caches()
    text.clear_caches()
    table.clear_caches()
    hand.clear_caches()
    desk.clear_caches()
