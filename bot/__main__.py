"""Start the bot: ``python -m bot`` (``make run``)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.settings import Settings, SettingsError, load_dotenv


def main() -> int:
    load_dotenv(Path(".env"))
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bot.launcher import run

    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main())
