"""Where a table lives in a server, from its lobby to its end: a thread of the channel the
command ran in, or a text channel of the category an admin configured.

Discord archives a thread after its auto-archive time without a new message; in an
archived thread, editing a message and answering a click by updating it fail (50083) and
only a new message reopens it. So the bot opens threads with an explicit auto-archive
time and reopens a thread before it edits there again (:func:`reopening`). A category
holds at most 50 channels (a server 500): a table that finds its category full opens as a
thread instead, and a finished table's channel is deleted after a grace period
(``Pacing.place_grace``), so the category keeps room.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import discord

#: "Cannot execute action on an archived thread."
ARCHIVED_THREAD = 50083
#: A category's 50 channels are all taken: Discord says so with an invalid form body
#: whose parent_id error reads "Maximum number of channels in category reached (50)".
INVALID_FORM = 50035
CATEGORY_FULL = "Maximum number of channels in category"
#: The server's 500 channels are all taken.
SERVER_FULL = 30013
#: Minutes without a message before Discord archives a table's thread: a day, so a lobby
#: waiting overnight, or a finished table's thread, archives by itself.
AUTO_ARCHIVE_MINUTES: Final = 1440

T = TypeVar("T")


class PlaceFull(Exception):
    """The configured category (or the server) has no room for another channel."""


def is_full(error: discord.HTTPException) -> bool:
    """Whether Discord refused a new channel because its category or server is full."""
    if error.code == SERVER_FULL:
        return True
    return error.code == INVALID_FORM and CATEGORY_FULL in str(error.text)


async def open_channel(
    guild: discord.Guild, name: str, category: discord.CategoryChannel
) -> discord.TextChannel:
    """A table's own channel in the category; PlaceFull when there is no room."""
    try:
        return await guild.create_text_channel(name, category=category)
    except discord.Forbidden:
        raise
    except discord.HTTPException as exc:
        if is_full(exc):
            raise PlaceFull from exc
        raise


async def open_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    return await channel.create_thread(
        name=name,
        type=discord.ChannelType.public_thread,
        auto_archive_duration=AUTO_ARCHIVE_MINUTES,
    )


Reopen = Callable[[], Awaitable[None]]


async def reopening(call: Callable[[], Awaitable[T]], reopen: Reopen) -> T:
    """``call`` (an edit in a thread); when the thread was archived meanwhile, reopen it
    and try once more."""
    try:
        return await call()
    except discord.HTTPException as exc:
        if exc.code != ARCHIVED_THREAD:
            raise
    await reopen()
    return await call()
