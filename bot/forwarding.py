"""A process of a cluster: the shards it holds, and what it forwards to the others.

A table belongs to the process holding its server's shard (under that shard's PostgreSQL
lock, :mod:`data.postgres_shards`). Discord sends every DM event to shard 0 only, so the
process holding shard 0 receives the DM clicks and DM reactions of every table. A click
names its table (:mod:`bot.ids`); when another process owns the table, the click is
forwarded to it by NOTIFY on its shard's channel, with what answering it needs: the
interaction's id and token (any process of the application may answer an interaction
that it knows by them), the custom_id and values, the person and the message clicked.
The owner rebuilds the interaction and handles it as its own click (the interaction id
keeps it applied once), answering through the interaction-callback and webhook routes.
A reaction names only its message, which the process that sent it knows: reactions are
sent to every process, and the one that knows the message applies it. A person's
/settings, which any process may save (in DMs, shard 0's), are announced to every process
too, so that none keeps showing the old ones.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.ids import CustomId
from bot.shards import shard_of
from data.postgres_shards import CLUSTER_CHANNEL, ShardLocks, shard_channel

log = logging.getLogger(__name__)

#: A forwarded click's handler: the rebuilt interaction, its control and values.
ClickHandler = Callable[[discord.Interaction[Any], CustomId, list[str]], Awaitable[None]]
ReactionHandler = Callable[[int, int, str], Awaitable[None]]
#: A person whose settings changed in another process: forget them here, and apply them
#: at this process's tables.
SettingsHandler = Callable[[int], Awaitable[None]]


def click_payload(interaction: discord.Interaction[Any], values: Sequence[str]) -> dict[str, Any]:
    """What the owner of a table needs to answer a DM click on it, small enough for a
    notification (custom_ids have at most 100 characters, a select 25 values)."""
    data: dict[str, Any] = dict(interaction.data or {})
    message = interaction.message
    return {
        "id": str(interaction.id),
        "application_id": str(interaction.application_id),
        "token": interaction.token,
        "locale": str(interaction.locale.value),
        "channel_id": str(interaction.channel_id),
        "user": _user_json(interaction.user),
        "custom_id": data.get("custom_id", ""),
        "component_type": data.get("component_type", 2),
        "values": list(values),
        "message_id": str(message.id) if message is not None else None,
        "size_limit": interaction.filesize_limit,
    }


def _user_json(user: discord.abc.User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": user.discriminator,
        "global_name": user.global_name,
        "avatar": user.avatar.key if user.avatar is not None else None,
        "bot": user.bot,
    }


def rebuilt_interaction(
    payload: dict[str, Any], state: Any, bot_user: dict[str, Any]
) -> discord.Interaction[Any]:
    """The interaction a forwarded click stands for, as Discord would have delivered it
    here: a component interaction in a DM channel, on the message clicked."""
    channel = payload["channel_id"]
    raw: dict[str, Any] = {
        "id": payload["id"],
        "application_id": payload["application_id"],
        "type": discord.InteractionType.component.value,
        "token": payload["token"],
        "version": 1,
        "channel_id": channel,
        "channel": {"id": channel, "type": discord.ChannelType.private.value},
        "user": payload["user"],
        "locale": payload["locale"],
        "attachment_size_limit": payload["size_limit"],
        "data": {
            "custom_id": payload["custom_id"],
            "component_type": payload["component_type"],
            "values": payload["values"],
        },
    }
    if payload["message_id"] is not None:
        raw["message"] = {
            "id": payload["message_id"],
            "channel_id": channel,
            "type": 0,
            "content": "",
            "author": bot_user,
            "attachments": [],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": discord.utils.utcnow().isoformat(),
            "edited_timestamp": None,
        }
    return discord.Interaction(data=raw, state=state)  # type: ignore[arg-type]


class ClusterMember:
    """This process's shards of ``shard_count``, held under ``locks``, and the forwarding
    of DM clicks and reactions between the processes."""

    def __init__(self, locks: ShardLocks, shard_count: int) -> None:
        self.locks = locks
        self.shard_count = shard_count
        self._tasks: set[asyncio.Task[None]] = set()
        self.forwarded = 0
        self.received = 0

    @property
    def shard_ids(self) -> tuple[int, ...]:
        return self.locks.held

    def owns_guild(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.locks.held

    async def start(
        self,
        client: discord.Client,
        on_click: ClickHandler,
        on_reaction: ReactionHandler,
        on_settings: SettingsHandler,
    ) -> None:
        """Listen for the clicks forwarded to this process's shards, for reactions and for
        changed settings."""

        def click(raw: str) -> None:
            self._spawn(self._receive_click(client, raw, on_click))

        def news(raw: str) -> None:
            payload = json.loads(raw)
            if payload["kind"] == "settings":
                self._spawn(on_settings(int(payload["user"])))
            elif payload["kind"] == "reaction":
                user, message = int(payload["user"]), int(payload["message"])
                self._spawn(on_reaction(user, message, str(payload["emoji"])))

        for shard in self.locks.held:
            await self.locks.listen(shard_channel(shard), click)
        await self.locks.listen(CLUSTER_CHANNEL, news)

    async def forward_click(
        self, interaction: discord.Interaction[Any], guild_id: int, values: Sequence[str]
    ) -> bool:
        """Send a click to the process owning ``guild_id``'s tables; False when no process
        holds that shard now (it is restarting)."""
        payload = json.dumps(click_payload(interaction, values), separators=(",", ":"))
        sent = await self.locks.notify_shard(shard_of(guild_id, self.shard_count), payload)
        if sent:
            self.forwarded += 1
        return sent

    async def forward_reaction(self, user_id: int, message_id: int, emoji: str) -> None:
        news = {"kind": "reaction", "user": user_id, "message": message_id, "emoji": emoji}
        await self.locks.notify(CLUSTER_CHANNEL, json.dumps(news))

    async def settings_changed(self, user_id: int) -> None:
        await self.locks.notify(CLUSTER_CHANNEL, json.dumps({"kind": "settings", "user": user_id}))

    async def _receive_click(
        self, client: discord.Client, raw: str, on_click: ClickHandler
    ) -> None:
        payload = json.loads(raw)
        cid = CustomId.decode(payload["custom_id"])
        assert client.user is not None
        interaction = rebuilt_interaction(payload, client._connection, _user_json(client.user))
        self.received += 1
        await on_click(interaction, cid, list(payload["values"]))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("a forwarded event failed")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.locks.close()
