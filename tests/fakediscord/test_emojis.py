"""Application emojis (resources/emoji) and the emoji a button may show: custom emojis the
application owns, or Unicode emoji Discord knows (fakediscord.emojis)."""

import base64
from typing import Any

import discord
import pytest

from fakediscord import FakeDiscord
from fakediscord.models import Guild
from tests.fakediscord.conftest import Rest
from tests.fakediscord.table_bot import TableBot, tiny_png


def emojis_path(fake: FakeDiscord) -> str:
    return f"/applications/{fake.world.application_id}/emojis"


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


async def test_upload_once_then_list(fake: FakeDiscord, bot: TableBot) -> None:
    png = tiny_png(4, 4)
    made = await bot.create_application_emoji(name="tile_1m", image=png)
    listed = await bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "tile_1m")]
    assert fake.world.app_emojis[made.id].image == png
    with pytest.raises(discord.HTTPException) as taken:
        await bot.create_application_emoji(name="tile_1m", image=png)
    assert taken.value.code == 50035


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "x", "image": "png"}, "name"),
        ({"name": "no spaces", "image": "png"}, "name"),
        ({"name": "tile", "image": "not a data uri"}, "image"),
        ({"name": "tile", "image": data_uri(b"\0" * (256 * 1024 + 1))}, "image"),
    ],
)
async def test_bad_emojis_are_refused(
    fake: FakeDiscord, rest: Rest, fields: dict[str, str], field: str
) -> None:
    if fields["image"] == "png":
        fields = fields | {"image": data_uri(tiny_png())}
    status, error, _ = await rest.call("POST", emojis_path(fake), json=fields)
    assert status == 400 and error["code"] == 50035 and field in error["errors"]
    assert not fake.world.app_emojis


def button(emoji: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [{"type": 2, "style": 2, "custom_id": "tile", "emoji": emoji}],
        }
    ]


async def test_buttons_show_known_emoji_only(fake: FakeDiscord, rest: Rest, guild: Guild) -> None:
    # Seven messages on one channel; this test is about answers, not the route's bucket.
    fake.rate_limits.enabled = False
    _, made, _ = await rest.call(
        "POST", emojis_path(fake), json={"name": "tile_1m", "image": data_uri(tiny_png())}
    )
    path = f"/channels/{guild.channel_ids[0]}/messages"
    own = {"id": made["id"], "name": "tile_1m"}
    for emoji in (own, {"name": "🀄"}, {"name": "3️⃣"}):
        status, _, _ = await rest.call("POST", path, json={"components": button(emoji)})
        assert status == 200, emoji
    # Someone else's emoji, an emoji that is only text, and plain text.
    for emoji in ({"id": "123", "name": "other"}, {"name": "🀇"}, {"name": "x"}):
        status, error, _ = await rest.call("POST", path, json={"components": button(emoji)})
        assert status == 400, emoji
        row = error["errors"]["components"]["0"]["components"]["0"]
        (errors,) = row["emoji"].values()
        assert errors["_errors"][0]["code"] == "BUTTON_COMPONENT_INVALID_EMOJI"
