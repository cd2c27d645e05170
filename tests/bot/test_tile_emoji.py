"""The bot's tile art as application emojis: uploaded once, found again at every start,
and shown on the tile buttons; Unicode tiles with their names until they are there."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.tile_emoji import UNICODE_TILES, emoji_name
from bot.views.controls import Reader, tile_face
from engine.tiles import NUM_KINDS, parse_tile
from tests.bot.harness import running_harness

UPLOAD = "POST /applications/{application_id}/emojis"


async def test_the_tile_emojis_are_uploaded_once(tmp_path: Path) -> None:
    async with running_harness(tmp_path) as harness:
        world = harness.fake.world
        assert len(world.app_emojis) == NUM_KINDS
        first = {e.name: e.id for e in world.app_emojis.values()}
        world.app_emojis.clear()
        await harness.stop_bot()
        harness.fake.metrics.reset()
        bot = await harness.start_bot()
        uploads = [m for m in harness.fake.metrics.timeline if m.route == UPLOAD]
        assert len(uploads) == NUM_KINDS
        names = {e.name for e in world.app_emojis.values()}
        assert names == {emoji_name(k) for k in range(NUM_KINDS)} == set(first)
        five = bot.tile_emoji.of(parse_tile("5m"))
        assert five is not None and five.name == "mj_5m"
        assert five.id is not None
        assert world.app_emojis[five.id].image.startswith(b"\x89PNG")
        # A restart finds them: nothing is uploaded again.
        await harness.stop_bot()
        harness.fake.metrics.reset()
        bot = await harness.start_bot()
        assert bot.tile_emoji.of(parse_tile("5m")) == five
        assert not [m for m in harness.fake.metrics.timeline if m.route == UPLOAD]


def test_a_tile_button_shows_the_emoji_or_else_the_unicode_tile_and_its_name() -> None:
    red = parse_tile("5z")
    emoji = discord.PartialEmoji(name="mj_5z", id=123)
    assert tile_face(red, Reader("zh-CN", (), emoji=lambda kind: emoji)) == {"emoji": emoji}
    assert tile_face(red, Reader("zh-CN", ())) == {"label": f"{UNICODE_TILES[red]} 中"}
    assert UNICODE_TILES[red] == "🀄" and UNICODE_TILES[parse_tile("1m")] == "🀇"
    assert UNICODE_TILES[parse_tile("1p")] == "🀙" and UNICODE_TILES[parse_tile("1s")] == "🀐"
