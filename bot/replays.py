"""Stepping through a finished hand of a server, from any seat's view (``/replay``).

The controls carry everything in their custom_id: for a replay the id's table field holds
the round, the hand field the seat whose view is shown, and the sequence field the step.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError
from bot.i18n import t
from bot.i18n.terms import player_name, variant_name
from bot.ids import CustomId
from bot.pictures import as_file, table_png
from bot.services import Services
from bot.tables.narration import Narrator
from bot.tables.scene import SeatText, table_view
from bot.views.components import GameButton, GameSelect, view_of
from data.errors import NotFoundError, StateError
from data.models import RoundRecord
from engine.actions import Action
from engine.round import Round

NAV = (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭"))


NAV_ARGS = frozenset(arg for arg, _ in NAV)


def _seat(values: list[str]) -> int:
    """The seat a replay's select chose."""
    if len(values) != 1 or not values[0].isdigit():
        raise UserError("click.expired")
    return int(values[0])


def nav_target(arg: str, step: int, last: int) -> int:
    return {"first": 0, "prev": max(0, step - 1), "next": min(last, step + 1), "last": last}[arg]


async def show(services: Services, interaction: discord.Interaction, round_id: int) -> None:
    """Open a replay privately at its first step, from the asker's seat if they played."""
    record = await find_record(services, interaction, round_id)
    player = next((p for p in record.players if p.user_id == interaction.user.id), None)
    seat = player.seat if player is not None else 0
    content, png, view = await frame(services, interaction, record, seat, 0)
    await interaction.response.send_message(
        content, file=as_file(png, "replay.png"), view=view, ephemeral=True
    )


async def navigate(
    services: Services, interaction: discord.Interaction, cid: CustomId, values: list[str]
) -> None:
    """A step button or the seat select of a replay."""
    record = await find_record(services, interaction, cid.table_id)
    script = await services.store.round_script(record.info.id)
    last = len(script["actions"])
    if cid.kind == "seat":
        seat, step = _seat(values), cid.prompt_seq
    else:
        if cid.arg not in NAV_ARGS:
            raise UserError("click.expired")
        seat, step = cid.hand_no, nav_target(cid.arg, cid.prompt_seq, last)
    if not 0 <= seat < 4 or step > last:
        # A value never offered: a forged control or a select from an old message.
        raise UserError("click.expired")
    content, png, view = await frame(services, interaction, record, seat, step)
    await interaction.response.edit_message(
        content=content, attachments=[as_file(png, "replay.png")], view=view
    )


async def find_record(
    services: Services, interaction: discord.Interaction, round_id: int
) -> RoundRecord:
    """A finished round of the server the asker is in."""
    try:
        record = await services.store.round_record(round_id)
    except (NotFoundError, StateError):
        raise UserError("replay.unknown", round=round_id) from None
    if interaction.guild_id is None or record.guild_id != interaction.guild_id:
        raise UserError("replay.unknown", round=round_id)
    return record


async def frame(
    services: Services,
    interaction: discord.Interaction,
    record: RoundRecord,
    seat: int,
    step: int,
) -> tuple[str, bytes, discord.ui.View]:
    """The hand after ``step`` actions, as ``seat`` saw it."""
    locale = await services.locale_of(interaction)
    script = await services.store.round_script(record.info.id)
    actions: list[dict[str, Any]] = script.pop("actions")
    # With its seed, the hand draws again the chance values its setup does not fix.
    hand = Round.from_script(script, seed=record.info.seed, hand_number=record.info.hand_number)
    before = len(hand.events)
    for raw in actions[:step]:
        before = len(hand.events)
        hand.apply(Action.from_json(raw))
    players = [next(p for p in record.players if p.seat == s) for s in range(4)]
    names = tuple(player_name(p.display_name, p.user_id is None, locale) for p in players)
    narrator = Narrator(record.variant.value, names, locale)
    lines = narrator.lines(hand.events_for(seat, before)) if step else []
    title = t(
        "replay.title",
        locale,
        round=record.info.id,
        variant=variant_name(record.variant.value, locale),
        hand=record.info.hand_number,
    )
    seats = [SeatText(names[s], hand.ledger.nets()[s]) for s in range(4)]
    png = await table_png(table_view(hand.view(seat), seats, locale, title, bottom=seat))
    content = "\n".join(
        [
            f"**{title}**",
            t("replay.step", locale, step=step, steps=len(actions), name=names[seat]),
            t("log.separator", locale).join(lines),
        ]
    )
    return content, png, controls(record, names, seat, step, len(actions))


def controls(
    record: RoundRecord, names: tuple[str, ...], seat: int, step: int, last: int
) -> discord.ui.View:
    round_id = record.info.id
    buttons: list[discord.ui.Item[Any]] = [
        GameButton(
            CustomId("replay", round_id, seat, step, arg),
            emoji=emoji,
            disabled=(arg in ("first", "prev") and step == 0)
            or (arg in ("next", "last") and step == last),
        )
        for arg, emoji in NAV
    ]
    options = [
        discord.SelectOption(label=names[s], value=str(s), default=s == seat) for s in range(4)
    ]
    select = GameSelect(CustomId("seat", round_id, 0, step), options, row=1)
    return view_of(*buttons, select)
