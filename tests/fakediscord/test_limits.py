"""Discord's limits on message bodies: 400 with code 50035 and the failing field."""

import json
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.config import MIB
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest


def button(n: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{n}", "custom_id": f"id{n}"} | extra


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(options: int, **extra: Any) -> dict[str, Any]:
    choices = [{"label": f"o{n}", "value": f"v{n}"} for n in range(options)]
    return {"type": 3, "custom_id": "pick", "options": choices} | extra


INVALID_BODIES = {
    "content over 2000": ({"content": "x" * 2001}, ["content"]),
    "six action rows": ({"components": [row(button(n)) for n in range(6)]}, ["components"]),
    "six buttons in a row": (
        {"components": [row(*(button(n) for n in range(6)))]},
        ["components", "0", "components"],
    ),
    "select beside a button": (
        {"components": [row(select(2), button(1))]},
        ["components", "0", "components"],
    ),
    "26 select options": (
        {"components": [row(select(26))]},
        ["components", "0", "components", "0", "options"],
    ),
    "custom_id of 101": (
        {"components": [row(button(1, custom_id="c" * 101))]},
        ["components", "0", "components", "0", "custom_id"],
    ),
    "label of 81": (
        {"components": [row(button(1, label="l" * 81))]},
        ["components", "0", "components", "0", "label"],
    ),
    "duplicate custom_id": (
        {"components": [row(button(1), button(2, custom_id="id1"))]},
        ["components", "0", "components", "1", "custom_id"],
    ),
    "eleven embeds": ({"embeds": [{"title": "t"}] * 11}, ["embeds"]),
    "embeds over 6000 characters": (
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        ["embeds"],
    ),
}


@pytest.mark.parametrize("body, path", INVALID_BODIES.values(), ids=INVALID_BODIES.keys())
async def test_invalid_message_bodies(
    rest: Rest, guild: Guild, body: dict[str, Any], path: list[str]
) -> None:
    status, error, _ = await rest.call(
        "POST", f"/channels/{guild.channel_ids[0]}/messages", json=body
    )
    assert status == 400
    assert error["code"] == 50035
    node = error["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"]


async def test_limits_at_their_maximum_are_accepted(rest: Rest, guild: Guild) -> None:
    body = {
        "content": "x" * 2000,
        "components": [row(*(button(5 * r + n) for n in range(5))) for r in range(4)]
        + [row(select(25, max_values=25))],
        "embeds": [{"description": "d" * 600} for _ in range(10)],
    }
    status, _, _ = await rest.call("POST", f"/channels/{guild.channel_ids[0]}/messages", json=body)
    assert status == 200


async def test_empty_message(rest: Rest, guild: Guild) -> None:
    status, error, _ = await rest.call(
        "POST", f"/channels/{guild.channel_ids[0]}/messages", json={}
    )
    assert (status, error["code"]) == (400, 50006)


def files_form(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    for index, (name, data) in enumerate(files):
        form.add_field(
            f"files[{index}]", data, filename=name, content_type="application/octet-stream"
        )
    return form


async def test_eleven_attachments(rest: Rest, guild: Guild) -> None:
    files = [(f"f{n}.txt", b"x") for n in range(11)]
    path = f"/channels/{guild.channel_ids[0]}/messages"
    status, error, _ = await rest.call("POST", path, data=files_form({}, files))
    assert (status, error["code"]) == (400, 50035)
    assert "attachments" in error["errors"]


async def test_upload_over_ten_mib(rest: Rest, guild: Guild) -> None:
    path = f"/channels/{guild.channel_ids[0]}/messages"
    big = [("big.png", b"\0" * (10 * MIB + 1))]
    status, error, _ = await rest.call("POST", path, data=files_form({}, big))
    assert (status, error["code"]) == (413, 40005)
    exact = [("ok.png", b"\0" * (10 * MIB))]
    status, _, _ = await rest.call("POST", path, data=files_form({}, exact))
    assert status == 200


async def test_limits_can_be_relaxed(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    fake.limits.content_length = 3000
    path = f"/channels/{guild.channel_ids[0]}/messages"
    assert (await rest.call("POST", path, json={"content": "x" * 2500}))[0] == 200
    fake.limits.enforce = False
    assert (await rest.call("POST", path, json={"content": "x" * 5000}))[0] == 200


async def test_edits_are_checked_too(rest: Rest, guild: Guild) -> None:
    path = f"/channels/{guild.channel_ids[0]}/messages"
    _, message, _ = await rest.call("POST", path, json={"content": "ok"})
    status, error, _ = await rest.call(
        "PATCH", f"{path}/{message['id']}", json={"components": [row(button(1, label="l" * 81))]}
    )
    assert (status, error["code"]) == (400, 50035)
