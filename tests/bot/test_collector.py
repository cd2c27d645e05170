"""The garbage collector as the bot sets it when it starts: what it loaded frozen, young
collections spaced out (bot/collector.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as entry
import bot.launcher
from bot import collector
from bot.settings import Settings


class Held:
    pass


@pytest.fixture
def restored_collector() -> Iterator[None]:
    """The test process's collector as it was, whatever a test set."""
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_settle_freezes_what_is_held_and_spaces_out_young_collections(
    restored_collector: None,
) -> None:
    held = Held()
    collector.settle()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
    # Frozen objects are never walked again: the one held now is not among those a
    # collection looks at.
    assert not any(obj is held for obj in gc.get_objects())
    # What is made afterwards is collected as ever.
    cycle: list[object] = []
    cycle.append(cycle)
    assert any(obj is cycle for obj in gc.get_objects(generation=0))
    del cycle
    assert gc.collect() >= 1


def test_python_m_bot_settles_the_collector_before_the_bot_starts(
    restored_collector: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.sqlite3"))
    seen: list[tuple[int, int]] = []

    def run(settings: Settings) -> int:
        seen.append((gc.get_freeze_count(), gc.get_threshold()[0]))
        return 0

    monkeypatch.setattr(bot.launcher, "run", run)
    gc.unfreeze()
    assert entry.main([]) == 0
    ((frozen, young),) = seen
    assert frozen > 0 and young == collector.YOUNG_THRESHOLD
