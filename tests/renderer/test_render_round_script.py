"""python -m renderer round: a round script played through the engine, then drawn."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from engine.ai import make_player
from engine.round import Round
from engine.simulate import play_out
from renderer.__main__ import main


def finished_script(variant: str, seed: int) -> dict:
    hand = Round.new(variant, {}, seed)
    play_out(hand, [make_player("normal", seed + s) for s in range(4)])
    return hand.to_script()


@pytest.mark.parametrize("variant", ["mcr", "guangdong", "sichuan"])
@pytest.mark.parametrize("picture", ["table", "settlement"])
def test_a_finished_round_is_drawn(tmp_path: Path, variant: str, picture: str) -> None:
    script = tmp_path / "round.json"
    script.write_text(json.dumps(finished_script(variant, 3)), encoding="utf-8")
    out = tmp_path / "out.png"
    assert main(["round", str(script), "--picture", picture, "--out", str(out)]) == 0
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.width > 400 and image.height > 200


def test_a_hand_in_progress_has_a_table_but_no_settlement(tmp_path: Path) -> None:
    script = finished_script("sichuan", 5)
    script["actions"] = script["actions"][:12]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    assert main(["round", str(path), "--seat", "2", "--out", str(tmp_path / "t.png")]) == 0
    with pytest.raises(SystemExit):
        main(["round", str(path), "--picture", "settlement", "--out", str(tmp_path / "s.png")])


def test_an_illegal_action_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = finished_script("guangdong", 7)
    script["actions"] = [{"seat": 2, "action": "discard", "tile": "1m"}]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["round", str(path), "--out", str(tmp_path / "t.png")])
    assert "seat" in capsys.readouterr().err
