"""Unicode emoji as Discord clients send them in reactions.

Keycaps and arrows have a text presentation by default, and clients disagree on whether to
add VARIATION SELECTOR-16 (U+FE0F) to them: discord-api-docs#1254 reports 1️⃣ arriving
as 31-E2-83-A3 from older clients and as 31-EF-B8-8F-E2-83-A3 from newer ones. Discord
keeps the reaction as the client sent it: MESSAGE_REACTION_ADD and the message's reactions
carry that exact string, and the two forms are two different reactions.
"""

from typing import Literal

VS16 = "\ufe0f"
KEYCAP = "\u20e3"
KEYCAP_BASES = frozenset("0123456789#*")
# Arrows whose default presentation is text (Unicode's emoji-variation-sequences).
ARROWS = frozenset(
    "\u2194\u2195\u2196\u2197\u2198\u2199\u21a9\u21aa\u27a1\u2934\u2935\u2b05\u2b06\u2b07"
)

# How a person's client writes such emoji: as the test gave them, always with U+FE0F (as
# Discord's current clients do) or always without it (as older clients and some keyboards).
EmojiForm = Literal["as_given", "with_fe0f", "without_fe0f"]


def as_sent(emoji: str, form: EmojiForm) -> str:
    """`emoji` the way a client of that form sends it."""
    if form == "as_given" or not _has_text_default(emoji):
        return emoji
    bare = emoji.replace(VS16, "")
    if form == "without_fe0f":
        return bare
    return bare[0] + VS16 + bare[1:]


def _has_text_default(emoji: str) -> bool:
    bare = emoji.replace(VS16, "")
    keycap = len(bare) == 2 and bare[0] in KEYCAP_BASES and bare[1] == KEYCAP
    return keycap or (len(bare) == 1 and bare in ARROWS)
