"""The hand picture: order and numbering, highlights, sizes, and the tiles row."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageChops, ImageStat

from engine.tiles import parse_hand, parse_tile, parse_tiles
from renderer import HandView, hand_order, render_hand, render_tiles
from renderer import hand as hand_module
from renderer.png import MAX_BYTES

Decode = Callable[[bytes], Image.Image]


def _view(text: str = "1123m456p99s[777s]", **kwargs: object) -> HandView:
    spec = parse_hand(text)
    return HandView(concealed=spec.concealed, melds=spec.melds, **kwargs)  # type: ignore[arg-type]


def test_order_is_sorted_with_the_drawn_tile_last() -> None:
    view = HandView(concealed=tuple(parse_tiles("9s1m5p1m")), drawn=parse_tile("3m"))
    assert hand_order(view) == tuple(parse_tiles("11m5p9s3m"))


def test_void_suit_tiles_go_to_the_right() -> None:
    view = HandView(concealed=tuple(parse_tiles("5p1m9s2p")), void_suit=1)
    assert hand_order(view) == tuple(parse_tiles("1m9s25p"))


def test_tiles_are_at_least_40_pixels_wide(decode: Decode) -> None:
    assert hand_module.TILE_WIDTH >= 40
    image = decode(render_hand(_view(drawn=parse_tile("5m"))))
    fourteen = 14 * hand_module.TILE_WIDTH
    assert image.width >= fourteen


def test_a_full_hand_fits_the_limits(decode: Decode) -> None:
    view = _view("1m[2222m]{3333p}[4444s][5555z]", drawn=parse_tile("1m"), waits=(0,))
    png = render_hand(view)
    assert len(png) < MAX_BYTES
    assert decode(png).width < 1400


def test_highlights_change_the_picture(decode: Decode) -> None:
    plain = decode(render_hand(_view()))
    legal = decode(render_hand(_view(legal_discards=frozenset(parse_tiles("1m")))))
    void = decode(render_hand(_view(void_suit=0)))
    assert plain.size == legal.size == void.size
    assert ImageChops.difference(plain, legal).getbbox() is not None
    assert ImageChops.difference(plain, void).getbbox() is not None


def test_waits_and_title_add_space(decode: Decode) -> None:
    plain = decode(render_hand(_view()))
    waits = decode(render_hand(_view(waits=tuple(parse_tiles("14m")))))
    titled = decode(render_hand(_view(title="Alice")))
    assert waits.height > plain.height
    assert titled.height > plain.height


def test_an_empty_hand_still_renders(decode: Decode) -> None:
    assert decode(render_hand(HandView(concealed=()))).width > 0


def test_tiles_row_keeps_the_given_order(decode: Decode) -> None:
    forward = decode(render_tiles(parse_tiles("1m9s")))
    backward = decode(render_tiles(parse_tiles("9s1m")))
    assert forward.size == backward.size
    assert ImageChops.difference(forward, backward).getbbox() is not None
    assert decode(render_tiles([], width=40)).width > 0


def test_every_hand_picture_maps_onto_one_palette_without_visible_change() -> None:
    """Hand pictures share fixed colours (choosing 256 per picture cost most of its time);
    a hand unlike the reference one still comes out as drawn, to a shade or two."""
    other = _view(
        "2345678p66z777z[123s]{1111m}",
        drawn=parse_tile("1z"),
        legal_discards=frozenset(parse_tiles("1z6z")),
        void_suit=0,
        waits=tuple(parse_tiles("5z9p")),
        wildcard=parse_tile("3p"),
        title="Bob 的手牌 · 听牌",
    )
    pictures = [render_hand(other), render_hand(_view())]
    palettes = {tuple(Image.open(io.BytesIO(png)).getpalette() or ()) for png in pictures}
    assert len(palettes) == 1
    shown = Image.open(io.BytesIO(pictures[0])).convert("RGB")
    error = ImageStat.Stat(ImageChops.difference(hand_module._draw(other), shown)).mean
    assert max(error) < 2.0
