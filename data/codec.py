"""JSON as stored in TEXT columns: compact, UTF-8 kept readable."""

from __future__ import annotations

import json
from typing import Any


def dump_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_json(text: str) -> Any:
    return json.loads(text)
