"""A hand message shown after changes that came without its chair's state shows the
chair's state of that moment, never the older one it was handed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.picture_messages import PictureMessage
from bot.runtime.snapshots import SeatState
from bot.tables import handmail
from bot.tables.handmail import HandMessage, Rendered
from data.models import Variant
from data.sqlite import SqliteStore
from tests.runtime.test_table_runtime import answer_click, started


class FakeMessage:
    def __init__(self, message_id: int) -> None:
        self.id = message_id


class FakeDm:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, message: PictureMessage) -> FakeMessage:
        self.sent.append(message.content)
        return FakeMessage(len(self.sent))


async def sent_to(dm: FakeDm, message: PictureMessage) -> FakeMessage:
    return await dm.send(message)


async def test_a_message_shown_after_untold_changes_shows_the_state_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handmail, "send_to_channel", sent_to)
    store = await SqliteStore.open(tmp_path / "mail.sqlite3", synchronous="NORMAL")
    try:
        runtime, recorder = await started(store, Variant.GUANGDONG, 4)
        dm = FakeDm()
        shown: list[SeatState] = []

        async def open_dm(user_id: int) -> Any:
            return dm

        async def render(state: SeatState) -> Rendered:
            shown.append(state)
            message = PictureMessage(f"revision {state.revision}", b"", "hand.png")
            return Rendered(message, state.asks, False)

        async def closed(rendered: Rendered) -> None:
            raise AssertionError("the DM is open")

        def current() -> SeatState | None:
            return runtime.seat_state(3)

        mail = HandMessage(open_dm, 104, render, closed, (), lambda _: None, current=current)
        mail.update(runtime.seat_state(3))
        # The others play on; changes that do not touch chair 3 come without its state.
        for _ in range(30):
            latest = mail.latest
            if latest is not None and runtime.revision > latest.revision + 1:
                break
            await recorder.until(lambda: any(runtime.seat_state(c).asks for c in range(4)))
            chair = next(c for c in range(4) if runtime.seat_state(c).asks)
            result = await runtime.click(chair, answer_click(runtime.seat_state(chair)))
            assert result.state is not None
            outcome = recorder.outcomes[-1]
            for state in outcome.seats:
                if state.chair == 3:
                    mail.update(state)
            mail.behind(outcome.revision)
        latest = mail.latest
        assert latest is not None and runtime.revision > latest.revision
        # Shown for another reason (a failed click answer, the settlement): the newest.
        mail.touch()
        await mail.settled()
        assert shown and shown[-1] == runtime.seat_state(3)
        assert shown[-1].revision == runtime.revision
        assert dm.sent == [f"revision {runtime.revision}"]
        # Without a hand in play to ask, the message shows the newest it was handed.
        late = HandMessage(open_dm, 104, render, closed, (), lambda _: None, current=lambda: None)
        late.update(latest)
        late.behind(runtime.revision)
        late.touch()
        await late.settled()
        assert shown[-1] is latest
    finally:
        await store.close()
