"""What each player is told privately beside their prompt: the tiles 换三张 brought them,
what they swapped away, the restrictions they set on themselves by passing, their 定缺.

Kept from the private events of the hand, so a restarted table that replays its actions
tells every player the same again. The words are the presenters'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.events import (
    Claimed,
    ClaimOffered,
    Discarded,
    Drew,
    Event,
    Konged,
    Notice,
    PromptAnswered,
    Restricted,
    RestrictionCleared,
)
from engine.tiles import parse_tiles

SUIT_LETTERS = "mps"


@dataclass(frozen=True, slots=True)
class Note:
    """One notice: what it is about (``kind``: ``exchange``, ``swap``, ``blocked`` or a
    restriction's kind such as ``pass_pong``) and the values its text names."""

    kind: str
    seat: int | None = None
    tiles: tuple[int, ...] = ()
    got: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()


@dataclass(slots=True)
class SeatNotes:
    """The notices of the four seats of a hand, kept from the private events."""

    notes: list[dict[str, Note]] = field(default_factory=lambda: [{}, {}, {}, {}])
    own_void: list[int | None] = field(default_factory=lambda: [None, None, None, None])

    def absorb(self, events: Sequence[Event]) -> None:
        notes = self.notes
        for event in events:
            match event:
                case Notice(name="exchange", data=data, seat=seat) if seat is not None:
                    tiles = tuple(parse_tiles(str(data["tiles"])))
                    notes[seat]["exchange"] = Note("exchange", int(data["from_seat"]), tiles)
                case Notice(name="swap", data=data, seat=seat) if seat is not None:
                    gave, got = parse_tiles(str(data["gave"])), parse_tiles(str(data["got"]))
                    notes[seat]["swap"] = Note("swap", tiles=tuple(gave), got=tuple(got))
                case PromptAnswered(seat=seat, prompt="void", answer=answer) if answer:
                    self.own_void[seat] = SUIT_LETTERS.index(str(answer["suit"]))
                case Restricted(seat=seat, kind=kind, tile=tile):
                    # Every kind passed since the seat's last draw stays barred (过碰 on
                    # 中, then on 发, bars both), so the note names them all.
                    before = notes[seat].get(kind)
                    shown = before.tiles if before is not None else ()
                    if tile is not None and tile not in shown:
                        shown = (*shown, tile)
                    notes[seat][kind] = Note(kind, tiles=shown)
                case RestrictionCleared(seat=seat):
                    notes[seat].pop("pass_pong", None)
                    notes[seat].pop("pass_win", None)
                case ClaimOffered(seat=seat, tile=tile, blocked=blocked) if blocked:
                    reasons = tuple(r for _, r in blocked)
                    notes[seat]["blocked"] = Note("blocked", tiles=(tile,), reasons=reasons)
                case Discarded(seat=seat):
                    for kind in ("exchange", "swap"):
                        notes[seat].pop(kind, None)
                    self._window_closed()
                case Drew() | Claimed() | Konged():
                    self._window_closed()

    def _window_closed(self) -> None:
        """What a claim or rob window withheld is told while it is open, and only then:
        the next discard, draw, claim or kong closes it."""
        for seat_notes in self.notes:
            seat_notes.pop("blocked", None)

    def of(self, seat: int) -> tuple[Note, ...]:
        return tuple(self.notes[seat].values())
