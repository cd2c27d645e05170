"""Engine views turned into the renderer's pictures, worded for one reader.

The conversion itself is the renderer's (``renderer.engine_views``); this module only
chooses the words for the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.pictures import labels
from engine.round import View
from renderer import engine_views
from renderer.engine_views import SeatText
from renderer.models import DeskView, HandView, TableView

__all__ = ["SeatText", "desk_view", "hand_view", "table_view"]


def table_view(
    view: View, seats: Sequence[SeatText], locale: str, title: str, bottom: int = 0
) -> TableView:
    """The table picture's description; ``seats`` are in seats of the hand."""
    return engine_views.table_view(view, seats, labels(locale), title, bottom)


def hand_view(
    view: View, seat: int, locale: str, title: str, legal_discards: frozenset[int] | None
) -> HandView:
    """The DM picture of ``seat``'s own hand."""
    return engine_views.hand_view(view, seat, labels(locale), title, legal_discards)


def desk_view(
    view: View,
    seat: int,
    seats: Sequence[SeatText],
    locale: str,
    title: str,
    legal_discards: frozenset[int] | None,
    waits: Sequence[tuple[int, int]] = (),
) -> DeskView:
    """The hand message's picture of ``seat``: its hand and the table around it."""
    return engine_views.desk_view(view, seat, seats, labels(locale), title, legal_discards, waits)
