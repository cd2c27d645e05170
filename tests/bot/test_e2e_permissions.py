"""Who may do what, checked when it happens rather than trusted to Discord's client:
admin commands, AI seats, tables of another server, members who left."""

from __future__ import annotations

from tests.bot.harness import Harness
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
    assert any(attacker.name in m.content for m in sent), "the name was posted"
    for message in sent:
        assert not message.pinged_roles and not message.pinged_everyone, message.content
        # The only ping the bot means: a player whose DMs are closed, about their hand.
        assert message.pinged_users in ([], [attacker.id]), message.content
    assert any(m.pinged_users == [attacker.id] for m in sent)
