"""Start the bot: ``python -m bot`` (``make run``).

``--shards 0-3 --shard-count 8`` (or ``SHARDS`` and ``SHARD_COUNT``) runs some of the
shards, as one process of a cluster (docs/scaling.md); ``python -m bot.cluster`` starts a
whole cluster.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.settings import MUST_CHANGE, Settings, SettingsError, check_font, load_dotenv


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the mahjong bot.")
    parser.add_argument(
        "--shards", help="the shards this process runs, e.g. 0-3 (default: SHARDS, or all)"
    )
    parser.add_argument(
        "--shard-count", help="how many shards the bot has in all (default: SHARD_COUNT)"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    load_dotenv(Path(".env"))
    env = dict(os.environ)
    if arguments.shards is not None:
        env["SHARDS"] = arguments.shards
    if arguments.shard_count is not None:
        env["SHARD_COUNT"] = arguments.shard_count
    try:
        settings = Settings.from_env(env)
        check_font()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return MUST_CHANGE
    from bot import collector
    from bot.launcher import run

    # Everything the bot loads to start is loaded now.
    collector.settle()
    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main())
