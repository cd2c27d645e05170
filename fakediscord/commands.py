"""Application commands: registration as Discord validates it, and turning what a person
types into the interaction data Discord would send."""

import re
from dataclasses import dataclass
from typing import Any

from fakediscord.errors import FormErrors
from fakediscord.models import Channel, Guild, Role, User
from fakediscord.permissions import ADMINISTRATOR
from fakediscord.validation import bad_length, max_length
from fakediscord.world import World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(3, 11)
CHAT_INPUT = 1
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1
NAME_PATTERN = re.compile(r"^[-_'\w]{1,32}$")
MAX_COMMANDS = 100
MAX_OPTIONS = 25


class InvalidInvocation(Exception):
    """Discord's client would not let the person send this command as written."""


def register_commands(
    world: World, guild_id: int | None, payloads: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Bulk overwrite: validates, keeps ids of commands that already existed, stores."""
    _validate_commands(payloads)
    previous = {(c["name"], c.get("type", CHAT_INPUT)): c for c in world.commands.get(guild_id, [])}
    stored = []
    for payload in payloads:
        kind = payload.get("type", CHAT_INPUT)
        old = previous.get((payload["name"], kind))
        command = {
            "id": old["id"] if old else str(world.ids.next()),
            "application_id": str(world.application_id),
            "version": str(world.ids.next()),
            "type": kind,
            "name": payload["name"],
            "name_localizations": payload.get("name_localizations"),
            "description": payload.get("description", ""),
            "description_localizations": payload.get("description_localizations"),
            "options": payload.get("options", []),
            "default_member_permissions": payload.get("default_member_permissions"),
            "dm_permission": payload.get("dm_permission", True),
            "contexts": payload.get("contexts"),
            "integration_types": payload.get("integration_types", [0]),
            "nsfw": payload.get("nsfw", False),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        stored.append(command)
    world.commands[guild_id] = stored
    return stored


def _validate_commands(payloads: list[dict[str, Any]]) -> None:
    errors = FormErrors()
    if len(payloads) > MAX_COMMANDS:
        errors.add((), *max_length(MAX_COMMANDS))
    seen: set[tuple[str, int]] = set()
    for index, payload in enumerate(payloads):
        key = (payload.get("name", ""), payload.get("type", CHAT_INPUT))
        if key in seen:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {key[0]}",
            )
        seen.add(key)
        if key[1] == CHAT_INPUT:
            _validate_named((index,), payload, errors)
    errors.raise_if_any()


def _validate_named(
    path: tuple[str | int, ...], payload: dict[str, Any], errors: FormErrors
) -> None:
    name = payload.get("name", "")
    if not NAME_PATTERN.match(name) or name != name.lower():
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = payload.get("description", "")
    if not 1 <= len(description) <= 100:
        errors.add((*path, "description"), *bad_length(1, 100))
    options = payload.get("options") or []
    if len(options) > MAX_OPTIONS:
        errors.add((*path, "options"), *max_length(MAX_OPTIONS))
    for index, option in enumerate(options):
        _validate_named((*path, "options", index), option, errors)
        if len(option.get("choices") or []) > MAX_OPTIONS:
            errors.add((*path, "options", index, "choices"), *max_length(MAX_OPTIONS))


@dataclass(frozen=True)
class Invocation:
    """A resolved slash command: the interaction `data` and the command's full name."""

    data: dict[str, Any]
    name: str


def resolve_invocation(
    world: World,
    user: User,
    channel: Channel,
    words: list[str],
    values: dict[str, Any],
    *,
    checked: bool = True,
) -> Invocation:
    """Finds the command (by its name or its name in the person's language) and builds the
    interaction data with typed option values, as Discord's client does. Unless
    ``checked``, numbers and texts are sent as given, outside choices and ranges, as a
    crafted or outdated client could send them."""
    if not words:
        raise InvalidInvocation("no command name")
    command = _find_command(world, user, channel, words[0])
    node: dict[str, Any] = command
    path = [command["name"]]
    nesting: list[dict[str, Any]] = []
    for word in words[1:]:
        child = _find_option(node, word, user.locale, kinds=(SUB_COMMAND, SUB_COMMAND_GROUP))
        if child is None:
            raise InvalidInvocation(f"/{' '.join(path)} has no subcommand {word!r}")
        path.append(child["name"])
        nesting.append(child)
        node = child
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
        raise InvalidInvocation(f"/{' '.join(path)} needs a subcommand")
    resolved: dict[str, dict[str, Any]] = {}
    leaf = _leaf_options(world, user, channel, node, values, resolved, checked)
    for level in reversed(nesting):
        leaf = [{"type": level["type"], "name": level["name"], "options": leaf}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": CHAT_INPUT,
        "options": leaf,
    }
    if resolved:
        data["resolved"] = resolved
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    return Invocation(data, " ".join(path))


def _find_command(world: World, user: User, channel: Channel, name: str) -> dict[str, Any]:
    guild = world.guild_of(channel)
    candidates = list(world.commands.get(None, []))
    if guild is not None:
        candidates = world.commands.get(guild.id, []) + candidates
    for command in candidates:
        if command["type"] != CHAT_INPUT or not _named(command, name, user.locale):
            continue
        if guild is None and not _allowed_in_dm(command):
            continue
        if guild is not None and not _allowed_in_guild(command):
            continue
        if guild is not None and not _permitted(world, guild, command, user):
            raise InvalidInvocation(f"{user.name} may not use /{command['name']}")
        return command
    raise InvalidInvocation(f"no command /{name} here")


def _permitted(world: World, guild: Guild, command: dict[str, Any], user: User) -> bool:
    """The server's own permission for the member, then for one of their roles, decides;
    without one, default_member_permissions does."""
    chosen = world.command_permissions.get((guild.id, command["name"]), {})
    member = guild.members.get(user.id)
    roles = [*(member.roles if member else []), guild.id]
    for target in (user.id, *roles):
        if target in chosen:
            return chosen[target]
    needed = command.get("default_member_permissions")
    if needed is None:
        return True
    granted = world.guild_permissions(user, guild)
    return bool(granted & ADMINISTRATOR) or int(needed) & granted == int(needed)


def _allowed_in_dm(command: dict[str, Any]) -> bool:
    contexts = command.get("contexts")
    if contexts is not None:
        return BOT_DM_CONTEXT in contexts
    return command.get("dm_permission") is not False


def _allowed_in_guild(command: dict[str, Any]) -> bool:
    contexts = command.get("contexts")
    return contexts is None or GUILD_CONTEXT in contexts


def _named(node: dict[str, Any], word: str, locale: str) -> bool:
    localized = (node.get("name_localizations") or {}).get(locale)
    return word in (node["name"], localized)


def _find_option(
    node: dict[str, Any], word: str, locale: str, *, kinds: tuple[int, ...]
) -> dict[str, Any] | None:
    options: list[dict[str, Any]] = node.get("options") or []
    for option in options:
        if option["type"] in kinds and _named(option, word, locale):
            return option
    return None


def _leaf_options(
    world: World,
    user: User,
    channel: Channel,
    node: dict[str, Any],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    checked: bool,
) -> list[dict[str, Any]]:
    value_kinds = (STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER)
    given: dict[str, Any] = {}
    for word, value in values.items():
        option = _find_option(node, word, user.locale, kinds=value_kinds)
        if option is None:
            raise InvalidInvocation(f"no option {word!r}")
        given[option["name"]] = (option, value)
    for option in node.get("options") or []:
        if option.get("required") and option["name"] not in given:
            raise InvalidInvocation(f"option {option['name']!r} is required")
    result = []
    for name, (option, value) in given.items():
        typed = _typed_value(world, user, channel, option, value, resolved, checked)
        result.append({"type": option["type"], "name": name, "value": typed})
    return result


def _typed_value(
    world: World,
    user: User,
    channel: Channel,
    option: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    checked: bool,
) -> Any:
    kind = option["type"]
    if kind in (STRING, INTEGER, NUMBER):
        return _scalar(option, value, user.locale) if checked else value
    if kind == BOOLEAN:
        return _boolean(option["name"], value)
    if kind in (USER, MENTIONABLE) and not isinstance(value, Role):
        target = _find_user(world, channel, value)
        _resolve_user(world, channel, target, resolved)
        return str(target.id)
    if kind in (ROLE, MENTIONABLE):
        role = _find_role(world, channel, value)
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)
    target_channel = _find_channel(world, channel, value)
    data = target_channel.payload(bot_id=world.bot.id)
    data["permissions"] = str(world.permissions(user, target_channel))
    resolved.setdefault("channels", {})[str(target_channel.id)] = data
    return str(target_channel.id)


def _scalar(option: dict[str, Any], value: Any, locale: str) -> Any:
    kind = option["type"]
    choices = option.get("choices") or []
    if choices:
        value = _choice(option, choices, value, locale)
    try:
        typed: Any = {STRING: str, INTEGER: int, NUMBER: float}[kind](value)
    except (TypeError, ValueError):
        raise InvalidInvocation(f"{option['name']}: {value!r} is not valid") from None
    if kind == STRING:
        if not option.get("min_length", 0) <= len(typed) <= option.get("max_length", 6000):
            raise InvalidInvocation(f"{option['name']}: length out of range")
    elif not option.get("min_value", typed) <= typed <= option.get("max_value", typed):
        raise InvalidInvocation(f"{option['name']}: {typed} out of range")
    return typed


def _choice(option: dict[str, Any], choices: list[dict[str, Any]], value: Any, locale: str) -> Any:
    """A choice picked by its value or by its (localized) name, as the client offers them."""
    for choice in choices:
        names = (choice["name"], (choice.get("name_localizations") or {}).get(locale))
        if str(value) == str(choice["value"]) or value in names:
            return choice["value"]
    raise InvalidInvocation(f"{option['name']}: {value!r} is not one of the choices")


def _boolean(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text not in ("true", "false"):
        raise InvalidInvocation(f"{name}: {value!r} is not true or false")
    return text == "true"


def _find_user(world: World, channel: Channel, value: Any) -> User:
    if isinstance(value, User):
        return value
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return world.get_user(int(value))
    guild = world.guild_of(channel)
    members = guild.members.values() if guild else []
    for member in members:
        if value in (member.user.name, member.nick):
            return member.user
    raise InvalidInvocation(f"no member named {value!r}")


def _resolve_user(
    world: World, channel: Channel, user: User, resolved: dict[str, dict[str, Any]]
) -> None:
    resolved.setdefault("users", {})[str(user.id)] = user.payload()
    guild = world.guild_of(channel)
    if guild is not None and user.id in guild.members:
        member = guild.members[user.id].payload(with_user=False)
        member["permissions"] = str(world.permissions(user, channel))
        resolved.setdefault("members", {})[str(user.id)] = member


def _find_role(world: World, channel: Channel, value: Any) -> Role:
    if isinstance(value, Role):
        return value
    guild = world.guild_of(channel)
    for role in guild.roles.values() if guild else []:
        if value in (role.id, str(role.id), role.name):
            return role
    raise InvalidInvocation(f"no role {value!r}")


def _find_channel(world: World, channel: Channel, value: Any) -> Channel:
    if isinstance(value, Channel):
        return value
    guild = world.guild_of(channel)
    for candidate in world.channels.values():
        if candidate.guild_id == (guild.id if guild else None) and value in (
            candidate.id,
            str(candidate.id),
            candidate.name,
        ):
            return candidate
    raise InvalidInvocation(f"no channel {value!r}")
