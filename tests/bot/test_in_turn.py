"""Two versions priced in turn: each run is made in its own checkout, in ABBA order, and
its figures are read from the load benchmark's own lines."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from benchmarks import in_turn


def _in_git_checkout() -> bool:
    try:
        found = subprocess.run(
            ["git", "-C", str(in_turn.ROOT), "rev-parse", "--verify", "HEAD"],
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        return False
    return found.returncode == 0


#: The comparison checks a version out with git: the project's own checkout must be one.
needs_git = pytest.mark.skipif(not _in_git_checkout(), reason="not a git checkout")

# Lines as benchmarks.load prints them.
OUTPUT = """\
machine       99 ms of CPU for the reference work
== 50 tables (mcr, guangdong, sichuan), people think 2.5 s on average ==
CPU           bot 10.2 ms per player action (event loop 5.4, other 0.0, pictures 4.5, \
store 0.3; 10.2 ms per action of any kind), 16 % of a core; fake Discord and people 15 % \
of a core
"""


def test_a_load_runs_figures_are_read_from_its_lines() -> None:
    run = in_turn.parse(OUTPUT, "HEAD~1")
    assert run.move_ms == 10.2 and run.reference_ms == 99
    assert run.parts == {"event loop": 5.4, "other": 0.0, "pictures": 4.5, "store": 0.3}
    assert "10.2 ms a player move (event loop 5.4" in run.line(1)


def test_a_run_without_figures_is_a_failure() -> None:
    with pytest.raises(in_turn.LoadFailed):
        in_turn.parse("Traceback (most recent call last):", "HEAD")


def test_the_versions_alternate_abba() -> None:
    this, other = Path("a"), Path("b")
    assert [v for v, _ in in_turn.order(3, this, other, "REV")] == [
        in_turn.THIS,
        "REV",
        "REV",
        in_turn.THIS,
        in_turn.THIS,
        "REV",
    ]


@needs_git
def test_each_version_runs_in_its_own_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stand-in for the load benchmark: 8 ms a move in the project's own checkout, 9 in
    # any other, and its arguments as the reference work.
    stub = tmp_path / "stub_load.py"
    stub.write_text(
        textwrap.dedent(
            f"""\
            import sys
            from pathlib import Path
            ms = 8.0 if Path.cwd().resolve() == Path({str(in_turn.ROOT)!r}) else 9.0
            print(f"machine       {{len(sys.argv) - 1}} ms of CPU for the reference work")
            print(f"CPU           bot {{ms}} ms per player action (event loop 4.0, "
                  f"pictures 3.0; {{ms}} ms per action of any kind)")
            """
        )
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    assert in_turn.main(["HEAD", "--runs", "2", "--tables", "3"], module="stub_load") == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines[:4]] == ["this", "HEAD", "HEAD", "this"]
    assert all("reference work 2 ms" in line for line in lines[:4])
    assert lines[4].split()[-4:] == ["player", "move", "(8.0,", "8.0)"]
    assert lines[5].split()[-4:] == ["player", "move", "(9.0,", "9.0)"]
    assert lines[6] == "this checkout less HEAD: -1.0 ms a player move"
    # The temporary checkout is gone.
    listed = subprocess.run(
        ["git", "-C", str(in_turn.ROOT), "worktree", "list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "in-turn-" not in listed


def test_a_version_git_does_not_know_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        in_turn.main(["no-such-version", "--runs", "1"])
    assert exited.value.code == 2
    assert "git could not check out 'no-such-version'" in capsys.readouterr().err


@needs_git
def test_a_failed_load_run_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken_load.py").write_text("raise SystemExit('no fake Discord here')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    assert in_turn.main(["HEAD", "--runs", "1"], module="broken_load") == 1
    err = capsys.readouterr().err
    assert "this checkout: the load benchmark failed (1)" in err
    assert "no fake Discord here" in err
