"""Player actions: frozen dataclasses with the JSON form of round scripts (Contract 2).

Every action names its seat (a seat of the hand, 0 = dealer). The JSON form is an object
with ``seat``, ``action`` and the action's arguments, e.g.
``{"seat": 2, "action": "discard", "tile": "5m"}``. Draws are never actions: the engine
draws by itself. Rule sets whose set-up prompts need an action not listed here add it
with :func:`register_action`.

>>> Action.from_json({"seat": 2, "action": "discard", "tile": "5m"})
Discard(seat=2, tile=4, declare_ready=False)
>>> Discard(2, 4).to_json()
{'seat': 2, 'action': 'discard', 'tile': '5m'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import ScriptError
from engine.tiles import NotationError, format_tiles, parse_tile, parse_tiles, tile_str

_SUITS = "mps"


def _tile_arg(raw: Mapping[str, Any], name: str) -> int:
    value = raw.get(name)
    if not isinstance(value, str):
        raise ScriptError(f"'{raw.get('action')}' needs '{name}', a tile such as '5m'")
    try:
        return parse_tile(value)
    except NotationError as exc:
        raise ScriptError(str(exc)) from None


def _tiles_arg(raw: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = raw.get(name)
    if not isinstance(value, str):
        raise ScriptError(f"'{raw.get('action')}' needs '{name}', tiles such as '113p'")
    try:
        return tuple(sorted(parse_tiles(value)))
    except NotationError as exc:
        raise ScriptError(str(exc)) from None


def _int_arg(raw: Mapping[str, Any], name: str) -> int:
    value = raw.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScriptError(f"'{raw.get('action')}' needs '{name}', a whole number")
    return value


def _tiles_json(kinds: tuple[int, ...]) -> str:
    return format_tiles(kinds)


@dataclass(frozen=True, slots=True)
class Action:
    """Base class: one player's action. ``name`` is the JSON ``action`` value."""

    seat: int
    name: ClassVar[str] = ""
    arguments: ClassVar[tuple[str, ...]] = ()

    def args_json(self) -> dict[str, Any]:
        """The action's arguments in JSON form (subclasses with arguments override)."""
        return {}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Constructor keyword arguments read from a JSON object (besides ``seat``)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.name, **self.args_json()}

    @staticmethod
    def from_json(raw: Any) -> Action:
        """Parse one script action; a ScriptError names what is wrong."""
        if not isinstance(raw, Mapping):
            raise ScriptError("each action must be a JSON object")
        name = raw.get("action")
        cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
        if cls is None:
            raise ScriptError(f"unknown action {name!r}")
        seat = raw.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise ScriptError(f"action '{name}' needs 'seat', a seat 0-3")
        unknown = sorted(set(raw) - {"seat", "action", *cls.arguments})
        if unknown:
            raise ScriptError(f"action '{name}' has an unknown field '{unknown[0]}'")
        return cls(seat, **cls.args_from_json(raw))

    def describe(self) -> str:
        """Short English text for logs and error messages, e.g. ``seat 2 discard 5m``."""
        args = " ".join(str(v) for v in self.args_json().values())
        return f"seat {self.seat} {self.name}" + (f" {args}" if args else "")


ACTION_TYPES: dict[str, type[Action]] = {}


def register_action(cls: type[Action]) -> type[Action]:
    """Make an action class known to :meth:`Action.from_json` under its ``name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no action name")
    existing = ACTION_TYPES.get(cls.name)
    if existing is not None and existing is not cls:
        raise ValueError(f"action name {cls.name!r} is already taken by {existing.__name__}")
    ACTION_TYPES[cls.name] = cls
    return cls


@register_action
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard ``tile``; ``declare_ready`` also declares the hand ready (MCR 报听)."""

    tile: int
    declare_ready: bool = False
    name: ClassVar[str] = "discard"
    arguments: ClassVar[tuple[str, ...]] = ("tile", "declare_ready")

    def args_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": tile_str(self.tile)}
        if self.declare_ready:
            out["declare_ready"] = True
        return out

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        ready = raw.get("declare_ready", False)
        if not isinstance(ready, bool):
            raise ScriptError("'declare_ready' must be true or false")
        return {"tile": _tile_arg(raw, "tile"), "declare_ready": ready}


@register_action
@dataclass(frozen=True, slots=True)
class Chow(Action):
    """Claim the last discard as a chow; ``tiles`` are the three tiles of the chow."""

    tiles: tuple[int, int, int]
    name: ClassVar[str] = "chow"
    arguments: ClassVar[tuple[str, ...]] = ("tiles",)

    def args_json(self) -> dict[str, Any]:
        return {"tiles": _tiles_json(self.tiles)}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        tiles = _tiles_arg(raw, "tiles")
        if len(tiles) != 3:
            raise ScriptError("'chow' needs 'tiles', the three tiles of the chow")
        return {"tiles": tiles}


@register_action
@dataclass(frozen=True, slots=True)
class Pong(Action):
    """Claim the last discard as a pung."""

    name: ClassVar[str] = "pong"


@register_action
@dataclass(frozen=True, slots=True)
class Kong(Action):
    """A kong of ``tile``: from the last discard, concealed, or added to one's pung."""

    tile: int
    name: ClassVar[str] = "kong"
    arguments: ClassVar[tuple[str, ...]] = ("tile",)

    def args_json(self) -> dict[str, Any]:
        return {"tile": tile_str(self.tile)}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        return {"tile": _tile_arg(raw, "tile")}


@register_action
@dataclass(frozen=True, slots=True)
class Win(Action):
    """Win: self-drawn on one's turn, on the last discard, or robbing an added kong."""

    name: ClassVar[str] = "win"


@register_action
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline a claim on a discard or a rob window."""

    name: ClassVar[str] = "pass"


@register_action
@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """换三张: the three tiles of one suit this seat hands on."""

    tiles: tuple[int, ...]
    name: ClassVar[str] = "exchange"
    arguments: ClassVar[tuple[str, ...]] = ("tiles",)

    def args_json(self) -> dict[str, Any]:
        return {"tiles": _tiles_json(self.tiles)}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        return {"tiles": _tiles_arg(raw, "tiles")}


@register_action
@dataclass(frozen=True, slots=True)
class ChooseVoid(Action):
    """定缺: the suit (0 万 m, 1 筒 p, 2 条 s) this seat will not keep."""

    suit: int
    name: ClassVar[str] = "void"
    arguments: ClassVar[tuple[str, ...]] = ("suit",)

    def args_json(self) -> dict[str, Any]:
        return {"suit": _SUITS[self.suit]}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        value = raw.get("suit")
        if not isinstance(value, str) or value not in _SUITS or len(value) != 1:
            raise ScriptError("'void' needs 'suit', one of 'm', 'p', 's'")
        return {"suit": _SUITS.index(value)}


@register_action
@dataclass(frozen=True, slots=True)
class Bet(Action):
    """MCR party bet: a doubling ``factor`` and horse row positions (1-6) bought."""

    factor: int = 1
    horses: tuple[int, ...] = ()
    name: ClassVar[str] = "bet"
    arguments: ClassVar[tuple[str, ...]] = ("factor", "horses")

    def args_json(self) -> dict[str, Any]:
        return {"factor": self.factor, "horses": list(self.horses)}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        horses = raw.get("horses", [])
        if not isinstance(horses, list) or not all(
            isinstance(h, int) and not isinstance(h, bool) for h in horses
        ):
            raise ScriptError("'horses' must be a list of horse row positions")
        return {"factor": _int_arg(raw, "factor"), "horses": tuple(horses)}


@register_action
@dataclass(frozen=True, slots=True)
class Peek(Action):
    """MCR 火眼金睛: the seat whose concealed tiles this seat will see."""

    target: int
    name: ClassVar[str] = "peek"
    arguments: ClassVar[tuple[str, ...]] = ("target",)

    def args_json(self) -> dict[str, Any]:
        return {"target": self.target}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        return {"target": _int_arg(raw, "target")}


@register_action
@dataclass(frozen=True, slots=True)
class Swap(Action):
    """MCR 偷天换日: tiles this seat gives up for as many from the front of the wall."""

    tiles: tuple[int, ...] = ()
    name: ClassVar[str] = "swap"
    arguments: ClassVar[tuple[str, ...]] = ("tiles",)

    def args_json(self) -> dict[str, Any]:
        return {"tiles": _tiles_json(self.tiles)}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        if raw.get("tiles", "") == "":
            return {"tiles": ()}
        return {"tiles": _tiles_arg(raw, "tiles")}


@register_action
@dataclass(frozen=True, slots=True)
class LastChance(Action):
    """MCR 妙手回春 mode: the face-down tile (position 1-4) this seat picks."""

    position: int
    name: ClassVar[str] = "last_chance"
    arguments: ClassVar[tuple[str, ...]] = ("position",)

    def args_json(self) -> dict[str, Any]:
        return {"position": self.position}

    @classmethod
    def args_from_json(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        return {"position": _int_arg(raw, "position")}
