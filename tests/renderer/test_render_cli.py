"""``python -m renderer``: each command writes a PNG; bad input exits with a message."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from renderer.__main__ import main

Decode = Callable[[bytes], Image.Image]


@pytest.mark.parametrize(
    "args",
    [
        ["hand", "123m456p[777s]", "--drawn", "5m"],
        [
            "hand",
            "1123m456p99s",
            "--legal",
            "15m",
            "--void",
            "p",
            "--waits",
            "14m",
            "--title",
            "我",
        ],
        ["tiles", "19m19p19s1234567z", "--width", "40"],
    ],
)
def test_notation_commands_write_a_png(args: list[str], tmp_path: Path, decode: Decode) -> None:
    out = tmp_path / "x.png"
    assert main([*args, "--out", str(out)]) == 0
    assert decode(out.read_bytes()).width > 100


@pytest.mark.parametrize("name", ["table", "settlement"])
def test_json_commands_write_a_png(
    name: str, data_dir: Path, tmp_path: Path, decode: Decode
) -> None:
    out = tmp_path / f"{name}.png"
    assert main([name, str(data_dir / f"{name}.json"), "--out", str(out)]) == 0
    assert decode(out.read_bytes()).width > 100


def test_default_output_is_named_after_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tiles", "1m"]) == 0
    assert (tmp_path / "tiles.png").is_file()
    assert "tiles.png" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "12x"], "unknown character 'x'"),
        (["hand", "1m", "--drawn", "5q"], "unknown character 'q'"),
        (["table", "missing.json"], "missing.json"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--out", str(tmp_path / "x.png")])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_module_writes_png_to_stdout(decode: Decode) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "renderer", "tiles", "123m", "--out", "-"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert decode(done.stdout).height > 40
