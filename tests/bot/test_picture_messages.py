"""Messages with one picture, their bodies written once (bot/picture_messages.py).

Against the fake Discord with discord.py's own client and interactions: a DM sent by its
channel's route, a click answered, followed up, edited and deleted through its token, as
the person sees each. Against a server written here: what discord.py's webhook adapter
does with Discord's answers on token routes (rate limits, retries, errors), since the
bot's hand messages catch what they caught before.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot import discord_http, picture_messages
from bot.discord_http import DiscordSession
from bot.picture_messages import (
    ORIGINAL,
    PictureMessage,
    answer_click,
    delete_by_token,
    edit_by_token,
    edit_in_channel,
    follow_up,
    send_to_channel,
)
from fakediscord import Driver, FakeDiscord
from fakediscord.models import Guild
from fakediscord.server import pointed_at
from tests.bot.test_discord_http import RawServer, answer, each_request, serving
from tests.fakediscord.table_bot import tiny_png

FIRST, SECOND, THIRD = tiny_png(3, 2), tiny_png(4, 2), tiny_png(5, 2)


def button(custom_id: str, label: str) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [{"type": 2, "style": 2, "custom_id": custom_id, "label": label}],
    }


class Bot(discord.Client):
    """A client with the bot's own HTTP client, keeping the interactions it receives."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.interactions: asyncio.Queue[discord.Interaction[Any]] = asyncio.Queue()

    async def login(self, token: str) -> None:
        await super().login(token)
        discord_http.install(self.http, None)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.interactions.put_nowait(interaction)


@pytest.fixture
def guild(fake: FakeDiscord) -> Guild:
    return fake.world.create_guild("Club")


@pytest.fixture
async def bot(fake: FakeDiscord, guild: Guild) -> AsyncIterator[Bot]:
    client = Bot()
    async with fake.run_client(client):
        yield client


def test_the_body_is_the_message_and_its_picture() -> None:
    message = PictureMessage("和 <@1>", FIRST, "hand.png", [button("a", "A")])
    body = message.body()
    boundary = body.content_type.removeprefix("multipart/form-data; boundary=")
    parts = body.data.split(f"--{boundary}".encode())
    assert parts[0] == b"" and parts[-1] == b"--\r\n"
    payload_head, payload = parts[1].split(b"\r\n\r\n", 1)
    assert b'name="payload_json"' in payload_head
    assert json.loads(payload) == {
        "content": "和 <@1>",
        "components": [button("a", "A")],
        "attachments": [{"id": 0, "filename": "hand.png"}],
        # Names may hold mentions; nothing a picture message says pings anyone.
        "allowed_mentions": {"parse": []},
    }
    file_head, picture = parts[2].split(b"\r\n\r\n", 1)
    assert b'name="files[0]"; filename="hand.png"' in file_head
    assert b"Content-Type: image/png" in file_head
    assert picture == FIRST + b"\r\n"


def test_a_file_name_that_needs_quoting_is_refused() -> None:
    with pytest.raises(ValueError, match="file name"):
        PictureMessage("x", FIRST, 'a".png')


async def test_a_dm_by_its_route_then_a_click_answered_followed_up_edited_and_deleted(
    fake: FakeDiscord, guild: Guild, bot: Bot
) -> None:
    alice = Driver(fake).join(guild, "alice")
    user = await bot.fetch_user(alice.id)
    dm = await user.create_dm()
    sent = await send_to_channel(
        dm, PictureMessage("your turn", FIRST, "hand.png", [button("d", "5万")])
    )
    prompt = fake.world.messages[sent.id]
    assert prompt.content == "your turn"
    assert [a.data for a in prompt.attachments] == [FIRST]
    assert (await alice.next_notification()).id == sent.id

    handle = await alice.click(prompt, label="5万")
    interaction = await bot.interactions.get()
    await answer_click(interaction, PictureMessage(f"discarded <@{alice.id}>", SECOND, "hand.png"))
    callback = await handle.response()
    assert callback.type == 7
    assert interaction.response.is_done()
    answered = fake.world.messages[sent.id]
    assert answered.content == f"discarded <@{alice.id}>"
    assert [a.data for a in answered.attachments] == [SECOND]
    assert answered.buttons() == []
    assert answered.mentions == []

    followed = await follow_up(
        interaction, PictureMessage("claim?", THIRD, "hand.png", [button("p", "过")])
    )
    assert (await alice.next_notification()).id == followed.id
    assert followed.channel.id == dm.id
    assert [a.data for a in fake.world.messages[followed.id].attachments] == [THIRD]

    await edit_by_token(interaction, ORIGINAL, PictureMessage("old prompt", FIRST, "hand.png"))
    await edit_by_token(interaction, followed.id, PictureMessage("edited", SECOND, "hand.png"))
    assert fake.world.messages[sent.id].content == "old prompt"
    assert fake.world.messages[followed.id].content == "edited"
    assert fake.world.messages[followed.id].buttons() == []

    await delete_by_token(interaction, ORIGINAL)
    assert fake.world.messages[sent.id].deleted
    await edit_in_channel(followed, PictureMessage("by the channel", FIRST, "hand.png"))
    assert fake.world.messages[followed.id].content == "by the channel"
    with pytest.raises(discord.NotFound):
        await delete_by_token(interaction, sent.id)


# -- token routes against a server written here ----------------------------------------


def stand_in(session: DiscordSession) -> Any:
    """What the token routes read of an interaction: its ids, token and client."""
    http = SimpleNamespace(_HTTPClient__session=session, user_agent="DiscordBot (test, 1)")
    client = SimpleNamespace(
        http=http,
        get_partial_messageable=lambda id: discord.PartialMessageable(state=None, id=id),  # type: ignore[arg-type]
    )
    return SimpleNamespace(id=1, token="tok", application_id=2, client=client)


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picture_messages, "server_error_pause", lambda attempt: 0.01)


async def against(server: RawServer, *calls: Any) -> list[Any]:
    """Run token requests against ``server`` through the bot's client."""
    session = DiscordSession(aiohttp.ClientSession(), None, user_agent="DiscordBot (test, 1)")
    interaction = stand_in(session)
    try:
        with pointed_at(server.url + "/api/v10", "ws://127.0.0.1:1"):
            return [await call(interaction) for call in calls]
    finally:
        await session.close()


def message_answer(status: str = "200 OK", *headers: str) -> bytes:
    return answer(b'{"id": "5", "channel_id": "6"}', *headers, status=status)


async def test_a_follow_up_names_the_bot_and_reads_only_the_id() -> None:
    async with serving(each_request(message_answer())) as server:
        (sent,) = await against(
            server, lambda i: follow_up(i, PictureMessage("x", FIRST, "hand.png"))
        )
    assert (sent.id, sent.channel.id) == (5, 6)
    head = server.requests[0].split(b"\r\n\r\n")[0].decode()
    assert head.startswith("POST /api/v10/webhooks/2/tok?wait=true HTTP/1.1")
    assert "User-Agent: DiscordBot (test, 1)" in head.split("\r\n")
    # A token route is no bot request: it carries no bot token.
    assert "Authorization" not in head


@pytest.mark.parametrize(
    ("status", "error", "code"),
    [
        ("403 Forbidden", discord.Forbidden, 50007),
        ("404 Not Found", discord.NotFound, 10008),
        ("400 Bad Request", discord.HTTPException, 50035),
    ],
)
async def test_errors_are_discord_pys(status: str, error: type[Exception], code: int) -> None:
    body = json.dumps({"code": code, "message": "no"}).encode()
    async with serving(each_request(answer(body, status=status))) as server:
        with pytest.raises(error) as raised:
            await against(server, lambda i: delete_by_token(i, 9))
    assert isinstance(raised.value, discord.HTTPException)
    assert raised.value.code == code
    assert len(server.requests) == 1


async def test_a_429_from_discord_is_waited_out_and_one_from_elsewhere_raised() -> None:
    limited = answer(
        b'{"retry_after": 0.05, "global": false}', "Via: 1.1 google", status="429 Too Many Requests"
    )
    replies = iter([limited, message_answer()])
    async with serving(each_request(lambda request: next(replies))) as server:
        started = time.monotonic()
        (sent,) = await against(
            server, lambda i: follow_up(i, PictureMessage("x", FIRST, "hand.png"))
        )
    assert sent.id == 5
    assert len(server.requests) == 2
    assert time.monotonic() - started >= 0.05
    # The same request went again, its picture whole.
    assert (
        server.requests[0].split(b"\r\n\r\n", 1)[1] == server.requests[1].split(b"\r\n\r\n", 1)[1]
    )

    page = b"<html>banned</html>"
    cloudflare = (
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/html\r\n"
        + f"Content-Length: {len(page)}\r\n\r\n".encode()
        + page
    )
    async with serving(each_request(cloudflare)) as server:
        with pytest.raises(discord.HTTPException) as raised:
            await against(server, lambda i: delete_by_token(i, ORIGINAL))
    assert raised.value.status == 429
    assert len(server.requests) == 1


@pytest.mark.usefixtures("quick_retries")
async def test_a_server_error_is_tried_again_five_times_at_most() -> None:
    replies = iter([answer(b"{}", status="502 Bad Gateway"), message_answer()])
    async with serving(each_request(lambda request: next(replies))) as server:
        (sent,) = await against(
            server, lambda i: follow_up(i, PictureMessage("x", FIRST, "hand.png"))
        )
    assert sent.id == 5 and len(server.requests) == 2

    async with serving(each_request(answer(b"{}", status="503 Service Unavailable"))) as server:
        with pytest.raises(discord.DiscordServerError):
            await against(server, lambda i: delete_by_token(i, 9))
    assert len(server.requests) == picture_messages.ATTEMPTS


async def test_an_emptied_bucket_holds_the_tokens_next_request() -> None:
    emptied = answer(
        b"", "X-Ratelimit-Remaining: 0", "X-Ratelimit-Reset-After: 0.2", status="204 No Content"
    )
    async with serving(each_request(emptied)) as server:
        session = DiscordSession(aiohttp.ClientSession(), None)
        interaction = stand_in(session)
        try:
            with pointed_at(server.url + "/api/v10", "ws://127.0.0.1:1"):
                first = asyncio.create_task(delete_by_token(interaction, 1))
                await asyncio.sleep(0.05)
                second = asyncio.create_task(delete_by_token(interaction, 2))
                started = time.monotonic()
                await asyncio.gather(first, second)
        finally:
            await session.close()
    assert len(server.requests) == 2
    assert time.monotonic() - started >= 0.14
