"""Every option of a slash command checked against what the command declares, before it
runs: choices, ranges, lengths.

Discord's client offers only the declared choices and keeps numbers and texts within
their ranges, but discord.py does not check them again when a command arrives, and an
outdated or crafted client may send anything. A value that does not fit is answered with
a sentence instead of reaching a command that trusts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from discord import AppCommandOptionType, app_commands

SUBCOMMANDS = (1, 2)
#: The longest value quoted back to the player.
QUOTED = 50


class BadOption(app_commands.AppCommandError):
    """An option value the command does not accept."""

    def __init__(self, name: str, value: object) -> None:
        shown = str(value)
        self.shown = shown if len(shown) <= QUOTED else shown[: QUOTED - 1] + "…"
        super().__init__(f"option {name!r} got {self.shown!r}")
        self.name = name
        self.value = value


def check_options(command: app_commands.Command[Any, ..., Any], data: Mapping[str, Any]) -> None:
    """Raise BadOption for the first value ``command`` does not accept."""
    params = {str(p.display_name): p for p in command.parameters}
    for option in _leaf(data.get("options") or []):
        name, value = str(option.get("name")), option.get("value")
        param = params.get(name)
        if param is None or not _fits(param, value):
            raise BadOption(name, value)


def _leaf(options: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
    """The options of the subcommand that runs."""
    while options and options[0].get("type") in SUBCOMMANDS:
        options = options[0].get("options") or []
    return options


def _fits(param: app_commands.Parameter, value: object) -> bool:
    if param.choices and value not in {choice.value for choice in param.choices}:
        return False
    low, high = param.min_value, param.max_value
    if param.type is AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        return (low is None or len(value) >= low) and (high is None or len(value) <= high)
    if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return (low is None or value >= low) and (high is None or value <= high)
    if param.type is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    return True
