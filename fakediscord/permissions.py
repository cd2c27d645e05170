"""Discord's permission arithmetic: roles, administrator, channel overwrites, threads."""

from discord import Permissions

from fakediscord.models import Channel, Guild, Member

ALL = Permissions.all().value
ADMINISTRATOR = Permissions.VALID_FLAGS["administrator"]
VIEW_CHANNEL = Permissions.VALID_FLAGS["view_channel"]
SEND_MESSAGES = Permissions.VALID_FLAGS["send_messages"]

# What a freshly invited table bot is given in its managed role.
BOT_DEFAULT = Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    manage_threads=True,
    manage_channels=True,
    manage_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

EVERYONE_DEFAULT = Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value


def flag(name: str) -> int:
    """The bit of a permission named as discord.Permissions names it."""
    try:
        return Permissions.VALID_FLAGS[name]
    except KeyError:
        raise ValueError(f"unknown permission {name!r}") from None


def allow_deny(flags: dict[str, bool]) -> tuple[int, int]:
    """Split {name: True/False} into (allow bits, deny bits)."""
    allow = deny = 0
    for name, allowed in flags.items():
        if allowed:
            allow |= flag(name)
        else:
            deny |= flag(name)
    return allow, deny


def base_permissions(guild: Guild, member: Member) -> int:
    if member.user.id == guild.owner_id:
        return ALL
    value = guild.everyone.permissions
    for role_id in member.roles:
        role = guild.roles.get(role_id)
        if role is not None:
            value |= role.permissions
    return ALL if value & ADMINISTRATOR else value


def channel_permissions(guild: Guild, member: Member, channel: Channel) -> int:
    """Effective permissions in a guild channel; threads take their parent's overwrites."""
    value = base_permissions(guild, member)
    if value & ADMINISTRATOR:
        return ALL
    for overwrite in channel.overwrites:
        if overwrite.target_id == guild.id:
            value = (value & ~overwrite.deny) | overwrite.allow
    role_allow = role_deny = 0
    for overwrite in channel.overwrites:
        if overwrite.kind == 0 and overwrite.target_id in member.roles:
            role_allow |= overwrite.allow
            role_deny |= overwrite.deny
    value = (value & ~role_deny) | role_allow
    for overwrite in channel.overwrites:
        if overwrite.kind == 1 and overwrite.target_id == member.user.id:
            value = (value & ~overwrite.deny) | overwrite.allow
    return value if value & VIEW_CHANNEL else 0
