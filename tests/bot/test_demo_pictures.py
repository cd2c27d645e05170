"""The demo's picture folder: numbered pictures, and each table's lobby once under its
rule set's name, as it last looked."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.demo import PictureSaver
from fakediscord.models import Attachment, Message, User

THREAD, DM = 10, 20
BOT = User(1, "bot", bot=True)


def change(message_id: int, channel_id: int, filename: str, data: bytes) -> Any:
    """What the fake world tells its observers; the saver reads only the message."""
    picture = Attachment(message_id, filename, data, url="")
    return SimpleNamespace(
        message=Message(message_id, channel_id, None, BOT, attachments=[picture])
    )


def test_lobbies_are_kept_once_under_their_rule_set(tmp_path: Path) -> None:
    threads: dict[int, str] = {}
    saver = PictureSaver(tmp_path, threads)
    saver(change(1, THREAD, "lobby.png", b"alone"))
    threads[THREAD] = "sichuan"
    saver(change(1, THREAD, "lobby.png", b"seated"))
    saver(change(2, THREAD, "table.png", b"table"))
    saver(change(3, DM, "hand.png", b"hand"))
    saver(change(3, DM, "hand.png", b"hand"))
    saver.close()
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["0001-sichuan-table.png", "0002-dm-hand.png", "sichuan-lobby.png"]
    assert (tmp_path / "sichuan-lobby.png").read_bytes() == b"seated"
    assert saver.count == 3
