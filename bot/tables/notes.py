"""What each player is told privately beside their prompt: the tiles 换三张 brought them,
what they swapped away, the restrictions they set on themselves by passing, their 定缺."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n import has, t
from bot.i18n.terms import tiles_label
from engine.events import (
    ClaimOffered,
    Discarded,
    Event,
    Notice,
    PromptAnswered,
    Restricted,
    RestrictionCleared,
)
from engine.tiles import parse_tiles

SUIT_LETTERS = "mps"


@dataclass(frozen=True, slots=True)
class Note:
    """One notice: its catalog key and the values its text names."""

    key: str
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
                    notes[seat]["exchange"] = Note("note.exchange", int(data["from_seat"]), tiles)
                case Notice(name="swap", data=data, seat=seat) if seat is not None:
                    gave, got = parse_tiles(str(data["gave"])), parse_tiles(str(data["got"]))
                    notes[seat]["swap"] = Note("note.swap", tiles=tuple(gave), got=tuple(got))
                case PromptAnswered(seat=seat, prompt="void", answer=answer) if answer:
                    self.own_void[seat] = SUIT_LETTERS.index(str(answer["suit"]))
                case Restricted(seat=seat, kind=kind, tile=tile):
                    shown = (tile,) if tile is not None else ()
                    notes[seat][kind] = Note(f"note.{kind}", tiles=shown)
                case RestrictionCleared(seat=seat):
                    notes[seat].pop("pass_pong", None)
                    notes[seat].pop("pass_win", None)
                case ClaimOffered(seat=seat, blocked=blocked):
                    # Only restrictions players set on themselves are worth a word.
                    reasons = tuple(r for _, r in blocked if has(f"blocked.{r}"))
                    if reasons:
                        notes[seat]["blocked"] = Note("note.blocked", reasons=reasons)
                case Discarded(seat=seat):
                    for kind in ("exchange", "swap", "blocked"):
                        notes[seat].pop(kind, None)

    def texts(self, seat: int, names: Sequence[str], locale: str) -> list[str]:
        sep = t("list.separator", locale)
        return [
            t(
                note.key,
                locale,
                name=names[note.seat] if note.seat is not None else "",
                tiles=tiles_label(note.tiles, locale),
                got=tiles_label(note.got, locale),
                reasons=sep.join(t(f"blocked.{r}", locale) for r in note.reasons),
            )
            for note in self.notes[seat].values()
        ]
