"""Threads' lives as Discord's Threads topic describes them ("Active & Archived Threads").

A thread archives after `auto_archive_duration` minutes without activity, measured on the
fake's clock; "activity" is sending a message, unarchiving the thread or changing its
auto-archive time. A new message reopens an archived thread unless it is locked. Editing
messages, adding reactions and adding members in an archived thread fail with 400 / 50083.
`thread_metadata.archive_timestamp` changes on creation, archiving, unarchiving and a new
auto-archive time.
"""

from fakediscord import errors
from fakediscord.models import Channel
from fakediscord.world import World

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
SECONDS_PER_MINUTE = 60


def archive_idle(world: World) -> None:
    """Archives every active thread whose auto-archive time has passed."""
    for guild in list(world.guilds.values()):
        for thread_id in list(guild.thread_ids):
            _archive_if_idle(world, world.channels[thread_id])


def _archive_if_idle(world: World, thread: Channel) -> None:
    idle = world.clock.now() - thread.last_activity
    if not thread.archived and idle >= thread.auto_archive_duration * SECONDS_PER_MINUTE:
        set_archived(world, thread, True)


def set_archived(world: World, thread: Channel, archived: bool) -> None:
    """Archives or unarchives the thread and tells the bot (THREAD_UPDATE)."""
    if thread.archived == archived:
        return
    thread.archived = archived
    thread.archived_at = world.clock.wall()
    if not archived:
        thread.last_activity = world.clock.now()
    world.announce_channel_update(thread)


def set_auto_archive_duration(world: World, thread: Channel, minutes: int) -> None:
    thread.auto_archive_duration = minutes
    thread.archived_at = world.clock.wall()
    thread.last_activity = world.clock.now()


def require_active(world: World, channel: Channel) -> None:
    """400 / 50083 if `channel` is a thread that is archived (or just reached its time)."""
    if not channel.is_thread:
        return
    _archive_if_idle(world, channel)
    if channel.archived:
        raise errors.thread_archived()


def open_for_message(world: World, channel: Channel) -> None:
    """A new message in a thread: reopens it if archived (400 / 50083 when also locked)
    and counts as activity."""
    if not channel.is_thread:
        return
    _archive_if_idle(world, channel)
    if channel.archived:
        if channel.locked:
            raise errors.thread_archived()
        set_archived(world, channel, False)
    channel.last_activity = world.clock.now()
