"""Creating, editing and deleting messages, their attachments and reactions."""

import mimetypes
import struct
from dataclasses import dataclass, field
from typing import Any

from fakediscord import errors, threads
from fakediscord.mentions import SUPPRESS_NOTIFICATIONS_FLAG, parse_mentions, pings
from fakediscord.models import (
    COMPONENTS_V2_FLAG,
    EPHEMERAL_FLAG,
    LOADING_FLAG,
    Attachment,
    Channel,
    InteractionLink,
    Message,
    User,
    emoji_payload,
    utcnow,
)
from fakediscord.validation import validate_message
from fakediscord.world import DIRECT_MESSAGE_REACTIONS, GUILD_MESSAGE_REACTIONS, World

SUPPRESS_EMBEDS_FLAG = 1 << 2
SENDABLE_FLAGS = SUPPRESS_EMBEDS_FLAG | SUPPRESS_NOTIFICATIONS_FLAG | COMPONENTS_V2_FLAG
MAX_REACTION_EMOJIS = 20
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass
class Upload:
    """One file part of a multipart request: `files[index]`."""

    index: int
    filename: str
    data: bytes


@dataclass
class MessageBody:
    """A message request: its JSON fields and any uploaded files."""

    fields: dict[str, Any]
    uploads: list[Upload] = field(default_factory=list)


@dataclass(frozen=True)
class Origin:
    """Where a new message comes from, beyond its author."""

    interaction: InteractionLink | None = None
    ephemeral_for: int | None = None
    webhook_id: int | None = None
    type: int = 0
    loading: bool = False


def create_message(
    world: World, channel: Channel, author: User, body: MessageBody, origin: Origin = Origin()
) -> Message:
    fields = body.fields
    flags = int(fields.get("flags") or 0) & SENDABLE_FLAGS
    if origin.ephemeral_for is not None:
        flags |= EPHEMERAL_FLAG
    if origin.loading:
        flags |= LOADING_FLAG
    attachments = _attachments(world, channel.id, body, [])
    message = Message(
        id=world.ids.next(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author=author,
        content=fields.get("content") or "",
        embeds=list(fields.get("embeds") or []),
        components=list(fields.get("components") or []),
        attachments=attachments,
        flags=flags,
        type=origin.type,
        webhook_id=origin.webhook_id,
        interaction=origin.interaction,
        ephemeral_for=origin.ephemeral_for,
        mentions=parse_mentions(world, fields.get("content") or "", fields.get("allowed_mentions")),
    )
    pinged = pings(message.content, fields.get("allowed_mentions"))
    message.pinged_roles, message.pinged_everyone = pinged.roles, pinged.everyone
    if not origin.loading:
        _validate(world, message, flags)
    if not message.ephemeral:
        threads.open_for_message(world, channel)
    world.store_message(message)
    return message


def edit_message(world: World, message: Message, body: MessageBody) -> Message:
    """Applies the fields present in the request; `attachments` is the list to keep."""
    threads.require_active(world, world.channels[message.channel_id])
    fields = body.fields
    edited = message.snapshot()
    if "content" in fields:
        edited.content = fields["content"] or ""
        edited.mentions = parse_mentions(world, edited.content, fields.get("allowed_mentions"))
    if "embeds" in fields:
        edited.embeds = list(fields["embeds"] or [])
    if "components" in fields:
        edited.components = list(fields["components"] or [])
    if "flags" in fields and fields["flags"] is not None:
        keep = edited.flags & ~SUPPRESS_EMBEDS_FLAG
        edited.flags = keep | (int(fields["flags"]) & (SUPPRESS_EMBEDS_FLAG | COMPONENTS_V2_FLAG))
    edited.attachments = _attachments(world, message.channel_id, body, message.attachments)
    # Editing a deferred answer's placeholder replaces the "thinking…" state.
    edited.flags &= ~LOADING_FLAG
    _validate(world, edited, edited.flags)
    message.content = edited.content
    message.embeds = edited.embeds
    message.components = edited.components
    message.flags = edited.flags
    message.attachments = edited.attachments
    message.mentions = edited.mentions
    message.edited_at = utcnow()
    world.announce_message(message, "update")
    return message


def delete_message(world: World, message: Message) -> None:
    message.deleted = True
    world.announce_message(message, "delete")


def parse_emoji(raw: str) -> str:
    """The reaction key of an emoji from a URL; custom emojis do not exist in the fake."""
    if ":" in raw or raw.isascii():
        raise errors.unknown_emoji()
    return raw


def add_reaction(world: World, message: Message, user: User, emoji: str) -> None:
    threads.require_active(world, world.channels[message.channel_id])
    users = message.reactions.get(emoji)
    if users is None:
        if len(message.reactions) >= MAX_REACTION_EMOJIS:
            raise errors.APIError(400, 30010, "Maximum number of reactions reached (20)")
        users = message.reactions[emoji] = []
    if user.id in users:
        return
    users.append(user.id)
    data = _reaction_event(world, message, user, emoji)
    data["message_author_id"] = str(message.author.id)
    if message.guild_id is not None:
        member = world.guilds[message.guild_id].members.get(user.id)
        if member is not None:
            data["member"] = member.payload()
    world.dispatch("MESSAGE_REACTION_ADD", data, _reaction_intent(message))


def remove_reaction(world: World, message: Message, user: User, emoji: str) -> None:
    users = message.reactions.get(emoji)
    if not users or user.id not in users:
        return
    users.remove(user.id)
    if not users:
        del message.reactions[emoji]
    data = _reaction_event(world, message, user, emoji)
    world.dispatch("MESSAGE_REACTION_REMOVE", data, _reaction_intent(message))


def _reaction_intent(message: Message) -> int:
    return GUILD_MESSAGE_REACTIONS if message.guild_id else DIRECT_MESSAGE_REACTIONS


def _reaction_event(world: World, message: Message, user: User, emoji: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user_id": str(user.id),
        "channel_id": str(message.channel_id),
        "message_id": str(message.id),
        "emoji": emoji_payload(emoji),
        "burst": False,
        "burst_colors": [],
        "type": 0,
    }
    if message.guild_id is not None:
        data["guild_id"] = str(message.guild_id)
    return data


def _validate(world: World, message: Message, flags: int) -> None:
    if not world.limits.enforce:
        return
    fields: dict[str, Any] = {"content": message.content, "embeds": message.embeds}
    fields |= {"components": message.components, "flags": flags}
    validate_message(fields, len(message.attachments), world.limits, frozenset(world.app_emojis))
    has_body = message.content or message.embeds or message.attachments or message.components
    if not has_body:
        raise errors.empty_message()


def _attachments(
    world: World, channel_id: int, body: MessageBody, current: list[Attachment]
) -> list[Attachment]:
    """The attachments after a request: kept ones by id, then new uploads by index.

    Without an `attachments` list every current attachment stays, as on Discord.
    """
    listed = body.fields.get("attachments")
    uploads = {upload.index: upload for upload in body.uploads}
    if world.limits.enforce:
        for upload in body.uploads:
            if len(upload.data) > world.limits.upload_bytes:
                raise errors.entity_too_large()
    if listed is None:
        new = [_store_upload(world, channel_id, upload, {}) for upload in body.uploads]
        return [*current, *new]
    existing = {attachment.id: attachment for attachment in current}
    kept: list[Attachment] = []
    added: list[Attachment] = []
    used: set[int] = set()
    for entry in listed:
        entry_id = int(entry["id"])
        if entry_id in existing:
            kept.append(existing[entry_id])
        elif entry_id in uploads:
            added.append(_store_upload(world, channel_id, uploads[entry_id], entry))
            used.add(entry_id)
    for index, upload in uploads.items():
        if index not in used:
            added.append(_store_upload(world, channel_id, upload, {}))
    return [*kept, *added]


def _store_upload(
    world: World, channel_id: int, upload: Upload, entry: dict[str, Any]
) -> Attachment:
    filename = entry.get("filename") or upload.filename
    attachment_id = world.ids.next()
    url = f"{world.origin}/attachments/{channel_id}/{attachment_id}/{filename}"
    width, height = _png_size(upload.data) or (None, None)
    attachment = Attachment(
        id=attachment_id,
        filename=filename,
        data=upload.data,
        url=url,
        content_type=mimetypes.guess_type(filename)[0],
        description=entry.get("description"),
        width=width,
        height=height,
    )
    world.attachments[attachment.id] = attachment
    return attachment


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk, which Discord reports for images."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE):
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height
