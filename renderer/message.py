"""A chat message as a phone app shows it, for the README's screenshots.

Drawn at twice a phone's 360 points (a 2x screen): the sender, the lines of text, the
picture scaled to the width, then the rows of buttons, each wrapped as a narrow screen
wraps them. What the message says and which colours its buttons have are the caller's.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from renderer import png, text, theme
from renderer.models import ButtonView, MessageView

SCALE = 2
WIDTH = 360 * SCALE
PAD = 12 * SCALE
TEXT_SIZE = 15 * SCALE
LINE_GAP = 3 * SCALE
BUTTON_HEIGHT = 36 * SCALE
BUTTON_GAP = 6 * SCALE
BUTTON_PAD = 12 * SCALE
ICON = 22 * SCALE
RADIUS = 6 * SCALE


def _button(button: ButtonView) -> Image.Image:
    parts: list[Image.Image] = []
    if button.icon is not None:
        icon = Image.open(io.BytesIO(button.icon)).convert("RGBA")
        parts.append(icon.resize((ICON, ICON), Image.Resampling.LANCZOS))
    if button.label:
        parts.append(text.text(button.label, TEXT_SIZE, theme.CHAT_NAME, bold=True))
    inner = sum(p.width for p in parts) + BUTTON_GAP * max(0, len(parts) - 1)
    image = Image.new("RGBA", (max(inner + 2 * BUTTON_PAD, BUTTON_HEIGHT), BUTTON_HEIGHT))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, image.width - 1, image.height - 1), RADIUS, fill=button.fill
    )
    x = (image.width - inner) // 2
    for part in parts:
        image.paste(part, (x, (BUTTON_HEIGHT - part.height) // 2), part)
        x += part.width + BUTTON_GAP
    return image


def _wrapped(row: list[Image.Image], width: int) -> list[list[Image.Image]]:
    """A row of buttons in lines at most ``width`` wide, as a narrow screen wraps them."""
    lines: list[list[Image.Image]] = []
    used = width
    for button in row:
        if used + BUTTON_GAP + button.width > width:
            lines.append([])
            used = -BUTTON_GAP
        lines[-1].append(button)
        used += BUTTON_GAP + button.width
    return lines


def render_message(view: MessageView) -> bytes:
    """PNG of the message, ``WIDTH`` wide."""
    inner = WIDTH - 2 * PAD
    lines = [[text.text(view.author, TEXT_SIZE, theme.CHAT_NAME, bold=True)]]
    for runs in view.lines:
        lines.append([text.text(words, TEXT_SIZE, theme.CHAT_TEXT, bold) for words, bold in runs])
    picture = None
    if view.picture is not None:
        found = Image.open(io.BytesIO(view.picture)).convert("RGB")
        picture = found.resize((inner, found.height * inner // found.width))
    rows = [line for row in view.rows for line in _wrapped([_button(b) for b in row], inner)]
    height = PAD + len(lines) * (text.line_height(TEXT_SIZE) + LINE_GAP)
    height += picture.height + PAD if picture is not None else 0
    height += len(rows) * (BUTTON_HEIGHT + BUTTON_GAP) + PAD
    canvas = Image.new("RGB", (WIDTH, height), theme.CHAT_BACKGROUND)
    y = PAD
    for line in lines:
        x = PAD
        for run in line:
            canvas.paste(run, (x, y), run)
            x += run.width
        y += text.line_height(TEXT_SIZE) + LINE_GAP
    if picture is not None:
        canvas.paste(picture, (PAD, y + PAD // 2))
        y += picture.height + PAD
    for row in rows:
        x = PAD
        for button in row:
            canvas.paste(button, (x, y), button)
            x += button.width + BUTTON_GAP
        y += BUTTON_HEIGHT + BUTTON_GAP
    return png.encode(canvas)
