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
