"""Input no player should send still gets a sentence: options nested deeper than Python
follows, numbers longer than it reads, prices past any table, errors longer than Discord
takes, select values never offered, controls of a kind the bot no longer sends."""

from __future__ import annotations

import pytest

from bot.cogs.admin import parse_prices
from bot.errors import UserError
from bot.variants import TableOptions, parse_assignments
from engine.rules.base import RuleError
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_lobby import answer_text


@pytest.mark.parametrize(
    "written",
    ["max_fan=" + "[" * 5000 + "]" * 5000, "max_fan=" + "9" * 5000, "max_fan={" * 3000],
)
def test_options_past_what_python_reads_are_refused_by_name(written: str) -> None:
    raw = parse_assignments(written)
    with pytest.raises(RuleError, match="max_fan"):
        TableOptions.build("sichuan", raw, {})


@pytest.mark.parametrize("written", ["1=99999999999999999999", "0=1", "99999999=1", "4=10001"])
def test_prices_past_any_table_are_refused(written: str) -> None:
    with pytest.raises(UserError):
        parse_prices(written)


async def test_the_options_form_answers_within_discords_limits(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    panel = await harness.options_panel(host, lobby)
    for written in ("max_fan=" + "[" * 1990 + "]" * 1990, "max_fan=" + "x" * 3990):
        typed = await host.click(panel, label="Type them instead…")
        await typed.response()
        saved = await host.submit_modal(typed, {"options": written})
        text = await answer_text(saved)
        assert "Invalid options" in text and len(text) <= 2000


async def test_a_replay_select_value_never_offered_is_expired(harness: Harness) -> None:
    host = harness.owner
    await harness.start_table(host, "sichuan", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, host)], host)
    shown = (await (await host.run("/replay", round="1")).response()).message
    assert shown is not None
    live = harness.live(shown)
    select = live.selects()[0]
    # "²" is a digit that is no number.
    for forged in ("7", "-1", "east", "²"):
        for row in live.components:
            for item in row.get("components", []):
                if item.get("custom_id") == select["custom_id"]:
                    item["options"] = [{"label": forged, "value": forged}]
        chosen = await host.choose(live, forged, custom_id=select["custom_id"])
        assert "expired" in await answer_text(chosen)


async def test_a_control_of_a_kind_no_longer_sent_is_expired(harness: Harness) -> None:
    """A message from before an update may carry a control the bot no longer makes: it
    is answered like any stale control, not left to Discord's "This interaction failed"."""
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    live = harness.live(lobby)
    button = live.buttons()[0]
    table_id = button["custom_id"].split(":")[2]
    button["custom_id"] = f"mj:discard:{table_id}:1:2:5m"
    clicked = await host.click(live, custom_id=button["custom_id"])
    assert "expired" in await answer_text(clicked)
