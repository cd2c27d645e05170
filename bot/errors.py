"""Refusals players read, and the one error handler of the command tree.

Commands and controls raise :class:`UserError` with a catalog key; the handler answers
it privately in the reader's language. Anything else is logged with its context and
answered with a short apology, never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.answers import answer_privately
from bot.i18n import t
from bot.option_checks import QUOTED, BadOption
from bot.services import services_of
from data.errors import StoreUnavailableError

log = logging.getLogger(__name__)


class UserError(Exception):
    """A refusal with a catalog key and the values its text names."""

    def __init__(self, key: str, /, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def _key_for(error: app_commands.AppCommandError) -> tuple[str, dict[str, object]] | None:
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        return original.key, dict(original.values)
    if isinstance(original, StoreUnavailableError):
        return "error.store_busy", {}
    if isinstance(error, app_commands.NoPrivateMessage):
        return "error.guild_only", {}
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return "error.permission", {}
    if isinstance(error, app_commands.CommandOnCooldown):
        return "error.cooldown", {"count": round(error.retry_after)}
    if isinstance(error, app_commands.TransformerError):
        return "error.bad_value", {"value": str(error.value)[:QUOTED]}
    if isinstance(error, BadOption):
        return "error.bad_value", {"value": error.shown}
    return None


async def on_app_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    known = _key_for(error)
    locale = await services_of(interaction).locale_of(interaction)
    if known is None:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error(
            "command /%s failed for user %s in guild %s",
            command,
            interaction.user.id,
            interaction.guild_id,
            exc_info=getattr(error, "original", error),
        )
        known = ("error.internal", {})
    key, values = known
    try:
        await answer_privately(interaction, t(key, locale, **values))
    except discord.HTTPException:
        log.warning("could not deliver the error answer for %s", key)
