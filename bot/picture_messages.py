"""Messages with one picture, each request's body written once as bytes.

A move sends about three messages with a picture (the clicker's answer, the next player's
prompt, the table message) and deletes one. Through discord.py each such request builds
its parameters, an aiohttp ``FormData`` that the bot's client then writes out as bytes,
and a ``Message`` (every component of it included) from Discord's answer, which the bot
never reads; an interaction's answer also asks Discord for the whole message back
(``with_response``) and builds one from that. Priced as the event loop meets them in play
(``python -m benchmarks.requests --pause 0.02``), that was about half of each request's
CPU. Here the body is written once, and the answer read for the message's id at most:

- channel routes (the table message; a DM channel when no click's token lives) go through
  discord.py's ``HTTPClient.request``, which keeps their rate-limit buckets, Discord's
  global limit (and the bot's budget for it, :mod:`bot.budget`) and its errors;
- token routes (a click's answer, its follow-ups, their edits and deletions) are sent as
  discord.py's webhook adapter sends them: one at a time per token, waiting out a bucket
  Discord says is empty, a 429 retried after its ``retry_after`` (a 429 without ``Via``
  comes from Cloudflare, not Discord, and is raised), a 5xx retried, and an error raised
  as discord.py raises it (``Forbidden``, ``NotFound``, ``HTTPException``), so callers
  catch what they caught before. Interaction routes count toward no global limit.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import Route

from bot.discord_http import Body, Response, session_of

#: Names in a message ping nobody: the client's default (bot/client.py) as Discord reads it.
NO_MENTIONS: Mapping[str, Any] = {"parse": []}
#: An interaction's answer that updates the clicked message (UPDATE_MESSAGE).
UPDATE_MESSAGE = 7
#: Attempts of a token request, as discord.py's webhook adapter makes them.
ATTEMPTS = 5
#: The socket errors discord.py's webhook adapter tries again (a connection reset).
RESET_ERRNOS = (54, 10054)

_CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
_FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}"
_TOKEN_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
_CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
_CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
#: A token route's original message (the clicked one, once a click's answer updated it).
ORIGINAL = "@original"


@dataclass(frozen=True, slots=True)
class PictureMessage:
    """A message's words, controls and one picture, as Discord reads them. Sent or
    edited, it shows exactly this: an edit replaces the picture and the controls (no
    components removes them)."""

    content: str
    png: bytes
    filename: str
    #: The message's rows of components as Discord reads them.
    components: Sequence[Mapping[str, Any]] = field(default=(), compare=False)
    #: The message as JSON (``payload_json``), written once for all its requests.
    payload: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.filename.replace(".", "").replace("-", "").isalnum():
            raise ValueError(f"a picture's file name of letters and digits: {self.filename!r}")
        fields = {
            "content": self.content,
            "components": list(self.components),
            "attachments": [{"id": 0, "filename": self.filename}],
            "allowed_mentions": NO_MENTIONS,
        }
        object.__setattr__(self, "payload", _json(fields))

    def body(self, payload: str | None = None) -> Body:
        """The multipart body of a request sending this message: ``payload_json`` (the
        message's own, or ``payload`` that holds it) and the picture as ``files[0]``."""
        payload = self.payload if payload is None else payload
        boundary = secrets.token_hex(16)
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n'
            f"Content-Type: application/json\r\n\r\n{payload}\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; '
            f'filename="{self.filename}"\r\nContent-Type: image/png\r\n\r\n'
        )
        data = b"".join((head.encode(), self.png, f"\r\n--{boundary}--\r\n".encode()))
        return Body(f"multipart/form-data; boundary={boundary}", data)


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# -- token routes -----------------------------------------------------------------------


async def answer_click(interaction: discord.Interaction[Any], message: PictureMessage) -> None:
    """Answer a click by updating the clicked message to ``message`` (Discord answers
    204: nothing comes back to read). The interaction counts as answered from then on,
    for discord.py too."""
    route = Route("POST", _CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    answer = f'{{"type":{UPDATE_MESSAGE},"data":{message.payload}}}'
    await _by_token(interaction, route, message.body(answer))
    # What InteractionResponse.edit_message records, so that is_done() tells the truth.
    interaction.response._response_type = discord.InteractionResponseType.message_update


async def follow_up(
    interaction: discord.Interaction[Any], message: PictureMessage
) -> discord.PartialMessage:
    """Send ``message`` as a follow-up of the interaction: a new message, which notifies."""
    route = Route(
        "POST",
        _FOLLOW_UP,
        webhook_id=interaction.application_id,
        webhook_token=interaction.token,
    )
    answer = await _by_token(interaction, route, message.body(), params={"wait": "true"})
    return _partial(interaction.client, answer)


async def edit_by_token(
    interaction: discord.Interaction[Any], message_id: int | str, message: PictureMessage
) -> None:
    """Edit a message the interaction answered (:data:`ORIGINAL`) or sent."""
    await _by_token(interaction, _token_message("PATCH", interaction, message_id), message.body())


async def delete_by_token(interaction: discord.Interaction[Any], message_id: int | str) -> None:
    """Delete a message the interaction answered (:data:`ORIGINAL`) or sent."""
    await _by_token(interaction, _token_message("DELETE", interaction, message_id), None)


def _token_message(
    method: str, interaction: discord.Interaction[Any], message_id: int | str
) -> Route:
    return Route(
        method,
        _TOKEN_MESSAGE,
        webhook_id=interaction.application_id,
        webhook_token=interaction.token,
        message_id=message_id,
    )


#: One request at a time per token, as discord.py's webhook adapter keeps them: its
#: bucket is the token's.
_LOCKS: weakref.WeakValueDictionary[tuple[object, object], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)


async def _by_token(
    interaction: discord.Interaction[Any],
    route: Route,
    body: Body | None,
    params: Mapping[str, str] | None = None,
) -> Any:
    """Send a token route's request; its answer's JSON (None for an empty one)."""
    session = session_of(interaction.client.http)
    key = (route.webhook_id, route.webhook_token)
    lock = _LOCKS.get(key)
    if lock is None:
        _LOCKS[key] = lock = asyncio.Lock()
    async with lock:
        pause = 0.0
        try:
            for attempt in range(ATTEMPTS):
                try:
                    async with session.request(
                        route.method, route.url, data=body, params=params
                    ) as response:
                        data = await _read(response)
                except OSError as exc:
                    if attempt < ATTEMPTS - 1 and exc.errno in RESET_ERRNOS:
                        await asyncio.sleep(server_error_pause(attempt))
                        continue
                    raise
                status = response.status
                if response.headers.get("X-Ratelimit-Remaining") == "0" and status != 429:
                    # The token's bucket is empty: the next request waits for it.
                    pause = discord.utils._parse_ratelimit_header(response)
                if 200 <= status < 300:
                    return data
                if status == 429:
                    if not response.headers.get("Via") or not isinstance(data, dict):
                        raise discord.HTTPException(response, data)
                    await asyncio.sleep(float(data["retry_after"]))
                    continue
                if status >= 500:
                    await asyncio.sleep(server_error_pause(attempt))
                    continue
                if status == 403:
                    raise discord.Forbidden(response, data)
                if status == 404:
                    raise discord.NotFound(response, data)
                raise discord.HTTPException(response, data)
            if status >= 500:
                raise discord.DiscordServerError(response, data)
            raise discord.HTTPException(response, data)
        finally:
            if pause > 0:
                await asyncio.sleep(pause)


def server_error_pause(attempt: int) -> float:
    """Seconds before trying a request again after a server error or a reset connection:
    discord.py's webhook adapter's."""
    return 1.0 + attempt * 2


async def _read(response: Response) -> Any:
    """The answer's JSON, its text when it is not JSON (an error page), or None."""
    text = await response.text()
    if not text:
        return None
    if response.headers.get("Content-Type", "").startswith("application/json"):
        return json.loads(text)
    return text


# -- channel routes ---------------------------------------------------------------------

#: Where the bot sends its messages by channel route: a DM channel, a thread, a channel.
Channel = discord.PartialMessageable | discord.DMChannel | discord.Thread | discord.TextChannel


async def send_to_channel(channel: Channel, message: PictureMessage) -> discord.PartialMessage:
    """Send ``message`` to a channel through its route."""
    route = Route("POST", _CHANNEL_MESSAGES, channel_id=channel.id)
    answer = await _http(channel).request(route, data=message.body())
    return channel.get_partial_message(_message_id(answer))


async def edit_in_channel(
    sent: discord.Message | discord.PartialMessage, message: PictureMessage
) -> None:
    """Edit a message through its channel's route."""
    route = Route("PATCH", _CHANNEL_MESSAGE, channel_id=sent.channel.id, message_id=sent.id)
    await _http(sent).request(route, data=message.body())


def _http(model: Channel | discord.Message | discord.PartialMessage) -> discord.http.HTTPClient:
    # Every discord.py model reaches its client's HTTP client through its connection
    # state, as the library's own methods do.
    return model._state.http


def _message_id(answer: Any) -> int:
    if not isinstance(answer, dict) or "id" not in answer:
        raise discord.DiscordException(f"a message answer without its id: {answer!r:.200}")
    return int(answer["id"])


def _partial(client: discord.Client, answer: Any) -> discord.PartialMessage:
    """The message Discord answered with, as the id and channel the bot keeps of it."""
    if not isinstance(answer, dict) or "channel_id" not in answer:
        raise discord.DiscordException(f"a message answer without its channel: {answer!r:.200}")
    channel = client.get_partial_messageable(int(answer["channel_id"]))
    return channel.get_partial_message(_message_id(answer))
