"""The lobby message of a table: variant, options, price, seats, its buttons and the
choice of an AI player's level, in words (for screen readers and search) and as a
picture. The words name the players escaped (``player_name``), the picture and the
select's labels as they are (``plain_name``)."""

from __future__ import annotations

import discord

from bot import options
from bot.i18n import t
from bot.i18n.terms import plain_name, player_name, variant_name
from bot.ids import CustomId
from bot.pictures import labels
from bot.runtime.seats import LOBBY_LEVELS, level_of
from bot.views.components import GameButton, GameSelect, Item, view_of
from data.models import GuildConfig, Table, TableStatus
from renderer.models import ChairView, LobbyView, OptionLine

CHAIRS = 4
BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("options", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
    ("disband", discord.ButtonStyle.danger),
)


def options_text(table: Table, locale: str) -> str:
    """The options in force in words: the preset and what differs from it, the timers.
    Options are set apart more strongly than the members of a list value (广东's big-hu
    kinds), so that the list visibly ends where the next option begins."""
    lines = options.shown(table.variant.value, table.options, locale)
    return t("lobby.option_separator", locale).join(
        t("lobby.option_line", locale, name=line.name, value=line.value) for line in lines
    )


def seat_lines(table: Table, locale: str) -> list[str]:
    """Each chair in the lobby message's words."""
    by_chair = {seat.chair: seat for seat in table.seats}
    lines = []
    for chair in range(CHAIRS):
        seat = by_chair.get(chair)
        if seat is None:
            name = t("lobby.empty_seat", locale)
        else:
            name = player_name(seat.display_name, seat.is_ai, locale)
            if seat.is_ai:
                name = ai_seat_name(name, seat.ai_level, locale)
            elif seat.user_id == table.creator_id:
                name = t("lobby.creator_seat", locale, name=name)
        lines.append(t("lobby.seat", locale, chair=chair + 1, name=name))
    return lines


def ai_seat_name(name: str, stored_level: int | None, locale: str) -> str:
    """An AI seat with its level: ``AI 1 (normal)``, ``电脑1（普通）``."""
    level = t(f"lobby.ai_level.{level_of(stored_level)}", locale)
    return t("lobby.ai_seat", locale, name=name, level=level)


def _price(table: Table, config: GuildConfig, locale: str) -> str:
    """Room cards and who pays: the server's price until the table starts, then its own."""
    price = table.price if table.price is not None else config.price_for(table.rounds)
    payer = table.card_payer or config.card_payer
    return t(
        "lobby.price", locale, cards=price, payer=t(f"choice.card_payer.{payer.value}", locale)
    )


def _status(table: Table, locale: str) -> str:
    key = {
        TableStatus.LOBBY: "lobby.status.open",
        TableStatus.PLAYING: "lobby.status.playing",
        TableStatus.FINISHED: "lobby.status.finished",
        TableStatus.DISBANDED: "lobby.status.disbanded",
    }[table.status]
    return t(key, locale)


def content(table: Table, config: GuildConfig, locale: str) -> str:
    lines = [
        t(
            "lobby.title",
            locale,
            variant=variant_name(table.variant.value, locale),
            count=table.rounds,
            table=table.id,
        ),
        _price(table, config, locale),
        t("lobby.options", locale, options=options_text(table, locale)),
        *seat_lines(table, locale),
        _status(table, locale),
    ]
    return "\n".join(lines)


def picture(table: Table, config: GuildConfig, locale: str) -> LobbyView:
    """What the lobby picture shows: the same as :func:`content`, each option explained."""
    by_chair = {seat.chair: seat for seat in table.seats}
    chairs = []
    for chair in range(CHAIRS):
        seat = by_chair.get(chair)
        if seat is None:
            chairs.append(ChairView(t("lobby.empty_seat", locale), taken=False))
        else:
            host = seat.user_id == table.creator_id
            name = seat.display_name
            if seat.is_ai:
                level = t(f"lobby.ai_level.{level_of(seat.ai_level)}", locale)
                name = plain_name(name, True, locale)
                name = t("lobby.ai_chair", locale, name=name, level=level)
            chairs.append(ChairView(name, ai=seat.is_ai, host=host))
    variant = table.variant.value
    return LobbyView(
        title=t(
            "lobby.picture_title",
            locale,
            variant=variant_name(variant, locale),
            count=table.rounds,
            table=table.id,
        ),
        chairs=(chairs[0], chairs[1], chairs[2], chairs[3]),
        options=tuple(
            OptionLine(line.name, line.value, line.about)
            for line in options.shown(variant, table.options, locale)
        ),
        price=_price(table, config, locale),
        status=_status(table, locale),
        labels=labels(locale),
    )


def controls(table: Table, locale: str) -> discord.ui.View | None:
    if table.status is not TableStatus.LOBBY:
        return None
    items: list[Item] = [
        GameButton(CustomId(kind, table.id), label=t(f"lobby.button.{kind}", locale), style=style)
        for kind, style in BUTTONS
    ]
    levels = [
        discord.SelectOption(label=t(f"lobby.ai_level.{level}", locale), value=level)
        for level in LOBBY_LEVELS
    ]
    items.append(
        GameSelect(CustomId("addai", table.id), levels, placeholder=t("lobby.button.addai", locale))
    )
    ai_seats = [
        discord.SelectOption(
            label=t(
                "lobby.seat",
                locale,
                chair=seat.chair + 1,
                name=ai_seat_name(
                    plain_name(seat.display_name, True, locale), seat.ai_level, locale
                ),
            )[:100],
            value=str(seat.chair),
        )
        for seat in sorted(table.seats, key=lambda s: s.chair)
        if seat.is_ai
    ]
    if ai_seats:
        # A select, not a button per seat: it fits a phone's screen however many there are.
        items.append(
            GameSelect(
                CustomId("dropai", table.id),
                ai_seats,
                placeholder=t("lobby.button.dropai", locale),
            )
        )
    return view_of(*items)
