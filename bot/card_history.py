"""``/cards history``'s pages: room-card movements of a member in this server.

A history opens at its newest page; ◀ Newer and Older ▶ under it step through the rest
in the same private message. Like a replay's, the buttons carry everything in their
custom_id (``mj:cards:<owner>:<anchor>:<page>:newer|older``): the table field holds the
person whose history it is, the hand field the anchor (the pages count the movements
older than it, so the ones made since the history opened do not shift them; movements
are never changed or deleted), the sequence field the page shown (0 the newest). The
client routes the buttons here: they belong to no table.
"""

from __future__ import annotations

import discord

from bot.answers import in_time, update_clicked, whole_lines
from bot.errors import UserError
from bot.i18n import t
from bot.ids import CARDS_BUTTONS, MAX_ID, CustomId
from bot.services import Services
from bot.views.components import GameButton, view_of
from data.models import CardMovement
from data.sql_store import MAX_PAGE

#: Movements on a page: with notes cut to NOTE_SHOWN, fifteen of the longest lines (an
#: admin's grant of 10,000 with a note) and the heading take some 1,700 characters, so
#: :func:`whole_lines` never leaves one out and each page starts where the last ended.
HISTORY_LINES = 15
#: The most of an admin's note (up to 200 characters) a line of /cards history shows, so
#: that a page of movements fits one message.
NOTE_SHOWN = 60
NEWER, OLDER = "newer", "older"
(KIND,) = CARDS_BUTTONS


def shown_note(note: str) -> str:
    return note if len(note) <= NOTE_SHOWN else note[: NOTE_SHOWN - 1] + "…"


def movement_line(move: CardMovement, locale: str) -> str:
    table = t("cards.table", locale, table=move.table_id) if move.table_id else ""
    return t(
        "cards.line",
        locale,
        when=f"<t:{int(move.created_at.timestamp())}:d>",
        kind=t(f"cards.kind.{move.kind.value}", locale),
        delta=f"{move.delta:+d}",
        balance=move.balance_after,
        table=table,
        note=f" · {shown_note(move.note)}" if move.note else "",
    )


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("error.guild_only")
    return interaction.guild_id


async def history_page(
    services: Services, guild_id: int, user_id: int, anchor: int | None, page: int
) -> tuple[list[CardMovement], bool]:
    """Page ``page`` (0 the newest) of the member's movements older than ``anchor`` (all
    of them when None), newest first, and whether an older page follows."""
    store, before = services.store, anchor
    # The store pages by id only: the movements of the pages before this one are read
    # past, as many at a time as it gives.
    skip = page * HISTORY_LINES
    while skip > 0:
        wanted = min(skip, MAX_PAGE)
        passed = await store.card_history(guild_id, user_id, limit=wanted, before_id=before)
        if len(passed) < wanted:
            return [], False
        skip -= wanted
        before = passed[-1].id
    moves = await store.card_history(guild_id, user_id, limit=HISTORY_LINES + 1, before_id=before)
    return moves[:HISTORY_LINES], len(moves) > HISTORY_LINES


async def shown_page(
    services: Services,
    interaction: discord.Interaction,
    anchor: int | None,
    page: int,
) -> tuple[str, discord.ui.View | None]:
    """A page of the asker's history as the message shows it, with its buttons when
    there is more than one page; a page past the oldest movement is not there."""
    guild_id, owner = guild_of(interaction), interaction.user.id
    moves, older = await history_page(services, guild_id, owner, anchor, page)
    locale = await services.locale_of(interaction)
    if not moves:
        if anchor is None:
            return t("cards.none", locale), None
        # The buttons never lead past the oldest movement: a crafted click does.
        raise UserError("cards.no_page")
    lines = [t("cards.history_heading", locale)]
    lines += [movement_line(move, locale) for move in moves]
    if page == 0 and not older:
        return whole_lines(lines), None
    lines.append(t("cards.page", locale, page=page + 1))
    # The anchor stays the one the history opened with, whichever page is shown.
    anchor = moves[0].id + 1 if anchor is None else anchor
    buttons = [
        GameButton(
            CustomId(KIND, owner, anchor, page, NEWER),
            label=t("cards.newer", locale),
            disabled=page == 0,
        ),
        GameButton(
            CustomId(KIND, owner, anchor, page, OLDER),
            label=t("cards.older", locale),
            disabled=not older,
        ),
    ]
    return whole_lines(lines), view_of(*buttons)


async def turn_page(services: Services, interaction: discord.Interaction, cid: CustomId) -> None:
    """A click on ◀ Newer or Older ▶: the page beside the one shown, in the same message.
    Only the person whose history it is turns its pages (Discord shows the private
    message to nobody else, but a crafted click may name anyone's)."""
    if cid.table_id != interaction.user.id:
        raise UserError("cards.not_yours")
    step = {NEWER: -1, OLDER: 1}.get(cid.arg)
    # An anchor past the store's ids would overflow its queries: no button carries one.
    if step is None or cid.hand_no > MAX_ID or cid.prompt_seq + step < 0:
        raise UserError("cards.no_page")
    turned = shown_page(services, interaction, cid.hand_no, cid.prompt_seq + step)
    content, view = await in_time(interaction, turned)
    await update_clicked(interaction, content, None, view)
