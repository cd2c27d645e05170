"""This checkout and another version of the bot, priced in turn by the load benchmark.

    python -m benchmarks.in_turn REV [--runs N] [LOAD ARGUMENTS ...]

for instance ``python -m benchmarks.in_turn HEAD~1 --runs 2 --tables 50``. REV is checked
out in a temporary git worktree; the two versions then run ``python -m benchmarks.load``
with the same arguments, one after the other, N times each, in the order ABBA (this
checkout first in odd rounds, REV first in even ones). Each run's CPU a player move and
its parts are printed as it ends, then each version's median and the difference.

Why in turn: the machine's speed drifts by more than most single changes are worth. The
same code came to 7.6 and 10.2 ms a player move at ``--tables 50`` two hours apart, and
to 8.2 and 9.0 twenty minutes apart, so a figure measured today against one from the
morning says little; runs that alternate meet the drift alike. Each run loads its own
checkout's code, the bot process and its picture processes included: they are started
from the run's directory, which comes first on their module path.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOAD = "benchmarks.load"
THIS = "this checkout"

_CPU = re.compile(r"^CPU\s+bot (?P<move>[\d.]+) ms per player action \((?P<parts>[^;]*);", re.M)
_MACHINE = re.compile(r"^machine\s+(?P<ms>[\d.]+) ms of CPU for the reference work", re.M)
_PART = re.compile(r"(?P<name>[a-z ]+?) (?P<ms>[\d.]+)$")


@dataclass(frozen=True, slots=True)
class Run:
    """One load run's figures: CPU a player move and its parts (ms), and the machine's
    reference work just before it (ms)."""

    version: str
    move_ms: float
    parts: dict[str, float]
    reference_ms: float | None

    def line(self, number: int) -> str:
        parts = ", ".join(f"{name} {ms:.1f}" for name, ms in self.parts.items())
        reference = (
            "" if self.reference_ms is None else f"; reference work {self.reference_ms:.0f} ms"
        )
        figure = f"{self.move_ms:5.1f} ms a player move ({parts})"
        return f"run {number:<3} {self.version:<16} {figure}{reference}"


class LoadFailed(RuntimeError):
    """A load run that ended in error or printed no CPU figure."""


class CheckoutFailed(RuntimeError):
    """A version git could not check out (no such version, or no git checkout here)."""


def parse(output: str, version: str) -> Run:
    """The figures of one load run's output (the first table count of a sweep)."""
    cpu = _CPU.search(output)
    if cpu is None:
        raise LoadFailed(f"{version}: the load benchmark printed no CPU figure")
    parts: dict[str, float] = {}
    for part in cpu["parts"].split(","):
        found = _PART.match(part.strip())
        if found is not None:
            parts[found["name"]] = float(found["ms"])
    machine = _MACHINE.search(output)
    return Run(version, float(cpu["move"]), parts, float(machine["ms"]) if machine else None)


def run_once(checkout: Path, version: str, load_args: Sequence[str], module: str) -> Run:
    """One load run of the code in ``checkout``."""
    done = subprocess.run(
        [sys.executable, "-m", module, *load_args],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise LoadFailed(f"{version}: the load benchmark failed ({done.returncode}):\n{tail}")
    return parse(done.stdout, version)


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """``rev`` checked out in a temporary directory, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="in-turn-") as parent:
        path = Path(parent) / "checkout"
        try:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), rev],
                check=True,
            )
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            raise CheckoutFailed(f"git could not check out {rev!r}") from exc
        try:
            yield path
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                check=False,
            )


def order(rounds: int, this: Path, other: Path, rev: str) -> list[tuple[str, Path]]:
    """The runs in ABBA order: this checkout first in odd rounds, ``rev`` in even ones."""
    pair = [(THIS, this), (rev, other)]
    out: list[tuple[str, Path]] = []
    for number in range(rounds):
        out += pair if number % 2 == 0 else pair[::-1]
    return out


def summary(runs: Sequence[Run], rev: str) -> list[str]:
    """Each version's median CPU a player move, and this checkout's less ``rev``'s."""
    medians = {
        version: statistics.median(r.move_ms for r in runs if r.version == version)
        for version in (THIS, rev)
    }
    lines = [
        f"median  {version:<16} {ms:5.1f} ms a player move "
        f"({', '.join(f'{r.move_ms:.1f}' for r in runs if r.version == version)})"
        for version, ms in medians.items()
    ]
    lines.append(f"this checkout less {rev}: {medians[THIS] - medians[rev]:+.1f} ms a player move")
    return lines


def main(argv: Sequence[str] | None = None, *, module: str = LOAD) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.in_turn",
        description="This checkout and REV priced in turn by the load benchmark; the "
        "arguments it does not know go to python -m benchmarks.load.",
    )
    parser.add_argument("rev", help="the version to price against (a commit, a branch, HEAD~1)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each version")
    args, load_args = parser.parse_known_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runs: list[Run] = []
    try:
        with worktree(args.rev) as other:
            for number, (version, checkout) in enumerate(
                order(args.runs, ROOT, other, args.rev), 1
            ):
                run = run_once(checkout, version, load_args, module)
                runs.append(run)
                print(run.line(number), flush=True)
    except CheckoutFailed as failed:
        parser.error(str(failed))
    except LoadFailed as failed:
        print(failed, file=sys.stderr)
        return 1
    print("\n".join(summary(runs, args.rev)))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main())
