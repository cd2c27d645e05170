"""Interaction callbacks and follow-ups, answered by hand over REST as a bot would."""

from typing import Any

import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import InteractionHandle, Person
from fakediscord.models import Guild
from fakediscord.world import GUILDS
from tests.fakediscord.conftest import Rest, Socket

BUTTON_ROW = {
    "type": 1,
    "components": [{"type": 2, "style": 1, "label": "Pass", "custom_id": "claim:pass"}],
}


@pytest.fixture
async def commands(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    payload = [
        {"name": "hand", "description": "Show my hand", "type": 1},
        {
            "name": "table",
            "description": "Tables",
            "options": [{"type": 1, "name": "join", "description": "Sit down"}],
        },
    ]
    path = f"/applications/{fake.world.application_id}/guilds/{guild.id}/commands"
    status, stored, _ = await rest.call("PUT", path, json=payload)
    assert status == 200 and [c["name"] for c in stored] == ["hand", "table"]


async def callback(
    rest: Rest, handle: InteractionHandle, kind: int, data: dict[str, Any] | None = None
) -> tuple[int, Any]:
    interaction = handle.interaction
    path = f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=1"
    body: dict[str, Any] = {"type": kind} | ({"data": data} if data is not None else {})
    status, answer, _ = await rest.call("POST", path, json=body, token=False)
    return status, answer


def webhook(fake: FakeDiscord, handle: InteractionHandle, tail: str = "") -> str:
    return f"/webhooks/{fake.world.application_id}/{handle.interaction.token}{tail}"


@pytest.mark.usefixtures("commands")
async def test_callback_shape_and_ephemeral_visibility(
    rest: Rest, alice: Person, bob: Person
) -> None:
    handle = await alice.run("/hand")
    status, answer = await callback(rest, handle, 4, {"content": "🀇🀈🀉", "flags": 64})
    assert status == 200
    assert answer["interaction"]["id"] == str(handle.id)
    assert answer["interaction"]["response_message_ephemeral"] is True
    assert answer["resource"]["type"] == 4
    assert answer["resource"]["message"]["flags"] & 64
    assert (await alice.next_message()).content == "🀇🀈🀉"
    assert bob.messages() == []
    assert len(bob.inbox) == 0


@pytest.mark.usefixtures("commands")
async def test_answering_twice_is_already_acknowledged(rest: Rest, alice: Person) -> None:
    handle = await alice.run("/table join")
    assert (await callback(rest, handle, 5))[0] == 200
    status, error = await callback(rest, handle, 4, {"content": "again"})
    assert (status, error["code"]) == (400, 40060)


@pytest.mark.usefixtures("commands")
async def test_an_interaction_delivered_twice_is_answered_once(
    fake: FakeDiscord, rest: Rest, alice: Person, socket: Socket
) -> None:
    await socket.identify(fake.token, GUILDS)
    handle = await alice.run("/hand")
    first = (await socket.receive_event("INTERACTION_CREATE"))["d"]
    handle.deliver_again()
    second = (await socket.receive_event("INTERACTION_CREATE"))["d"]
    assert (second["id"], second["token"]) == (first["id"], first["token"])
    assert handle.interaction.deliveries == 2
    assert (await callback(rest, handle, 4, {"content": "already answered"}))[0] == 200
    status, error = await callback(rest, handle, 4, {"content": "the real answer"})
    assert (status, error["code"]) == (400, 40060)
    answered = (await handle.response()).message
    assert answered is not None and answered.content == "already answered"


@pytest.mark.usefixtures("commands")
async def test_first_answer_after_three_seconds_is_unknown(
    fake: FakeDiscord, rest: Rest, alice: Person
) -> None:
    handle = await alice.run("/hand")
    fake.clock.advance(3.01)
    status, error = await callback(rest, handle, 4, {"content": "late"})
    assert (status, error["code"]) == (404, 10062)


@pytest.mark.usefixtures("commands")
async def test_deadline_is_configurable(fake: FakeDiscord, rest: Rest, alice: Person) -> None:
    fake.limits.first_response_seconds = 0.0
    handle = await alice.run("/hand")
    assert (await callback(rest, handle, 5))[1]["code"] == 10062


@pytest.mark.usefixtures("commands")
async def test_token_lives_fifteen_minutes(fake: FakeDiscord, rest: Rest, alice: Person) -> None:
    handle = await alice.run("/hand")
    await callback(rest, handle, 5)
    fake.clock.advance(14 * 60)
    status, _, _ = await rest.call(
        "PATCH", webhook(fake, handle, "/messages/@original"), json={"content": "a"}
    )
    assert status == 200
    fake.clock.advance(61)
    status, error, _ = await rest.call(
        "POST", webhook(fake, handle) + "?wait=1", json={"content": "b"}
    )
    assert (status, error["code"]) == (401, 50027)


@pytest.mark.usefixtures("commands")
async def test_follow_up_before_answer_is_unknown_webhook(
    fake: FakeDiscord, rest: Rest, alice: Person
) -> None:
    handle = await alice.run("/hand")
    status, error, _ = await rest.call(
        "POST", webhook(fake, handle) + "?wait=1", json={"content": "x"}
    )
    assert (status, error["code"]) == (404, 10015)


@pytest.mark.usefixtures("commands")
async def test_commands_cannot_be_answered_with_message_updates(rest: Rest, alice: Person) -> None:
    handle = await alice.run("/hand")
    status, error = await callback(rest, handle, 7, {"content": "x"})
    assert (status, error["code"]) == (400, 50035)
    assert "type" in error["errors"]


@pytest.mark.usefixtures("commands")
async def test_component_deferred_update_then_edit_original(
    fake: FakeDiscord, rest: Rest, alice: Person, bob: Person
) -> None:
    handle = await alice.run("/hand")
    await callback(rest, handle, 4, {"content": "claim?", "components": [BUTTON_ROW]})
    prompt = await bob.next_message()
    click = await bob.click(prompt, label="Pass")
    assert (await callback(rest, click, 6))[1]["resource"] == {"type": 6}
    path = webhook(fake, click, "/messages/@original")
    status, edited, _ = await rest.call("PATCH", path, json={"content": "passed", "components": []})
    assert status == 200 and edited["id"] == str(prompt.id)
    assert (await alice.next_edit(prompt)).content == "passed"
    status, fetched, _ = await rest.call("GET", path)
    assert fetched["content"] == "passed"


@pytest.mark.usefixtures("commands")
async def test_follow_ups_edit_and_delete(fake: FakeDiscord, rest: Rest, alice: Person) -> None:
    handle = await alice.run("/hand")
    await callback(rest, handle, 4, {"content": "first"})
    status, follow, _ = await rest.call(
        "POST", webhook(fake, handle) + "?wait=1", json={"content": "secret", "flags": 64}
    )
    assert status == 200 and follow["flags"] & 64
    path = webhook(fake, handle, f"/messages/{follow['id']}")
    assert (await rest.call("PATCH", path, json={"content": "changed"}))[1]["content"] == "changed"
    assert (await rest.call("DELETE", path))[0] == 204
    assert (await rest.call("GET", path))[1]["code"] == 10008
    original = webhook(fake, handle, "/messages/@original")
    assert (await rest.call("DELETE", original))[0] == 204


@pytest.mark.usefixtures("commands")
async def test_modal_round_trip(rest: Rest, alice: Person) -> None:
    handle = await alice.run("/hand")
    modal = {
        "custom_id": "bet",
        "title": "Bet",
        "components": [
            {
                "type": 1,
                "components": [{"type": 4, "custom_id": "amount", "label": "Amount", "style": 1}],
            }
        ],
    }
    status, answer = await callback(rest, handle, 9, modal)
    assert status == 200 and answer["resource"] == {"type": 9}
    submitted = await alice.submit_modal(handle, {"amount": "3"})
    data = submitted.interaction.data
    assert data["custom_id"] == "bet"
    assert data["components"][0]["components"][0] == {
        "type": 4,
        "custom_id": "amount",
        "value": "3",
    }
    assert (await callback(rest, submitted, 4, {"content": "bet 3", "flags": 64}))[0] == 200


@pytest.mark.usefixtures("commands")
async def test_interaction_payload_carries_what_discord_py_needs(
    fake: FakeDiscord, guild: Guild, alice: Person
) -> None:
    frames: list[tuple[str, dict[str, Any]]] = []
    fake.world.set_dispatcher(lambda event, data, intent: frames.append((event, data)))
    await alice.run("/table join")
    [(event, payload)] = frames
    assert event == "INTERACTION_CREATE"
    assert payload["attachment_size_limit"] == 10 * 1024 * 1024
    assert payload["locale"] == "zh-CN" and payload["guild_locale"] == "zh-CN"
    assert payload["member"]["flags"] == 0 and payload["member"]["user"]["id"] == str(alice.id)
    assert int(payload["app_permissions"]) > 0
    assert payload["data"]["options"] == [{"type": 1, "name": "join", "options": []}]
    assert payload["data"]["guild_id"] == str(guild.id)


@pytest.mark.usefixtures("commands")
async def test_request_counts_and_answer_timings(
    fake: FakeDiscord, rest: Rest, alice: Person
) -> None:
    for _ in range(3):
        handle = await alice.run("/hand")
        await callback(rest, handle, 4, {"content": "ok"})
    await alice.run("/hand")
    report = fake.report()
    assert report["requests"]["POST /interactions/{webhook_id}/{webhook_token}/callback"] == 3
    assert report["interactions"] == 4
    assert report["interactions_unanswered"] == 1
    assert 0 <= report["first_response_seconds"]["max"] < 3
    fake.metrics.reset()
    assert fake.report()["total_requests"] == 0


@pytest.mark.usefixtures("commands")
async def test_follow_ups_always_answer_with_the_message(
    fake: FakeDiscord, rest: Rest, alice: Person
) -> None:
    """Create Followup Message: "Functions the same as Execute Webhook, but `wait` is always
    true"."""
    handle = await alice.run("/hand")
    await callback(rest, handle, 4, {"content": "first"})
    status, follow, _ = await rest.call("POST", webhook(fake, handle), json={"content": "more"})
    assert status == 200 and follow["content"] == "more"


@pytest.mark.usefixtures("commands")
async def test_a_follow_up_after_deferring_fills_the_placeholder_and_is_counted(
    fake: FakeDiscord, rest: Rest, alice: Person, bob: Person
) -> None:
    """Create Followup Message: "When using this endpoint directly after responding to an
    interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as
    Edit Original Interaction Response for backwards compatibility. [...] The ephemeral
    flag will be ignored [...] This behavior is deprecated, and you should use the Edit
    Original Interaction Response endpoint in this case instead.\""""
    deferred = await alice.run("/hand")
    await callback(rest, deferred, 5, {"flags": 64})
    placeholder = (await deferred.response()).message
    assert placeholder is not None and placeholder.loading
    _, filled, _ = await rest.call(
        "POST", webhook(fake, deferred) + "?wait=1", json={"content": "done", "flags": 0}
    )
    assert filled["id"] == str(placeholder.id) and filled["flags"] & 64
    assert not filled["flags"] & 128
    assert [m.id for m in alice.messages()] == [placeholder.id]
    assert fake.report()["deprecated_follow_ups"] == 1

    edited = await alice.run("/hand")
    await callback(rest, edited, 5)
    path = webhook(fake, edited, "/messages/@original")
    assert (await rest.call("PATCH", path, json={"content": "done"}))[0] == 200
    assert fake.report()["deprecated_follow_ups"] == 1
    assert [m.content for m in bob.messages()] == ["done"]
