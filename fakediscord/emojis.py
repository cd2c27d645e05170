"""Application emojis, and which emoji a component may show.

An application may upload up to 2,000 emojis of its own and use them anywhere, in any
guild or DM, button emoji included (resources/emoji: "List Application Emojis" answers
``{"items": [...]}``, "Create Application Emoji" takes a ``name`` and an ``image`` data
URI of at most 256 KiB). Names are 2 to 32 characters of letters, digits and
underscores, one emoji per name.

A component's emoji is ``{"id": ..., "name": ...}`` for a custom emoji, which must be one
the application may use, or ``{"name": "🀄"}`` for a Unicode emoji, which must be an
emoji Discord knows; anything else is refused with BUTTON_COMPONENT_INVALID_EMOJI,
"Invalid emoji". Many Unicode symbols are not emoji: of the Mahjong Tiles block only
U+1F004 (🀄) is, and of the playing cards only U+1F0CF (🃏); the others are text.
"""

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from fakediscord import errors
from fakediscord.errors import FormErrors

MAX_APPLICATION_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.+)$", re.DOTALL)
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")
# Symbol blocks whose characters have no Emoji property, but the ones named.
_TEXT_SYMBOLS: tuple[tuple[int, int, set[int]], ...] = (
    (0x1F000, 0x1F02F, {0x1F004}),  # Mahjong Tiles
    (0x1F030, 0x1F09F, set()),  # Domino Tiles
    (0x1F0A0, 0x1F0FF, {0x1F0CF}),  # Playing Cards
)


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes
    animated: bool = False

    def payload(self, owner: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": owner,
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


def decoded_image(name: Any, image: Any, taken: set[str]) -> bytes:
    """The image bytes of a new application emoji, or 400 / 50035 naming what is wrong."""
    form = FormErrors()
    if not isinstance(name, str) or not NAME.match(name):
        form.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
    elif name in taken:
        form.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name is already taken.")
    data = b""
    match = DATA_URI.match(image) if isinstance(image, str) else None
    if match is None:
        form.add(("image",), "IMAGE_INVALID", "Invalid image data")
    else:
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except binascii.Error:
            form.add(("image",), "IMAGE_INVALID", "Invalid image data")
        if len(data) > MAX_IMAGE_BYTES:
            form.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256 kb.")
    form.raise_if_any()
    return data


def check_room(count: int) -> None:
    if count >= MAX_APPLICATION_EMOJIS:
        raise errors.APIError(400, 30018, "Maximum number of emojis reached")


def is_unicode_emoji(name: str) -> bool:
    """Whether Discord takes ``name`` as a Unicode emoji: not plain text, and not one of
    the symbols that have no emoji form."""
    if not name or name.isascii():
        return False
    for char in name:
        point = ord(char)
        for low, high, emoji in _TEXT_SYMBOLS:
            if low <= point <= high and point not in emoji:
                return False
    return True


def emoji_errors(emoji: Any, known: set[int], form: FormErrors, path: tuple[Any, ...]) -> None:
    """Adds to ``form`` why a component's ``emoji`` is refused, if it is."""
    if not isinstance(emoji, dict):
        form.add((*path, "emoji"), *INVALID_EMOJI)
        return
    emoji_id = emoji.get("id")
    if emoji_id is not None:
        if not str(emoji_id).isdigit() or int(emoji_id) not in known:
            form.add((*path, "emoji", "id"), *INVALID_EMOJI)
        return
    if not is_unicode_emoji(str(emoji.get("name") or "")):
        form.add((*path, "emoji", "name"), *INVALID_EMOJI)
