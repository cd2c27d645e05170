"""The custom_id scheme of every component the bot sends.

``mj:<kind>:<table_id>:<hand_no>:<prompt_seq>[:<arg>]``: ``kind`` names the control,
``hand_no`` and ``prompt_seq`` pin the prompt it belongs to (a click on an older prompt
is stale), ``arg`` carries the choice: for the controls of a hand, where in the prompt's
controls the answer lies (:mod:`bot.runtime.clicks`). Nothing else is kept in memory, so
a click after a restart is understood the same way.

>>> CustomId("act", 12, 3, 41, "0.5").encode()
'mj:act:12:3:41:0.5'
>>> CustomId.decode("mj:pick:12:3:42:0")
CustomId(kind='pick', table_id=12, hand_no=3, prompt_seq=42, arg='0')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "mj"

# Every kind of component, by who handles it and whether it is a button or a select.
LOBBY_BUTTONS = ("join", "leave", "options", "start", "disband", "opttext")
LOBBY_SELECTS = ("addai", "dropai", "opt", "optv", "optf", "opts")
GAME_BUTTONS = ("act", "back", "auto")
GAME_SELECTS = ("pick",)
TABLE_BUTTONS = ("vote", "again", "show", "watch", "score")
REPLAY_BUTTONS = ("replay",)
REPLAY_SELECTS = ("seat",)
#: The pages of ``/cards history`` (bot/card_history.py): no table's, routed by the client.
CARDS_BUTTONS = ("cards",)
#: Forms (modals): the lobby's options written out.
FORM_KINDS = ("optform",)
BUTTON_KINDS = LOBBY_BUTTONS + GAME_BUTTONS + TABLE_BUTTONS + REPLAY_BUTTONS + CARDS_BUTTONS
SELECT_KINDS = LOBBY_SELECTS + GAME_SELECTS + REPLAY_SELECTS
MAX_LENGTH = 100
#: The largest number a table, hand, step or round id can be: the store keeps them as
#: 64-bit integers, and Discord's integer options stop at 2**53.
MAX_ID = 2**53

_KIND = r"[a-z_]+"
_ARG = r"[A-Za-z0-9_.,\-]*"
PATTERN = (
    rf"{PREFIX}:(?P<kind>{_KIND}):(?P<table_id>\d+):(?P<hand_no>\d+):(?P<prompt_seq>\d+)"
    rf"(?::(?P<arg>{_ARG}))?"
)
_SCHEME = re.compile(PATTERN)


class CustomIdError(ValueError):
    """A custom_id that does not follow the scheme or is too long."""


@dataclass(frozen=True, slots=True)
class CustomId:
    kind: str
    table_id: int
    hand_no: int = 0
    prompt_seq: int = 0
    arg: str = ""

    def encode(self) -> str:
        text = f"{PREFIX}:{self.kind}:{self.table_id}:{self.hand_no}:{self.prompt_seq}"
        if self.arg:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH or not _SCHEME.fullmatch(text):
            raise CustomIdError(f"cannot encode {self!r} as a custom_id")
        return text

    @classmethod
    def decode(cls, text: str) -> CustomId:
        match = _SCHEME.fullmatch(text)
        if match is None:
            raise CustomIdError(f"not a table control: {text!r}")
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> CustomId:
        return cls(
            kind=match["kind"],
            table_id=int(match["table_id"]),
            hand_no=int(match["hand_no"]),
            prompt_seq=int(match["prompt_seq"]),
            arg=match["arg"] or "",
        )
