"""Text cut to fit small places: a title loses whole parts, a caption its name rather
than its move, a list breaks after its commas."""

from __future__ import annotations

from renderer import text

SIZE = 16


def test_a_title_keeps_whole_parts_and_leaves_out_the_rest() -> None:
    title = "国标麻将 · 第 3/16 局 · 庄家 " + "W" * 32
    wide = text.width("国标麻将 · 第 3/16 局", SIZE, bold=False)
    assert text.parts(title, SIZE, wide, 1, bold=False) == ["国标麻将 · 第 3/16 局"]
    lines = text.parts(title, SIZE, wide - 1, 2, bold=False)
    assert lines == ["国标麻将", "第 3/16 局"]
    assert text.parts(title, SIZE, 1000, 2, bold=False) == [title]


def test_only_a_first_part_too_long_for_every_line_is_cut() -> None:
    lines = text.parts("W" * 40 + " · 第 1/4 局", SIZE, 100, 1)
    assert len(lines) == 1 and lines[0].endswith(text.ELLIPSIS)


def test_a_caption_cuts_its_longest_word_and_keeps_its_end() -> None:
    caption = "W" * 32 + " 打出 7条"
    lines = text.shortened(caption, SIZE, 100, 2)
    assert len(lines) <= 2
    assert lines[0].startswith("W") and text.ELLIPSIS in lines[-1]
    assert lines[-1].endswith(" 打出 7条")
    assert all(text.width(line, SIZE, bold=True) <= 100 for line in lines)
    assert text.shortened("Mei 打出 7条", SIZE, 200, 2) == text.wrap("Mei 打出 7条", SIZE, 200, 2)


def test_a_list_breaks_after_its_commas() -> None:
    kinds = "、".join(["十八罗汉"] * 6)
    lines = text.wrap(kinds, SIZE, text.width("十八罗汉、十八罗汉、十", SIZE, bold=True), 4)
    assert lines[0] == "十八罗汉、十八罗汉、"
    assert all(set(line.rstrip("、").split("、")) == {"十八罗汉"} for line in lines)
    assert "".join(lines) == kinds
