"""Secrets kept out of the log: the bot's token and every interaction's token.

discord.py logs each request's URL at DEBUG, and an interaction's callback and follow-up
URLs carry its token; the gateway's DEBUG lines carry whole events, tokens included.
Anyone holding such a token can answer as the bot for 15 minutes, so the log never
shows one, at any level.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

REDACTED = "<redacted>"
_PATTERNS = (
    # /interactions/{id}/{token}/callback and /webhooks/{application}/{token}/...
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+"),
    # "token": "…" in an event's JSON or its Python repr.
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
)


class SecretFilter(logging.Filter):
    """Rewrites every record that passes a handler so that no token is left in it."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets = tuple(s for s in secrets if s)

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        for pattern in _PATTERNS:
            text = pattern.sub(rf"\g<1>{REDACTED}", text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True
