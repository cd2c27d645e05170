"""The /stats picture: 720 px wide for a 360 px phone, with or without a history."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image

from renderer.stats import WIDTH, StatsView, render_stats

FULL = StatsView(
    title="小明",
    subtitle="全部玩法 · 本服务器",
    rating="1623",
    rating_badge="定级中",
    rating_caption="定级赛 4/5",
    history_label="等级分走势",
    history=(1500, 1480, 1540, 1590, 1623),
    no_history="打满两场后显示走势",
    placements_label="名次",
    placements=(("第一", 2), ("第二", 1), ("第三", 1), ("第四", 0)),
    figures=(("局数", "16"), ("胡牌率", "25%"), ("点炮率", "12%")),
    fans_label="最常胡的番种",
    fans=(("对对胡", "×3"), ("清一色", "×1")),
    biggest_label="最大一手",
    biggest="国标麻将、24 番",
    biggest_fans="清一色、七对、不求人",
    nothing="暂无记录。",
)


def picture(view: StatsView) -> Image.Image:
    return Image.open(io.BytesIO(render_stats(view)))


def test_the_picture_is_phone_wide() -> None:
    image = picture(FULL)
    assert image.format == "PNG" and image.width == WIDTH
    assert 1000 < image.height < 1600


def test_a_new_player_has_a_note_instead_of_a_line_and_no_fans() -> None:
    empty = dataclasses.replace(
        FULL, history=(1500,), fans=(), biggest="", biggest_fans="", placements=(("第一", 0),) * 4
    )
    image = picture(empty)
    assert image.width == WIDTH
    assert image.height < picture(FULL).height


def test_a_long_history_and_a_flat_one_draw() -> None:
    long = dataclasses.replace(FULL, history=tuple(1500 + (i % 7) * 9 for i in range(200)))
    flat = dataclasses.replace(FULL, history=(1500, 1500, 1500))
    assert picture(long).width == picture(flat).width == WIDTH
