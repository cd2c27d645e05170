"""REST behaviour: auth, errors, permissions, rate limits, attachments, threads, reactions."""

from typing import Any

import pytest

from fakediscord import FakeDiscord, RouteLimit
from fakediscord.driver import Person
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest
from tests.fakediscord.table_bot import tiny_png
from tests.fakediscord.test_limits import files_form

MESSAGES = "POST /channels/{channel_id}/messages"


def messages_path(guild: Guild) -> str:
    return f"/channels/{guild.channel_ids[0]}/messages"


async def post(rest: Rest, guild: Guild, content: str = "hi") -> dict[str, Any]:
    status, message, _ = await rest.call("POST", messages_path(guild), json={"content": content})
    assert status == 200
    return message


async def test_bot_token_is_required(rest: Rest) -> None:
    status, error, _ = await rest.call("GET", "/users/@me", token=False)
    assert (status, error["code"]) == (401, 0)
    status, me, headers = await rest.call("GET", "/users/@me")
    assert status == 200 and me["bot"] is True
    assert headers["Content-Type"] == "application/json"


async def test_unknown_routes_and_objects(rest: Rest, guild: Guild) -> None:
    assert (await rest.call("GET", "/nothing/here"))[0] == 404
    assert (await rest.call("POST", "/users/@me"))[0] == 405
    assert (await rest.call("GET", "/channels/1"))[1]["code"] == 10003
    assert (await rest.call("GET", messages_path(guild) + "/1"))[1]["code"] == 10008
    assert (await rest.call("GET", "/guilds/1"))[1]["code"] == 10004
    assert (await rest.call("GET", f"/guilds/{guild.id}/members/1"))[1]["code"] == 10007


async def test_guild_members_and_gateway(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person
) -> None:
    _, member, _ = await rest.call("GET", f"/guilds/{guild.id}/members/{alice.id}")
    assert member["user"]["username"] == "alice" and member["flags"] == 0
    _, info, _ = await rest.call("GET", f"/guilds/{guild.id}")
    assert info["preferred_locale"] == "zh-CN" and info["approximate_member_count"] == 3
    _, gateway, _ = await rest.call("GET", "/gateway/bot")
    assert gateway["url"] == fake.gateway_url and gateway["shards"] == 1
    _, app, _ = await rest.call("GET", "/oauth2/applications/@me")
    assert app["id"] == str(fake.world.application_id)


async def test_closed_dms(fake: FakeDiscord, rest: Rest, alice: Person) -> None:
    _, dm, _ = await rest.call("POST", "/users/@me/channels", json={"recipient_id": str(alice.id)})
    assert dm["type"] == 1 and dm["recipients"][0]["id"] == str(alice.id)
    alice.close_dms()
    status, error, _ = await rest.call(
        "POST", f"/channels/{dm['id']}/messages", json={"content": "x"}
    )
    assert (status, error["code"], error["message"]) == (
        403,
        50007,
        "Cannot send messages to this user",
    )
    alice.open_dms()
    assert (await rest.call("POST", f"/channels/{dm['id']}/messages", json={"content": "x"}))[
        0
    ] == 200
    assert (await alice.next_message(channel=alice.dm)).content == "x"


async def test_missing_permissions(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    channel = fake.world.channels[guild.channel_ids[0]]
    fake.world.set_bot_permissions(channel, attach_files=False)
    form = files_form({"content": "pic"}, [("a.png", tiny_png())])
    status, error, _ = await rest.call("POST", messages_path(guild), data=form)
    assert (status, error["code"]) == (403, 50013)
    fake.world.set_bot_permissions(guild, manage_channels=False)
    status, error, _ = await rest.call("POST", f"/guilds/{guild.id}/channels", json={"name": "x"})
    assert (status, error["code"]) == (403, 50013)
    fake.world.set_bot_permissions(channel, view_channel=False)
    assert (await rest.call("POST", messages_path(guild), json={"content": "x"}))[1][
        "code"
    ] == 50001


async def test_channel_creation(fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person) -> None:
    _, category, _ = await rest.call(
        "POST", f"/guilds/{guild.id}/channels", json={"name": "Tables", "type": 4}
    )
    body = {"name": "table-1", "type": 0, "parent_id": category["id"]}
    status, channel, _ = await rest.call("POST", f"/guilds/{guild.id}/channels", json=body)
    assert status == 201 and channel["parent_id"] == category["id"]
    view = str(1 << 10)
    hidden = {"id": str(guild.id), "type": 0, "allow": "0", "deny": view}
    bot_sees = {"id": str(guild.bot_role_id), "type": 0, "allow": view, "deny": "0"}
    private = {"name": "staff", "permission_overwrites": [hidden, bot_sees]}
    _, staff, _ = await rest.call("POST", f"/guilds/{guild.id}/channels", json=private)
    assert staff["permission_overwrites"] == [hidden, bot_sees]
    psst = {"content": "psst"}
    assert (await rest.call("POST", f"/channels/{staff['id']}/messages", json=psst))[0] == 200
    assert alice.messages() == []
    fake.limits.channels_per_category = 1
    status, error, _ = await rest.call("POST", f"/guilds/{guild.id}/channels", json=body)
    assert (status, error["code"]) == (400, 50035)
    fake.limits.channels_per_guild = len(guild.channel_ids)
    status, error, _ = await rest.call("POST", f"/guilds/{guild.id}/channels", json={"name": "y"})
    assert (status, error["code"]) == (400, 30013)


async def test_threads(fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person) -> None:
    message = await post(rest, guild, "lobby")
    path = f"{messages_path(guild)}/{message['id']}/threads"
    status, thread, _ = await rest.call(
        "POST", path, json={"name": "Table 1", "auto_archive_duration": 60}
    )
    assert status == 201 and thread["id"] == message["id"] and thread["type"] == 11
    assert (await rest.call("POST", path, json={"name": "again"}))[1]["code"] == 160004

    channel_path = f"/channels/{guild.channel_ids[0]}/threads"
    status, private, _ = await rest.call("POST", channel_path, json={"name": "Secret", "type": 12})
    assert status == 201 and private["type"] == 12
    await rest.call("POST", f"/channels/{private['id']}/messages", json={"content": "hidden"})
    assert all(m.content != "hidden" for m in alice.messages())
    await rest.call("PUT", f"/channels/{private['id']}/thread-members/{alice.id}")
    assert any(m.content == "hidden" for m in alice.messages())

    status, archived, _ = await rest.call(
        "PATCH", f"/channels/{thread['id']}", json={"archived": True}
    )
    assert status == 200 and archived["thread_metadata"]["archived"] is True
    status, error, _ = await rest.call("PATCH", f"/channels/{thread['id']}", json={"name": "x"})
    assert (status, error["code"]) == (400, 50083)
    await rest.call("POST", f"/channels/{thread['id']}/messages", json={"content": "back"})
    assert fake.world.channels[int(thread["id"])].archived is False

    fake.world.set_bot_permissions(
        fake.world.channels[guild.channel_ids[0]], create_private_threads=False
    )
    assert (await rest.call("POST", channel_path, json={"name": "No", "type": 12}))[1][
        "code"
    ] == 50013


async def test_reactions(fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person) -> None:
    # The shared reactions bucket allows one request per window; this test is about answers.
    fake.rate_limits.enabled = False
    message = await post(rest, guild)
    base = f"{messages_path(guild)}/{message['id']}/reactions"
    assert (await rest.call("PUT", f"{base}/%F0%9F%80%84/@me"))[0] == 204
    await alice.react(int(message["id"]), "🀄")
    _, users, _ = await rest.call("GET", f"{base}/%F0%9F%80%84")
    assert [u["id"] for u in users] == sorted([str(fake.world.bot.id), str(alice.id)])
    _, fetched, _ = await rest.call("GET", f"{messages_path(guild)}/{message['id']}")
    assert fetched["reactions"][0]["count"] == 2 and fetched["reactions"][0]["me"] is True
    assert (await rest.call("DELETE", f"{base}/%F0%9F%80%84/{alice.id}"))[0] == 204
    assert (await rest.call("DELETE", f"{base}/%F0%9F%80%84/@me"))[0] == 204
    assert fake.world.messages[int(message["id"])].reactions == {}
    assert (await rest.call("PUT", f"{base}/custom:123/@me"))[1]["code"] == 10014


async def test_attachments_keep_list_and_cdn(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    png = tiny_png(5, 4)
    form = files_form({"content": "hand"}, [("hand.png", png), ("old.txt", b"old")])
    _, message, _ = await rest.call("POST", messages_path(guild), data=form)
    first, _ = message["attachments"]
    assert (first["width"], first["height"], first["content_type"]) == (5, 4, "image/png")
    async with rest.session.get(first["url"]) as response:
        assert await response.read() == png

    path = f"{messages_path(guild)}/{message['id']}"
    payload = {"attachments": [{"id": first["id"]}, {"id": 0, "filename": "new.png"}]}
    _, edited, _ = await rest.call(
        "PATCH", path, data=files_form(payload, [("x.png", tiny_png(7, 7))])
    )
    assert [a["filename"] for a in edited["attachments"]] == ["hand.png", "new.png"]
    assert fake.world.messages[int(message["id"])].attachments[1].width == 7

    _, cleared, _ = await rest.call(
        "PATCH", path, json={"content": "no pictures", "attachments": []}
    )
    assert cleared["attachments"] == []
    _, untouched, _ = await rest.call("PATCH", path, json={"content": "still none"})
    assert untouched["attachments"] == []


async def test_messages_get_edit_delete_and_history(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person
) -> None:
    ids = [(await post(rest, guild, f"m{n}"))["id"] for n in range(3)]
    _, history, _ = await rest.call("GET", messages_path(guild) + "?limit=2")
    assert [m["id"] for m in history] == ids[:0:-1]
    path = f"{messages_path(guild)}/{ids[0]}"
    assert (await rest.call("PATCH", path, json={"content": "edited"}))[1]["edited_timestamp"]
    assert (await rest.call("DELETE", path))[0] == 204
    assert (await rest.call("GET", path))[1]["code"] == 10008
    assert (await alice.next_deletion(int(ids[0]))).content == "edited"


async def test_dm_history_by_limit_and_before(rest: Rest, alice: Person) -> None:
    """resources/message, Get Channel Messages: "an array of message objects from newest to
    oldest"; ``limit`` is the "Max number of messages to return", ``before`` gets "messages
    before this message ID"."""
    _, dm, _ = await rest.call("POST", "/users/@me/channels", json={"recipient_id": str(alice.id)})
    path = f"/channels/{dm['id']}/messages"
    ids = []
    for n in range(4):
        _, message, _ = await rest.call("POST", path, json={"content": f"m{n}"})
        ids.append(message["id"])
    _, newest, _ = await rest.call("GET", f"{path}?limit=2")
    assert [m["id"] for m in newest] == [ids[3], ids[2]]
    _, older, _ = await rest.call("GET", f"{path}?limit=10&before={ids[2]}")
    assert [m["id"] for m in older] == [ids[1], ids[0]]


async def test_history_without_read_message_history_is_empty(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    """resources/message, Get Channel Messages: "If the current user is missing the
    READ_MESSAGE_HISTORY permission in the channel, then no messages will be returned."
    Without View Channel it is an error, as for every route of a channel it cannot see."""
    await post(rest, guild)
    channel = fake.world.channels[guild.channel_ids[0]]
    fake.world.set_bot_permissions(channel, read_message_history=False)
    assert (await rest.call("GET", messages_path(guild)))[:2] == (200, [])
    fake.world.set_bot_permissions(channel, view_channel=False)
    status, error, _ = await rest.call("GET", messages_path(guild))
    assert (status, error["code"]) == (403, 50001)


async def test_route_bucket_429(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    fake.rate_limits.time_scale = 1.0
    fake.rate_limits.routes[MESSAGES] = RouteLimit(2, 5.0)
    for remaining in ("1", "0"):
        status, _, headers = await rest.call("POST", messages_path(guild), json={"content": "x"})
        assert status == 200 and headers["X-RateLimit-Remaining"] == remaining
        assert headers["X-RateLimit-Limit"] == "2"
    status, body, headers = await rest.call("POST", messages_path(guild), json={"content": "x"})
    assert status == 429
    assert body["global"] is False and 4 < body["retry_after"] <= 5
    for name in (
        "X-RateLimit-Reset",
        "X-RateLimit-Reset-After",
        "X-RateLimit-Bucket",
        "Retry-After",
    ):
        assert name in headers
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"]
    # Another channel has its own bucket.
    other = fake.world.create_channel(guild, "other")
    assert (await rest.call("POST", f"/channels/{other.id}/messages", json={"content": "x"}))[
        0
    ] == 200
    fake.clock.advance(body["retry_after"])
    assert (await rest.call("POST", messages_path(guild), json={"content": "x"}))[0] == 200
    assert fake.metrics.rate_limited[MESSAGES] == 1
    assert fake.metrics.requests[MESSAGES] == 5


async def test_global_limit_spares_interaction_callbacks(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    fake.rate_limits.time_scale = 1.0
    fake.rate_limits.global_limit = 3
    for _ in range(3):
        assert (await rest.call("GET", "/users/@me"))[0] == 200
    status, body, headers = await rest.call("GET", f"/guilds/{guild.id}")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    status, error, _ = await rest.call(
        "POST", "/interactions/1/none/callback", json={"type": 4}, token=False
    )
    assert (status, error["code"]) == (404, 10062)
    assert fake.metrics.global_rate_limited == 1
    # The timeline tells the global limit's refusal from every other answer.
    assert [m.global_limit for m in fake.metrics.timeline] == [False] * 3 + [True, False]


async def test_rate_limits_can_be_turned_off(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    fake.rate_limits.enabled = False
    fake.rate_limits.time_scale = 1.0
    for _ in range(8):
        status, _, headers = await rest.call("POST", messages_path(guild), json={"content": "x"})
        assert status == 200 and "X-RateLimit-Limit" not in headers


@pytest.mark.parametrize("name", ["", "x" * 101])
async def test_thread_names_are_checked(rest: Rest, guild: Guild, name: str) -> None:
    status, error, _ = await rest.call(
        "POST", f"/channels/{guild.channel_ids[0]}/threads", json={"name": name, "type": 11}
    )
    assert (status, error["code"]) == (400, 50035)


async def test_mentions_ping_as_allowed_mentions_lets_them(
    fake: FakeDiscord, rest: Rest, guild: Guild, alice: Person, bob: Person
) -> None:
    general = guild.channel_ids[0]
    content = f"<@{alice.id}> <@!{bob.id}> <@&{guild.id}> @everyone"
    sent = []
    choices: list[dict[str, list[str]] | None] = [
        None,
        {"parse": []},
        {"parse": ["everyone"], "users": [str(bob.id)]},
    ]
    for allowed in choices:
        body: dict[str, object] = {"content": content}
        if allowed is not None:
            body["allowed_mentions"] = allowed
        status, message, _ = await rest.call("POST", f"/channels/{general}/messages", json=body)
        assert status == 200
        sent.append(fake.world.messages[int(message["id"])])
    everything, nothing, chosen = sent
    assert everything.pinged_users == [alice.id, bob.id] and everything.pinged_everyone
    assert everything.pinged_roles == [guild.id]
    assert (nothing.pinged_users, nothing.pinged_roles, nothing.pinged_everyone) == ([], [], False)
    assert (chosen.pinged_users, chosen.pinged_everyone) == ([bob.id], True)


async def test_a_fault_a_test_asks_for_answers_the_routes_next_requests(
    fake: FakeDiscord, rest: Rest, guild: Guild
) -> None:
    """Servers fail: Discord's Status page and its 5xx answers ("the server had an error
    processing your request") are part of the API's life; a test chooses when."""
    fake.faults.fail(MESSAGES, status=503, times=2)
    for _ in range(2):
        status, body, _ = await rest.call("POST", messages_path(guild), json={"content": "x"})
        assert (status, body["message"]) == (503, "Service Unavailable")
    assert (await post(rest, guild))["content"] == "hi"
