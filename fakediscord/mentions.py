"""Mentions, and which message changes notify a person.

Discord parses user mentions (``<@id>``, ``<@!id>``) out of a message's content; a
request's ``allowed_mentions`` narrows them: with the field absent every mention in the
content counts, with it present only the types named in ``parse`` and the ids listed in
``users`` do (resources/message, "Allowed Mentions Object"). The message's ``mentions``
array holds the users that counted.

Clients notify on new messages, not on edits: a new message in a DM, or a new message
elsewhere that mentions the person (the spec's notes on Discord: "clients notify (and mark
unread) on new messages and mentions, not on edits"). A message sent with
``SUPPRESS_NOTIFICATIONS`` ("this message will not trigger push and desktop
notifications") notifies nobody, and a person is not notified of their own messages nor
of ephemeral answers, which only show where they are already looking.
"""

import re
from typing import Any

from fakediscord.models import Message, User
from fakediscord.world import MessageChange, World

SUPPRESS_NOTIFICATIONS_FLAG = 1 << 12
_USER_MENTION = re.compile(r"<@!?(\d+)>")


def parse_mentions(world: World, content: str, allowed: dict[str, Any] | None) -> list[User]:
    """The users a message with this content mentions under ``allowed`` (its
    ``allowed_mentions``, None when the request has none)."""
    named = [int(found) for found in _USER_MENTION.findall(content)]
    if allowed is not None:
        listed = {int(user_id) for user_id in allowed.get("users") or []}
        every = "users" in (allowed.get("parse") or [])
        named = [user_id for user_id in named if every or user_id in listed]
    users: list[User] = []
    for user_id in named:
        user = world.users.get(user_id)
        if user is not None and user not in users:
            users.append(user)
    return users


def notifies(world: World, change: MessageChange, user: User) -> bool:
    """Whether this change makes ``user``'s client notify them."""
    message: Message = change.message
    if change.kind != "create" or message.author is user or message.ephemeral:
        return False
    if message.flags & SUPPRESS_NOTIFICATIONS_FLAG or not world.can_see(user, message):
        return False
    channel = world.channels.get(message.channel_id)
    if channel is not None and channel.is_dm:
        return True
    return user in message.mentions
