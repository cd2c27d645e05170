"""Vector drawings of the 34 tile faces and the back, at any size.

Everything is placed in fractions of the tile so one routine serves every size; shapes are
drawn at ``SUPERSAMPLE`` times the target size and scaled down, which anti-aliases them.
Faces follow the printed sets players know: traditional glyphs (萬 東 發), the classic dot
and bamboo patterns, a bird on 1条 and a blue frame on 白.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from engine.tiles import NUM_KINDS, rank, suit
from renderer import fonts, theme

SUPERSAMPLE = 4
BACK = -1
"""The face value that draws a face-down tile."""

HEIGHT_RATIO = 4 / 3
NUMERALS = "一二三四五六七八九"
CHARACTER_GLYPH = "萬"
HONOR_GLYPHS = "東南西北中發"

Point = tuple[float, float]


def tile_height(width: int) -> int:
    return round(width * HEIGHT_RATIO)


class _Face:
    """A drawing surface with coordinates in fractions of the face's art box."""

    def __init__(self, image: Image.Image, box: tuple[float, float, float, float]) -> None:
        self.draw = ImageDraw.Draw(image)
        self.x0, self.y0, x1, y1 = box
        self.w = x1 - self.x0
        self.h = y1 - self.y0

    def at(self, u: float, v: float) -> Point:
        return (self.x0 + u * self.w, self.y0 + v * self.h)

    def circle(self, u: float, v: float, r: float, fill: str) -> None:
        """``r`` is a fraction of the art box's width."""
        x, y = self.at(u, v)
        rr = r * self.w
        self.draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)

    def polygon(self, points: Sequence[Point], fill: str, outline: str | None = None) -> None:
        pts = [self.at(u, v) for u, v in points]
        width = max(1, round(self.w * 0.02)) if outline else 0
        self.draw.polygon(pts, fill=fill, outline=outline, width=width)

    def glyph(self, text: str, u: float, v: float, size: float, fill: str) -> None:
        """``text`` centred on (u, v), ``size`` a fraction of the art box's height; a thin
        stroke of the same colour gives the regular-weight font a printed, bolder look."""
        px = max(4, round(size * self.h))
        stroke = max(1, round(px * 0.03))
        self.draw.text(
            self.at(u, v),
            text,
            font=fonts.font(px),
            fill=fill,
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=fill,
        )


def _ellipse_points(cx: float, cy: float, rx: float, ry: float, angle: float) -> list[Point]:
    """An ellipse in art-box fractions, turned by ``angle`` degrees (clockwise on screen)."""
    a = math.radians(angle)
    out = []
    for i in range(40):
        t = 2 * math.pi * i / 40
        x, y = rx * math.cos(t), ry * math.sin(t)
        out.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    return out


def _dot(face: _Face, u: float, v: float, r: float, color: str) -> None:
    """One 筒 circle: coloured disc, white ring, coloured centre with a white eye."""
    face.circle(u, v, r, color)
    face.circle(u, v, r * 0.72, theme.FACE)
    face.circle(u, v, r * 0.56, color)
    face.circle(u, v, r * 0.2, theme.FACE)


_B, _G, _R = theme.DOT_BLUE, theme.DOT_GREEN, theme.DOT_RED
# (u, v, colour) per rank, r: the classic layouts of 2..9 筒.
_DOT_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, str]]]] = {
    2: (0.25, [(0.5, 0.26, _G), (0.5, 0.74, _B)]),
    3: (0.2, [(0.2, 0.17, _B), (0.5, 0.5, _R), (0.8, 0.83, _G)]),
    4: (0.21, [(0.26, 0.25, _B), (0.74, 0.25, _G), (0.26, 0.75, _G), (0.74, 0.75, _B)]),
    5: (
        0.18,
        [(0.22, 0.18, _B), (0.78, 0.18, _G), (0.5, 0.5, _R), (0.22, 0.82, _G), (0.78, 0.82, _B)],
    ),
    6: (0.18, [(u, v, _G if v < 0.3 else _R) for v in (0.16, 0.56, 0.85) for u in (0.28, 0.72)]),
    7: (
        0.15,
        [(0.18, 0.1, _G), (0.5, 0.22, _G), (0.82, 0.34, _G)]
        + [(u, v, _R) for v in (0.63, 0.88) for u in (0.28, 0.72)],
    ),
    8: (0.15, [(u, v, _B) for v in (0.12, 0.375, 0.625, 0.88) for u in (0.28, 0.72)]),
    9: (
        0.15,
        [(u, v, c) for v, c in ((0.14, _B), (0.5, _R), (0.86, _G)) for u in (0.2, 0.5, 0.8)],
    ),
}


def _one_dot(face: _Face) -> None:
    """1筒: a large ornamented disc with a ring of petals."""
    u, v = 0.5, 0.5
    face.circle(u, v, 0.5, theme.DOT_GREEN)
    face.circle(u, v, 0.43, theme.FACE)
    for i in range(12):
        a = 2 * math.pi * i / 12
        pu = u + 0.355 * math.cos(a)
        pv = v + 0.355 * math.sin(a) * face.w / face.h
        face.circle(pu, pv, 0.06, theme.DOT_BLUE)
    face.circle(u, v, 0.27, theme.DOT_RED)
    face.circle(u, v, 0.2, theme.FACE)
    face.circle(u, v, 0.15, theme.DOT_GREEN)
    face.circle(u, v, 0.05, theme.FACE)


def _draw_dots(face: _Face, r: int) -> None:
    if r == 1:
        _one_dot(face)
        return
    radius, spots = _DOT_LAYOUTS[r]
    for u, v, color in spots:
        _dot(face, u, v, radius, color)


def _stick(face: _Face, u: float, v: float, length: float, color: str, tilt: float = 0) -> None:
    """One 条 stick centred on (u, v): ``length`` a fraction of the box height, ``tilt`` in
    degrees; a body with three joints and a lighter spine."""
    half_w = 0.065
    half_l = length / 2
    dark = theme.STICK_DARK[color]
    light = theme.STICK_LIGHT[color]
    a = math.radians(tilt)
    aspect = face.h / face.w

    def spot(du: float, dv: float) -> Point:
        # du in box widths, dv in box heights along the stick's own axes.
        x = du * math.cos(a) - dv * aspect * math.sin(a)
        y = du * math.sin(a) / aspect + dv * math.cos(a)
        return (u + x, v + y)

    body = [
        spot(-half_w, -half_l),
        spot(half_w, -half_l),
        spot(half_w, half_l),
        spot(-half_w, half_l),
    ]
    face.polygon(body, fill=color, outline=dark)
    for dv in (-half_l, 0.0, half_l):
        band = 0.022
        face.polygon(
            [
                spot(-half_w * 1.25, dv - band),
                spot(half_w * 1.25, dv - band),
                spot(half_w * 1.25, dv + band),
                spot(-half_w * 1.25, dv + band),
            ],
            fill=dark,
        )
    for lo, hi in ((-half_l + 0.04, -0.04), (0.04, half_l - 0.04)):
        face.polygon(
            [spot(-0.012, lo), spot(0.012, lo), spot(0.012, hi), spot(-0.012, hi)], fill=light
        )


_G_S, _R_S = theme.STICK_GREEN, theme.STICK_RED
# (u, v, colour, tilt) per rank, stick length: the classic layouts of 2..9 条.
_STICK_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, str, float]]]] = {
    2: (0.4, [(0.5, 0.25, _G_S, 0.0), (0.5, 0.75, _G_S, 0.0)]),
    3: (0.4, [(0.5, 0.25, _G_S, 0.0), (0.28, 0.75, _G_S, 0.0), (0.72, 0.75, _G_S, 0.0)]),
    4: (0.4, [(u, v, _G_S, 0.0) for v in (0.25, 0.75) for u in (0.28, 0.72)]),
    5: (
        0.4,
        [(u, v, _G_S, 0.0) for v in (0.25, 0.75) for u in (0.18, 0.82)] + [(0.5, 0.5, _R_S, 0.0)],
    ),
    6: (0.4, [(u, v, _G_S, 0.0) for v in (0.25, 0.75) for u in (0.18, 0.5, 0.82)]),
    7: (
        0.28,
        [(0.5, 0.15, _R_S, 0.0)]
        + [(u, v, _G_S, 0.0) for v in (0.5, 0.85) for u in (0.18, 0.5, 0.82)],
    ),
    8: (
        0.4,
        [(u, v, _G_S, 0.0) for v in (0.25, 0.75) for u in (0.14, 0.86)]
        + [(0.36, 0.25, _G_S, 24), (0.64, 0.25, _G_S, -24)]
        + [(0.36, 0.75, _G_S, -24), (0.64, 0.75, _G_S, 24)],
    ),
    9: (
        0.28,
        [
            (u, v, _R_S if u == 0.5 else _G_S, 0.0)
            for v in (0.16, 0.5, 0.84)
            for u in (0.18, 0.5, 0.82)
        ],
    ),
}


def _bird(face: _Face) -> None:
    """1条: a perched bird with a fanned tail, as on printed sets."""
    green, dark, red = theme.STICK_GREEN, theme.BIRD_DARK, theme.DOT_RED
    blue = theme.DOT_BLUE
    for angle, color in ((118, green), (132, blue), (146, red), (160, green)):
        face.polygon(_ellipse_points(0.3, 0.68, 0.36, 0.07, angle), fill=color, outline=dark)
    face.polygon(_ellipse_points(0.5, 0.5, 0.28, 0.17, -35), fill=green, outline=dark)
    face.polygon(_ellipse_points(0.55, 0.52, 0.15, 0.09, -35), fill=theme.BIRD_BREAST)
    face.polygon(_ellipse_points(0.44, 0.53, 0.2, 0.07, -45), fill=dark)
    face.polygon([(0.78, 0.27), (0.95, 0.3), (0.8, 0.35)], fill=theme.BIRD_BEAK)
    face.circle(0.7, 0.29, 0.13, red)
    face.circle(0.73, 0.27, 0.045, theme.FACE)
    face.circle(0.74, 0.27, 0.022, theme.INK)
    for du in (-0.06, 0.0, 0.06):
        face.circle(0.66 + du, 0.16 - abs(du) * 0.4, 0.035, blue)
    for u in (0.5, 0.6):
        face.polygon([(u, 0.7), (u + 0.025, 0.7), (u + 0.025, 0.88), (u, 0.88)], fill=dark)
        face.polygon(
            [(u - 0.06, 0.87), (u + 0.08, 0.87), (u + 0.08, 0.9), (u - 0.06, 0.9)], fill=dark
        )


def _draw_bamboo(face: _Face, r: int) -> None:
    if r == 1:
        _bird(face)
        return
    length, sticks = _STICK_LAYOUTS[r]
    for u, v, color, tilt in sticks:
        _stick(face, u, v, length, color, tilt)


def _draw_characters(face: _Face, r: int) -> None:
    face.glyph(NUMERALS[r - 1], 0.5, 0.24, 0.46, theme.INK)
    face.glyph(CHARACTER_GLYPH, 0.5, 0.72, 0.52, theme.CHARACTER_RED)


def _draw_honor(face: _Face, r: int) -> None:
    if r == 7:
        _white_dragon(face)
        return
    color = {5: theme.CHARACTER_RED, 6: theme.DRAGON_GREEN}.get(r, theme.INK)
    face.glyph(HONOR_GLYPHS[r - 1], 0.5, 0.5, 0.62, color)


def _white_dragon(face: _Face) -> None:
    """白: a blank face inside a double blue frame."""
    outer = [(0.08, 0.1), (0.92, 0.1), (0.92, 0.9), (0.08, 0.9)]
    face.polygon(outer, fill=theme.WHITE_DRAGON)
    face.polygon([(0.16, 0.16), (0.84, 0.16), (0.84, 0.84), (0.16, 0.84)], fill=theme.FACE)
    face.polygon([(0.22, 0.21), (0.78, 0.21), (0.78, 0.79), (0.22, 0.79)], fill=theme.WHITE_DRAGON)
    face.polygon([(0.26, 0.24), (0.74, 0.24), (0.74, 0.76), (0.26, 0.76)], fill=theme.FACE)


_SUIT_PAINTERS: tuple[Callable[[_Face, int], None], ...] = (
    _draw_characters,
    _draw_dots,
    _draw_bamboo,
    _draw_honor,
)


def glyphs_used() -> str:
    """Every character a face draws, for checking the font covers them."""
    return NUMERALS + CHARACTER_GLYPH + HONOR_GLYPHS


def _body(image: Image.Image, top: str, side: str) -> tuple[float, float]:
    """The tile's block: an outline, the ``top`` surface and a strip of the ``side`` layer
    along the bottom for thickness. Returns (width, height) of the top surface."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    radius = w * 0.12
    edge = max(SUPERSAMPLE, round(w * 0.025))
    depth = round(h * 0.075)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=theme.TILE_OUTLINE)
    draw.rounded_rectangle((edge, edge, w - 1 - edge, h - 1 - edge), radius, fill=side)
    draw.rounded_rectangle((edge, edge, w - 1 - edge, h - 1 - edge - depth), radius, fill=top)
    return w, h - depth


def _back(image: Image.Image) -> None:
    w, h = _body(image, theme.BACK, theme.FACE)
    inset = w * 0.14
    ImageDraw.Draw(image).rounded_rectangle(
        (inset, inset, w - inset, h - inset),
        w * 0.07,
        outline=theme.BACK_LIGHT,
        width=max(1, round(w * 0.03)),
    )


def _front(image: Image.Image, kind: int) -> None:
    w, h = _body(image, theme.FACE, theme.BACK)
    art = (w * 0.12, h * 0.075, w * 0.88, h * 0.925)
    with fonts.LOCK:
        _SUIT_PAINTERS[suit(kind)](_Face(image, art), rank(kind))


def draw_tile(face_value: int, width: int) -> Image.Image:
    """An upright tile (RGBA, ``width`` × ``tile_height(width)``): a kind 0..33 or BACK."""
    if face_value != BACK and not 0 <= face_value < NUM_KINDS:
        raise ValueError(f"not a tile kind: {face_value}")
    if width < 1:
        raise ValueError(f"tile width must be positive, got {width}")
    height = tile_height(width)
    image = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    if face_value == BACK:
        _back(image)
    else:
        _front(image, face_value)
    return image.resize((width, height), Image.Resampling.LANCZOS)
