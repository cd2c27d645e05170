"""The load benchmark's sampled profile: py-spy's raw stacks read by kind of process and
package, the waits in ``select`` apart."""

from __future__ import annotations

from pathlib import Path

from benchmarks import sampling

BOT = 'process 10:"python -c from multiprocessing.spawn import spawn_main"'
WORKER = f'{BOT};process 11:"python -m renderer.worker"'
LOOP = f"{BOT};BaseEventLoop._run_once (asyncio/base_events.py:1922)"
RUN = f"{LOOP};Handle._run (asyncio/events.py:80)"
MAIL = f"{RUN};HandMessage._deliver (bot/tables/handmail.py:250)"

RAW = f"""\
{RUN};TableRuntime.click (bot/runtime/table.py:619);build_view (engine/visibility.py:44) 30
{MAIL};Message.__init__ (discord/message.py:2193) 20
{RUN};ClientSession._request (aiohttp/client.py:558) 40
{MAIL} 10
{LOOP};EpollSelector.select (selectors.py:451) 25
{BOT};Thread._bootstrap (threading.py:1002);Connection._execute (aiosqlite/core.py:100) 5
{WORKER};serve (renderer/worker.py:85);render_desk (renderer/desk.py:650) 7
{WORKER};serve (renderer/worker.py:85);_deflate_band (renderer/png.py:105) 3
not a sample line
"""


def test_samples_are_read_by_kind_of_process_and_package() -> None:
    kinds = sampling.read(RAW.splitlines())
    loop = kinds["event loop"]
    assert loop.samples == 100 and loop.waiting == 25
    assert loop.packages == {"engine": 30, "discord.py": 20, "aiohttp": 40, "ours: bot/tables": 10}
    assert loop.functions.most_common(1) == [("ClientSession._request (aiohttp/client.py)", 40)]
    assert kinds["other threads"].packages == {"aiosqlite": 5}
    assert kinds["picture processes"].samples == 10
    assert kinds["picture processes"].packages == {"renderer": 10}


def test_the_summary_gives_each_kind_its_share_and_time_per_move(tmp_path: Path) -> None:
    path = tmp_path / "samples.txt"
    path.write_text(RAW, encoding="utf-8")
    lines = sampling.summary(path, moves=10)
    text = "\n".join(lines)
    # 100 samples at 100 Hz over 10 moves: 100 ms a move; 25 of 125 samples in select.
    assert "event loop: 100 samples, 100.0 ms a player action; 20 % more in select" in text
    assert "aiohttp 40 %" in text and "engine 30 %" in text
    assert "picture processes: 10 samples, 10.0 ms a player action" in text
    assert text.index("event loop") < text.index("picture processes") < text.index("other threads")
