"""The bot's tile art as application emojis, for the tile buttons of a hand message.

An application may upload emojis of its own and show them in any DM or server. The bot
draws each of the 34 tiles once (``renderer.hand.render_tile_emoji``), uploads the ones
its application does not have yet under the names ``mj_1m`` … ``mj_7z``, and then finds
them again at every start. Until they are there (or when an upload is refused) buttons
name their tile in text, with the Unicode mahjong tile in front of it: Discord does not
take those characters as button emoji, since all but 🀄 are text.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.pictures import tile_emoji_png
from bot.tables.stopping import Requests
from engine.tiles import NUM_KINDS, tile_str

log = logging.getLogger(__name__)

PREFIX = "mj_"
# Unicode's Mahjong Tiles block: winds, dragons (中 发 白), then 万 1-9, 条 1-9, 筒 1-9.
_WINDS_AND_DRAGONS = "🀀🀁🀂🀃🀄🀅🀆"
_CHARACTERS = "🀇🀈🀉🀊🀋🀌🀍🀎🀏"
_BAMBOO = "🀐🀑🀒🀓🀔🀕🀖🀗🀘"
_DOTS = "🀙🀚🀛🀜🀝🀞🀟🀠🀡"
#: Each kind's Unicode tile, in the engine's order (万, 筒, 条, then 东南西北中发白).
UNICODE_TILES = _CHARACTERS + _DOTS + _BAMBOO + _WINDS_AND_DRAGONS


def emoji_name(kind: int) -> str:
    """``mj_5m``: the application emoji of a tile kind."""
    return PREFIX + tile_str(kind)


class TileEmoji:
    """The tile emojis the application has, by kind."""

    def __init__(self) -> None:
        self._by_kind: dict[int, discord.PartialEmoji] = {}
        self._task: asyncio.Task[None] | None = None
        self._requests = Requests()

    def of(self, kind: int) -> discord.PartialEmoji | None:
        """The emoji of a tile, once uploaded."""
        return self._by_kind.get(kind)

    def start(self, client: discord.Client) -> None:
        """Find the emojis, uploading the missing ones, in the background."""
        self._task = asyncio.create_task(self._load(client))

    async def ready(self) -> None:
        """Wait until the emojis are found or uploaded (or could not be)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _load(self, client: discord.Client) -> None:
        try:
            with self._requests.sending():
                listed = await client.fetch_application_emojis()
            known = {e.name: e for e in listed}
            for kind in range(NUM_KINDS):
                name = emoji_name(kind)
                emoji = known.get(name)
                if emoji is None:
                    emoji = await self._upload(client, kind, known)
                self._by_kind[kind] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
        except discord.HTTPException as exc:
            # The buttons keep naming their tiles in text.
            log.warning("tile emojis unavailable: %s", exc)

    async def _upload(
        self, client: discord.Client, kind: int, known: dict[str, discord.Emoji]
    ) -> discord.Emoji:
        """Upload a tile's emoji. Another process of a cluster, starting at the same time,
        may have uploaded it first (Discord then refuses a second one of that name): it
        is then found in the application's list again."""
        name = emoji_name(kind)
        image = await tile_emoji_png(kind)
        try:
            with self._requests.sending():
                return await client.create_application_emoji(name=name, image=image)
        except discord.HTTPException:
            with self._requests.sending():
                known.update((e.name, e) for e in await client.fetch_application_emojis())
            if name in known:
                return known[name]
            raise

    async def close(self) -> None:
        """Stop uploading, between two requests (``bot.tables.stopping``)."""
        await self._requests.stop(self._task)
