"""Reading Discord REST requests and writing answers the way discord.py expects them."""

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from fakediscord import errors
from fakediscord.messaging import MessageBody, Upload
from fakediscord.slowmode import Slowmode
from fakediscord.world import World

WORLD = web.AppKey("world", World)
SLOWMODE = web.AppKey("slowmode", Slowmode)
FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py reads the body as text if a charset follows.
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return web.Response(status=status, body=body, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def world_of(request: web.Request) -> World:
    return request.app[WORLD]


def slowmode_of(request: web.Request) -> Slowmode:
    return request.app[SLOWMODE]


def snowflake(request: web.Request, name: str) -> int:
    raw = request.match_info[name]
    if not raw.isdigit():
        raise errors.not_found()
    return int(raw)


def flag_param(request: web.Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("1", "true")


async def read_json(request: web.Request) -> dict[str, Any]:
    raw = await request.read()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise errors.APIError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(data, dict):
        raise errors.APIError(400, 50035, "Invalid Form Body")
    return data


async def read_message_body(request: web.Request) -> MessageBody:
    """JSON, or multipart with `payload_json` and `files[n]` parts as discord.py sends."""
    if not request.content_type.startswith("multipart/"):
        return MessageBody(await read_json(request))
    fields: dict[str, Any] = {}
    uploads: list[Upload] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        data = await part.read(decode=False)
        match = FILE_FIELD.match(part.name or "")
        if part.name == "payload_json":
            fields = json.loads(data)
        elif match:
            uploads.append(Upload(int(match.group(1)), part.filename or "file", bytes(data)))
    return MessageBody(fields, uploads)
