"""Slowmode: `rate_limit_per_user` on messages and on thread creation.

Discord's channel object: "amount of seconds a user has to wait before sending another
message (0-21600); bots, as well as users with the permission `BYPASS_SLOWMODE`, are
unaffected", and "`rate_limit_per_user` also applies to thread creation. Users can send one
message and create one thread during each `rate_limit_per_user` interval." A thread has its
own `rate_limit_per_user`, copied from its parent's `default_thread_rate_limit_per_user`
when it is created. Sending too soon is a 429 with code 20016 ("This action cannot be
performed due to slowmode rate limit") and a `retry_after`, which discord.py waits out and
retries like any other 429.
"""

from fakediscord import errors
from fakediscord.clock import Clock
from fakediscord.models import Channel, User
from fakediscord.permissions import flag
from fakediscord.world import World

BYPASS_SLOWMODE = flag("bypass_slowmode")


class Slowmode:
    """When each user last sent a message in, or created a thread from, each channel."""

    def __init__(self, world: World, clock: Clock) -> None:
        self._world = world
        self._clock = clock
        self._messages: dict[tuple[int, int], float] = {}
        self._threads: dict[tuple[int, int], float] = {}

    def check_message(self, user: User, channel: Channel) -> None:
        """429 / 20016 if `user` sent a message in `channel` within its slowmode."""
        self._check(self._messages, user, channel)

    def note_message(self, user: User, channel: Channel) -> None:
        self._messages[(channel.id, user.id)] = self._clock.now()

    def check_thread_creation(self, user: User, parent: Channel) -> None:
        """429 / 20016 if `user` created a thread in `parent` within the parent's slowmode."""
        self._check(self._threads, user, parent)

    def note_thread_creation(self, user: User, parent: Channel) -> None:
        self._threads[(parent.id, user.id)] = self._clock.now()

    def _check(self, last: dict[tuple[int, int], float], user: User, channel: Channel) -> None:
        interval = channel.rate_limit_per_user
        if not interval or self._exempt(user, channel):
            return
        since = last.get((channel.id, user.id))
        if since is None:
            return
        wait = since + interval - self._clock.now()
        if wait > 0:
            raise errors.slowmode(wait)

    def _exempt(self, user: User, channel: Channel) -> bool:
        if user.bot and self._world.limits.slowmode_exempts_bots:
            return True
        return bool(self._world.permissions(user, channel) & BYPASS_SLOWMODE)
