from bot.cogs.fan import answer_text, build_request, picture_view
from bot.i18n import EN, ZH_CN, ZH_TW
from engine.score import handle
from renderer.hand import render_hand


def test_fourteen_tiles_win_on_the_last_written_tile() -> None:
    request, spec = build_request("guangdong", "11123456789999s", None, {"self_drawn": True})
    assert request["hand"] == "1112345678999s" and request["win_tile"] == "9s"
    assert spec is not None and len(spec.concealed) == 13
    answer = handle(request)
    assert answer["ok"]
    text = answer_text("guangdong", request, answer, ZH_CN)
    assert "清一色" in text and "大胡" in text


def test_thirteen_tiles_ask_for_the_waits() -> None:
    request, _ = build_request("guangdong", "1112345678999m", None, {"self_drawn": False})
    assert request == {"variant": "guangdong", "hand": "1112345678999m", "query": "waits"}
    answer = handle(request)
    text = answer_text("guangdong", request, answer, ZH_TW)
    assert "聽牌" in text and "9萬" in text


def test_sichuan_lines_and_capped_total() -> None:
    request, spec = build_request("sichuan", "11122233344455p", None, {"self_drawn": True})
    answer = handle(request)
    assert answer["ok"], answer
    text = answer_text("sichuan", request, answer, EN)
    assert "Full Flush" in text and "after the cap" in text
    assert spec is not None
    png = render_hand(picture_view(request, spec, answer, EN))
    assert png.startswith(b"\x89PNG")


def test_bad_notation_is_explained_by_the_calculator() -> None:
    request, spec = build_request("sichuan", "123x", None, {})
    answer = handle(request)
    assert spec is None and not answer["ok"]
    assert "'x' at position 3" in answer_text("sichuan", request, answer, EN)
