"""Simulated people: typing commands, what they see, what the client stops them doing."""

import asyncio
from typing import Any

import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import Driver, DriverError, DriverTimeout, Person, parse_command
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest

TABLE_COMMAND = {
    "name": "table",
    "description": "Tables",
    "name_localizations": {"zh-CN": "牌桌"},
    "options": [
        {
            "type": 1,
            "name": "create",
            "description": "Open a table",
            "name_localizations": {"zh-CN": "开桌"},
            "options": [
                {
                    "type": 3,
                    "name": "variant",
                    "description": "Rule set",
                    "required": True,
                    "choices": [
                        {"name": "MCR", "value": "mcr", "name_localizations": {"zh-CN": "国标"}},
                        {"name": "Sichuan", "value": "sichuan"},
                    ],
                },
                {
                    "type": 4,
                    "name": "rounds",
                    "description": "Hands",
                    "min_value": 1,
                    "max_value": 16,
                },
                {"type": 5, "name": "fill_with_ai", "description": "AI seats"},
                {"type": 10, "name": "stake", "description": "Stake"},
            ],
        }
    ],
}
ADMIN_COMMAND = {
    "name": "admin",
    "description": "Admin",
    "default_member_permissions": "32",
    "options": [
        {
            "type": 2,
            "name": "cards",
            "description": "Cards",
            "options": [
                {
                    "type": 1,
                    "name": "grant",
                    "description": "Grant",
                    "options": [
                        {"type": 6, "name": "user", "description": "Who", "required": True},
                        {"type": 4, "name": "amount", "description": "How many", "required": True},
                    ],
                }
            ],
        }
    ],
}
DM_COMMAND = {"name": "settings", "description": "My settings", "contexts": [0, 1]}


@pytest.fixture(autouse=True)
async def commands(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    app = fake.world.application_id
    await rest.call(
        "PUT",
        f"/applications/{app}/guilds/{guild.id}/commands",
        json=[TABLE_COMMAND, ADMIN_COMMAND],
    )
    await rest.call("PUT", f"/applications/{app}/commands", json=[DM_COMMAND])


@pytest.mark.parametrize(
    "commands",
    [
        [{"name": "Table", "description": "upper case"}],
        [{"name": "table", "description": ""}],
        [{"name": "t", "description": "d"}, {"name": "t", "description": "twice"}],
        [
            {
                "name": "t",
                "description": "d",
                "options": [{"type": 3, "name": "x y", "description": "d"}],
            }
        ],
    ],
)
async def test_invalid_commands_are_refused(
    fake: FakeDiscord, rest: Rest, guild: Guild, commands: list[dict[str, Any]]
) -> None:
    path = f"/applications/{fake.world.application_id}/guilds/{guild.id}/commands"
    status, error, _ = await rest.call("PUT", path, json=commands)
    assert (status, error["code"]) == (400, 50035)


def test_parse_command() -> None:
    assert parse_command("/table create variant:mcr rounds:4") == (
        ["table", "create"],
        {"variant": "mcr", "rounds": "4"},
    )
    assert parse_command("/say text:'two words' at:12:30") == (
        ["say"],
        {"text": "two words", "at": "12:30"},
    )


async def test_options_are_typed_by_the_registered_schema(bob: Person) -> None:
    handle = await bob.run("/table create variant:Sichuan rounds:4 fill_with_ai:true stake:0.5")
    [sub] = handle.interaction.data["options"]
    assert sub["name"] == "create"
    assert {o["name"]: o["value"] for o in sub["options"]} == {
        "variant": "sichuan",
        "rounds": 4,
        "fill_with_ai": True,
        "stake": 0.5,
    }


async def test_localized_names_and_choices(alice: Person) -> None:
    handle = await alice.run("/牌桌 开桌 variant:国标")
    data = handle.interaction.data
    assert data["name"] == "table"
    assert data["options"][0]["options"] == [{"type": 3, "name": "variant", "value": "mcr"}]
    assert handle.interaction.command_name == "table create"


@pytest.mark.parametrize(
    "command",
    [
        "/table create",
        "/table create variant:riichi",
        "/table create variant:mcr rounds:17",
        "/table create variant:mcr rounds:four",
        "/table create variant:mcr colour:red",
        "/table",
        "/table destroy",
        "/nothing",
        "/admin cards grant user:bob amount:1",
    ],
)
async def test_what_the_client_refuses(bob: Person, command: str) -> None:
    with pytest.raises(DriverError):
        await bob.run(command)


async def test_subcommand_group_user_option_and_permissions(
    fake: FakeDiscord, driver: Driver, guild: Guild, bob: Person
) -> None:
    owner = driver.person(fake.world.users[guild.owner_id], guild)
    handle = await owner.run("/admin cards grant", user="bob", amount=3)
    data = handle.interaction.data
    group = data["options"][0]
    assert (group["type"], group["name"]) == (2, "cards")
    grant = group["options"][0]
    assert grant["options"] == [
        {"type": 6, "name": "user", "value": str(bob.id)},
        {"type": 4, "name": "amount", "value": 3},
    ]
    assert data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert "permissions" in data["resolved"]["members"][str(bob.id)]

    moderator = fake.world.create_role(guild, "Moderator", manage_guild=True)
    carol = driver.join(guild, "carol", roles=(moderator,))
    await carol.run("/admin cards grant", user=bob.user, amount=1)


async def test_a_crafted_client_sends_values_outside_choices_and_ranges(bob: Person) -> None:
    handle = await bob.run("/table create", variant="riichi", rounds=10**20, checked=False)
    options = handle.interaction.data["options"][0]["options"]
    assert {o["name"]: o["value"] for o in options} == {"variant": "riichi", "rounds": 10**20}


async def test_a_server_may_open_a_command_to_anyone(
    fake: FakeDiscord, driver: Driver, guild: Guild, bob: Person
) -> None:
    """Integrations in the server settings override default_member_permissions, for a
    member or a role; the member's own setting comes first."""
    fake.world.set_command_permission(guild, "admin", guild.roles[guild.id], True)
    await bob.run("/admin cards grant", user=bob.user, amount=1)
    fake.world.set_command_permission(guild, "admin", bob.user, False)
    with pytest.raises(DriverError):
        await bob.run("/admin cards grant", user=bob.user, amount=1)


async def test_commands_need_a_channel_the_person_may_use(
    fake: FakeDiscord, guild: Guild, bob: Person
) -> None:
    staff = fake.world.create_channel(guild, "staff")
    fake.world.set_overwrite(staff, bob.user, use_application_commands=False)
    with pytest.raises(DriverError):
        await bob.run("/table create variant:mcr", channel=staff)
    fake.world.set_overwrite(staff, bob.user, use_application_commands=None, view_channel=False)
    with pytest.raises(DriverError):
        await bob.run("/table create variant:mcr", channel=staff)
    fake.world.set_overwrite(staff, bob.user, view_channel=None)
    await bob.run("/table create variant:mcr", channel=staff)


async def test_dm_commands(fake: FakeDiscord, bob: Person) -> None:
    handle = await bob.run("/settings", channel=bob.dm)
    assert handle.interaction.guild_id is None
    with pytest.raises(DriverError):
        await bob.run("/table create variant:mcr", channel=bob.dm)


async def answer_with(fake: FakeDiscord, rest: Rest, handle: Any, data: dict[str, Any]) -> None:
    interaction = handle.interaction
    path = f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=1"
    status, _, _ = await rest.call("POST", path, json={"type": 4, "data": data}, token=False)
    assert status == 200


CONTROLS = [
    {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "碰", "custom_id": "pung"},
            {"type": 2, "style": 2, "label": "过", "custom_id": "pass", "disabled": True},
            {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"},
            {"type": 2, "style": 2, "custom_id": "hu", "emoji": {"name": "🀄"}},
        ],
    },
    {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "discard",
                "options": [{"label": "5万", "value": "5m"}, {"label": "东", "value": "E"}],
            }
        ],
    },
]


async def test_clicks_and_choices(fake: FakeDiscord, rest: Rest, bob: Person) -> None:
    handle = await bob.run("/table create variant:mcr")
    await answer_with(fake, rest, handle, {"content": "claim", "components": CONTROLS})
    prompt = await bob.next_message()
    click = await bob.click(prompt, label="碰")
    assert click.interaction.data == {"custom_id": "pung", "component_type": 2}
    assert click.interaction.message_id == prompt.id
    assert (await bob.click(prompt, emoji="🀄")).interaction.data["custom_id"] == "hu"
    picked = await bob.choose(prompt, "东")
    assert picked.interaction.data["values"] == ["E"]
    assert (await bob.choose(prompt, "5m")).interaction.data["values"] == ["5m"]
    for bad in (
        bob.click(prompt, label="过"),
        bob.click(prompt, label="Rules"),
        bob.click(prompt, label="杠"),
        bob.choose(prompt, "9万"),
        bob.choose(prompt, "5m", "E"),
    ):
        with pytest.raises(DriverError):
            await bad


async def test_prompts_are_private_messages_with_controls(
    fake: FakeDiscord, rest: Rest, alice: Person, bob: Person
) -> None:
    channel_prompt = await bob.run("/table create variant:mcr")
    await answer_with(fake, rest, channel_prompt, {"content": "lobby", "components": CONTROLS})
    dm = fake.world.dm_channel(alice.user)
    await rest.call("POST", f"/channels/{dm.id}/messages", json={"content": "hand"})
    sent = await rest.call(
        "POST", f"/channels/{dm.id}/messages", json={"content": "turn", "components": CONTROLS}
    )
    prompt = await alice.next_prompt()
    assert prompt.content == "turn" and prompt.id == int(sent[1]["id"])
    # The lobby and the plain hand message are still unread, in order.
    assert [c.message.content for c in alice.inbox.pending()] == ["lobby", "hand"]
    await rest.call("PATCH", f"/channels/{dm.id}/messages/{prompt.id}", json={"components": []})
    with pytest.raises(DriverTimeout):
        await alice.next_prompt(timeout=0.05)
    assert (await alice.next_edit(prompt)).components == []


async def test_waits_wake_on_delivery(
    fake: FakeDiscord, rest: Rest, guild: Guild, bob: Person
) -> None:
    waiting = asyncio.create_task(bob.next_message(where=lambda m: m.content == "second"))
    await asyncio.sleep(0)
    for content in ("first", "second"):
        await rest.call(
            "POST", f"/channels/{guild.channel_ids[0]}/messages", json={"content": content}
        )
    assert (await asyncio.wait_for(waiting, 1)).content == "second"
    assert (await bob.next_message()).content == "first"
    await rest.call("POST", f"/channels/{guild.channel_ids[0]}/messages", json={"content": "old"})
    bob.inbox.clear()
    with pytest.raises(DriverTimeout):
        await bob.next_message(timeout=0.01)


async def test_people_cannot_touch_what_they_cannot_see(
    fake: FakeDiscord, rest: Rest, alice: Person, bob: Person
) -> None:
    handle = await bob.run("/table create variant:mcr")
    data = {"content": "secret", "components": CONTROLS, "flags": 64}
    await answer_with(fake, rest, handle, data)
    secret = await bob.next_message()
    with pytest.raises(DriverError):
        await alice.click(secret, label="碰")
    with pytest.raises(DriverError):
        await alice.react(secret, "👍")
