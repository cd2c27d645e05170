"""Whole hands through the fake Discord and the real discord.py client."""

from __future__ import annotations

import hashlib

import pytest

from bot.variants import is_playable
from data.models import CardKind, Variant
from tests.bot.harness import Harness, play_out, player

pytestmark = pytest.mark.asyncio


def assert_private(harness: Harness) -> None:
    """Nobody was ever shown another seat's concealed tiles before the hand ended."""
    assert harness.shown
    for _, snap in harness.shown:
        for info in snap.view.seats:
            if info.seat != snap.seat and snap.view.phase != "end":
                assert info.concealed is None, (snap.seat, info.seat)


async def test_sichuan_hand_four_players(harness: Harness) -> None:
    dong = harness.join("Dong", locale="zh-TW")
    people = [harness.owner, harness.join("Bei"), harness.join("Chen"), dong]
    lobby = await harness.open_table(people[0], "sichuan", *people[1:], rounds="1")
    assert "Dong" in harness.live(lobby).content
    started = await people[0].click(lobby, label="Start")
    await started.response()
    seats = [player(harness, p, react=i % 2 == 1) for i, p in enumerate(people)]
    (settlement,) = await play_out(harness, seats, people[0])

    assert "seed" in settlement.content
    assert all(seat.answers for seat in seats)
    assert sum(seat.reactions for seat in seats) > 0, "some claims were answered by reaction"
    assert not any("went wrong" in r for s in seats for r in s.private_replies)
    assert_private(harness)
    store = harness.store
    moves = await store.card_history(harness.guild.id, people[0].id)
    assert [m.kind for m in moves][:1] == [CardKind.SPEND]
    assert moves[0].delta == -1
    for person in people:
        assert await store.recent_rounds(person.id, guild_id=harness.guild.id)
    board = await store.leaderboard(guild_id=harness.guild.id, variant=Variant.SICHUAN)
    assert {entry.stats.user_id for entry in board} == {p.id for p in people}
    thread = [m for m in people[0].messages() if "fingerprint" in m.content]
    assert thread, "the hand's seed fingerprint was shown"
    results = [m for m in people[1].messages(people[1].dm) if "Your result" in m.content]
    assert results
    assert any("四川血戰到底" in m.content for m in dong.messages(dong.dm)), "DMs in 繁體"
    fingerprint = thread[0].content.split("`")[1]
    seed = settlement.content.split("`")[-2]
    assert hashlib.sha256(seed.encode()).hexdigest() == fingerprint


@pytest.mark.parametrize("variant", ["guangdong", "mcr"])
async def test_hand_with_ai_seats(harness: Harness, variant: str) -> None:
    if not is_playable(variant):
        pytest.skip(f"{variant} play is not available in the engine yet")
    me = harness.owner
    await harness.start_table(me, variant, rounds="1", fill_with_ai="true")
    (settlement,) = await play_out(harness, [player(harness, me)], me)
    assert "seed" in settlement.content
    assert settlement.attachments[0].filename == "settlement.png"
    assert_private(harness)
    table = await harness.store.get_table(1)
    assert table.status.value == "finished"
    assert await harness.store.card_balance(harness.guild.id, me.id) == 10 - 1
    board = await harness.store.leaderboard(guild_id=harness.guild.id, variant=Variant(variant))
    assert [entry.stats.user_id for entry in board] == [me.id]
    assert board[0].stats.games == 1


async def test_ai_seats_are_named_in_each_readers_language(harness: Harness) -> None:
    """AI seats sit down with names in the server's language (English here); a player who
    reads 繁體 sees them as 電腦 in every DM."""
    dong = harness.join("Dong", locale="zh-TW")
    await harness.start_table(dong, "guangdong", rounds="1", fill_with_ai="true")
    (settlement,) = await play_out(harness, [player(harness, dong)], dong)
    assert "AI 1" in settlement.content, "the thread is in the server's language"
    dms = [m.content for m in dong.messages(dong.dm)]
    assert any("電腦" in text for text in dms)
    assert not any("AI " in text or "电脑" in text for text in dms)
    # The hand message says once that the hand is over, then what ended it.
    (hand_message,) = [text for text in dms if "本局結束" in text]
    assert hand_message.count("本局結束") == 1
