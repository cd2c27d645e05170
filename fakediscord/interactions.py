"""Interactions: sending them to the bot, and the bot's callbacks and webhook follow-ups,
with Discord's deadlines (3 s for the first answer, 15 min for the token)."""

import asyncio
import secrets
from typing import Any

from fakediscord import errors
from fakediscord.errors import FormErrors
from fakediscord.messaging import MessageBody, Origin, create_message, edit_message
from fakediscord.models import EPHEMERAL_FLAG, Callback, Channel, Interaction, Message, User
from fakediscord.world import World

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
MODAL_SUBMIT = 5

CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
MODAL = 9

CHAT_INPUT_COMMAND_MESSAGE = 20

# Which answers Discord accepts for each kind of interaction.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL),
    MESSAGE_COMPONENT: (
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    ),
    MODAL_SUBMIT: (
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    ),
}


def open_interaction(
    world: World,
    *,
    kind: int,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    message: Message | None = None,
    command_name: str | None = None,
) -> Interaction:
    """Records an interaction and sends INTERACTION_CREATE to the bot."""
    interaction = Interaction(
        id=world.ids.next(),
        token=f"fake-interaction-{secrets.token_urlsafe(32)}",
        type=kind,
        user=user,
        guild_id=channel.guild_id,
        channel_id=channel.id,
        data=data,
        created_at=world.clock.now(),
        answered=asyncio.get_running_loop().create_future(),
        command_name=command_name,
        message_id=message.id if message else None,
    )
    world.interactions[interaction.id] = interaction
    world.interactions_by_token[interaction.token] = interaction
    interaction.payload = _payload(world, interaction, channel, message)
    deliver(world, interaction)
    return interaction


def deliver(world: World, interaction: Interaction) -> None:
    """Sends INTERACTION_CREATE for ``interaction``; a second call delivers it again, with
    the same id and token, as a gateway that replays events after a resume can. Only one
    of the deliveries can answer it: Discord refuses a second callback (40060)."""
    interaction.deliveries += 1
    world.dispatch("INTERACTION_CREATE", interaction.payload)


def _payload(
    world: World, interaction: Interaction, channel: Channel, message: Message | None
) -> dict[str, Any]:
    user = interaction.user
    channel_data = channel.payload(bot_id=world.bot.id)
    guild = world.guild_of(channel)
    if guild is not None:
        channel_data["permissions"] = str(world.permissions(user, channel))
    data: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "token": interaction.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_data,
        "locale": user.locale,
        "app_permissions": str(world.permissions(world.bot, channel)),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": world.limits.upload_bytes,
        "authorizing_integration_owners": {"0": str(guild.id if guild else 0)},
        "context": 0 if guild else 1,
    }
    if guild is not None:
        data["guild_id"] = str(guild.id)
        data["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        data["guild_locale"] = guild.locale
        data["member"] = world.member_payload_with_permissions(guild, user, channel)
    else:
        data["user"] = user.payload()
    if message is not None:
        data["message"] = message.payload(bot_id=world.bot.id)
    return data


def answer(
    world: World, interaction_id: int, token: str, body: MessageBody, *, with_response: bool
) -> dict[str, Any] | None:
    """POST /interactions/{id}/{token}/callback."""
    interaction = world.interactions.get(interaction_id)
    if interaction is None or interaction.token != token:
        raise errors.unknown_interaction()
    now = world.clock.now()
    if interaction.first_callback_at is None:
        interaction.first_callback_at = now
    if interaction.acknowledged:
        raise errors.already_acknowledged()
    if now - interaction.created_at > world.limits.first_response_seconds:
        raise errors.unknown_interaction()
    kind = _callback_type(interaction, body.fields.get("type"))
    inner = MessageBody(body.fields.get("data") or {}, body.uploads)
    message = _perform(world, interaction, kind, inner)
    interaction.response_type = kind
    latency = now - interaction.created_at
    snapshot = message.snapshot() if message is not None else None
    interaction.answered.set_result(Callback(kind, snapshot, latency))
    if not with_response:
        return None
    return _callback_response(world, interaction, kind, message)


def _callback_type(interaction: Interaction, kind: Any) -> int:
    allowed = ALLOWED_CALLBACKS.get(interaction.type, ())
    if kind not in allowed:
        form = FormErrors()
        choices = ", ".join(str(t) for t in allowed)
        form.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{choices}}}.")
        form.raise_if_any()
    return int(kind)


def _perform(
    world: World, interaction: Interaction, kind: int, body: MessageBody
) -> Message | None:
    channel = world.channels[interaction.channel_id]
    if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
        ephemeral = bool(int(body.fields.get("flags") or 0) & EPHEMERAL_FLAG)
        origin = Origin(
            interaction=interaction.link(),
            ephemeral_for=interaction.user.id if ephemeral else None,
            webhook_id=world.application_id,
            type=CHAT_INPUT_COMMAND_MESSAGE if interaction.type == APPLICATION_COMMAND else 0,
            loading=kind == DEFERRED_CHANNEL_MESSAGE,
        )
        message = create_message(world, channel, world.bot, body, origin)
        interaction.original_message_id = message.id
        return message
    if kind == MODAL:
        _check_modal(body.fields)
        interaction.modal = body.fields
        return None
    # Updates act on the message whose component was used; a modal opened by a slash
    # command has none.
    target = world.messages.get(interaction.message_id or 0)
    if target is None or target.deleted:
        raise errors.unknown_message()
    interaction.original_message_id = target.id
    if kind == UPDATE_MESSAGE:
        return edit_message(world, target, body)
    return None


def _check_modal(fields: dict[str, Any]) -> None:
    form = FormErrors()
    for key in ("custom_id", "title"):
        if not fields.get(key):
            form.add((key,), "BASE_TYPE_REQUIRED", "This field is required")
    if not 1 <= len(fields.get("components") or []) <= 5:
        form.add(("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    form.raise_if_any()


def _callback_response(
    world: World, interaction: Interaction, kind: int, message: Message | None
) -> dict[str, Any]:
    summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
    resource: dict[str, Any] = {"type": kind}
    if message is not None:
        summary["response_message_id"] = str(message.id)
        summary["response_message_loading"] = message.loading
        summary["response_message_ephemeral"] = message.ephemeral
        resource["message"] = message.payload(bot_id=world.bot.id)
    return {"interaction": summary, "resource": resource}


def interaction_for_webhook(world: World, application_id: int, token: str) -> Interaction:
    """The interaction behind a webhook token, while the token still lives."""
    interaction = world.interactions_by_token.get(token)
    if application_id != world.application_id or interaction is None:
        raise errors.unknown_webhook()
    if world.clock.now() - interaction.created_at > world.limits.token_lifetime_seconds:
        raise errors.invalid_webhook_token()
    return interaction


def follow_up(world: World, interaction: Interaction, body: MessageBody) -> Message:
    """POST /webhooks/{app}/{token}; the first one after a deferral fills the placeholder.

    "Create Followup Message": "When using this endpoint directly after responding to an
    interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as
    Edit Original Interaction Response for backwards compatibility. [...] The ephemeral
    flag will be ignored [...] This behavior is deprecated", so it is recorded.
    """
    if not interaction.acknowledged:
        raise errors.unknown_webhook()
    original = _original_or_none(world, interaction)
    if original is not None and original.loading:
        edited = edit_message(world, original, body)
        interaction.deferral_followed_up = True
        return edited
    ephemeral = bool(int(body.fields.get("flags") or 0) & EPHEMERAL_FLAG)
    origin = Origin(
        interaction=interaction.link(),
        ephemeral_for=interaction.user.id if ephemeral else None,
        webhook_id=world.application_id,
    )
    channel = world.channels[interaction.channel_id]
    return create_message(world, channel, world.bot, body, origin)


def webhook_message(world: World, interaction: Interaction, message_id: str) -> Message:
    """`@original` or a follow-up of this interaction."""
    if message_id == "@original":
        message = _original_or_none(world, interaction)
        if message is None:
            raise errors.unknown_message()
        return message
    message = world.messages.get(int(message_id))
    belongs = message is not None and (
        message.id == interaction.original_message_id
        or (message.interaction is not None and message.interaction.id == interaction.id)
    )
    if message is None or message.deleted or not belongs:
        raise errors.unknown_message()
    return message


def _original_or_none(world: World, interaction: Interaction) -> Message | None:
    if interaction.original_message_id is None:
        return None
    message = world.messages.get(interaction.original_message_id)
    return None if message is None or message.deleted else message
