"""Ratings, seasons and replay codes through the fake Discord: /leaderboard, /stats,
/admin season and /replay code, with the jumps and the round script."""

from __future__ import annotations

import json
import re

from data import Variant
from engine.actions import Action
from engine.events import Claimed, Event, Konged, Won
from engine.round import Round
from fakediscord.driver import Person
from fakediscord.models import Message
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_commands import final
from tests.bot.test_e2e_lobby import answer_text

CODE = re.compile(r"Replay code: `([A-Z0-9]{6})`")


async def one_session(harness: Harness, me: Person) -> tuple[Message, Message]:
    """A one-hand sichuan session with three AI seats; its settlement and its summary."""
    await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    (settlement,) = await play_out(harness, [player(harness, me)], me)
    summary = await me.next_message(where=lambda m: "session is over" in m.content, timeout=20)
    return settlement, summary


async def test_leaderboard_ranks_by_rating_and_stats_is_a_picture(harness: Harness) -> None:
    me = harness.owner
    _, summary = await one_session(harness, me)
    rating = await harness.store.rating(me.id, guild_id=harness.guild.id)
    assert rating is not None and rating.sessions == 1 and rating.provisional
    # The summary tells the rule set's rating in this server and how far it moved.
    sichuan = await harness.store.rating(me.id, guild_id=harness.guild.id, variant=Variant.SICHUAN)
    assert sichuan is not None
    moved = f"{sichuan.shown - 1500:+d}"
    assert f"{me.name} " in summary.content
    assert f"rating {sichuan.shown}? ({moved})" in summary.content
    assert summary.content.count("· rating") == 1  # the AI seats are not rated
    board = await answer_text(await me.run("/leaderboard"))
    assert "by rating" in board and f"{me.name} — {rating.shown}?" in board
    assert "(1 session)" in board
    assert "counts every session" not in board
    by_net = await answer_text(await me.run("/leaderboard", ranking="net score"))
    assert "by net score" in by_net and "(1 hand)" in by_net
    # A rating has no period: asked for one, the board says why it shows all time.
    week = await answer_text(await me.run("/leaderboard", period="7d"))
    assert "all time · by rating" in week and "A rating counts every session" in week
    assert "counts every session" not in await answer_text(
        await me.run("/leaderboard", ranking="net score", period="7d")
    )
    stats = await final(await me.run("/stats"), me)
    assert stats.ephemeral_for == me.id  # type: ignore[attr-defined]
    assert f"Rating: {rating.shown}?" in stats.content  # type: ignore[attr-defined]
    (picture,) = stats.attachments  # type: ignore[attr-defined]
    assert picture.filename == "stats.png" and picture.data.startswith(b"\x89PNG")
    one_rule_set = await final(await me.run("/stats", variant="sichuan"), me)
    assert "Hands: 1" in one_rule_set.content  # type: ignore[attr-defined]
    other_rule_set = await final(await me.run("/stats", variant="mcr"), me)
    assert "Hands: 0" in other_rule_set.content  # type: ignore[attr-defined]
    chinese = harness.join("小明", locale="zh-CN")
    answer = await answer_text(await chinese.run("/排行榜"), chinese)
    assert "按等级分" in answer and "定级中" in answer and "1 场" in answer


async def test_admin_seasons_isolate_their_boards(harness: Harness) -> None:
    me, member = harness.owner, harness.join("Member")
    await one_session(harness, me)
    started = await answer_text(await me.run("/admin season start"))
    assert "Season 1 has started" in started
    again = await answer_text(await me.run("/admin season start"))
    assert "Season 1 is still running" in again
    empty = await answer_text(await me.run("/leaderboard", season="1"))
    assert "season 1" in empty and "Nothing yet." in empty
    # Admin commands check Manage Server as they run, even when the server opens them.
    harness.fake.world.set_command_permission(
        harness.guild, "admin", harness.guild.roles[harness.guild.id], True
    )
    refused = await answer_text(await member.run("/admin season end"))
    assert "not allowed" in refused
    await one_session(harness, me)
    season = await answer_text(await me.run("/leaderboard", season="1"))
    assert me.name in season and "(1 session)" in season
    everything = await answer_text(await me.run("/leaderboard"))
    assert "(2 sessions)" in everything
    ended = await answer_text(await me.run("/admin season end"))
    assert "Season 1 is over" in ended
    assert "No season is running" in await answer_text(await me.run("/admin season end"))
    unknown = await answer_text(await me.run("/leaderboard", season="2"))
    assert "no season 2" in unknown


def claims(event: Event) -> bool:
    """A chow or pong of a discard, a kong of one, a win on one or robbing a kong."""
    if isinstance(event, Konged):
        return event.kong == "exposed"
    return isinstance(event, Claimed) or (isinstance(event, Won) and event.from_seat is not None)


def expected_jumps(script: dict, seed: str, hand_number: int, seat: int) -> dict[str, int | None]:
    """Where each jump from step 0 should land, worked out from the engine directly."""
    actions = script.pop("actions")
    hand = Round.from_script(script, seed=seed, hand_number=hand_number)
    mine = claim = win = None
    for index, raw in enumerate(actions):
        events = hand.apply(Action.from_json(raw))
        if mine is None and raw["seat"] == seat and raw["action"] != "pass":
            mine = index + 1
        if claim is None and any(claims(event) for event in events):
            claim = index + 1
        if win is None and any(isinstance(e, Won) for e in events):
            win = index + 1
    return {"My next move": mine, "Next claim": claim, "The win": win}


def step_of(message: Message) -> int:
    found = re.search(r"Step (\d+)/", message.content)
    assert found is not None
    return int(found.group(1))


async def test_replay_codes_open_the_hand_with_jumps_and_its_script(harness: Harness) -> None:
    me = harness.owner
    settlement, _ = await one_session(harness, me)
    found = CODE.search(settlement.content)
    assert found is not None, settlement.content
    code = found.group(1)
    record = await harness.store.round_by_code(code)
    assert record is not None
    seat = next(p.seat for p in record.players if p.user_id == me.id)

    opened = (await (await me.run("/replay", code=code.lower())).response()).message
    assert opened is not None and "Step 0/" in opened.content and code in opened.content
    script = await harness.store.round_script(record.info.id)
    targets = expected_jumps(dict(script), record.info.seed, record.info.hand_number, seat)
    assert targets["The win"] is not None and targets["My next move"] is not None
    for label, target in targets.items():
        button = next(b for b in harness.live(opened).buttons() if b.get("label") == label)
        if target is None:
            assert button.get("disabled")
            continue
        clicked = await me.click(opened, label=label)
        assert (await clicked.response()).type == 7
        assert step_of(harness.live(opened)) == target, label
        first = await me.click(opened, emoji="⏮")
        await first.response()

    download = await me.click(opened, label="Round script (JSON)")
    sent = (await download.response()).message
    assert sent is not None and sent.ephemeral_for == me.id
    (attachment,) = sent.attachments
    assert attachment.filename.endswith(".json")
    assert json.loads(attachment.data) == script

    # Commands registered globally, as without DEV_GUILD_ID: they reach DMs and other servers.
    await harness.stop_bot()
    settings = harness.settings
    harness.settings = lambda **changes: settings(**({"dev_guild_id": None} | changes))  # type: ignore[method-assign]
    await harness.start_bot()
    # The player's result by DM names the code too.
    assert any("Your result" in m.content and code in m.content for m in me.messages(me.dm)), (
        "the result DM gives the code"
    )
    # In DMs the hand's player opens it; someone who did not play it does not.
    in_dm = (await (await me.run("/replay", code=code, channel=me.dm)).response()).message
    assert in_dm is not None and "Step 0/" in in_dm.content
    stranger = harness.join("Stranger")
    nope = await answer_text(await stranger.run("/replay", code=code, channel=stranger.dm))
    assert "No finished hand has the code" in nope
    # Another server never resolves it.
    elsewhere = harness.fake.world.create_guild("Elsewhere")
    outsider = harness.driver.join(elsewhere, "Outsider")
    away = await answer_text(
        await outsider.run(
            "/replay", code=code, channel=harness.fake.world.channels[elsewhere.channel_ids[0]]
        )
    )
    assert "No finished hand has the code" in away
    assert "No finished hand has the code" in await answer_text(
        await me.run("/replay", code="ZZZZZZ")
    )
