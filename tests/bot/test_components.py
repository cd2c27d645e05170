"""The bot's buttons and selects write what discord.py's own items would, and are laid
out in Discord's rows as discord.py lays out a view."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ids import CustomId
from bot.views.components import (
    GameButton,
    GameSelect,
    Item,
    LayoutError,
    action_rows,
    rows_view,
    view_of,
)


def cid(n: int) -> CustomId:
    return CustomId("act", 7, 1, 2, str(n))


def ui_item(item: Item) -> discord.ui.Item[Any]:
    """The same control as a discord.py item."""
    if isinstance(item, GameButton):
        return discord.ui.Button(
            custom_id=item.custom_id,
            label=item.label,
            emoji=item.emoji,
            style=item.style,
            disabled=item.disabled,
            row=item.row,
        )
    return discord.ui.Select(
        custom_id=item.custom_id,
        options=item.options,
        placeholder=item.placeholder,
        min_values=item.min_values,
        max_values=item.max_values,
        row=item.row,
    )


def discord_rows(items: list[Item]) -> list[dict[str, Any]]:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(ui_item(item))
    rows = view.to_components()
    for row in rows:
        for component in row["components"]:
            # discord.py 2.7 writes a select's ``required``, which only a modal reads.
            component.pop("required", None)
    return rows


EMOJI = discord.PartialEmoji(name="m1", id=123456789012345678)


def test_a_button_and_a_select_write_what_discord_py_writes() -> None:
    items: list[Item] = [
        GameButton(cid(0), label="碰", style=discord.ButtonStyle.primary),
        GameButton(cid(1), emoji=EMOJI, style=discord.ButtonStyle.success),
        GameButton(cid(2), label="📄 Script", emoji="📄", disabled=True),
        GameSelect(
            cid(3),
            [
                discord.SelectOption(label="东", value="0", default=True),
                discord.SelectOption(label="南", value="1", emoji=EMOJI),
            ],
            placeholder="Choose",
            min_values=1,
            max_values=2,
        ),
    ]
    assert action_rows(items) == discord_rows(items)


buttons = st.builds(
    lambda row: ("button", row), st.one_of(st.none(), st.integers(min_value=0, max_value=4))
)
selects = st.builds(
    lambda row: ("select", row), st.one_of(st.none(), st.integers(min_value=0, max_value=4))
)


@given(st.lists(st.one_of(buttons, selects), max_size=12))
def test_rows_are_laid_out_and_refused_as_discord_py_does(specs: list[tuple[str, int]]) -> None:
    items: list[Item] = [
        GameButton(cid(n), label=str(n), row=row)
        if kind == "button"
        else GameSelect(cid(n), [discord.SelectOption(label="a", value="a")], row=row)
        for n, (kind, row) in enumerate(specs)
    ]
    try:
        expected = discord_rows(items)
    except ValueError:
        with pytest.raises(LayoutError):
            action_rows(items)
        return
    assert action_rows(items) == expected


def test_a_custom_id_twice_is_refused() -> None:
    with pytest.raises(LayoutError):
        action_rows([GameButton(cid(0), label="a"), GameButton(cid(0), label="b")])


def test_a_view_for_discord_py_writes_the_rows_and_is_never_stored() -> None:
    items: list[Item] = [GameButton(cid(0), label="a"), GameButton(cid(1), label="b", row=1)]
    view = view_of(*items)
    assert view.to_components() == action_rows(items)
    assert rows_view(action_rows(items)).to_components() == action_rows(items)
    # discord.py stores a view for dispatch only when it is unfinished and dispatchable.
    assert view.is_finished() and not view.is_dispatchable()
