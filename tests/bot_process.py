"""``python -m bot`` run as an operator runs it: in a folder of its own, with only the
settings given, until it stops."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_bot(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``folder`` with ``env`` (beside a PATH and the project on its
    module path) until it stops, a minute at the most."""
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
