"""Answering an interaction once, the way Discord documents it.

Discord wants a first answer within three seconds of sending the interaction. Work that
may take longer (store calls, a picture waiting its turn, a busy table) runs under
:func:`in_time`, which acknowledges the interaction when the work outlasts
:data:`ANSWER_WAIT`; the answer then completes or edits what the acknowledgement left.
A deferred "thinking" answer is completed by editing it (``edit_original_response``);
Discord keeps a follow-up in its place only for backwards compatibility. A private note
after another answer is a follow-up of its own. Names in an answer never mention anyone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar

import discord

_THINKING = discord.InteractionResponseType.deferred_channel_message
_QUIET = discord.AllowedMentions.none()
#: What Discord accepts in a message's content.
CONTENT_LIMIT = 2000
#: Seconds an interaction's work may take before the interaction is acknowledged: of
#: Discord's three, the way to the bot and the answer's own request take some.
ANSWER_WAIT = 1.5

T = TypeVar("T")


async def in_time(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    thinking: bool = False,
    private: bool = True,
) -> T:
    """``work``'s result; when it takes longer than :data:`ANSWER_WAIT`, the interaction
    is acknowledged meanwhile. A command then thinks, privately unless ``private`` is
    False (for an answer the channel sees); a click is deferred to update its message
    later or, with ``thinking``, thinks privately for an answer of its own."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WAIT)
    if not done:
        await interaction.response.defer(ephemeral=private, thinking=thinking)
    return await task


def clipped(text: str) -> str:
    """``text`` within Discord's limit on a message's content."""
    return text if len(text) <= CONTENT_LIMIT else text[: CONTENT_LIMIT - 1] + "…"


def whole_lines(lines: Sequence[str]) -> str:
    """The first of ``lines`` that fit Discord's limit on a message's content, each whole:
    a list cut mid-line by :func:`clipped` would show half an entry."""
    shown: list[str] = []
    size = -1  # the first line needs no line break before it
    for line in lines:
        size += 1 + len(line)
        if size > CONTENT_LIMIT:
            break
        shown.append(line)
    return "\n".join(shown)


def owes_words(interaction: discord.Interaction[Any]) -> bool:
    """Whether the person has not been told anything yet: the interaction is unanswered,
    or "thinking…" waits to be completed (a deferred update says nothing by itself)."""
    response = interaction.response
    return not response.is_done() or response.type is _THINKING


async def answer_privately(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> None:
    """A private answer, with ``view``'s controls when given: the first response if it is
    still open, the deferred one's completion, or a private follow-up."""
    text = clipped(text)
    # discord.py reads any view it is passed, None too: without one, none is passed.
    controls: dict[str, Any] = {} if view is None else {"view": view}
    if not interaction.response.is_done():
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=_QUIET, **controls
        )
    elif interaction.response.type is _THINKING:
        await interaction.edit_original_response(content=text, allowed_mentions=_QUIET, **controls)
    else:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=_QUIET, **controls)


async def finish(
    interaction: discord.Interaction[Any], text: str, file: discord.File | None = None
) -> None:
    """Complete a command deferred with ``thinking``: its answer, with a picture."""
    await interaction.edit_original_response(
        content=clipped(text),
        attachments=[file] if file is not None else [],
        allowed_mentions=_QUIET,
    )


async def answer_publicly(interaction: discord.Interaction[Any], text: str) -> None:
    """An answer the channel sees: the first response, or the completion of the thinking
    that acknowledged the command (:func:`in_time` with ``private=False``)."""
    text = clipped(text)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, allowed_mentions=_QUIET)
    else:
        await interaction.response.send_message(text, allowed_mentions=_QUIET)


async def answer_picture_privately(
    interaction: discord.Interaction[Any],
    text: str,
    file: discord.File,
    view: discord.ui.View | None = None,
) -> None:
    """A private answer with a picture: the first response, or the completion of the
    thinking that acknowledged the interaction (:func:`in_time` with ``thinking``)."""
    text = clipped(text)
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=text, attachments=[file], view=view, allowed_mentions=_QUIET
        )
    elif view is None:
        await interaction.response.send_message(
            text, file=file, ephemeral=True, allowed_mentions=_QUIET
        )
    else:
        await interaction.response.send_message(
            text, file=file, view=view, ephemeral=True, allowed_mentions=_QUIET
        )


async def update_clicked(
    interaction: discord.Interaction[Any],
    text: str,
    file: discord.File | None,
    view: discord.ui.View | None,
) -> None:
    """The clicked message shown anew, with a picture when given: the click's answer, or,
    after a deferral (:func:`in_time`), an edit of that message."""
    text = clipped(text)
    attachments = [file] if file is not None else []
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, attachments=attachments, view=view)
    else:
        await interaction.response.edit_message(content=text, attachments=attachments, view=view)
