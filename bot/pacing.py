"""How fast a table moves when nobody is waiting on a person.

Real tables give people time to follow an AI's move and to read a settlement; tests and
the demo shrink these to keep whole sessions fast.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pacing:
    #: Seconds before an AI seat (or a player on auto-play) acts.
    ai_delay: float = 1.2
    #: Least seconds between two edits of a table message (Discord allows about one a second).
    table_edit_interval: float = 1.0
    #: Seconds between a hand's settlement and the next deal.
    between_hands: float = 6.0
    #: Seconds given to the players to cast a disband vote.
    vote_seconds: float = 60.0
    #: Seconds a finished table's own channel stays, for its players to read the end.
    place_grace: float = 600.0
    #: Requests a second toward Discord's global limit, the whole bot together, and the
    #: burst allowed (bot/budget.py): Discord allows 50 in any second. The rest is left
    #: to the lobby requests sent at once and to requests that reach Discord bunched up
    #: (the network, a busy event loop at either end); with one at a time, 25 ms apart,
    #: requests sent over 1.2 s can arrive within one second and still not pass 50.
    requests_per_second: float = 40.0
    request_burst: float = 1.0
