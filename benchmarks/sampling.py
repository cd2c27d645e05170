"""Where the bot's CPU goes in play, sampled (``python -m benchmarks.load --sample FILE``).

``--profile`` (cProfile) pays for every Python call it records, so it inflates code made
of many small Python calls about threefold against code that runs in C, and its shares
mislead. A sampler looks at the stacks a hundred times a second and costs the bot almost
nothing: py-spy reads the bot's and its picture processes' stacks from outside, and each
sample counts where the running code is. The raw stacks go to ``FILE`` (py-spy's
collapsed format, one stack and its count a line, for flame graphs), and the load
benchmark prints what they add up to: per process kind, the share of the code running by
the package it belongs to, and the busiest functions.

A sampler sees threads that run and threads that could run: on a machine with fewer
cores than busy processes (the bot, its picture process and the fake Discord on two
cores), a thread preempted as a system call returns (a socket or pipe write, a clock
read) is counted at that call while it waits for a core. The event loop's waits in
``select`` are counted apart; the others stay in, so shares at system calls are upper
bounds there. The benchmark's CPU figures come from the kernel's accounting instead.

py-spy needs to be allowed to read another process's memory (ptrace): as root, or with
``kernel.yama.ptrace_scope`` at 0.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: Samples a second of each thread.
RATE = 100
#: The busiest functions printed for each kind of process.
TOP = 8
#: The picture processes' command line (bot.picture_processes).
PICTURE_PROCESS = "renderer.worker"
#: Our packages, by the first part of a frame's file.
OURS = ("bot", "engine", "renderer", "data", "fakediscord", "benchmarks")
#: Other packages, by the first part of a frame's file; anything else is "other".
LIBRARIES = {
    "discord": "discord.py",
    "aiohttp": "aiohttp",
    "aiosignal": "aiohttp",
    "multidict": "aiohttp",
    "yarl": "aiohttp",
    "asyncio": "asyncio",
    "selectors.py": "asyncio",
    "json": "json",
    "PIL": "Pillow",
    "pickle.py": "pickle",
    "aiosqlite": "aiosqlite",
    "dataclasses.py": "dataclasses",
}
_FRAME = re.compile(r"^(?P<name>.*) \((?P<file>[^()]*):\d+\)$")


class SamplerError(RuntimeError):
    """py-spy is missing or could not sample the bot."""


@dataclass
class Sampler:
    """py-spy recording a process and its children until :meth:`stop`."""

    path: Path
    process: asyncio.subprocess.Process

    @classmethod
    async def start(cls, pid: int, path: Path) -> Sampler:
        spy = shutil.which("py-spy") or shutil.which(
            "py-spy", path=str(Path(sys.executable).parent)
        )
        if spy is None:
            raise SamplerError("py-spy is not installed (pip install -e '.[dev]')")
        process = await asyncio.create_subprocess_exec(
            spy,
            *("record", "--pid", str(pid), "--subprocesses", "--nonblocking"),
            *("--rate", str(RATE), "--format", "raw", "--output", str(path)),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(path, process)

    async def stop(self) -> None:
        """Stop sampling; py-spy writes the stacks as it stops."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        _, errors = await self.process.communicate()
        if not self.path.exists():
            raise SamplerError(f"py-spy wrote no samples: {errors.decode(errors='replace')}")


@dataclass
class Shares:
    """Samples of one kind of process: by package and by function, and those left out."""

    samples: int = 0
    waiting: int = 0
    packages: Counter[str] = field(default_factory=Counter)
    functions: Counter[str] = field(default_factory=Counter)


def package_of(file: str) -> str:
    """The package a frame's file belongs to, as the summary names it."""
    head = file.split("/", 1)[0]
    if head in OURS:
        parts = file.split("/")
        return f"ours: {parts[0]}/{parts[1]}" if head == "bot" and len(parts) > 2 else head
    return LIBRARIES.get(head, "other")


def read(lines: Iterable[str]) -> dict[str, Shares]:
    """The samples of py-spy's raw output by kind of thread: the bot's event loop, its
    other threads (the store's, discord.py's), and its picture processes. A thread asleep
    is not sampled, but one in ``select`` that is being woken, or was woken and waits for
    a core, is: such samples are counted apart, as waiting."""
    kinds: dict[str, Shares] = {}
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        parts = stack.split(";")
        roots = [p for p in parts if p.startswith("process ")]
        frames = [m for p in parts if (m := _FRAME.match(p)) is not None]
        if not frames:
            continue
        if any(PICTURE_PROCESS in root for root in roots):
            kind = "picture processes"
        elif any(m["name"].startswith("Thread._bootstrap") for m in frames):
            kind = "other threads"
        else:
            kind = "event loop"
        shares = kinds.setdefault(kind, Shares())
        leaf = frames[-1]
        if leaf["file"] == "selectors.py" and leaf["name"].endswith(".select"):
            shares.waiting += int(count)
            continue
        shares.samples += int(count)
        shares.packages[package_of(leaf["file"])] += int(count)
        shares.functions[f"{leaf['name']} ({leaf['file']})"] += int(count)
    return kinds


def summary(path: Path, moves: int) -> list[str]:
    """The lines the load benchmark prints for a file of samples over ``moves`` moves."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        kinds = read(lines)
    out = [f"sampled       {path} at {RATE} Hz: per kind of process, where its code ran"]
    for kind in ("event loop", "picture processes", "other threads"):
        shares = kinds.get(kind)
        if shares is None or not shares.samples:
            continue
        total = shares.samples
        per_move = 1000 * total / RATE / max(moves, 1)
        packages = ", ".join(
            f"{name} {100 * n / total:.0f} %" for name, n in shares.packages.most_common()
        )
        waiting = (
            f"; {100 * shares.waiting / (total + shares.waiting):.0f} % more in select, waking "
            "or waiting for a core, left out"
            if shares.waiting
            else ""
        )
        out.append(f"  {kind}: {total} samples, {per_move:.1f} ms a player action{waiting}")
        out.append(f"    by package: {packages}")
        out += [
            f"    {100 * n / total:5.1f} %  {name}" for name, n in shares.functions.most_common(TOP)
        ]
    return out
