"""Colours shared by every picture."""

from __future__ import annotations

# Tiles
FACE = "#f8f4e6"
BACK = "#2e9a63"
BACK_LIGHT = "#5cc48c"
TILE_OUTLINE = "#3b3b33"
INK = "#1d2433"
CHARACTER_RED = "#c3242b"
DRAGON_GREEN = "#157a3c"
WHITE_DRAGON = "#2c5fb8"
DOT_BLUE = "#2457a6"
DOT_GREEN = "#17804a"
DOT_RED = "#c8302c"
STICK_GREEN = "#2b8a3e"
STICK_RED = "#c8302c"
STICK_DARK = {STICK_GREEN: "#145224", STICK_RED: "#7d1a16"}
STICK_LIGHT = {STICK_GREEN: "#8fd19e", STICK_RED: "#f29b8f"}
BIRD_DARK = "#145224"
BIRD_BREAST = "#e8c46a"
BIRD_BEAK = "#e08a1e"

# Tile marks
DIM = (30, 36, 44, 105)
HIGHLIGHT = "#ffb400"
# A winning tile and its 胡 badge on the desk: a colour no tile art uses (the blue of 白's
# frame would blur with it), far from the highlight's amber.
WON_MARK = "#7c4dff"
VOID_MARK = "#d7263d"
# The 缺 badge of each suit (万, 筒, 条) in the colour of its tiles' ink, so that a seat's
# void reads by colour before its one glyph is made out.
VOID_SUITS = (CHARACTER_RED, DOT_BLUE, STICK_GREEN)
WILD_MARK = "#e0a800"

# Pictures
FELT = "#1b4d3e"
FELT_DARK = "#153d31"
FELT_LINE = "#2a6652"
FELT_CENTRE = "#0f3128"
PANEL = "#f3efe2"
TEXT = "#f5f1e6"
TEXT_DARK = "#1d2433"
TEXT_MUTED = "#8d9a94"
TEXT_MUTED_LIGHT = "#b9c9c0"
GAIN = "#1f8a4c"
LOSS = "#c3242b"
ACCENT = "#ffb400"

# A chat app's dark theme, for screenshots of messages
CHAT_BACKGROUND = "#313338"
CHAT_TEXT = "#dbdee1"
CHAT_NAME = "#f2f3f5"
