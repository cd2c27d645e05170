"""No token in the log, at any level: the bot's, and each interaction's, as discord.py
logs them at DEBUG (request URLs, gateway events) and in errors."""

from __future__ import annotations

import io
import logging
from pathlib import Path

from bot.redaction import REDACTED, SecretFilter
from tests.bot.harness import running_harness
from tests.bot.test_e2e_failures import next_controls, start_with_ai


def test_tokens_in_urls_events_and_tracebacks_are_redacted() -> None:
    secrets = SecretFilter(["bot.secret.token"])
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(secrets)
    log = logging.getLogger("tests.redaction")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("POST %s", "https://x/api/v10/interactions/12/aW50ZXJhY3Rpb24/callback")
        log.warning("event %s", {"t": "INTERACTION_CREATE", "d": {"token": "aW50ZXJh", "id": 1}})
        log.warning('{"token": "aW50ZXJh"} and /webhooks/34/aW50ZXJh/messages/@original')
        try:
            raise RuntimeError("Authorization: Bot bot.secret.token")
        except RuntimeError:
            log.exception("login failed")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert "aW50ZXJh" not in text and "bot.secret.token" not in text
    assert text.count(REDACTED) == 6


async def test_no_token_reaches_the_log_while_a_table_plays(tmp_path: Path) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    level = root.level
    async with running_harness(tmp_path) as harness:
        handler.addFilter(SecretFilter([harness.fake.token]))
        root.addHandler(handler)
        root.setLevel(logging.DEBUG)
        try:
            await start_with_ai(harness)
            prompt = await next_controls(harness, harness.owner)
            select = prompt.selects()[0]
            values = [o["value"] for o in select["options"]][: select.get("min_values", 1)]
            chosen = await harness.owner.choose(prompt, *values, custom_id=select["custom_id"])
            await chosen.response()
        finally:
            root.removeHandler(handler)
            root.setLevel(level)
        tokens = [i.token for i in harness.fake.world.interactions.values()]
    text = stream.getvalue()
    assert "/interactions/" in text and REDACTED in text, "the requests were logged"
    assert harness.fake.token not in text
    assert tokens and not [token for token in tokens if token in text]
