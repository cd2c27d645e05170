"""Pictures drawn in processes of their own (bot.picture_processes, renderer.worker)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import pytest

import bot.pictures
from bot.picture_processes import PictureFailed, PictureProcesses
from renderer.desk import render_desk
from renderer.reference import late_game_table, reference_desk
from renderer.table import render_table
from renderer.worker import HEADER, PIPE_SIZE
from tests.bot.harness import play_out, player, running_harness

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def processes() -> AsyncIterator[PictureProcesses]:
    running = PictureProcesses(1)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def test_a_process_draws_what_the_renderer_draws(processes: PictureProcesses) -> None:
    desk, table = reference_desk(), late_game_table()
    png, error, cpu = await processes.draw("desk", (desk,))
    assert (png, error) == (render_desk(desk), None)
    assert cpu > 0
    png, error, _ = await processes.draw("table", (table,), background=True)
    assert png == render_table(table)
    await processes.stop()
    assert processes.pids() == []


@pytest.mark.skipif(sys.platform != "linux", reason="a pipe's size is set on Linux only")
async def test_a_process_answers_through_a_pipe_that_holds_a_picture(
    processes: PictureProcesses,
) -> None:
    import fcntl

    await processes.draw("table", (late_game_table(),))
    (pid,) = processes.pids()
    # The process's stdout, opened again through /proc: the same pipe the bot reads.
    pipe = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
    try:
        assert fcntl.fcntl(pipe, fcntl.F_GETPIPE_SZ) == PIPE_SIZE
    finally:
        os.close(pipe)


async def test_a_failed_picture_is_answered_and_the_process_draws_on(
    processes: PictureProcesses,
) -> None:
    (pid,) = processes.pids()
    png, error, _ = await processes.draw("desk", ("not a view",))
    assert png is None
    assert error is not None and "Traceback" in error
    png, error, _ = await processes.draw("desk", (reference_desk(),))
    assert png is not None and error is None
    assert processes.pids() == [pid]


async def test_a_killed_process_is_replaced_and_its_picture_still_drawn(
    processes: PictureProcesses,
) -> None:
    (pid,) = processes.pids()
    view = reference_desk()
    drawing = asyncio.ensure_future(processes.draw("desk", (view,)))
    os.kill(pid, signal.SIGKILL)
    png, _, _ = await asyncio.wait_for(drawing, 30)
    assert png == render_desk(view)
    assert processes.pids() and processes.pids() != [pid]
    # Killed while idle: the next picture finds it dead and starts another.
    os.kill(processes.pids()[0], signal.SIGKILL)
    await asyncio.sleep(0.1)
    png, _, _ = await asyncio.wait_for(processes.draw("desk", (view,)), 30)
    assert png == render_desk(view)


async def test_pictures_a_click_waits_for_go_before_table_pictures(
    processes: PictureProcesses,
) -> None:
    order: list[str] = []
    table, desk = late_game_table(), reference_desk()

    async def drawn(name: str, kind: str, view: object, background: bool) -> None:
        await processes.draw(kind, (view,), background=background)
        order.append(name)

    # Queued in one go, before the process takes any of them.
    await asyncio.gather(
        drawn("table 1", "table", table, True),
        drawn("table 2", "table", replace(table, wall_left=3), True),
        drawn("desk", "desk", desk, False),
    )
    assert order[0] == "desk"


def _frames_written(processes: PictureProcesses) -> list[int]:
    """Frames in each write the bot makes to its processes from now on (in order)."""
    written: list[int] = []
    for worker in processes._workers:
        assert worker.process is not None and worker.process.stdin is not None
        stdin = worker.process.stdin
        write = stdin.write

        def counted(data: bytes, write: Callable[[bytes], None] = write) -> None:
            frames, at = 0, 0
            while at < len(data):
                at += HEADER.size + HEADER.unpack_from(data, at)[0]
                frames += 1
            written.append(frames)
            write(data)

        stdin.write = counted  # type: ignore[method-assign]
    return written


async def test_a_moves_pictures_go_to_the_process_in_one_write(
    processes: PictureProcesses,
) -> None:
    """The clicker's answer, the next player's prompt and the table, asked for at once:
    one write, drawn in priority order, each answered with its own picture."""
    written = _frames_written(processes)
    desks = [reference_desk(), replace(reference_desk(), wall_left=1)]
    table = late_game_table()
    order: list[str] = []

    async def drawn(name: str, kind: str, view: object, background: bool) -> bytes | None:
        png, _, _ = await processes.draw(kind, (view,), background=background)
        order.append(name)
        return png

    pngs = await asyncio.gather(
        drawn("table", "table", table, True),
        drawn("desk 1", "desk", desks[0], False),
        drawn("desk 2", "desk", desks[1], False),
    )
    assert written == [3]
    assert order == ["desk 1", "desk 2", "table"]
    assert pngs == [render_table(table), render_desk(desks[0]), render_desk(desks[1])]


async def test_one_table_picture_at_most_goes_in_a_write(processes: PictureProcesses) -> None:
    """A click's picture asked while tables are being drawn waits behind one of them."""
    written = _frames_written(processes)
    tables = [replace(late_game_table(), wall_left=n) for n in range(3)]
    await asyncio.gather(
        processes.draw("desk", (reference_desk(),)),
        *(processes.draw("table", (t,), background=True) for t in tables),
    )
    assert written == [2, 1, 1]


async def test_free_processes_share_the_pictures_asked_at_once() -> None:
    running = PictureProcesses(2)
    await running.start()
    try:
        written = _frames_written(running)
        desks = [replace(reference_desk(), wall_left=n) for n in range(2)]
        pngs = await asyncio.gather(*(running.draw("desk", (d,)) for d in desks))
        assert written == [1, 1]
        assert [png for png, _, _ in pngs] == [render_desk(d) for d in desks]
    finally:
        await running.stop()


async def test_a_process_killed_in_a_write_s_pictures_is_asked_the_rest_again(
    processes: PictureProcesses,
) -> None:
    (pid,) = processes.pids()
    written = _frames_written(processes)
    desks = [replace(reference_desk(), wall_left=n) for n in range(3)]
    drawing = asyncio.gather(*(processes.draw("desk", (d,)) for d in desks))
    while not written:
        await asyncio.sleep(0)
    assert written == [3]
    os.kill(pid, signal.SIGKILL)
    pngs = await asyncio.wait_for(drawing, 30)
    assert [png for png, _, _ in pngs] == [render_desk(d) for d in desks]
    assert processes.pids() not in ([], [pid])


async def test_pictures_that_keep_killing_their_process_fail_in_a_sentence(
    processes: PictureProcesses,
) -> None:

    async def kill_each_new_process() -> None:
        seen: set[int] = set()
        while True:
            for pid in processes.pids():
                if pid not in seen:
                    seen.add(pid)
                    os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.001)

    killer = asyncio.create_task(kill_each_new_process())
    try:
        with pytest.raises(PictureFailed, match="kept failing"):
            await asyncio.wait_for(processes.draw("desk", (reference_desk(),)), 30)
    finally:
        killer.cancel()


async def test_a_hand_is_played_with_its_pictures_drawn_in_a_process(tmp_path: Path) -> None:
    """The bot with one picture process: every picture of a hand comes from it, one is
    killed mid-hand and the hand goes on, and the process ends with the bot."""
    async with running_harness(tmp_path, start=False) as harness:
        harness.picture_processes = 1
        await harness.start_bot()
        (pid,) = bot.pictures.process_ids()
        me = harness.owner
        bot.pictures.COSTS.clear()
        await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
        # The person's first prompt is drawn, then the process dies: the hand waits for
        # the person, so every picture after comes from the process started again.
        for _ in range(400):
            if bot.pictures.COSTS.drawn["desk"] >= 1:
                break
            await asyncio.sleep(0.05)
        hand = harness.running().hand
        assert hand is not None
        assert not hand.ended
        os.kill(pid, signal.SIGKILL)
        (settlement,) = await play_out(harness, [player(harness, me)], me)
        assert settlement.attachments[0].filename == "settlement.png"
        assert bot.pictures.COSTS.drawn["table"] > 0
        assert bot.pictures.process_ids() not in ([], [pid])
        await harness.stop_bot()
        assert bot.pictures.process_ids() == []


async def test_a_bot_that_cannot_start_a_process_draws_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def cannot(*args: object, **kwargs: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(asyncio, "create_subprocess_exec", cannot)
    await bot.pictures.start_processes(1)
    try:
        assert bot.pictures.process_ids() == []
        assert await bot.pictures.desk_png(replace(reference_desk(), wall_left=1))
    finally:
        await bot.pictures.stop_processes()
