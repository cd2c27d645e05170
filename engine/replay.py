"""Round scripts (Contract 2): ``python -m engine.replay FILE``.

Plays a round script through the engine and prints one JSON object: the result on
success (exit 0), ``{"ok": false, "error", "action_index", "seat"}`` for an illegal action
(exit 1), ``{"ok": false, "error"}`` for a script that is not valid (exit 2). ``FILE`` may
be ``-`` for standard input. :func:`round_script` is how the bot stores a live round.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from engine.errors import IllegalActionError, ScriptError
from engine.round import Round
from engine.rules.base import RuleError
from engine.tiles import NotationError

EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


def round_script(rnd: Round) -> dict[str, Any]:
    """The round script of a live or finished round: replaying it rebuilds the round."""
    return rnd.to_script()


def replay(script: Any) -> tuple[int, dict[str, Any]]:
    """Play a decoded round script; returns the exit code and the JSON answer."""
    try:
        rnd = Round.from_script(script)
        # A window still open when the actions run out: its silent seats have passed.
        rnd.close_window()
    except IllegalActionError as exc:
        return EXIT_ILLEGAL, {
            "ok": False,
            "error": exc.message,
            "action_index": exc.index,
            "seat": exc.seat,
        }
    except (ScriptError, RuleError, NotationError) as exc:
        return EXIT_INVALID, {"ok": False, "error": str(exc)}
    return EXIT_OK, rnd.result()


def _read(path: str, stdin: TextIO) -> Any:
    text = stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    return json.loads(text)


def main(
    argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        stdout.write(
            json.dumps({"ok": False, "error": "usage: python -m engine.replay FILE"}) + "\n"
        )
        return EXIT_INVALID
    try:
        script = _read(args[0], stdin)
    except OSError as exc:
        code, answer = (
            EXIT_INVALID,
            {"ok": False, "error": f"cannot read {args[0]}: {exc.strerror}"},
        )
    except UnicodeDecodeError as exc:
        code, answer = (
            EXIT_INVALID,
            {"ok": False, "error": f"not UTF-8 text: byte {exc.start} cannot be read"},
        )
    except json.JSONDecodeError as exc:
        code, answer = (
            EXIT_INVALID,
            {
                "ok": False,
                "error": f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            },
        )
    except RecursionError:
        code, answer = (EXIT_INVALID, {"ok": False, "error": "invalid JSON: nested too deeply"})
    except ValueError as exc:
        # Python refuses to read an integer of thousands of digits.
        code, answer = (EXIT_INVALID, {"ok": False, "error": f"invalid JSON: {exc}"})
    else:
        code, answer = (
            replay(script)
            if isinstance(script, Mapping)
            else (
                EXIT_INVALID,
                {"ok": False, "error": "a round script must be a JSON object"},
            )
        )
    stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
