"""The two component types every button and select the bot sends are made of, how they
are laid out in Discord's rows, and the one place a click on any of them arrives.

Their state lives in the custom_id (:mod:`bot.ids`), so a click is understood after
a restart with nothing kept in memory. Every click goes to the tables
(:class:`bot.services.ComponentRouter`); a component never decides anything itself.

A button or a select here is plain data that writes itself as the JSON Discord reads
(:func:`action_rows`), not a ``discord.ui`` item: a prompt's controls are built for every
move, and discord.py's items (each with its own underlying component, view weights and
callback plumbing) cost several times as much to build and write. Messages sent through
discord.py carry them in a :func:`view_of`, a view that only writes these rows: it has no
items for discord.py to dispatch, so discord.py never stores it (a click arrives through
:func:`clicked`). discord.py's own dispatch of persistent components (``DynamicItem``)
would also rebuild the whole view of the clicked message before looking at the one
clicked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import discord

from bot.ids import SELECT_KINDS, CustomId, CustomIdError

#: Discord's layout: five action rows of at most five buttons, or one select each.
ROWS = 5
ROW_WIDTH = 5

Component = dict[str, Any]


@dataclass(slots=True, eq=False)
class GameButton:
    cid: CustomId
    _: KW_ONLY
    label: str | None = None
    emoji: str | discord.PartialEmoji | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    #: The action row it goes on (0-4), or None for the first with room.
    row: int | None = None
    custom_id: str = field(init=False)

    #: How much of a row it takes.
    width = 1

    def __post_init__(self) -> None:
        self.custom_id = self.cid.encode()

    def to_dict(self) -> Component:
        out: Component = {
            "type": 2,
            "style": self.style.value,
            "custom_id": self.custom_id,
            "disabled": self.disabled,
        }
        if self.label:
            out["label"] = self.label
        if self.emoji:
            emoji = self.emoji
            if isinstance(emoji, str):
                emoji = discord.PartialEmoji.from_str(emoji)
            out["emoji"] = emoji.to_dict()
        return out


@dataclass(slots=True, eq=False)
class GameSelect:
    cid: CustomId
    options: list[discord.SelectOption]
    _: KW_ONLY
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1
    row: int | None = None
    custom_id: str = field(init=False)

    width = ROW_WIDTH

    def __post_init__(self) -> None:
        self.custom_id = self.cid.encode()

    def to_dict(self) -> Component:
        out: Component = {
            "type": 3,
            "custom_id": self.custom_id,
            "min_values": self.min_values,
            "max_values": self.max_values,
            "disabled": False,
            "options": [option.to_dict() for option in self.options],
        }
        if self.placeholder:
            out["placeholder"] = self.placeholder
        return out


Item = GameButton | GameSelect


class LayoutError(ValueError):
    """Controls that do not fit Discord's rows (Discord refuses the message)."""


def action_rows(items: Sequence[Item]) -> list[Component]:
    """The items in Discord's action rows: each on its own ``row``, or on the first row
    with room when it has none, in the order given within a row (discord.py's layout).
    Raises :class:`LayoutError` when they do not fit, or when two share a custom_id."""
    if len({item.custom_id for item in items}) != len(items):
        raise LayoutError("Discord refuses a message with a custom_id twice")
    weights = [0] * ROWS
    rows: list[list[Component]] = [[] for _ in range(ROWS)]
    for item in items:
        row = item.row
        if row is None:
            row = next((r for r, w in enumerate(weights) if w + item.width <= ROW_WIDTH), None)
            if row is None:
                raise LayoutError(f"no row left for {item.custom_id}")
        elif not 0 <= row < ROWS or weights[row] + item.width > ROW_WIDTH:
            raise LayoutError(f"row {row} has no room for {item.custom_id}")
        weights[row] += item.width
        rows[row].append(item.to_dict())
    return [{"type": 1, "components": row} for row in rows if row]


class _Rows(discord.ui.View):
    """A view for discord.py's sends that writes given action rows and nothing else."""

    def __init__(self, rows: Sequence[Mapping[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = [dict(row) for row in rows]

    def is_finished(self) -> bool:
        # Finished before it is sent: discord.py then never stores it.
        return True

    def to_components(self) -> list[dict[str, Any]]:
        return list(self._rows)


def view_of(*items: Item) -> discord.ui.View:
    """The items as a view for discord.py's sends."""
    return rows_view(action_rows(items))


def rows_view(rows: Sequence[Mapping[str, Any]]) -> discord.ui.View:
    """Action rows already written, as a view for discord.py's sends."""
    return _Rows(rows)


def _custom_id(
    interaction: discord.Interaction[Any], kind: discord.InteractionType
) -> CustomId | None:
    """The custom_id of the bot's scheme an interaction of ``kind`` names, or None."""
    if interaction.type is not kind or interaction.data is None:
        return None
    custom_id = interaction.data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    try:
        return CustomId.decode(custom_id)
    except CustomIdError:
        return None


def submitted(interaction: discord.Interaction[Any]) -> tuple[CustomId, list[str]] | None:
    """The form (modal) an interaction submitted and the text of its fields in the form's
    order, as a select's values are; None for an interaction that is not a form of the
    bot's."""
    cid = _custom_id(interaction, discord.InteractionType.modal_submit)
    if cid is None or interaction.data is None:
        return None
    return cid, _field_values(interaction.data.get("components"))


def _field_values(items: Any) -> list[str]:
    """The values of the text fields among ``items``, in order: fields sit in action rows,
    or under a label (its ``component``)."""
    values: list[str] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("value"), str):
            values.append(item["value"])
        values += _field_values(item.get("components"))
        values += _field_values([item["component"]] if "component" in item else None)
    return values


def is_component(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is a click or a choice on a message's components."""
    return interaction.type is discord.InteractionType.component


def clicked(interaction: discord.Interaction[Any]) -> tuple[CustomId, list[str]] | None:
    """The control a component interaction clicked and the values chosen in it, or None
    for an interaction that is not a click on one of the bot's controls. A control of a
    kind the bot no longer sends (a message from before an update) is a click too: the
    tables answer it like any stale control, instead of Discord's "This interaction
    failed"."""
    cid = _custom_id(interaction, discord.InteractionType.component)
    if cid is None or interaction.data is None:
        return None
    values = interaction.data.get("values") if cid.kind in SELECT_KINDS else None
    return cid, [str(v) for v in values] if isinstance(values, list) else []
