"""The frames the bot and its picture processes exchange (renderer.worker.frame)."""

from __future__ import annotations

import dataclasses
import os
import pickle
import pickletools
import sys

import pytest

from engine.tiles import Meld, MeldType, parse_tile
from renderer.models import ChairView, Labels, LobbyView, OptionLine
from renderer.reference import late_game_table, reference_desk, reference_hand
from renderer.worker import HEADER, PIPE_SIZE, frame, widen


def _read(data: bytes) -> object:
    (size,) = HEADER.unpack_from(data)
    assert size == len(data) - HEADER.size
    return pickle.loads(data[HEADER.size :])


def _opcodes(data: bytes) -> set[str]:
    return {op.name for op, _, _ in pickletools.genops(data[HEADER.size :])}


VIEWS = {
    "hand": reference_hand(),
    "desk": reference_desk(),
    "table": late_game_table(),
    "lobby": LobbyView(
        title="牌桌 #1",
        chairs=(
            ChairView("小张", host=True),
            ChairView("电脑1", ai=True),
            ChairView("Lily"),
            ChairView("（空位）", taken=False),
        ),
        options=(OptionLine("rounds", "4", "局数"),),
        price="房卡 1 张",
    ),
}


@pytest.mark.parametrize("kind", sorted(VIEWS))
def test_a_view_comes_back_equal_and_built_by_its_class(kind: str) -> None:
    request = (kind, (VIEWS[kind],))
    data = frame(request)
    assert _read(data) == request
    # Each dataclass is written as a call of its class with its field values: no state
    # set field by field afterwards (pickle's BUILD), which is what cost the time.
    assert "BUILD" not in _opcodes(data)


def test_an_answer_comes_back_as_it_was() -> None:
    answer = (bytes(range(256)) * 300, None, 0.25)
    assert _read(frame(answer)) == answer
    assert _read(frame((None, "Traceback ...", 0.0))) == (None, "Traceback ...", 0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class _OneField:
    value: int


# Slots, so that each reaches the test of its fields rather than the one of __dict__.
@dataclasses.dataclass(frozen=True, slots=True)
class _KeywordOnly:
    first: int
    second: str = dataclasses.field(default="b", kw_only=True)


@dataclasses.dataclass(slots=True)
class _NotInInit:
    shown: int
    derived: int = dataclasses.field(init=False, default=0)


@dataclasses.dataclass
class _WithDict:
    shown: int


@dataclasses.dataclass(slots=True)
class _Base:
    value: int


# A dataclass by inheritance only: its own slot is no field of the class it inherits.
# (The base is not frozen: a frozen one's own __getstate__ would drop the slot anyway.)
class _ExtraSlot(_Base):
    __slots__ = ("extra",)
    extra: str


def test_dataclasses_a_call_cannot_rebuild_are_written_pickles_own_way() -> None:
    not_in_init = _NotInInit(3)
    not_in_init.derived = 9
    # An object with a __dict__ may hold more than its fields.
    with_dict = _WithDict(4)
    with_dict.note = "kept"  # type: ignore[attr-defined]
    extra_slot = _ExtraSlot(5)
    extra_slot.extra = "kept"
    payload = (
        _OneField(7),
        _KeywordOnly(1, second="x"),
        not_in_init,
        with_dict,
        extra_slot,
        Labels(won="胡"),
    )
    back = _read(frame(payload))
    assert back == payload
    assert isinstance(back, tuple) and back[2].derived == 9
    assert back[3].note == "kept"  # type: ignore[attr-defined]
    assert type(back[4]) is _ExtraSlot and back[4].extra == "kept"


def test_melds_and_tiles_of_the_engine_come_back_equal() -> None:
    meld = Meld(MeldType.PUNG, parse_tile("7s"))
    assert _read(frame((meld, (meld,)))) == (meld, (meld,))


@pytest.mark.skipif(sys.platform != "linux", reason="a pipe's size is set on Linux only")
def test_the_answers_pipe_holds_a_whole_picture() -> None:
    import fcntl

    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=False) as stream:
            widen(stream)
        # A table's answer (70-90 KB) fits at once: one write, one read in the bot.
        assert fcntl.fcntl(read_end, fcntl.F_GETPIPE_SZ) == PIPE_SIZE
        assert 2 * len(frame((b"\0" * 90_000, None, 0.0))) < PIPE_SIZE
    finally:
        os.close(read_end)
        os.close(write_end)
