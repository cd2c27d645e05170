"""Stepping through a finished hand of a server, from any seat's view (``/replay``).

A hand opens by its short code (shown under its settlement) or its number: in its own
server for anyone there, and in DMs for the players who sat at it. Beside the step
buttons, jumps land on the viewer's next move, the next claim and the win (each lands
just after that action, so its line is the one narrated), and a button sends the hand's
round script as JSON.

The controls carry everything in their custom_id: for a replay the id's table field holds
the round, the hand field the seat whose view is shown, and the sequence field the step.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.answers import answer_picture_privately, in_time, update_clicked
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.terms import plain_names, player_names, variant_name
from bot.ids import CustomId
from bot.pictures import as_file, table_png
from bot.services import Services
from bot.tables.narration import Narrator
from bot.tables.scene import SeatText, table_view
from bot.views.components import GameButton, GameSelect, Item, view_of
from data.errors import NotFoundError, StateError
from data.models import RoundRecord
from engine.actions import Action
from engine.events import Claimed, Event, Konged, Won
from engine.round import Round
from engine.view import View

NAV = (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭"))
#: Jumps, beside the step buttons: the viewer's next move, the next claim, the win.
JUMPS = ("mine", "claim", "win")
SCRIPT = "json"

NAV_ARGS = frozenset(arg for arg, _ in NAV) | frozenset(JUMPS) | {SCRIPT}


@dataclass
class Marks:
    """What each action of a hand was: whose move (passes aside), a claim of a discard
    (a chow, pong or kong of it, a win on it or robbing a kong), a win."""

    moves: list[int | None] = field(default_factory=list)
    claims: list[bool] = field(default_factory=list)
    wins: list[bool] = field(default_factory=list)

    def add(self, raw: dict[str, Any], events: list[Event]) -> None:
        self.moves.append(None if raw.get("action") == "pass" else raw.get("seat"))
        self.claims.append(any(_is_claim(event) for event in events))
        self.wins.append(any(isinstance(event, Won) for event in events))

    def jump(self, arg: str, seat: int, step: int) -> int | None:
        """The step a jump lands on from ``step``: just after the first such action at or
        after it; None when there is none."""
        hits = {
            "mine": [move == seat for move in self.moves],
            "claim": self.claims,
            "win": self.wins,
        }[arg]
        return next((index + 1 for index in range(step, len(hits)) if hits[index]), None)


def _is_claim(event: Event) -> bool:
    if isinstance(event, Claimed):
        return True
    if isinstance(event, Konged):
        return event.kong == "exposed"
    return isinstance(event, Won) and event.from_seat is not None


def _seat(values: list[str]) -> int:
    """The seat a replay's select chose."""
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if len(values) != 1 or not values[0].isdecimal():
        raise UserError("click.expired")
    return int(values[0])


def nav_target(arg: str, step: int, last: int) -> int:
    return {"first": 0, "prev": max(0, step - 1), "next": min(last, step + 1), "last": last}[arg]


async def show(services: Services, interaction: discord.Interaction, round_id: int) -> None:
    """Open a replay privately at its first step, from the asker's seat if they played."""
    await open_record(services, interaction, await find_record(services, interaction, round_id))


async def show_code(services: Services, interaction: discord.Interaction, code: str) -> None:
    """Open the hand of a replay code, as :func:`show` does."""
    record = await services.store.round_by_code(code)
    if record is None or not may_see(record, interaction):
        raise UserError("replay.unknown_code", code=code.strip()[:12])
    await open_record(services, interaction, record)


async def open_record(
    services: Services, interaction: discord.Interaction, record: RoundRecord
) -> None:
    player = next((p for p in record.players if p.user_id == interaction.user.id), None)
    seat = player.seat if player is not None else 0
    drawn = frame(services, interaction, record, seat, 0)
    content, png, view = await in_time(interaction, drawn, thinking=True)
    await answer_picture_privately(interaction, content, as_file(png, "replay.png"), view)


async def navigate(
    services: Services, interaction: discord.Interaction, cid: CustomId, values: list[str]
) -> None:
    """A step button or the seat select of a replay."""
    if cid.kind != "seat" and cid.arg == SCRIPT:
        record = await find_record(services, interaction, cid.table_id)
        await send_script(interaction, record, await services.store.round_script(record.info.id))
        return
    stepped = _stepped(services, interaction, cid, values)
    content, png, view = await in_time(interaction, stepped)
    await update_clicked(interaction, content, as_file(png, "replay.png"), view)


async def _stepped(
    services: Services, interaction: discord.Interaction, cid: CustomId, values: list[str]
) -> tuple[str, bytes, discord.ui.View]:
    """The frame a step button, a jump or the seat select asks for."""
    record = await find_record(services, interaction, cid.table_id)
    script = await services.store.round_script(record.info.id)
    last = len(script["actions"])
    if cid.kind == "seat":
        seat, step = _seat(values), cid.prompt_seq
    else:
        if cid.arg not in NAV_ARGS:
            raise UserError("click.expired")
        seat, step = cid.hand_no, cid.prompt_seq
        if cid.arg in JUMPS:
            marks = replayed(record, script).marks
            target = marks.jump(cid.arg, seat, step) if 0 <= seat < 4 else None
            if target is None:
                raise UserError("click.expired")
            step = target
        else:
            step = nav_target(cid.arg, step, last)
    if not 0 <= seat < 4 or step > last:
        # A value never offered: a forged control or a select from an old message.
        raise UserError("click.expired")
    return await frame(services, interaction, record, seat, step)


async def send_script(
    interaction: discord.Interaction, record: RoundRecord, script: dict[str, Any]
) -> None:
    """The hand's round script (Contract 2) as a JSON attachment, privately."""
    body = json.dumps(script, ensure_ascii=False, indent=1).encode("utf-8")
    name = f"round-{record.info.id}.json"
    await interaction.response.send_message(
        file=discord.File(io.BytesIO(body), filename=name), ephemeral=True
    )


def may_see(record: RoundRecord, interaction: discord.Interaction) -> bool:
    """A hand is seen in its own server, and in DMs by those who played it."""
    if interaction.guild_id is not None:
        return record.guild_id == interaction.guild_id
    return any(player.user_id == interaction.user.id for player in record.players)


async def find_record(
    services: Services, interaction: discord.Interaction, round_id: int
) -> RoundRecord:
    """A finished round the asker may see (:func:`may_see`)."""
    try:
        record = await services.store.round_record(round_id)
    except (NotFoundError, StateError):
        raise UserError("replay.unknown", round=round_id) from None
    if not may_see(record, interaction):
        raise UserError("replay.unknown", round=round_id)
    return record


@dataclass
class Replayed:
    """A hand played through to its end, every action marked, and what the frame at
    ``step`` shows: the view of ``seat`` then, the nets, the last action's events."""

    marks: Marks
    steps: int
    view: View
    nets: list[int]
    told: list[Event]


def replayed(record: RoundRecord, script: dict[str, Any], seat: int = 0, step: int = 0) -> Replayed:
    actions: list[dict[str, Any]] = script.pop("actions")
    # With its seed, the hand draws again the chance values its setup does not fix.
    hand = Round.from_script(script, seed=record.info.seed, hand_number=record.info.hand_number)
    marks = Marks()
    view, nets, told = hand.view(seat), hand.ledger.nets(), []
    for index, raw in enumerate(actions):
        before = len(hand.events)
        marks.add(raw, hand.apply(Action.from_json(raw)))
        if index + 1 == step:
            view, nets, told = hand.view(seat), hand.ledger.nets(), hand.events_for(seat, before)
    return Replayed(marks, len(actions), view, list(nets), told)


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
    played = replayed(record, script, seat, step)
    players = [next(p for p in record.players if p.seat == s) for s in range(4)]
    stored = [p.display_name for p in players]
    ai = [p.user_id is None for p in players]
    # The words name the players escaped; the picture and the seat select as they are.
    names = player_names(stored, ai, locale)
    plain = plain_names(stored, ai, locale)
    narrator = Narrator(record.variant.value, names, locale)
    lines = narrator.lines(played.told) if step else []
    title = t(
        "replay.title",
        locale,
        round=record.info.id,
        variant=variant_name(record.variant.value, locale),
        hand=record.info.hand_number,
    )
    seats = [SeatText(plain[s], played.nets[s]) for s in range(4)]
    png = await table_png(table_view(played.view, seats, locale, title, bottom=seat))
    code = await services.store.replay_code(record.info.id)
    content = "\n".join(
        [
            f"**{title}**",
            t("replay.step", locale, step=step, steps=played.steps, name=names[seat]),
            *([t("replay.code", locale, code=code)] if code else []),
            t("log.separator", locale).join(lines),
        ]
    )
    return content, png, controls(record, plain, locale, played, seat, step)


def controls(
    record: RoundRecord,
    names: tuple[str, ...],
    locale: str,
    played: Replayed,
    seat: int,
    step: int,
) -> discord.ui.View:
    round_id, last = record.info.id, played.steps
    buttons: list[Item] = [
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
    jumps = [
        GameButton(
            CustomId("replay", round_id, seat, step, arg),
            label=t(f"replay.jump.{arg}", locale),
            disabled=played.marks.jump(arg, seat, step) is None,
            row=2,
        )
        for arg in JUMPS
    ]
    script = GameButton(
        CustomId("replay", round_id, seat, step, SCRIPT),
        label=t("replay.script", locale),
        emoji="📄",
        row=2,
    )
    return view_of(*buttons, select, *jumps, script)
