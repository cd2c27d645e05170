"""Who a new message pings: the mentions in its content that its ``allowed_mentions``
lets through, as Discord's Allowed Mentions topic describes them.

Without ``allowed_mentions`` every ``<@id>``, ``<@!id>``, ``<@&role>``, ``@everyone`` and
``@here`` pings. With it, ``parse`` names the kinds that ping ("users", "roles",
"everyone"), and ``users`` / ``roles`` list the only ids that ping otherwise. Only new
messages notify; edits never do.
"""

import re
from dataclasses import dataclass, field
from typing import Any

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)")


@dataclass(frozen=True)
class Pings:
    users: list[int] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    everyone: bool = False


def pings(content: str, allowed: dict[str, Any] | None) -> Pings:
    users = [int(found) for found in _USER.findall(content)]
    roles = [int(found) for found in _ROLE.findall(content)]
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
