"""Sessions of several hands: spectators, system messages, a restart between hands, and
Play again."""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import replace
from pathlib import Path

from bot.runtime.notes import Note
from data.models import PlayerSettings
from engine.tiles import parse_tile
from tests.bot.harness import FAST, Harness, play_out, player, running_harness


async def test_spectators_and_system_messages(harness: Harness) -> None:
    host, guest, watcher = harness.owner, harness.join("Guest"), harness.join("Watcher")
    await harness.store.save_player_settings(
        PlayerSettings(host.id, spectators_see_hand=True, show_system_messages=False)
    )
    lobby = await harness.start_table(host, "guangdong", guest, rounds="1", fill_with_ai="true")
    players = {p: player(harness, p) for p in (host, guest)}
    waits = {asyncio.create_task(p.next_prompt()): p for p in players}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    first = done.pop()
    prompt = first.result()
    assert "<t:" in prompt.content and ":R>" in prompt.content, "deadline as a relative time"
    await players[waits[first]].answer(harness.live(prompt))
    thread = harness.fake.world.channels[lobby.channel_id]
    watching = (await (await watcher.run("/table watch", channel=thread)).response()).message
    assert watching is not None and watching.ephemeral_for == watcher.id
    assert watching.attachments[0].filename == "table.png"
    table = harness.running()
    async with table.lock:
        seat = table.seat_of(table.chair_of_user(host.id).chair)  # type: ignore[union-attr]
        hidden = table.seat_of(table.chair_of_user(guest.id).chair)  # type: ignore[union-attr]
        view = table.hand.view(None, frozenset({seat}))  # type: ignore[union-attr]
    assert view.seats[seat].concealed is not None and view.seats[hidden].concealed is None
    await play_out(harness, list(players.values()), host)
    await asyncio.sleep(0.2)
    assert not [m for m in host.messages(host.dm) if "Your result" in m.content]
    assert [m for m in guest.messages(guest.dm) if "Your result" in m.content]


async def test_system_messages_turned_off_mid_session_hold_at_once(harness: Harness) -> None:
    host = harness.owner
    await harness.start_table(host, "guangdong", rounds="1", fill_with_ai="true")
    saved = await host.run("/settings", show_system_messages="false")
    await saved.response()
    await play_out(harness, [player(harness, host)], host)
    await asyncio.sleep(0.2)
    assert not [m for m in host.messages(host.dm) if "Your result" in m.content]


async def test_hand_messages_leave_out_system_notices_for_who_turned_them_off(
    harness: Harness,
) -> None:
    host, guest = harness.owner, harness.join("Guest")
    await harness.store.save_player_settings(
        PlayerSettings(host.id, spectators_see_hand=False, show_system_messages=False)
    )
    await harness.start_table(host, "guangdong", guest, rounds="1", fill_with_ai="true")
    for _ in range(200):
        if harness.bot is not None and harness.bot.tables.running and harness.running().current:
            break
        await asyncio.sleep(0.01)
    table = harness.playing()
    hint = Note("pass_pong", tiles=(parse_tile("5m"),))
    shown = {}
    for person in (host, guest):
        chair = table.runtime.chair_of_user(person.id)
        assert chair is not None
        state = replace(table.runtime.seat_state(chair.chair), notes=(hint,))
        shown[person.id] = (await table.presenter.render(state)).message.content
    assert "no pung of" not in shown[host.id]
    assert "no pung of" in shown[guest.id]


async def test_restart_between_hands_deals_the_next_one(
    tmp_path: Path, database_url: str | None
) -> None:
    slow = dataclasses.replace(FAST, between_hands=30.0)
    async with running_harness(tmp_path, pacing=slow, database_url=database_url) as harness:
        me = harness.owner
        await harness.start_table(me, "sichuan", rounds="4", fill_with_ai="true")
        await play_out(harness, [player(harness, me)], me)
        await harness.stop_bot()
        harness.pacing = FAST
        await harness.start_bot()
        second = await me.next_message(where=lambda m: "hand 2/4" in m.content, timeout=10)
        assert "fingerprint" in second.content
        live = await harness.store.live_tables()
        assert live[0].current_round is not None and live[0].current_round.info.hand_number == 2


async def test_play_again_opens_a_lobby_with_the_same_seats(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    await harness.start_table(host, "sichuan", guest, rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, host), player(harness, guest)], host)
    summary = await host.next_message(where=lambda m: "session is over" in m.content)
    again = await guest.click(summary, label="Play again")
    thinking = (await again.response()).message
    assert thinking is not None
    opened = await guest.next_edit(thinking)
    assert "Your table is open" in opened.content
    new_lobby = harness.live(
        await guest.next_message(where=lambda m: "table #2" in m.content and m.has_controls())
    )
    assert "Guest (host)" in new_lobby.content and host.name in new_lobby.content
    assert "AI 1 (normal)" in new_lobby.content
