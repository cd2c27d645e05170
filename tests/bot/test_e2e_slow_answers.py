"""Answers on a busy bot: a hand, the table for a spectator or a replay whose picture,
and a command whose store calls, take longer than Discord's three seconds are
acknowledged in time, and the answer follows in the same place.

The fake keeps a first-answer deadline of 0.3 s here, each slowed picture or store call
takes 0.6 s, and the bot's wait before acknowledging is shortened to 0.1 s to fit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from bot import replays
from bot.pictures import table_png
from bot.tables import presenter
from bot.tables.presenter import TablePresenter
from fakediscord.driver import InteractionHandle, Person
from fakediscord.models import Message
from tests.bot.harness import Harness, play_out, player

DEFERRED_WITH_MESSAGE = 5
DEFERRED_UPDATE = 6
SLOW = 0.6

T = TypeVar("T")


def slowed(draw: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    async def slow(*args: Any, **kwargs: Any) -> T:
        await asyncio.sleep(SLOW)
        return await draw(*args, **kwargs)

    return slow


@pytest.fixture
def busy(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    harness.deadlines(monkeypatch, discord=SLOW / 2, bot=0.1)


async def dealt(harness: Harness) -> Message:
    """A table of the owner and three AI seats, dealt; returns its lobby."""
    me = harness.owner
    lobby = await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    await me.next_message(where=lambda m: m.guild_id is None, timeout=10)
    return lobby


async def test_a_slow_hand_picture_thinks_privately_then_shows_the_hand(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, busy: None
) -> None:
    me = harness.owner
    lobby = await dealt(harness)
    monkeypatch.setattr(TablePresenter, "render", slowed(TablePresenter.render))
    asked = await me.run("/hand", channel=harness.fake.world.channels[lobby.channel_id])
    callback = await asked.response()
    assert callback.type == DEFERRED_WITH_MESSAGE
    assert callback.message is not None and callback.message.ephemeral_for == me.id
    shown = await me.next_edit(callback.message, timeout=10)
    assert shown.attachments[0].filename == "hand.png" and shown.has_controls()


async def test_a_slow_table_picture_for_a_spectator_follows_the_acknowledgement(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, busy: None
) -> None:
    watcher = harness.join("Watcher")
    lobby = await dealt(harness)
    monkeypatch.setattr(presenter, "table_png", slowed(table_png))
    thread = harness.fake.world.channels[lobby.channel_id]
    asked = await watcher.run("/table watch", channel=thread)
    callback = await asked.response()
    assert callback.type == DEFERRED_WITH_MESSAGE
    assert callback.message is not None and callback.message.ephemeral_for == watcher.id
    shown = await watcher.next_edit(callback.message, timeout=10)
    assert shown.attachments[0].filename == "table.png"
    assert [b["label"] for b in shown.buttons()] == ["Refresh"]


async def test_a_slow_replay_opens_and_steps_after_acknowledging(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = harness.owner
    await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, me)], me)
    monkeypatch.setattr(replays, "table_png", slowed(table_png))
    harness.deadlines(monkeypatch, discord=SLOW / 2, bot=0.1)
    opened = await me.run("/replay", round="1")
    callback = await opened.response()
    assert callback.type == DEFERRED_WITH_MESSAGE and callback.message is not None
    replay = await me.next_edit(callback.message, timeout=10)
    assert "Step 0/" in replay.content and replay.attachments[0].filename == "replay.png"
    stepped = await me.click(replay, emoji="▶")
    assert (await stepped.response()).type == DEFERRED_UPDATE
    after = await me.next_edit(replay, where=lambda m: "Step 1/" in m.content, timeout=10)
    assert after.attachments[0].filename == "replay.png"


async def thought(handle: InteractionHandle, person: Person, *, private: bool) -> Message:
    """The answer that completed a command's "thinking", checked to be where it should:
    the asker's alone, or the channel's."""
    callback = await handle.response()
    assert callback.type == DEFERRED_WITH_MESSAGE and callback.message is not None
    assert callback.message.ephemeral_for == (person.id if private else None)
    return await person.next_edit(callback.message, timeout=10)


@pytest.mark.parametrize(
    ("command", "options", "slowed_call", "private", "said"),
    [
        ("/cards balance", {}, "card_balance", True, "room card"),
        ("/settings", {"auto_play": "false"}, "save_player_settings", True, "Saved."),
        ("/admin config", {"turn_timer": "30"}, "update_guild_config", True, "Saved."),
        ("/leaderboard", {}, "leaderboard", False, "Leaderboard"),
        ("/admin season start", {}, "start_season", False, "Season 1 has started"),
    ],
)
async def test_a_command_whose_store_calls_are_slow_thinks_then_answers(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    busy: None,
    command: str,
    options: dict[str, Any],
    slowed_call: str,
    private: bool,
    said: str,
) -> None:
    """Private commands think privately, the channel's in the channel."""
    me = harness.owner
    monkeypatch.setattr(harness.store, slowed_call, slowed(getattr(harness.store, slowed_call)))
    answer = await thought(await me.run(command, **options), me, private=private)
    assert said in answer.content
