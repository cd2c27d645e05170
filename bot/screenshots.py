"""The demo's screenshots: a message of the fake Discord as a phone shows it.

Drawn at twice a phone's 360 points (a 2x screen): the bot's name, the message's text
(``**bold**`` as bold, Discord timestamps as the phone words them), its picture scaled
to the width, then its buttons as Discord lays them out, five to a row, each with its
emoji (the application emojis the fake keeps) or its label. It draws from what the fake
holds, so it shows what a person at the demo's table was sent.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping

from PIL import Image, ImageDraw

from fakediscord.models import Message
from renderer import png, text

SCALE = 2
WIDTH = 360 * SCALE
PAD = 12 * SCALE
TEXT_SIZE = 15 * SCALE
NAME_SIZE = 15 * SCALE
LINE_GAP = 3 * SCALE
BUTTON_HEIGHT = 36 * SCALE
BUTTON_GAP = 6 * SCALE
BUTTON_PAD = 12 * SCALE
EMOJI = 22 * SCALE
RADIUS = 6 * SCALE
BACKGROUND = "#313338"
INK = "#dbdee1"
NAME = "#f2f3f5"
# Discord's button colours by style: primary, secondary, success, danger.
STYLES = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c"}
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_TIMESTAMP = re.compile(r"<t:(\d+):R>")


def _words(line: str, seconds_left: Mapping[str, str]) -> list[tuple[str, bool]]:
    """A line of the message in runs of plain and bold text, timestamps worded."""
    line = _TIMESTAMP.sub(lambda m: seconds_left.get(m.group(1), ""), line)
    runs: list[tuple[str, bool]] = []
    at = 0
    for match in _BOLD.finditer(line):
        if match.start() > at:
            runs.append((line[at : match.start()], False))
        runs.append((match.group(1), True))
        at = match.end()
    if at < len(line):
        runs.append((line[at:], False))
    return runs


def _button(button: Mapping[str, object], emojis: Mapping[int, bytes]) -> Image.Image:
    style = STYLES.get(int(str(button.get("style", 2))), STYLES[2])
    parts: list[Image.Image] = []
    emoji = button.get("emoji")
    if isinstance(emoji, Mapping) and emoji.get("id"):
        art = emojis.get(int(str(emoji["id"])))
        if art is not None:
            parts.append(Image.open(io.BytesIO(art)).convert("RGBA").resize((EMOJI, EMOJI)))
    label = button.get("label")
    if isinstance(label, str) and label:
        parts.append(text.text(label, TEXT_SIZE, NAME, bold=True))
    width = sum(p.width for p in parts) + BUTTON_GAP * max(0, len(parts) - 1) + 2 * BUTTON_PAD
    image = Image.new("RGBA", (max(width, BUTTON_HEIGHT), BUTTON_HEIGHT), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, image.width - 1, image.height - 1), RADIUS, fill=style
    )
    x = (image.width - width) // 2 + BUTTON_PAD
    for part in parts:
        image.paste(part, (x, (BUTTON_HEIGHT - part.height) // 2), part)
        x += part.width + BUTTON_GAP
    return image


def _wrapped(row: list[Image.Image], width: int) -> list[list[Image.Image]]:
    """A row of buttons in lines at most ``width`` wide, as a phone wraps them."""
    lines: list[list[Image.Image]] = []
    used = width
    for button in row:
        if used + BUTTON_GAP + button.width > width:
            lines.append([])
            used = -BUTTON_GAP
        lines[-1].append(button)
        used += BUTTON_GAP + button.width
    return lines


def screenshot(message: Message, emojis: Mapping[int, bytes], bot_name: str, now: float) -> bytes:
    """PNG of ``message`` as a phone shows it; ``emojis`` are the application emojis'
    pictures by id, ``now`` the moment shown (Unix time, for timestamps)."""
    seconds = {
        stamp: f"{max(0, int(stamp) - int(now))} s" for stamp in _TIMESTAMP.findall(message.content)
    }
    inner = WIDTH - 2 * PAD
    lines: list[list[Image.Image]] = [[text.text(bot_name, NAME_SIZE, NAME, bold=True)]]
    for line in message.content.splitlines():
        runs = [text.text(words, TEXT_SIZE, INK, bold) for words, bold in _words(line, seconds)]
        lines.append([r for r in runs if r.width > 1])
    pictures = [
        Image.open(io.BytesIO(a.data)).convert("RGB")
        for a in message.attachments
        if a.filename.endswith(".png")
    ]
    pictures = [p.resize((inner, p.height * inner // p.width)) for p in pictures]
    rows = [
        [_button(b, emojis) for b in row.get("components", []) if b.get("type") == 2]
        for row in message.components
    ]
    height = PAD + sum(text.line_height(TEXT_SIZE) + LINE_GAP for _ in lines)
    height += sum(p.height + PAD for p in pictures)
    rows = [line for row in rows for line in _wrapped(row, inner)]
    height += sum(BUTTON_HEIGHT + BUTTON_GAP for _ in rows) + PAD
    canvas = Image.new("RGB", (WIDTH, height), BACKGROUND)
    y = PAD
    for runs in lines:
        x = PAD
        for run in runs:
            canvas.paste(run, (x, y), run)
            x += run.width
        y += text.line_height(TEXT_SIZE) + LINE_GAP
    for picture in pictures:
        y += PAD // 2
        canvas.paste(picture, (PAD, y))
        y += picture.height + PAD // 2
    for row in rows:
        x = PAD
        for button in row:
            canvas.paste(button, (x, y), button)
            x += button.width + BUTTON_GAP
        y += BUTTON_HEIGHT + BUTTON_GAP
    return png.encode(canvas)
