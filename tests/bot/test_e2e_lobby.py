"""The lobby and room cards through the fake Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.pictures import lobby_png
from bot.runtime.table import TableRuntime
from bot.tables import manager
from data.errors import SeatError
from data.models import CardKind, Table, TableStatus
from fakediscord import RateLimits
from fakediscord.config import RouteLimit, default_route_limits
from fakediscord.driver import DriverError, InteractionHandle, Person
from fakediscord.models import ChannelType, Message
from tests.bot.harness import Harness, running_harness

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
    assert "2. AI 1 (easy)" in harness.live(lobby).content
    assert "4. AI 3 (normal)" in harness.live(lobby).content
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None
    assert [seat.ai_level for seat in table.seats][1:] == [3, 2, 2]
    full = await other.click(lobby, label="Join")
    assert "full" in await answer_text(full)


async def test_options_panel_changes_options_with_selects(harness: Harness) -> None:
    """The host's Options button opens a private panel: pick a setting, pick its value,
    tick the rules on; the lobby lists, in words, what differs from the defaults."""
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    refused = await guest.click(lobby, label="Options")
    assert "Only the table's host" in await answer_text(refused)
    panel = await harness.options_panel(host, lobby)
    picked = await host.choose(panel, "max_fan", placeholder="Change a setting…")
    assert (await picked.response()).type == 7
    panel = harness.live(panel)
    chosen = await host.choose(panel, "5 fan", placeholder="Fan cap: choose")
    await chosen.response()
    await host.next_edit(lobby, where=lambda m: "Fan cap: 5 fan" in m.content, timeout=5)
    panel = harness.live(panel)
    rules = next(s for s in panel.selects() if s["placeholder"].startswith("Rules on"))
    on = [o["value"] for o in rules["options"] if o.get("default")]
    ticked = await host.choose(panel, *on, "heaven_earth", placeholder=rules["placeholder"])
    await ticked.response()
    lobby_now = await host.next_edit(
        lobby, where=lambda m: "Heavenly and earthly hands: on" in m.content, timeout=5
    )
    assert "`" not in lobby_now.content.split("\n")[2], "no raw option names"
    assert "Exchange three tiles" not in lobby_now.content, "only what differs is listed"


async def options_form(harness: Harness) -> tuple[Message, InteractionHandle]:
    """A lobby of the host's, and the options form they opened from its panel."""
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    panel = await harness.options_panel(host, lobby)
    typed = await host.click(panel, label="Type them instead…")
    await typed.response()
    assert typed.modal is not None
    return lobby, typed


async def test_options_text_form_and_command_answer_in_words(harness: Harness) -> None:
    host = harness.owner
    lobby, typed = await options_form(harness)
    saved = await host.submit_modal(typed, {"options": "max_fan = 5\nexchange_three = false"})
    await saved.response()
    content = (
        await host.next_edit(lobby, where=lambda m: "Fan cap: 5 fan" in m.content, timeout=5)
    ).content
    assert "Exchange three tiles: off" in content
    thread = harness.fake.world.channels[lobby.channel_id]
    bad = await host.run("/table options", channel=thread, options="max_fan=9")
    text = await answer_text(bad)
    assert "Fan cap cannot be “9”" in text and "3 fan" in text
    unknown = await host.run("/table options", channel=thread, options="maxfan=5")
    assert "no option “maxfan”" in await answer_text(unknown)
    rounds = await host.run("/table options", channel=thread, options="rounds=4")
    assert "Options updated" in await answer_text(rounds)
    # The command is answered first; the lobby is redrawn right after.
    await host.next_edit(lobby, where=lambda m: "4 hands" in m.content, timeout=5)


async def test_the_options_form_filled_in_across_a_restart_is_saved(harness: Harness) -> None:
    host = harness.owner
    lobby, typed = await options_form(harness)
    await harness.stop_bot()
    await harness.start_bot()
    saved = await host.submit_modal(typed, {"options": "max_fan = 5"})
    assert "Options updated" in await answer_text(saved)
    await host.next_edit(lobby, where=lambda m: "Fan cap: 5 fan" in m.content, timeout=5)


async def choose_preset(
    harness: Harness, variant: str, before: str, after: str, **options: Any
) -> tuple[Message, Table]:
    """Open a lobby of ``variant`` (with ``options``) showing the preset ``before``, choose
    ``after`` in the host's options panel; the lobby as it then reads and the stored
    table."""
    host = harness.owner
    lobby = await harness.open_table(host, variant, **options)
    assert f"Rules: {before}" in harness.live(lobby).content
    panel = await harness.options_panel(host, lobby)
    picked = await host.choose(panel, "preset", placeholder="Change a setting…")
    await picked.response()
    chosen = await host.choose(harness.live(panel), after, placeholder="Rules: choose")
    await chosen.response()
    shown = await host.next_edit(lobby, where=lambda m: f"Rules: {after}" in m.content, timeout=5)
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None
    return shown, table


async def test_changing_the_mcr_rules_preset_starts_from_its_defaults(harness: Harness) -> None:
    _, table = await choose_preset(harness, "mcr", "party", "competition")
    assert table.options["wildcard"] is False and table.options["rounds"] == 16


async def test_a_sichuan_preset_sets_its_rules_and_the_lobby_lists_only_what_differs(
    harness: Harness,
) -> None:
    shown, table = await choose_preset(harness, "sichuan", "exchange three", "classic, no exchange")
    # No exchange is the preset's own rule, not a change to list.
    assert "Exchange three tiles" not in shown.content
    assert table.options["preset"] == "classic" and table.options["exchange_three"] is False


async def test_a_guangdong_lobby_lists_every_rule_in_force(harness: Harness) -> None:
    # 广东 has no preset to stand for its defaults: the lobby lists them (discord.md).
    lobby = await harness.open_table(harness.owner, "guangdong")
    for rule in ("Base stake", "The dealer buys horses", "Most horses", "Which kinds are big hu"):
        assert rule in lobby.content, rule


async def test_a_timer_may_be_long_for_a_table_played_at_leisure(harness: Harness) -> None:
    # discord.md: a timer is any whole number of seconds (0: none); the bot takes up to a day.
    lobby = await harness.open_table(harness.owner, "sichuan", turn_timer=3600, claim_timer=900)
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None
    assert (table.options["turn_timer"], table.options["claim_timer"]) == (3600, 900)
    # Past a day, Discord's client refuses the value before sending it.
    with pytest.raises(DriverError, match="out of range"):
        await harness.owner.run("/table create", variant="sichuan", turn_timer=86_401)


async def test_a_sichuan_preset_keeps_the_hands_the_table_plays_and_their_price(
    harness: Harness,
) -> None:
    # Every Sichuan preset plays 8 hands by default: a new one changes the rules, not how
    # long the table plays or what it costs (sichuan.md §6).
    shown, table = await choose_preset(
        harness, "sichuan", "exchange three", "classic, no exchange", rounds="16"
    )
    assert table.options["rounds"] == 16 and "16 hands" in shown.content


async def test_an_admin_who_is_not_seated_asks_for_a_disband_vote_but_does_not_vote(
    harness: Harness,
) -> None:
    admin = harness.owner  # Manage Server, not seated
    a, b, c = harness.join("A"), harness.join("B"), harness.join("C")
    lobby = await harness.start_table(a, "guangdong", b, c, rounds="4", fill_with_ai="true")
    table_id = harness.running().id
    thread = harness.fake.world.channels[lobby.channel_id]
    asked = await admin.run("/table disband", channel=thread)
    poll = (await asked.response()).message
    assert poll is not None and "vote" in poll.content
    # One of the three seated people is not more than half of them: the vote is still
    # open for the second, whose yes ends the table.
    first = await b.click(poll, label="Disband")
    assert await answer_text(first) == "Vote counted."
    second = await c.click(poll, label="Disband")
    assert await answer_text(second) == "Vote counted."
    await a.next_message(where=lambda m: "disbanded" in m.content, timeout=10)
    assert (await harness.store.get_table(table_id)).status is TableStatus.DISBANDED


async def test_a_host_who_leaves_hands_the_lobby_to_the_next_person(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan", guest)
    left = await host.click(lobby, label="Leave")
    assert (await left.response()).type == 7
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None and table.creator_id == guest.id
    assert [s.user_id for s in table.seats] == [guest.id]
    assert "1. Guest (host)" in harness.live(lobby).content
    # Alone, the new host is told to disband instead.
    alone = await answer_text(await guest.click(lobby, label="Leave"), guest)
    assert "only person" in alone
    started = await answer_text(await guest.click(lobby, label="Start"), guest)
    assert "only the table's host" not in started.lower()


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


async def test_prices_set_for_some_hand_counts_keep_the_others(harness: Harness) -> None:
    host = harness.owner
    config = await host.run("/admin config", prices="8=5")
    assert "Prices (hands=cards): 1=1 4=2 8=5 16=4" in await answer_text(config)
    refused = await host.run("/admin config", prices="2=1")
    assert "for 1, 4, 8 or 16 hands" in await answer_text(refused)
    lobby = await harness.open_table(host, "guangdong", rounds="4")
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None and table.rounds == 4


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
    assert "Time to discard: 30 s" in lobby.content


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


async def test_new_players_are_dealt_in_once_the_bot_can_reach_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt's timer runs from the deal, and Discord opens DM channels a few a second
    for the whole bot: a table of people new to the bot is dealt only once the DM channel
    of each is open, so no first hand message waits for its channel while its prompt's
    time runs out."""
    routes = {**default_route_limits(), "POST /users/@me/channels": RouteLimit(1, 50.0)}
    # One opening every half second (the harness runs windows at a hundredth).
    limits = RateLimits(time_scale=0.01, routes=routes)
    reachable_at_deal: list[set[int]] = []
    dealt = asyncio.Event()
    start = TableRuntime.start

    async def dealing(runtime: TableRuntime) -> None:
        reachable_at_deal.append(set(harness.fake.world.dm_channels))
        dealt.set()
        await start(runtime)

    monkeypatch.setattr(TableRuntime, "start", dealing)
    async with running_harness(tmp_path, rate_limits=limits) as harness:
        people = [harness.owner, harness.join("A"), harness.join("B"), harness.join("C")]
        assert not set(harness.fake.world.dm_channels) & {p.id for p in people}
        await harness.start_table(people[0], "guangdong", *people[1:], rounds="1")
        await asyncio.wait_for(dealt.wait(), 30)
        assert {p.id for p in people} <= reachable_at_deal[0]
        for person in people:
            hand = await person.next_message(where=lambda m: m.guild_id is None, timeout=30)
            assert hand.attachments


DEFERRED_UPDATE = 6


def slow_store(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, method: str, seconds: float
) -> None:
    """The store's ``method`` takes ``seconds`` longer (a busy store or event loop), twice
    the first-answer deadline the fake now keeps, and the bot's wait before acknowledging
    a lobby change is shortened to fit that deadline."""
    original = getattr(harness.store, method)

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(seconds)
        return await original(*args, **kwargs)

    monkeypatch.setattr(harness.store, method, slow)
    harness.deadlines(monkeypatch, discord=seconds / 2, bot=0.1)


def slow_start(harness: Harness, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Opening a table takes ``seconds`` longer."""
    slow_store(harness, monkeypatch, "start_table", seconds)


async def test_a_start_slower_than_discord_allows_is_acknowledged_and_the_lobby_follows(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Start click is acknowledged in time although opening the table takes longer;
    the lobby then shows the table playing, and the first hand is dealt."""
    me = harness.owner
    lobby = await harness.open_table(me, "sichuan", rounds="1", fill_with_ai="true")
    slow_start(harness, monkeypatch, 0.6)
    started = await me.click(lobby, label="Start")
    assert (await started.response()).type == DEFERRED_UPDATE
    await me.next_edit(lobby, where=lambda m: "Playing" in m.content, timeout=10)
    hand = await me.next_message(where=lambda m: m.guild_id is None, timeout=10)
    assert hand.attachments


async def test_a_slow_table_start_command_answers_privately_once_the_table_is_open(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/table start on a slow bot thinks privately at once, then says the table started."""
    me = harness.owner
    lobby = await harness.open_table(me, "sichuan", rounds="1", fill_with_ai="true")
    slow_start(harness, monkeypatch, 0.6)
    handle = await me.run("/table start", channel=harness.fake.world.channels[lobby.channel_id])
    callback = await handle.response()
    assert callback.type == DEFERRED_WITH_MESSAGE
    assert callback.message is not None and callback.message.ephemeral_for == me.id
    assert await answer_text(handle, me) == "Started!"
    assert "Playing" in (await me.next_edit(lobby, timeout=10)).content


async def test_a_join_slower_than_discord_allows_is_acknowledged_and_the_lobby_follows(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Join, Leave and the AI seats are store calls and a new lobby picture: on a busy bot
    they are acknowledged in time, and the lobby shows the change once it is made."""
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    slow_store(harness, monkeypatch, "take_seat", 0.6)
    joined = await guest.click(lobby, label="Join")
    assert (await joined.response()).type == DEFERRED_UPDATE
    shown = await guest.next_edit(lobby, where=lambda m: "2. Guest" in m.content, timeout=10)
    assert shown.attachments


async def test_a_slow_lobby_picture_is_waited_for_within_the_deadline_too(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby's new picture is part of what the click waits for: a slow one is drawn
    after the acknowledgement, not in Discord's three seconds."""
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan", guest)

    async def slow_picture(view: object) -> bytes:
        await asyncio.sleep(2.0)
        return await lobby_png(view)  # type: ignore[arg-type]

    monkeypatch.setattr(manager, "lobby_png", slow_picture)
    # Room for a loaded machine's pauses before the acknowledgement, none for the picture.
    harness.deadlines(monkeypatch, discord=1.0, bot=0.1)
    left = await guest.click(lobby, label="Leave")
    assert (await left.response()).type == DEFERRED_UPDATE
    await guest.next_edit(lobby, where=lambda m: "Guest" not in m.content, timeout=10)


async def test_a_slow_join_refused_after_its_acknowledgement_is_answered_privately(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat taken by someone else while the click waited: the person is told privately,
    after the acknowledgement, and the lobby is not touched."""
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan")
    before = harness.live(lobby).content

    async def taken_meanwhile(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.6)
        raise SeatError("the table filled up")

    monkeypatch.setattr(harness.store, "take_seat", taken_meanwhile)
    harness.deadlines(monkeypatch, discord=0.3, bot=0.1)
    joined = await guest.click(lobby, label="Join")
    assert (await joined.response()).type == DEFERRED_UPDATE
    reply = await guest.next_message(where=lambda m: m.ephemeral_for == guest.id, timeout=10)
    assert "full" in reply.content
    assert harness.live(lobby).content == before


async def test_a_slow_disband_of_a_lobby_is_acknowledged_and_the_lobby_says_so(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    slow_store(harness, monkeypatch, "disband_table", 0.6)
    disbanded = await host.click(lobby, label="Disband")
    assert (await disbanded.response()).type == DEFERRED_UPDATE
    await host.next_edit(lobby, where=lambda m: "Disbanded." in m.content, timeout=10)


async def test_a_guest_who_cannot_pay_is_named_by_their_seat(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    await answer_text(await host.run("/admin config", card_payer="split"), host)
    await answer_text(await host.run("/admin cards grant", user=guest.id, amount="-10"), host)
    # Under split pay the guest, whose cards are all taken, owes a share of the price.
    lobby = await harness.open_table(host, "sichuan", guest, rounds="16", fill_with_ai="true")
    refused = await answer_text(await host.click(lobby, label="Start"), host)
    assert refused.startswith("Guest cannot pay"), refused
    assert str(guest.id) not in refused and str(host.id) not in refused
