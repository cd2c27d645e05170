"""The host's options panel: select menus for a lobby's options, in the host's words.

It is a private message of the lobby's Options button. One select picks a setting with
a few values (a preset, the hands, the 番 cap, a timer …), and a second then offers its
values; one select turns the rules that are on or off on and off together; a list option
(dice modes, big-hu kinds) has a select of its own; a button opens the text form for
anything else (a stake of 37). Each choice is stored at once and the panel redrawn.
"""

from __future__ import annotations

import json
from typing import Any

import discord

from bot import options
from bot.errors import UserError
from bot.i18n import t
from bot.ids import CustomId
from bot.views.components import GameButton, GameSelect, Item, view_of
from data.models import Table

PICK = "opt"
VALUE = "optv"
FLAGS = "optf"
MEMBERS = "opts"
TEXT = "opttext"
KINDS = (PICK, VALUE, FLAGS, MEMBERS, TEXT)
#: Discord shows at most this many characters of a select option's label.
LABEL_LIMIT = 100


def encode(value: Any) -> str:
    """A value as a select option's value (JSON, read back by :func:`decode`)."""
    return json.dumps(value, ensure_ascii=False)


def decode(raw: str) -> Any:
    """A value the panel offered, as it wrote it; anything else is a control it never
    showed (a forged or mangled click), answered as an expired one."""
    try:
        return json.loads(raw)
    except ValueError:
        raise UserError("click.expired") from None


def panel(table: Table, locale: str, picked: str | None = None) -> tuple[str, discord.ui.View]:
    """The panel's words and controls, with the setting ``picked`` open for a value."""
    variant = table.variant.value
    rows = options.rows(variant)
    current = table.options
    items: list[Item] = []
    pickable = [o for o in rows if options.choices(o)]
    if pickable:
        items.append(
            GameSelect(
                CustomId(PICK, table.id),
                [
                    discord.SelectOption(
                        label=_label(variant, o.name, current.get(o.name, o.default), locale),
                        value=o.name,
                        default=o.name == picked,
                    )
                    for o in pickable[: options.MOST_VALUES]
                ],
                placeholder=t("lobby.options_pick", locale),
            )
        )
    chosen = options.row(variant, picked) if picked else None
    if chosen is not None and options.choices(chosen):
        now = current.get(chosen.name, chosen.default)
        name = options.option_name(variant, chosen.name, locale)
        items.append(
            GameSelect(
                CustomId(VALUE, table.id, arg=chosen.name),
                [
                    discord.SelectOption(
                        label=options.value_text(variant, chosen.name, v, locale)[:LABEL_LIMIT],
                        value=encode(v),
                        default=v == now,
                    )
                    for v in options.choices(chosen)
                ],
                placeholder=t("lobby.options_value", locale, name=name)[:150],
            )
        )
    flags = [o for o in rows if options.is_flag(o)][: options.MOST_VALUES]
    if flags:
        items.append(
            GameSelect(
                CustomId(FLAGS, table.id),
                [
                    discord.SelectOption(
                        label=options.option_name(variant, o.name, locale)[:LABEL_LIMIT],
                        value=o.name,
                        default=bool(current.get(o.name, o.default)),
                    )
                    for o in flags
                ],
                placeholder=t("lobby.options_flags", locale),
                min_values=0,
                max_values=len(flags),
            )
        )
    for listed in (o for o in rows if options.members(o)):
        if len(items) >= 4:
            break
        on = set(current.get(listed.name, listed.default))
        name = options.option_name(variant, listed.name, locale)
        values = options.members(listed)[: options.MOST_VALUES]
        items.append(
            GameSelect(
                CustomId(MEMBERS, table.id, arg=listed.name),
                [
                    discord.SelectOption(
                        label=options.value_text(variant, listed.name, [m], locale)[:LABEL_LIMIT],
                        value=m,
                        default=m in on,
                    )
                    for m in values
                ],
                placeholder=t("lobby.options_members", locale, name=name)[:150],
                min_values=0,
                max_values=len(values),
            )
        )
    items.append(GameButton(CustomId(TEXT, table.id), label=t("lobby.button.options_text", locale)))
    return t("lobby.options_panel", locale), view_of(*items)


def _label(variant: str, name: str, value: Any, locale: str) -> str:
    line = t(
        "lobby.option_line",
        locale,
        name=options.option_name(variant, name, locale),
        value=options.value_text(variant, name, value, locale),
    )
    return line[:LABEL_LIMIT]


def changes(
    table: Table, kind: str, arg: str, values: list[str]
) -> tuple[dict[str, Any], str | None]:
    """What a click on the panel changes, and the setting it leaves open."""
    variant = table.variant.value
    if kind == PICK:
        return {}, values[0] if values else None
    if kind == VALUE:
        if len(values) != 1:
            raise UserError("click.expired")
        return {arg: decode(values[0])}, arg
    if kind == FLAGS:
        on = set(values)
        return {o.name: o.name in on for o in options.rows(variant) if options.is_flag(o)}, None
    listed = options.row(variant, arg)
    order = options.members(listed) if listed is not None else ()
    return {arg: [m for m in order if m in set(values)]}, None
