"""旁观看牌 shows a hand to spectators only: never to someone seated at the same table,
in /table watch, its Refresh button, or a replay of the hand in play."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.demo import SimulatedPlayer
from bot.runtime.snapshots import BoardState
from bot.tables.presenter import TablePresenter
from tests.bot.harness import Harness
from tests.bot.test_e2e_failures import next_controls
from tests.bot.test_e2e_lobby import answer_text


async def test_a_seated_opponent_never_sees_a_shown_hand(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, guest, stranger = harness.owner, harness.join("Guest"), harness.join("Stranger")
    shown: list[tuple[int, BoardState]] = []
    original = TablePresenter.show_watch

    async def spy(
        presenter: TablePresenter, interaction: Any, board: BoardState, locale: str
    ) -> None:
        shown.append((interaction.user.id, board))
        await original(presenter, interaction, board, locale)

    monkeypatch.setattr(TablePresenter, "show_watch", spy)
    await answer_text(await host.run("/settings", spectators_see_hand="true"))
    lobby = await harness.start_table(host, "sichuan", guest, rounds="1", fill_with_ai="true")
    thread = harness.fake.world.channels[lobby.channel_id]
    await next_controls(harness, guest)
    for person in (guest, stranger):
        watched = (await (await person.run("/table watch", channel=thread)).response()).message
        assert watched is not None and watched.ephemeral_for == person.id
        refreshed = await person.click(watched, label="Refresh")
        await refreshed.response()
    table = harness.running()
    chair = table.chair_of_user(host.id)
    assert chair is not None
    seat = table.seat_of(chair.chair)
    by_guest = [board for who, board in shown if who == guest.id]
    by_stranger = [board for who, board in shown if who == stranger.id]
    assert len(by_guest) == len(by_stranger) == 2
    for board in by_guest:
        assert all(info.concealed is None for info in board.view.seats)
    for board in by_stranger:
        assert board.view.seats[seat].concealed is not None
    assert table.current is not None
    replay = await guest.run("/replay", round=str(table.current.round_id), channel=thread)
    assert "No finished hand" in await answer_text(replay)


async def test_a_player_who_turns_it_off_mid_session_is_hidden_at_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, stranger = harness.owner, harness.join("Stranger")
    shown: list[BoardState] = []
    original = TablePresenter.show_watch

    async def spy(
        presenter: TablePresenter, interaction: Any, board: BoardState, locale: str
    ) -> None:
        shown.append(board)
        await original(presenter, interaction, board, locale)

    monkeypatch.setattr(TablePresenter, "show_watch", spy)
    await answer_text(await host.run("/settings", spectators_see_hand="true"))
    lobby = await harness.start_table(host, "sichuan", rounds="4", fill_with_ai="true")
    thread = harness.fake.world.channels[lobby.channel_id]
    await next_controls(harness, host)
    table = harness.running()
    chair = table.chair_of_user(host.id)
    assert chair is not None
    for spectators_see_hand in ("true", "false"):
        # /settings says "saved": it holds at the table in play, not only at the next one.
        await answer_text(await host.run("/settings", spectators_see_hand=spectators_see_hand))
        watched = await stranger.run("/table watch", channel=thread)
        await watched.response()
    seat = table.seat_of(chair.chair)
    assert [board.view.seats[seat].concealed is not None for board in shown] == [True, False]


async def test_a_claim_window_mentions_every_player_with_closed_dms_alike(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A mention in the thread on a claim prompt alone would tell everyone reading it who
    # wants the tile just discarded (docs/bot.md, decisions 4 and 12).
    me = harness.owner
    me.close_dms()
    could_claim: list[bool] = []
    prompt_notices: list[bool] = []
    notify = TablePresenter._notify_closed
    notice = TablePresenter._closed_notice

    def told_of_window(presenter: TablePresenter, chair: int) -> None:
        runtime = harness.running()
        assert runtime.current is not None
        could_claim.append(bool(runtime.current.hand.legal_actions(runtime.seat_of(chair))))
        notify(presenter, chair)

    def told_of_prompt(presenter: TablePresenter, chair: int) -> Any:
        inner = notice(presenter, chair)

        async def told(rendered: Any) -> None:
            prompt_notices.append(rendered.claim)
            await inner(rendered)

        return told

    monkeypatch.setattr(TablePresenter, "_notify_closed", told_of_window)
    monkeypatch.setattr(TablePresenter, "_closed_notice", told_of_prompt)
    lobby = await harness.open_table(me, "sichuan", rounds="1", fill_with_ai="true")
    await (await me.click(lobby, label="Start")).response()
    person = SimulatedPlayer(me, harness.fake.world.messages, attentive=True, glance=(0.0, 0.0))
    stop = asyncio.Event()
    playing = asyncio.create_task(person.play(stop))
    try:
        await harness.until_settled(me)
    finally:
        stop.set()
        await playing
    assert prompt_notices and not any(prompt_notices), "no claim prompt mentions its player"
    assert False in could_claim, "windows the player could not claim are told alike"
