"""A click on a hand's controls, read back into what it stands for.

A control names the prompt it belongs to (the hand and prompt numbers of its custom_id,
:mod:`bot.ids`) and where in that prompt's :class:`~engine.controls.Controls` its answer
lies. A button (``act``) carries the engine's name of the action and the indices of the
control and of the choice, ``pong.0.2``, and, after a part chosen first (MCR's horses),
those numbers too: ``bet.1.0.2-5``; a button that answers a choice of tiles at once (the
engine's suggestion) carries the action's name, the control's index and the tile
positions, ``exchange.1.0-3-4``. A select (``pick``) carries the name of what it
chooses and the control's index, ``discard.0`` (``discard.0.ready`` for a second select
of the same control); its values are choice indices (a list of
actions), tile positions (a choice of tiles) or the numbers themselves. The engine's list
is the only encoding of actions: the runtime asks the engine for the seat's controls of
the current prompt, the same ones the click was drawn from, and takes the action there;
the name only has to agree with it (and tells a reader of the id what it does).

>>> button_arg("bet", 1, 0, (2, 5))
'bet.1.0.2-5'
>>> select_arg("discard", 0)
'discard.0'
>>> tiles_arg("exchange", 1, (0, 3, 4))
'exchange.1.0-3-4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.controls import Controls, PickNumbers, PickOne, PickTiles

ACT = "act"
PICK = "pick"
BACK = "back"
#: A toggle of the person's standing orders (``bot.runtime.standing``); its arg names it.
AUTO = "auto"

#: Reactions a player may use instead of the claim buttons, by the action they name.
REACTIONS = {"🏆": "win", "4️⃣": "kong", "3️⃣": "pong", "⬅️": "chow", "❌": "pass"}
#: Clients send keycaps and arrows with or without this variation selector.
_VARIATION = "\ufe0f"
_BY_BARE_EMOJI = {emoji.replace(_VARIATION, ""): name for emoji, name in REACTIONS.items()}


@dataclass(frozen=True, slots=True)
class Click:
    """A click as Discord delivers it: the control's custom_id fields and the values of a
    select."""

    kind: str
    hand_no: int
    seq: int
    arg: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer:
    """The click answers the prompt with ``action``."""

    action: Action


@dataclass(frozen=True, slots=True)
class Chosen:
    """The click chose a part of the answer (``numbers`` for a :class:`PickNumbers`)."""

    control: int
    numbers: tuple[int, ...]


Intent = Answer | Chosen


def button_arg(name: str, control: int, choice: int, numbers: Sequence[int] = ()) -> str:
    arg = f"{name}.{control}.{choice}"
    return f"{arg}.{'-'.join(str(n) for n in numbers)}" if numbers else arg


def tiles_arg(name: str, control: int, positions: Sequence[int]) -> str:
    """A button's arg that chooses the tiles at ``positions`` of a :class:`PickTiles`."""
    return f"{name}.{control}.{'-'.join(str(p) for p in positions)}"


def select_arg(name: str, control: int, part: str = "") -> str:
    """A select's arg; ``part`` tells apart two selects of one control (discards, and
    discards that declare ready), since a message's custom_ids must differ."""
    return f"{name}.{control}.{part}" if part else f"{name}.{control}"


def chosen_name(control: PickOne | PickTiles | PickNumbers) -> str:
    """The name a select of ``control`` carries: the action its choices make, or the
    argument its numbers fill."""
    if isinstance(control, PickOne):
        return control.choices[0].action.name if control.choices else ""
    if isinstance(control, PickTiles):
        return control.action
    return control.field


def read(click: Click, controls: Controls, seat: int) -> Intent | None:
    """What ``click`` stands for among ``controls``; None when it does not fit them (a
    forged or malformed click)."""
    try:
        if click.kind == ACT:
            return _read_button(click.arg, controls, seat)
        if click.kind == PICK:
            return _read_select(click, controls, seat)
    except (ValueError, IndexError):
        return None
    return None


def _read_button(arg: str, controls: Controls, seat: int) -> Intent | None:
    parts = arg.split(".")
    if len(parts) not in (3, 4):
        return None
    index = int(parts[1])
    if index < 0:
        return None
    control = controls.controls[index]
    if isinstance(control, PickTiles) and len(parts) == 3 and parts[0] == control.action:
        return Answer(control.answer(seat, [int(p) for p in parts[2].split("-")]))
    choice = int(parts[2])
    if not isinstance(control, PickOne) or choice < 0:
        return None
    action = control.choices[choice].action
    if action.name != parts[0]:
        return None
    numbers = [int(n) for n in parts[3].split("-")] if len(parts) == 4 else []
    for part in controls.controls[:index]:
        # A part chosen before the answer fills it; without a choice it stays empty.
        if isinstance(part, PickNumbers):
            action = part.with_numbers(action, numbers)
    return Answer(action)


def _read_select(click: Click, controls: Controls, seat: int) -> Intent | None:
    name, _, rest = click.arg.partition(".")
    index = int(rest.split(".")[0])
    if index < 0:
        return None
    control = controls.controls[index]
    if chosen_name(control) != name:
        return None
    picked = [int(v) for v in click.values]
    if isinstance(control, PickOne):
        if len(picked) != 1 or picked[0] < 0:
            return None
        return Answer(control.choices[picked[0]].action)
    if isinstance(control, PickTiles):
        return Answer(control.answer(seat, picked))
    return Chosen(index, _numbers(control, picked))


def _numbers(part: PickNumbers, numbers: Sequence[int]) -> tuple[int, ...]:
    """``numbers`` as a part of the answer, checked as the answer will check them."""
    chosen = tuple(sorted(set(numbers)))
    if len(chosen) != len(numbers) or not part.least <= len(chosen) <= part.most:
        raise ValueError(f"{len(numbers)} numbers do not fit {part.key}")
    if any(n not in part.numbers for n in chosen):
        raise ValueError(f"numbers {chosen} are not among {part.numbers}")
    return chosen


def reaction_action(emoji: str, legal: Sequence[Action]) -> Action | None:
    """The claim a reaction stands for, when it names exactly one legal action."""
    name = _BY_BARE_EMOJI.get(emoji.replace(_VARIATION, ""))
    if name is None:
        return None
    matching = [a for a in legal if a.name == name]
    return matching[0] if len(matching) == 1 else None
