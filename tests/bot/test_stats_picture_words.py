"""The /stats picture's words: what the catalog bolds in Markdown for a message is drawn
plain, as a picture cannot bold it."""

import pytest

from bot.cogs.stats import stats_view
from bot.i18n import LOCALES
from bot.i18n.terms import total_text
from data import Variant
from data.models import BiggestHand, PlayerProfile, PlayerStats


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", [v.value for v in Variant])
def test_a_plain_total_has_no_markdown(locale: str, variant: str) -> None:
    # Guangdong's totals are its two kinds of hu, the others count.
    for total in (1, 2) if variant == "guangdong" else (0, 1, 2, 15):
        marked = total_text(variant, total, locale, raw=total + 3)
        plain = total_text(variant, total, locale, raw=total + 3, plain=True)
        assert "*" not in plain and plain == marked.replace("**", "")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_biggest_hand_is_drawn_without_markdown(locale: str) -> None:
    biggest = BiggestHand(7, Variant.SICHUAN, 0, "discard", ({"id": "basic_hand", "fan": 0},))
    profile = PlayerProfile(
        user_id=1,
        stats=PlayerStats(1, games=3, wins=1),
        rating=None,
        history=(),
        placements=(1, 0, 0, 0),
        fans=(),
        biggest=biggest,
    )
    view = stats_view("Sam", profile, locale)
    assert "0" in view.biggest and "*" not in view.biggest
