"""The demo's picture folder: numbered pictures, each table's lobby once under its rule
set's name, as it last looked, and a turn and a claim prompt of each table as a phone
shows them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from PIL import Image

from bot.demo import PictureSaver, Screens
from fakediscord.models import Attachment, Message, User
from tests.fakediscord.table_bot import tiny_png

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


def prompt(message_id: int, channel_id: int, names: list[str]) -> Any:
    """A new hand message with a picture and buttons of these kinds of control."""
    buttons = [
        {"type": 2, "style": 2, "custom_id": f"mj:act:1:1:{message_id}:{name}.0.{i}", "label": name}
        for i, name in enumerate(names)
    ]
    message = Message(
        message_id,
        channel_id,
        None,
        BOT,
        content="**Your turn** · ⏱ <t:2000000000:R>",
        attachments=[Attachment(message_id, "hand.png", tiny_png(8, 4), url="")],
        components=[{"type": 1, "components": buttons}],
    )
    return SimpleNamespace(message=message, kind="create")


def test_screens_show_a_turn_and_a_claim_prompt_as_a_phone_does(tmp_path: Path) -> None:
    fake = SimpleNamespace(world=SimpleNamespace(app_emojis={}, bot=BOT))
    screens = Screens(tmp_path, fake, {DM: "mcr"})  # type: ignore[arg-type]
    for n in range(1, 10):
        screens(prompt(n, DM, ["discard", "discard"]))
    screens(prompt(20, DM, ["pong", "pass"]))
    screens(prompt(21, DM, ["pong", "pass"]))
    screens(prompt(30, THREAD, ["pass"]))
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["mcr-dm-claim.png", "mcr-dm-turn.png"]
    shot = Image.open(tmp_path / "mcr-dm-turn.png")
    assert shot.width == 720 and shot.height > 100
