"""The lobby message of a table: variant, options, price, seats, and its six buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.i18n.terms import variant_name
from bot.variants import format_value
from bot.views.components import GameButton, view_of
from bot.views.ids import CustomId
from data.models import GuildConfig, Table, TableStatus

CHAIRS = 4
BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("addai", discord.ButtonStyle.secondary),
    ("options", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
    ("disband", discord.ButtonStyle.danger),
)


def options_text(options: dict[str, Any]) -> str:
    return " ".join(f"`{name}={format_value(value)}`" for name, value in options.items())


def seat_lines(table: Table, locale: str) -> list[str]:
    by_chair = {seat.chair: seat for seat in table.seats}
    lines = []
    for chair in range(CHAIRS):
        seat = by_chair.get(chair)
        if seat is None:
            name = t("lobby.empty_seat", locale)
        elif seat.is_ai:
            name = t("lobby.ai_seat", locale, name=seat.display_name)
        elif seat.user_id == table.creator_id:
            name = t("lobby.creator_seat", locale, name=seat.display_name)
        else:
            name = seat.display_name
        lines.append(t("lobby.seat", locale, chair=chair + 1, name=name))
    return lines


def content(table: Table, config: GuildConfig, locale: str) -> str:
    price = table.price if table.price is not None else config.price_for(table.rounds)
    payer = table.card_payer or config.card_payer
    status = {
        TableStatus.LOBBY: "lobby.status.open",
        TableStatus.PLAYING: "lobby.status.playing",
        TableStatus.FINISHED: "lobby.status.finished",
        TableStatus.DISBANDED: "lobby.status.disbanded",
    }[table.status]
    lines = [
        t(
            "lobby.title",
            locale,
            variant=variant_name(table.variant.value, locale),
            rounds=table.rounds,
            table=table.id,
        ),
        t(
            "lobby.price",
            locale,
            cards=price,
            payer=t(f"choice.card_payer.{payer.value}", locale),
        ),
        t("lobby.options", locale, options=options_text(table.options)),
        *seat_lines(table, locale),
        t(status, locale),
    ]
    return "\n".join(lines)


def controls(table: Table, locale: str) -> discord.ui.View | None:
    if table.status is not TableStatus.LOBBY:
        return None
    buttons = [
        GameButton(CustomId(kind, table.id), label=t(f"lobby.button.{kind}", locale), style=style)
        for kind, style in BUTTONS
    ]
    return view_of(*buttons)
