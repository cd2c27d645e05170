"""Who a message mentions and pings, and which message changes notify a person.

Discord parses mentions out of a message's content (``<@id>``, ``<@!id>``, ``<@&role>``,
``@everyone``, ``@here``); a request's ``allowed_mentions`` narrows what pings: without
the field every mention does, with it ``parse`` names the kinds that ping ("users",
"roles", "everyone") and ``users`` / ``roles`` list the only ids that ping otherwise
(resources/message, "Allowed Mentions Object"). The message's ``mentions`` array holds the
users that counted.

Clients notify on new messages, not on edits: a new message in a DM, or a new message
elsewhere that mentions the person (the spec's notes on Discord: "clients notify (and mark
unread) on new messages and mentions, not on edits"). A message sent with
``SUPPRESS_NOTIFICATIONS`` ("this message will not trigger push and desktop
notifications") notifies nobody, and a person is not notified of their own messages nor
of ephemeral answers, which only show where they are already looking.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from fakediscord.models import Message, User
from fakediscord.world import MessageChange, World

SUPPRESS_NOTIFICATIONS_FLAG = 1 << 12
_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)")


@dataclass(frozen=True)
class Pings:
    users: list[int] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    everyone: bool = False


def pings(content: str, allowed: dict[str, Any] | None) -> Pings:
    """What this content pings under ``allowed`` (a request's ``allowed_mentions``, None
    when it has none)."""
    users = list(dict.fromkeys(int(found) for found in _USER.findall(content)))
    roles = list(dict.fromkeys(int(found) for found in _ROLE.findall(content)))
    everyone = bool(_EVERYONE.search(content))
    if allowed is None:
        return Pings(users, roles, everyone)
    parse = set(allowed.get("parse") or [])
    listed_users = {int(u) for u in allowed.get("users") or []}
    listed_roles = {int(r) for r in allowed.get("roles") or []}
    return Pings(
        [u for u in users if "users" in parse or u in listed_users],
        [r for r in roles if "roles" in parse or r in listed_roles],
        everyone and "everyone" in parse,
    )


def parse_mentions(world: World, content: str, allowed: dict[str, Any] | None) -> list[User]:
    """The users a message with this content mentions under ``allowed``."""
    return [world.users[u] for u in pings(content, allowed).users if u in world.users]


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
