"""Mentions as Discord parses them, and what notifies a person: new messages in their DMs
and new messages that mention them, never edits (fakediscord.mentions)."""

import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import DriverTimeout, Person
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest
from tests.fakediscord.test_driver import CONTROLS, answer_with

QUIET = 0.05


def channel_path(guild: Guild) -> str:
    return f"/channels/{guild.channel_ids[0]}/messages"


async def test_mentions_follow_the_content_and_allowed_mentions(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person, bob: Person
) -> None:
    content = f"<@{alice.id}> and <@!{bob.id}>"
    _, every, _ = await rest.call("POST", channel_path(guild), json={"content": content})
    assert [u["id"] for u in every["mentions"]] == [str(alice.id), str(bob.id)]
    only_bob = {"content": content, "allowed_mentions": {"users": [str(bob.id)]}}
    _, narrowed, _ = await rest.call("POST", channel_path(guild), json=only_bob)
    assert [u["id"] for u in narrowed["mentions"]] == [str(bob.id)]
    nobody = {"content": content, "allowed_mentions": {"parse": []}}
    _, silent, _ = await rest.call("POST", channel_path(guild), json=nobody)
    assert silent["mentions"] == []
    users = {"content": content, "allowed_mentions": {"parse": ["users"]}}
    _, parsed, _ = await rest.call("POST", channel_path(guild), json=users)
    assert len(parsed["mentions"]) == 2


async def test_new_dms_and_mentions_notify_edits_do_not(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person, bob: Person
) -> None:
    dm = fake.world.dm_channel(alice.user)
    _, first, _ = await rest.call("POST", f"/channels/{dm.id}/messages", json={"content": "1"})
    assert (await alice.next_notification()).id == int(first["id"])
    path = f"/channels/{dm.id}/messages/{first['id']}"
    await rest.call("PATCH", path, json={"content": "your turn"})
    with pytest.raises(DriverTimeout):
        await alice.next_notification(timeout=QUIET)
    # In a channel, only a message that mentions her.
    await rest.call("POST", channel_path(guild), json={"content": "everyone reads this"})
    await rest.call("POST", channel_path(guild), json={"content": f"<@{bob.id}> only"})
    with pytest.raises(DriverTimeout):
        await alice.next_notification(timeout=QUIET)
    _, mention, _ = await rest.call(
        "POST", channel_path(guild), json={"content": f"<@{alice.id}> your turn"}
    )
    assert (await alice.next_notification()).id == int(mention["id"])
    assert (await bob.next_notification()).content == f"<@{bob.id}> only"
    # A message sent with SUPPRESS_NOTIFICATIONS reaches her silently.
    quiet = {"content": "shh", "flags": 1 << 12}
    await rest.call("POST", f"/channels/{dm.id}/messages", json=quiet)
    with pytest.raises(DriverTimeout):
        await alice.next_notification(timeout=QUIET)


async def test_a_follow_up_notifies_an_ephemeral_answer_does_not(
    fake: FakeDiscord, rest: Rest, guild: Guild, bob: Person
) -> None:
    await rest.call("POST", channel_path(guild), json={"content": "lobby", "components": CONTROLS})
    lobby = await bob.next_message()
    handle = await bob.click(lobby, label="碰")
    await answer_with(fake, rest, handle, {"content": "only you", "flags": 64})
    with pytest.raises(DriverTimeout):
        await bob.next_notification(timeout=QUIET)
    interaction = handle.interaction
    path = f"/webhooks/{fake.world.application_id}/{interaction.token}"
    _, sent, _ = await rest.call("POST", path, json={"content": f"<@{bob.id}> later"}, token=False)
    assert (await bob.next_notification()).id == int(sent["id"])
