"""Room cards, /admin config and /leaderboard through the fake Discord: names as the
server shows them, grants only to the server's people, settings two admins change at
once, a card history in whole lines, and what each board counts."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.answers import CONTENT_LIMIT, whole_lines
from fakediscord.driver import InteractionHandle, Person
from fakediscord.models import ChannelType
from tests.bot.harness import Harness, play_out, player, running_harness
from tests.bot.test_e2e_lobby import answer_text


def stored_name(harness: Harness, user_id: int) -> str | None:
    """The person's name in the server as the store keeps it for the boards."""
    with closing(sqlite3.connect(harness.path)) as db:
        rows = db.execute(
            "SELECT display_name FROM guild_members WHERE guild_id = ? AND user_id = ?",
            (harness.guild.id, user_id),
        ).fetchall()
    return rows[0][0] if rows else None


async def private_text(handle: InteractionHandle, person: Person) -> str:
    callback = await handle.response()
    assert callback.message is not None and callback.message.ephemeral_for == person.id
    return await answer_text(handle, person)


async def test_cards_balance_keeps_the_server_nickname(harness: Harness) -> None:
    alice = harness.join("alice_account")
    harness.guild.members[alice.id].nick = "Alice Nick"
    await answer_text(await alice.run("/cards balance"), alice)
    assert stored_name(harness, alice.id) == "Alice Nick"


async def test_a_grant_keeps_the_targets_server_nickname(harness: Harness) -> None:
    me, bob = harness.owner, harness.join("bob_account")
    harness.guild.members[bob.id].nick = "Bobby"
    granted = await answer_text(await me.run("/admin cards grant", user=bob.id, amount=1), me)
    assert "+1" in granted
    assert stored_name(harness, bob.id) == "Bobby"


async def test_a_grant_to_a_bot_or_a_stranger_is_refused_and_changes_nothing(
    harness: Harness,
) -> None:
    me, world = harness.owner, harness.fake.world
    robot = world.create_user("OtherBot", bot=True)
    world.add_member(harness.guild, robot)
    stranger = world.create_user("Stranger")
    for user, refusal in (
        (robot, "is a bot"),
        (world.bot, "is a bot"),
        (stranger, "is not a member of this server"),
    ):
        answer = await private_text(await me.run("/admin cards grant", user=user.id, amount=5), me)
        assert refusal in answer, answer
        assert await harness.store.card_history(harness.guild.id, user.id) == []
        assert stored_name(harness, user.id) is None


async def test_a_refused_take_changes_nothing(harness: Harness) -> None:
    me, carol = harness.owner, harness.join("carol")
    refused = await answer_text(await me.run("/admin cards grant", user=carol.id, amount=-50), me)
    assert "cannot take that many" in refused
    assert await harness.store.card_history(harness.guild.id, carol.id) == []
    assert stored_name(harness, carol.id) is None


async def test_card_history_shows_whole_lines(harness: Harness) -> None:
    me = harness.owner
    for number in range(15):
        note = f"{number:02d} " + "n" * 190
        await answer_text(await me.run("/admin cards grant", user=me.id, amount=1, note=note), me)
    history = await answer_text(await me.run("/cards history"), me)
    assert len(history) <= CONTENT_LIMIT
    # With the starter cards, 16 movements: the first of two pages.
    heading, *lines, page = history.splitlines()
    assert "Room cards" in heading and page == "Page 1"
    # All 15 grants, newest first, each with its note cut short on purpose.
    assert [line.split(" · ")[1][:2] for line in lines] == [f"{n:02d}" for n in range(14, -1, -1)]
    for line in lines:
        note = line.split(" · ")[1]
        assert len(note) < 100 and note.endswith("…"), line


def test_lines_past_a_messages_limit_are_left_out_whole() -> None:
    lines = [f"{number:03d} " + "x" * 96 for number in range(30)]
    shown = whole_lines(lines)
    assert len(shown) <= CONTENT_LIMIT
    assert shown.splitlines() == lines[:19], "19 lines of 100 and their breaks fit 2,000"
    assert whole_lines(lines[:3]) == "\n".join(lines[:3])


async def test_two_admins_configuring_at_once_both_keep_their_change(harness: Harness) -> None:
    me, other = harness.owner, harness.join("Other admin")
    mods = harness.fake.world.create_role(harness.guild, "mods", manage_guild=True)
    harness.guild.members[other.id].roles.append(mods.id)
    first, second = await asyncio.gather(
        me.run("/admin config", starter_cards=3, prices="8=5"),
        other.run("/admin config", daily_cards=2, prices="16=7"),
    )
    await asyncio.gather(answer_text(first, me), answer_text(second, other))
    config = await harness.store.guild_config(harness.guild.id)
    assert (config.starter_cards, config.daily_cards) == (3, 2)
    assert (config.price_for(8), config.price_for(16)) == (5, 7)


async def test_prices_may_be_written_with_spaces_around_the_equals_sign(
    harness: Harness,
) -> None:
    me = harness.owner
    saved = await answer_text(await me.run("/admin config", prices="8 = 5, 16= 6 4 =3"), me)
    assert "Prices (hands=cards): 1=1 4=3 8=5 16=6" in saved, saved


async def test_a_category_and_no_category_at_once_are_refused(harness: Harness) -> None:
    me = harness.owner
    harness.fake.world.create_channel(harness.guild, "tables", kind=ChannelType.CATEGORY)
    refused = await private_text(
        await me.run("/admin config", table_category="tables", no_category="true", turn_timer=40),
        me,
    )
    assert "not both" in refused
    config = await harness.store.guild_config(harness.guild.id)
    assert config.table_category_id is None and config.turn_timer != 40


async def test_the_win_rate_board_needs_ten_hands_and_says_so(harness: Harness) -> None:
    me = harness.owner
    await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
    await play_out(harness, [player(harness, me)], me)
    by_net = await answer_text(await me.run("/leaderboard", ranking="net score"), me)
    assert me.name in by_net
    by_rate = await answer_text(await me.run("/leaderboard", ranking="win rate"), me)
    heading = by_rate.splitlines()[0]
    assert heading.endswith("by win rate · at least 10 hands"), heading
    assert me.name not in by_rate and "Nothing yet." in by_rate


async def test_a_season_board_says_it_ignores_the_period(harness: Harness) -> None:
    me = harness.owner
    await answer_text(await me.run("/admin season start"), me)
    board = await answer_text(await me.run("/leaderboard", season=1, period="7d"), me)
    assert "season 1" in board.splitlines()[0]
    assert "counts the whole season" in board
    whole = await answer_text(await me.run("/leaderboard", season=1), me)
    assert "counts the whole season" not in whole


async def test_an_admin_may_choose_the_built_in_timers_over_the_bots_defaults(
    tmp_path: Path,
) -> None:
    async with running_harness(tmp_path, start=False) as harness:
        defaults = harness.settings
        harness.settings = lambda **changes: defaults(**({"turn_timer": 30} | changes))  # type: ignore[method-assign]
        await harness.start_bot()
        admin = harness.owner
        assert "Turn timer: 30 s" in await answer_text(await admin.run("/admin config"), admin)
        saved = await answer_text(await admin.run("/admin config", turn_timer="20"), admin)
        assert "Turn timer: 20 s" in saved
        config = await harness.store.guild_config(harness.guild.id)
        assert harness.bot is not None and config.configured
        assert harness.bot.tables.timer_defaults(config) == (20, 10)


async def test_open_lobbies_show_the_price_and_payer_an_admin_just_set(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "sichuan", guest, rounds="1")
    assert "Room cards: 1 (the host pays)" in harness.live(lobby).content
    await answer_text(await host.run("/admin config", prices="1=4", card_payer="split"), host)
    redrawn = await host.next_edit(lobby, where=lambda m: "Room cards: 4" in m.content, timeout=5)
    assert "the host pays" not in redrawn.content
