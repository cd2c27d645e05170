"""More of what goes wrong, through the fake Discord: missing permissions where a table opens,
clicks on tables that do not exist, clicks that race, a player who leaves the server and a
handler that crashes in the middle of a move."""

from __future__ import annotations

import asyncio
import contextvars
import copy
import logging
from typing import Any

import pytest

from bot.runtime.table import TableRuntime
from bot.tables.presenter import TablePresenter
from data.models import TableStatus
from fakediscord.driver import Person
from fakediscord.models import ChannelType, Message
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_failures import next_controls, start_with_ai, suggested
from tests.bot.test_e2e_lobby import answer_text

UPDATED = 7


async def assert_store_matches_engine(harness: Harness, table: TableRuntime) -> None:
    """Every action the engine applied is stored, in order, and nothing else is."""
    async with table.lock:
        applied = [action.to_json() for action in table.hand.actions]  # type: ignore[union-attr]
        (live,) = [x for x in await harness.store.live_tables() if x.table.id == table.id]
    assert live.current_round is not None
    assert live.current_round.actions == applied


def bot_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# -- 1. permissions where a table opens -----------------------------------------------------


@pytest.mark.parametrize(
    ("permission", "named"),
    [
        ("create_public_threads", "Create Public Threads"),
        ("send_messages_in_threads", "Send Messages in Threads"),
        ("attach_files", "Attach Files"),
    ],
)
async def test_a_missing_permission_is_named_and_costs_nothing(
    harness: Harness, permission: str, named: str
) -> None:
    host, other = harness.owner, harness.join("Other")
    general = harness.fake.world.channels[harness.guild.channel_ids[0]]
    existing = await harness.open_table(other, "sichuan")
    before = harness.live(existing).content
    harness.fake.world.set_bot_permissions(general, **{permission: False})
    await asyncio.sleep(0.05)
    refused = await host.run("/table create", variant="sichuan", rounds="4", channel=general)
    text = await answer_text(refused, host)
    assert named in text and "server" in text
    assert await harness.store.card_history(harness.guild.id, host.id) == []
    assert not [
        c
        for c in harness.fake.world.channels.values()
        if c.is_thread and c.id != existing.channel_id
    ], "no empty thread is left behind"
    kept = await harness.store.table_in_channel(existing.channel_id)
    assert kept is not None and kept.status is TableStatus.LOBBY
    assert harness.live(existing).content == before


async def test_a_table_category_the_bot_cannot_use_is_refused_and_passed_over(
    harness: Harness,
) -> None:
    host = harness.owner
    world = harness.fake.world
    world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
    world.set_bot_permissions(harness.guild, manage_channels=False)
    await asyncio.sleep(0.05)
    refused = await host.run("/admin config", table_category="tables")
    assert "Manage Channels" in await answer_text(refused, host)
    assert (await harness.store.guild_config(harness.guild.id)).table_category_id is None
    # Granted, chosen, then taken away: tables open as threads instead of not at all.
    world.set_bot_permissions(harness.guild, manage_channels=True)
    await asyncio.sleep(0.05)
    await answer_text(await host.run("/admin config", table_category="tables"), host)
    world.set_bot_permissions(harness.guild, manage_channels=False)
    await asyncio.sleep(0.05)
    lobby = await harness.open_table(host, "guangdong")
    assert world.channels[lobby.channel_id].type is ChannelType.PUBLIC_THREAD
    texts = [c for c in world.channels.values() if c.type is ChannelType.TEXT]
    assert len(texts) == 1, "only #general exists"


async def test_play_again_in_a_full_category_is_refused_not_put_in_a_doomed_channel(
    harness: Harness,
) -> None:
    # The finished table's own channel is deleted after the grace, with every thread in
    # it: a new lobby there would vanish with it.
    host = harness.owner
    world = harness.fake.world
    world.limits.channels_per_category = 1
    world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
    await answer_text(await host.run("/admin config", table_category="tables"), host)
    await harness.start_table(host, "guangdong", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, host)], host)
    summary = await host.next_message(
        where=lambda m: any(b.get("label") == "Play again" for b in m.buttons()), timeout=20
    )
    refused = await answer_text(await host.click(summary, label="Play again"), host)
    assert "category is full" in refused, refused
    # No place, no lobby: the table it began is put away at once.
    assert (await harness.store.get_table(2)).status is TableStatus.DISBANDED


# -- 2. tables that do not exist --------------------------------------------------------------


async def click_custom_id(
    harness: Harness, person: Person, message: Message, custom_id: str
) -> str:
    """A click on a button naming ``custom_id``, as on an old message: Discord sends the
    message with the clicked control, so the fake's copy of it carries that id."""
    live = harness.live(message)
    live.components = copy.deepcopy(message.components)
    live.components[0]["components"][0]["custom_id"] = custom_id
    return await answer_text(await person.click(live, custom_id=custom_id))


async def test_clicks_on_tables_that_do_not_exist_change_nothing(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    thread = harness.fake.world.channels[lobby.channel_id]
    disband = await host.run("/table disband", channel=thread)
    await answer_text(disband)
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    assert "over" in await click_custom_id(harness, host, lobby, join)
    for custom_id in ("mj:join:987654:0:0", "mj:act:987654:1:3:pass.0.1", "mj:again:987654:0:0"):
        text = await click_custom_id(harness, host, lobby, custom_id)
        assert "no longer exists" in text or "over" in text, text
    # A kind of control from before an update is answered too.
    assert "expired" in await click_custom_id(harness, host, lobby, "mj:pass:987654:1:3")
    assert "Something went wrong" not in text


@pytest.mark.parametrize(
    "custom_id",
    [
        "garbage",
        "mj:join:-1:0:0",
        "mj:join:1:0:0:é",
        "mj:join:" + "1" * 92,
        "mj:act:1:1:1:pass.0.1:extra",
        "mj:JOIN:1:0:0",
    ],
)
async def test_a_control_the_bot_never_sends_is_answered_as_expired(
    harness: Harness, custom_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A modified client may send any custom_id: it is answered, not left to Discord's
    # "This interaction failed".
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    assert await click_custom_id(harness, host, lobby, custom_id) == "This prompt has expired."
    assert not bot_errors(caplog)


async def test_a_game_control_on_a_table_still_in_its_lobby(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    table_id = str(lobby.buttons()[0]["custom_id"]).split(":")[2]
    for kind in ("act", "show"):
        custom_id = f"mj:{kind}:{table_id}:1:1:pass.0.0"
        text = await click_custom_id(harness, host, lobby, custom_id)
        assert text == "The table has not started yet."


async def test_hand_by_someone_seated_nowhere_is_answered_privately(harness: Harness) -> None:
    host, stranger = harness.owner, harness.join("Stranger")
    asked = await stranger.run("/hand")
    assert "no table here" in await answer_text(asked)
    lobby = await harness.open_table(host, "sichuan")
    thread = harness.fake.world.channels[lobby.channel_id]
    early = await stranger.run("/hand", channel=thread)
    reply = (await early.response()).message
    assert reply is not None and reply.ephemeral_for == stranger.id
    assert "not started" in reply.content


# -- 3. clicks at once --------------------------------------------------------------------------


async def test_two_clicks_at_once_apply_exactly_one(harness: Harness) -> None:
    me = harness.owner
    await start_with_ai(harness)
    await player(harness, me).answer(await next_controls(harness, me))
    void = await next_controls(harness, me, suggested)
    first, second = (b["label"] for b in void.buttons()[:2])
    table = harness.running()
    before = len(table.hand.actions)  # type: ignore[union-attr]
    clicks = await asyncio.gather(me.click(void, label=first), me.click(void, label=second))
    answers = await asyncio.gather(*(c.response() for c in clicks))
    assert sorted(a.type for a in answers).count(UPDATED) == 1
    (other,) = [a for a in answers if a.type != UPDATED]
    assert other.message is not None and "already answered" in other.message.content
    chair = table.chair_of_user(me.id)
    assert chair is not None
    mine = [
        a
        for a in table.hand.actions[before:]  # type: ignore[union-attr]
        if getattr(a, "seat", None) == table.seat_of(chair.chair)
    ]
    assert len(mine) == 1
    await assert_store_matches_engine(harness, table)


async def test_clicks_at_two_tables_at_once_do_not_interfere(harness: Harness) -> None:
    alice, bob = harness.owner, harness.join("Bob")
    for host in (alice, bob):
        created = await host.run(
            "/table create", variant="sichuan", rounds="1", fill_with_ai="true"
        )
        opened = await answer_text(created, host)
        channel_id = int(opened.split("<#", 1)[1].split(">", 1)[0])
        table = await harness.store.table_in_channel(channel_id)
        assert table is not None and table.lobby_message_id is not None
        started = await host.click(table.lobby_message_id, label="Start")
        await started.response()
    assert harness.bot is not None
    prompts = await asyncio.gather(next_controls(harness, alice), next_controls(harness, bob))
    tables = [t.runtime for t in harness.bot.tables.running.values()]
    running = {p.id: next(t for t in tables if t.chair_of_user(p.id)) for p in (alice, bob)}
    seats = [player(harness, alice), player(harness, bob)]
    counts = {uid: len(t.hand.actions) for uid, t in running.items()}  # type: ignore[union-attr]
    await asyncio.gather(*(s.answer(p) for s, p in zip(seats, prompts, strict=True)))
    for person in (alice, bob):
        runtime = running[person.id]
        assert len(runtime.hand.actions) > counts[person.id]  # type: ignore[union-attr]
        await assert_store_matches_engine(harness, runtime)


# -- 4. a player who leaves the server ------------------------------------------------------


async def test_a_player_who_leaves_the_server_is_played_for(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(
        host, "sichuan", guest, rounds="1", fill_with_ai="true", turn_timer="1", claim_timer="1"
    )
    started = await host.click(lobby, label="Start")
    await started.response()
    await next_controls(harness, guest)
    harness.fake.world.remove_member(harness.guild, guest.user)
    guest.close_dms()
    (settlement,) = await play_out(harness, [player(harness, host)], host)
    assert "seed" in settlement.content
    assert not bot_errors(caplog)


# -- 5. a handler that crashes in the middle of a move ---------------------------------------


async def test_a_crash_while_answering_a_click_keeps_the_table_whole(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = harness.owner
    # Only the render that answers the click fails: the flag lives in the answer's task.
    answering = contextvars.ContextVar("answering", default=False)
    failures: list[int] = []
    answer = TablePresenter.answer
    render = TablePresenter.render

    async def answer_flagged(presenter: TablePresenter, *args: Any, **kwargs: Any) -> None:
        answering.set(True)
        await answer(presenter, *args, **kwargs)

    async def breaking(presenter: TablePresenter, state: Any) -> Any:
        if answering.get() and not failures:
            failures.append(state.seq)
            raise RuntimeError("the picture could not be drawn")
        return await render(presenter, state)

    monkeypatch.setattr(TablePresenter, "answer", answer_flagged)
    monkeypatch.setattr(TablePresenter, "render", breaking)
    # The crash under test is in the click's own answer. A click acknowledged first (the
    # runtime slower than ANSWER_WAIT on a busy machine) is drawn by the hand message's
    # sender instead, so this test gives the runtime all the time Discord would.
    harness.deadlines(monkeypatch, discord=120.0, bot=60.0)
    # Patched before the hand starts: its hand messages keep the presenter's render they
    # were made with.
    await start_with_ai(harness)
    prompt = await next_controls(harness, me)
    table = harness.running()
    before = len(table.hand.actions)  # type: ignore[union-attr]
    select = prompt.selects()[0]
    values = [o["value"] for o in select["options"]][: select.get("min_values", 1)]
    clicked = await me.choose(prompt, *values, custom_id=select["custom_id"])
    reply = (await clicked.response()).message
    assert failures, "the click's render failed"
    assert reply is not None and reply.ephemeral_for == me.id
    assert "Something went wrong" in reply.content
    chair = table.chair_of_user(me.id)
    assert chair is not None
    seat = table.seat_of(chair.chair)
    mine = [a for a in table.hand.actions[before:] if getattr(a, "seat", None) == seat]  # type: ignore[union-attr]
    assert len(mine) == 1
    await assert_store_matches_engine(harness, table)
    (settlement,) = await play_out(harness, [player(harness, me)], me)
    assert "seed" in settlement.content


# -- 6. values no control offered -------------------------------------------------------------


def offering(message: Message, prefix: str, values: list[str], least: int = 1) -> str:
    """The select whose custom_id starts with ``prefix`` as a modified client shows it:
    offering ``values`` and asking for at least ``least``; its custom_id."""
    for item in message.iter_components():
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith(prefix):
            item["options"] = [{"label": v or "-", "value": v} for v in values]
            item["min_values"], item["max_values"] = least, max(len(values), 1)
            return custom_id
    raise AssertionError(f"no select {prefix}")


@pytest.mark.parametrize("values", [["xyz"], [""], ["{"], []])
async def test_an_option_value_never_offered_is_refused_in_words(
    harness: Harness, values: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    panel = await harness.options_panel(host, lobby)
    picked = await host.choose(panel, "max_fan", placeholder="Change a setting…")
    await picked.response()
    live = harness.live(panel)
    custom_id = offering(live, "mj:optv:", values or ["5"], least=len(values))
    chosen = await host.choose(live, *values, custom_id=custom_id)
    assert await answer_text(chosen, host) == "This prompt has expired."
    assert not bot_errors(caplog)


@pytest.mark.parametrize("prices", ["²=1", "1=²", "1=1 ⁴=2"])
async def test_room_card_prices_with_digits_that_are_no_numbers(
    harness: Harness, prices: str, caplog: pytest.LogCaptureFixture
) -> None:
    answer = await answer_text(await harness.owner.run("/admin config", prices=prices))
    assert "Cannot read the price" in answer
    assert not bot_errors(caplog)
