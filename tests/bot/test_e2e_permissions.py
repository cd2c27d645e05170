"""Who may do what, checked when it happens rather than trusted to Discord's client:
admin commands, AI seats, tables of another server, members who left."""

from __future__ import annotations

from bot.i18n.terms import escaped
from fakediscord.messaging import MessageBody, create_message
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_failures import next_controls
from tests.bot.test_e2e_lobby import answer_text


async def test_admin_commands_check_manage_server_when_they_run(harness: Harness) -> None:
    host, member = harness.owner, harness.join("Member")
    # The server opens /admin to everyone in its Integrations settings.
    harness.fake.world.set_command_permission(
        harness.guild, "admin", harness.guild.roles[harness.guild.id], True
    )
    before = await harness.store.card_balance(harness.guild.id, member.id)
    grant = await member.run("/admin cards grant", user=member.id, amount="500")
    assert "not allowed" in await answer_text(grant)
    config = await member.run("/admin config", starter_cards="9999")
    assert "not allowed" in await answer_text(config)
    assert await harness.store.card_balance(harness.guild.id, member.id) == before
    assert (await harness.store.guild_config(harness.guild.id)).starter_cards != 9999
    granted = await host.run("/admin cards grant", user=member.id, amount="5")
    assert "+5" in await answer_text(granted)


async def test_names_never_ping_anyone(harness: Harness) -> None:
    victim = harness.join("Victim")
    role = harness.fake.world.create_role(harness.guild, "Staff")
    attacker = harness.join(f"<@{victim.id}> <@&{role.id}> @everyone")
    attacker.close_dms()
    # Two time-outs put the attacker on auto-play; the AI plays the rest of the hand.
    lobby = await harness.start_table(
        attacker, "guangdong", rounds="1", fill_with_ai="true", turn_timer="1", claim_timer="1"
    )
    thread = harness.fake.world.channels[lobby.channel_id]
    await harness.until_settled(attacker)
    await attacker.next_message(where=lambda m: "session is over" in m.content, timeout=10)
    sent = [m for m in harness.fake.world.messages.values() if m.channel_id == thread.id]
    # Posted as written, its marks escaped (bot/i18n/terms.escaped).
    assert any(escaped(attacker.name) in m.content for m in sent), "the name was posted"
    for message in sent:
        assert not message.pinged_roles and not message.pinged_everyone, message.content
        # The only pings the bot means: a player whose DMs are closed, about their hand,
        # and the players of a session that ended, in its summary.
        assert message.pinged_users in ([], [attacker.id]), message.content
    assert any(m.pinged_users == [attacker.id] for m in sent)


async def test_only_the_host_adds_or_removes_ai_seats(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    lobby = await harness.open_table(host, "guangdong", guest)
    refused = await guest.choose(lobby, "normal", placeholder="Add an AI player…")
    assert "Only the table's host" in await answer_text(refused)
    for level in ("easy", "normal"):
        await (await host.choose(lobby, level, placeholder="Add an AI player…")).response()
    live = harness.live(lobby)
    assert "3. AI 1 (easy)" in live.content and "4. AI 2 (normal)" in live.content
    remove = "Remove an AI player…"
    refused = await guest.choose(live, "3. AI 1 (easy)", placeholder=remove)
    assert "Only the table's host" in await answer_text(refused)
    removed = await host.choose(live, "3. AI 1 (easy)", placeholder=remove)
    assert (await removed.response()).type == 7
    live = harness.live(lobby)
    assert "AI 1" not in live.content and "3. AI 2 (normal)" in live.content
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None and [s.ai_level for s in table.seats] == [None, None, 2]
    # The last AI seat gone, the select goes too.
    await (await host.choose(live, "3. AI 2 (normal)", placeholder=remove)).response()
    assert all(s.get("placeholder") != remove for s in harness.live(lobby).selects())


async def test_a_table_of_another_server_is_not_clicked_from_this_one(harness: Harness) -> None:
    host = harness.owner
    lobby = await harness.open_table(host, "sichuan")
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    world = harness.fake.world
    elsewhere = world.create_guild("Elsewhere")
    outsider = harness.driver.join(elsewhere, "Outsider")
    # A message of the bot in the other server carrying the first server's Join.
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": join}]}
    body = MessageBody({"content": "forged", "components": [row]}, [])
    there = create_message(world, world.channels[elsewhere.channel_ids[0]], world.bot, body)
    forged = await outsider.click(there, custom_id=join)
    assert "no longer exists" in await answer_text(forged)
    table = await harness.store.table_in_channel(lobby.channel_id)
    assert table is not None and len(table.seats) == 1


async def test_a_member_who_left_no_longer_plays_through_dm_buttons(harness: Harness) -> None:
    host, guest = harness.owner, harness.join("Guest")
    await harness.start_table(
        host, "sichuan", guest, rounds="1", fill_with_ai="true", turn_timer="0", claim_timer="0"
    )
    prompt = await next_controls(harness, guest)
    harness.fake.world.remove_member(harness.guild, guest.user)
    # What the bot last saw of the guest (Join, in the server) no longer stands.
    assert harness.bot is not None
    harness.bot.membership_ttl = 0
    table = harness.running()
    before = len(table.hand.actions)  # type: ignore[union-attr]
    clicked = await player(harness, guest)._act(prompt)
    assert clicked is not None
    assert "no longer a member" in await answer_text(clicked)
    chair = table.chair_of_user(guest.id)
    assert chair is not None and chair.autoplay
    assert len(table.hand.actions) >= before  # type: ignore[union-attr]
    # The AI answers in the guest's place; the host plays the hand to its end.
    (settlement,) = await play_out(harness, [player(harness, host)], host)
    assert "seed" in settlement.content


async def test_open_lobbies_are_capped_as_the_server_configures(harness: Harness) -> None:
    host, member = harness.owner, harness.join("Member")
    configured = await host.run("/admin config", lobbies_per_member="2", lobbies_per_server="3")
    text = await answer_text(configured)
    assert "Open lobbies per member: 2" in text and "in the server: 3" in text
    for _ in range(2):
        await harness.open_table(member, "sichuan")
    refused = await member.run("/table create", variant="sichuan")
    assert "You already have 2 open tables" in await answer_text(refused, member)
    await harness.open_table(host, "sichuan")
    refused = await host.run("/table create", variant="sichuan")
    assert "This server already has 3 open tables" in await answer_text(refused, host)
    threads = [c for c in harness.fake.world.channels.values() if c.is_thread]
    assert len(threads) == 3, "a refused table leaves no thread behind"
