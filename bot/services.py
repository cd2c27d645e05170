"""What the bot's parts need of the bot, as one small interface.

Components, the error handler, replays and tables depend on :class:`Services` instead of
the bot class, so none of them imports it (the bot, ``bot.client.MahjongBot``, provides
it). A component reaches the tables through :func:`services_of` its interaction's client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from bot.budget import RequestBudget
from bot.ids import CustomId
from bot.settings import Settings
from bot.tile_emoji import TileEmoji
from data.models import PlayerSettings
from data.store import Store


class ComponentRouter(Protocol):
    """Where every click on one of the bot's components goes."""

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId, values: Sequence[str]
    ) -> None: ...


class Services(Protocol):
    @property
    def store(self) -> Store: ...

    @property
    def budget(self) -> RequestBudget:
        """The bot's share of Discord's global limit (``bot/budget.py``)."""
        ...

    @property
    def settings(self) -> Settings: ...

    @property
    def tables(self) -> ComponentRouter: ...

    @property
    def tile_emoji(self) -> TileEmoji:
        """The tile buttons' emojis (``bot/tile_emoji.py``)."""
        ...

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """A person's DM channel, opened once and then known by its id."""
        ...

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        """A channel or thread to send to, by id, without fetching it."""
        ...

    def is_own_channel(self, channel_id: int) -> bool:
        """Whether the place is a text channel of its own (a category's), not a thread."""
        ...

    async def reopen_thread(self, thread_id: int) -> None:
        """Unarchive a thread Discord archived."""
        ...

    async def archive_thread(self, thread_id: int) -> None: ...

    async def delete_channel(self, channel_id: int) -> None: ...

    async def player_settings(self, user_id: int) -> PlayerSettings: ...

    async def save_player_settings(self, settings: PlayerSettings) -> None: ...

    async def locale_of(self, interaction: discord.Interaction[Any]) -> str:
        """The reader's catalog locale: their /settings language, else their Discord one."""
        ...

    async def locale_of_user(self, user_id: int) -> str:
        """A person's catalog locale when they are not interacting (DMs)."""
        ...

    def guild_locale(self, guild_id: int) -> str:
        """The language of a server's threads."""
        ...

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the person is still a member of the server (checked now and then)."""
        ...

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves the server's tables (always, outside a cluster)."""
        ...

    async def forward_click(
        self, interaction: discord.Interaction[Any], guild_id: int, values: Sequence[str]
    ) -> bool:
        """Hand a DM click to the process of the cluster serving ``guild_id``; False when
        none does now (bot/forwarding.py)."""
        ...

    async def forward_reaction(self, user_id: int, message_id: int, emoji: str) -> None:
        """Hand a DM reaction on a message this process does not know to the others."""
        ...

    def first_delivery(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this is the interaction's first delivery; a second one is dropped."""
        ...


def services_of(interaction: discord.Interaction[Any]) -> Services:
    """The bot's services behind an interaction (its client is the bot)."""
    return cast(Services, interaction.client)
