"""Answering an interaction once, the way Discord documents it.

A deferred "thinking" answer is completed by editing it (``edit_original_response``);
Discord keeps a follow-up in its place only for backwards compatibility. A private note
after another answer is a follow-up of its own. Names in an answer never mention anyone.
"""

from __future__ import annotations

from typing import Any

import discord

_THINKING = discord.InteractionResponseType.deferred_channel_message
_QUIET = discord.AllowedMentions.none()
#: What Discord accepts in a message's content.
CONTENT_LIMIT = 2000


def clipped(text: str) -> str:
    """``text`` within Discord's limit on a message's content."""
    return text if len(text) <= CONTENT_LIMIT else text[: CONTENT_LIMIT - 1] + "…"


def owes_words(interaction: discord.Interaction[Any]) -> bool:
    """Whether the person has not been told anything yet: the interaction is unanswered,
    or "thinking…" waits to be completed (a deferred update says nothing by itself)."""
    response = interaction.response
    return not response.is_done() or response.type is _THINKING


async def answer_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """A private answer: the first response if it is still open, the deferred one's
    completion, or a private follow-up."""
    text = clipped(text)
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=_QUIET)
    elif interaction.response.type is _THINKING:
        await interaction.edit_original_response(content=text, allowed_mentions=_QUIET)
    else:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=_QUIET)


async def finish(
    interaction: discord.Interaction[Any], text: str, file: discord.File | None = None
) -> None:
    """Complete a command deferred with ``thinking``: its answer, with a picture."""
    await interaction.edit_original_response(
        content=clipped(text),
        attachments=[file] if file is not None else [],
        allowed_mentions=_QUIET,
    )
