"""The other slash commands through the fake Discord, in English and in Chinese."""

from __future__ import annotations

from fakediscord.driver import InteractionHandle, Person
from tests.bot.harness import Harness, play_out, player

DEFERRED_WITH_MESSAGE = 5


async def final(handle: InteractionHandle, person: Person) -> object:
    """The message that answers a command, after "thinking…" when it was deferred."""
    callback = await handle.response()
    assert callback.message is not None
    if callback.type == DEFERRED_WITH_MESSAGE:
        return await person.next_edit(callback.message)
    return callback.message


async def test_fan_answers_privately_with_a_picture(harness: Harness) -> None:
    me = harness.owner
    answer = await final(await me.run("/fan", hand="11123456789999s", variant="guangdong"), me)
    assert answer.ephemeral_for == me.id  # type: ignore[attr-defined]
    assert "Full Flush" in answer.content  # type: ignore[attr-defined]
    assert answer.attachments[0].filename == "fan.png"  # type: ignore[attr-defined]
    chinese = harness.join("小明", locale="zh-CN")
    waits = await final(
        await chinese.run("/算番", 手牌="1112345678999m", 玩法="广东推倒胡"), chinese
    )
    assert "听牌" in waits.content  # type: ignore[attr-defined]
    broken = await final(await me.run("/fan", hand="12x", variant="sichuan"), me)
    assert "Cannot score this" in broken.content  # type: ignore[attr-defined]


async def test_rules_and_settings(harness: Harness) -> None:
    me = harness.owner
    rules = await final(await me.run("/rules", variant="sichuan"), me)
    assert "`max_fan` = `4`" in rules.content  # type: ignore[attr-defined]
    saved = await me.run("/settings", language="zh-TW", spectators_see_hand="true")
    text = (await saved.response()).message.content  # type: ignore[union-attr]
    assert "已儲存" in text and "旁觀看牌：開" in text
    again = await final(await me.run("/rules", variant="guangdong"), me)
    assert "廣東推倒胡" in again.content  # type: ignore[attr-defined]


async def test_rules_show_the_servers_timers_in_the_rule_sets_words(harness: Harness) -> None:
    me = harness.owner
    await (await me.run("/admin config", turn_timer=45, claim_timer=7)).response()
    rules = await final(await me.run("/rules", variant="guangdong"), me)
    lines = rules.content.splitlines()  # type: ignore[attr-defined]
    (turn,) = [line for line in lines if "`turn_timer`" in line]
    (claim,) = [line for line in lines if "`claim_timer`" in line]
    assert "`45`" in turn and "`7`" in claim
    assert "chow" not in claim, "广东 has no chow to claim"


async def test_statistics_history_and_replay_after_a_hand(harness: Harness) -> None:
    me = harness.owner
    await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, me)], me)
    board = (await (await me.run("/leaderboard", period="7d")).response()).message
    assert board is not None and "Leaderboard" in board.content and me.name in board.content
    stats = await final(await me.run("/stats"), me)
    assert "Hands: 1" in stats.content  # type: ignore[attr-defined]
    history = (await (await me.run("/history")).response()).message
    assert history is not None and "`#1`" in history.content
    replay = (await (await me.run("/replay", round="1")).response()).message
    assert replay is not None and "Step 0/" in replay.content
    stepped = await me.click(replay, emoji="▶")
    assert (await stepped.response()).type == 7
    assert "Step 1/" in harness.live(replay).content
    seat = harness.live(replay).selects()[0]
    other = await me.choose(replay, "AI 1", custom_id=seat["custom_id"])
    await other.response()
    assert "as AI 1 saw it" in harness.live(replay).content
    unknown = (await (await me.run("/replay", round="99")).response()).message
    assert unknown is not None and "No finished hand #99" in unknown.content
