"""The lobby and room cards through the fake Discord."""

from __future__ import annotations

import pytest

from data.models import CardKind
from fakediscord.driver import DriverError, InteractionHandle, Person
from fakediscord.models import ChannelType
from tests.bot.harness import Harness

DEFERRED_WITH_MESSAGE = 5


async def answer_text(handle: InteractionHandle, person: Person | None = None) -> str:
    """The bot's answer to a command or click; for a deferred answer, the text that
    replaced "thinking…"."""
    callback = await handle.response()
    assert callback.message is not None
    if callback.type == DEFERRED_WITH_MESSAGE and person is not None:
        return (await person.next_edit(callback.message)).content
    return callback.message.content


async def test_lobby_buttons_update_the_lobby_in_place(harness: Harness) -> None:
    host, guest, other = harness.owner, harness.join("Guest"), harness.join("Other")
    lobby = await harness.open_table(host, "guangdong", guest, rounds="4")
    assert "2. Guest" in harness.live(lobby).content
    assert "not seated" in await answer_text(await other.click(lobby, label="Leave"))
    left = await guest.click(lobby, label="Leave")
    assert (await left.response()).type == 7
    assert "Guest" not in harness.live(lobby).content
    only_host = await guest.click(lobby, label="Start")
    assert "Only the table's host" in await answer_text(only_host)
    short = await host.click(lobby, label="Start")
    assert "Four players are needed" in await answer_text(short)
    for level in ("easy", "normal", "normal"):
        added = await host.choose(lobby, level, placeholder="Add an AI player…")
        await added.response()
    assert "2. AI 1 (AI · easy)" in harness.live(lobby).content
    assert "4. AI 3 (AI · normal)" in harness.live(lobby).content
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None
    assert [seat.ai_level for seat in table.seats][1:] == [1, 2, 2]
    full = await other.click(lobby, label="Join")
    assert "full" in await answer_text(full)


async def test_options_form_changes_options_before_start(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    opened = await host.click(lobby, label="Options")
    await opened.response()
    assert opened.modal is not None
    saved = await host.submit_modal(opened, {"options": "max_fan = 5\nexchange_three = false"})
    await saved.response()
    content = harness.live(lobby).content
    assert "`max_fan=5`" in content and "`exchange_three=false`" in content
    thread = harness.fake.world.channels[lobby.channel_id]
    bad = await host.run("/table options", channel=thread, options="max_fan=9")
    assert "Invalid options" in await answer_text(bad)
    rounds = await host.run("/table options", channel=thread, options="rounds=4")
    assert "Options updated" in await answer_text(rounds)
    # The command is answered first; the lobby is redrawn right after.
    await host.next_edit(lobby, where=lambda m: "4 hands" in m.content, timeout=5)


async def test_room_cards_are_refused_charged_and_refunded(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    config = await host.run("/admin config", prices="1=1 4=2 8=30 16=40")
    assert "8=30" in await answer_text(config)
    refused = await host.run("/table create", variant="sichuan", rounds="8")
    assert "Not enough room cards" in await answer_text(refused, host)
    lobby = await harness.start_table(host, "sichuan", guest, rounds="4", fill_with_ai="true")
    balance = await harness.store.card_balance(harness.guild.id, host.id)
    assert balance == 10 - 2
    thread = harness.fake.world.channels[lobby.channel_id]
    vote = await host.run("/table disband", channel=thread)
    poll = (await vote.response()).message
    assert poll is not None and "vote" in poll.content
    agree = await guest.click(poll, label="Disband")
    await agree.response()
    notice = await host.next_message(where=lambda m: "disbanded" in m.content, timeout=10)
    assert "2 room cards refunded" in notice.content
    moves = await harness.store.card_history(harness.guild.id, host.id)
    assert [m.kind for m in moves][:2] == [CardKind.REFUND, CardKind.SPEND]
    assert await harness.store.card_balance(harness.guild.id, host.id) == 10


async def test_cards_commands_and_admin_grant(harness: Harness) -> None:
    host, player = harness.owner, harness.join("Player")
    granted = await host.run("/admin cards grant", user=player.id, amount="5", note="prize")
    assert "+5" in await answer_text(granted)
    balance = await player.run("/cards balance")
    assert "**15**" in await answer_text(balance)
    history = await player.run("/cards history")
    text = await answer_text(history)
    assert "granted +5" in text and "prize" in text
    with pytest.raises(DriverError, match="may not use /admin"):
        await player.run("/admin cards grant", user=host.id, amount="5")


async def test_tables_open_as_channels_of_the_configured_category(harness: Harness) -> None:
    host = harness.owner
    category = harness.fake.world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
    configured = await host.run("/admin config", table_category="tables", turn_timer="30")
    assert "Turn timer: 30 s" in await answer_text(configured)
    lobby = await harness.open_table(host, "guangdong")
    channel = harness.fake.world.channels[lobby.channel_id]
    assert channel.parent_id == category.id and channel.type is ChannelType.TEXT
    assert "`turn_timer=30`" in lobby.content


async def test_the_lobby_is_also_a_picture_redrawn_in_place(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    (alone,) = harness.live(lobby).attachments
    assert alone.filename == "lobby.png" and alone.data.startswith(b"\x89PNG")
    joined = await guest.click(lobby, label="Join")
    assert (await joined.response()).type == 7
    live = harness.live(lobby)
    (together,) = live.attachments
    assert together.filename == "lobby.png" and together.data != alone.data
    assert "2. Guest" in live.content, "the words stay beside the picture"
