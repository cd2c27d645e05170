"""The two component types every button and select the bot sends are made of, and the
one place a click on any of them arrives.

Their state lives in the custom_id (:mod:`bot.ids`), so a click is understood after
a restart with nothing kept in memory. Every click goes to the tables
(:class:`bot.services.ComponentRouter`); a component never decides anything itself.

discord.py's own dispatch of persistent components (``DynamicItem``) rebuilds the whole
view of the clicked message, every button of it, before it looks at the one clicked: a
move cost a millisecond of the event loop that way. Here a click is read straight from
its custom_id (:func:`clicked`), and the views sent are never handed to discord.py's
view store (:func:`view_of`), which would otherwise keep every message's view forever.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ids import SELECT_KINDS, CustomId, CustomIdError


class GameButton(discord.ui.Button[Any]):
    def __init__(
        self,
        cid: CustomId,
        *,
        label: str | None = None,
        emoji: str | discord.PartialEmoji | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            custom_id=cid.encode(),
            label=label,
            emoji=emoji,
            style=style,
            disabled=disabled,
            row=row,
        )
        self.cid = cid


class GameSelect(discord.ui.Select[Any]):
    def __init__(
        self,
        cid: CustomId,
        options: list[discord.SelectOption],
        *,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            custom_id=cid.encode(),
            options=options,
            placeholder=placeholder,
            min_values=min_values,
            max_values=max_values,
            row=row,
        )
        self.cid = cid


def clicked(interaction: discord.Interaction[Any]) -> tuple[CustomId, list[str]] | None:
    """The control a component interaction clicked and the values chosen in it, or None
    for an interaction that is not a click on one of the bot's controls. A control of a
    kind the bot no longer sends (a message from before an update) is a click too: the
    tables answer it like any stale control, instead of Discord's "This interaction
    failed"."""
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return None
    custom_id = interaction.data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    try:
        cid = CustomId.decode(custom_id)
    except CustomIdError:
        return None
    values = interaction.data.get("values", []) if cid.kind in SELECT_KINDS else []
    return cid, [str(v) for v in values]


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view for sending. It is stopped before it is sent: discord.py then only writes
    its components and never stores it (a click arrives through :func:`clicked`)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
