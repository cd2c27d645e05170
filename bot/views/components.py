"""The two persistent component types: every button and every select the bot sends.

Their state lives in the custom_id (:mod:`bot.ids`), so a click is understood after
a restart with nothing kept in memory. Both hand the click to the tables
(:class:`bot.services.ComponentRouter`); a component never decides anything itself.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ids import BUTTON_KINDS, SELECT_KINDS, CustomId, retired_template, template
from bot.services import services_of


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template(BUTTON_KINDS)):
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
            discord.ui.Button(
                custom_id=cid.encode(),
                label=label,
                emoji=emoji,
                style=style,
                disabled=disabled,
                row=row,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> GameButton:
        button = cls(CustomId.from_match(match), label=item.label, style=item.style)
        return button

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return services_of(interaction).first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await services_of(interaction).tables.on_component(interaction, self.cid, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=template(SELECT_KINDS)):
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
            discord.ui.Select(
                custom_id=cid.encode(),
                options=options,
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
    ) -> GameSelect:
        select = cls(
            CustomId.from_match(match),
            list(item.options),
            min_values=item.min_values,
            max_values=item.max_values,
        )
        return select

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return services_of(interaction).first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        await services_of(interaction).tables.on_component(interaction, self.cid, values)


class RetiredControl(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=retired_template(BUTTON_KINDS + SELECT_KINDS),
):
    """A control of a kind the bot no longer sends, on a message from before an update:
    the tables answer it like any stale control, instead of Discord's "This interaction
    failed"."""

    def __init__(self, item: discord.ui.Item[Any], cid: CustomId) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RetiredControl:
        return cls(item, CustomId.from_match(match))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return services_of(interaction).first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await services_of(interaction).tables.on_component(interaction, self.cid, [])


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view for sending; never stored, since every item is dynamic."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
