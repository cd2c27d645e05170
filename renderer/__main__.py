"""Command line: draw a hand, a table, a settlement or a row of tiles to a PNG file.

    python -m renderer hand "123m456p[777s]" --drawn 5m --out hand.png
    python -m renderer table table.json --out table.png
    python -m renderer settlement settlement.json --out settlement.png
    python -m renderer tiles "19m19p19s1234567z"
    python -m renderer round round.json --picture settlement --out settlement.png

A round script (``docs/round-scripts.md``) is played through the engine first: ``table``
draws the table after its last action (every hand face up once the hand is over, else as
``--seat`` sees it), ``settlement`` the settlement of the finished hand.

``--out`` defaults to ``<command>.png``; ``--out -`` writes the PNG to standard output.
The JSON forms are described in ``renderer.loaders``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.errors import IllegalActionError, ScriptError
from engine.round import Round
from engine.rules.base import RuleError
from engine.tiles import NotationError, parse_hand, parse_tile, parse_tiles
from renderer import engine_views, loaders
from renderer.fonts import FontNotFoundError
from renderer.hand import render_hand, render_tiles
from renderer.models import HandView, Labels
from renderer.settlement import render_settlement
from renderer.table import render_table

_VOID_SUITS = {"m": 0, "p": 1, "s": 2}


def _hand_view(args: argparse.Namespace) -> HandView:
    spec = parse_hand(args.hand)
    return HandView(
        concealed=spec.concealed,
        drawn=parse_tile(args.drawn) if args.drawn else None,
        melds=spec.melds,
        legal_discards=frozenset(parse_tiles(args.legal)) if args.legal else None,
        void_suit=_VOID_SUITS[args.void] if args.void else None,
        waits=tuple(parse_tiles(args.waits)) if args.waits else (),
        wildcard=parse_tile(args.wildcard) if args.wildcard else None,
        title=args.title,
    )


def _render_round(args: argparse.Namespace) -> bytes:
    hand = Round.from_script(loaders.load(args.file))
    # Seats that had not answered the last claim window when the actions ran out passed.
    hand.close_window()
    names = [f"{Labels().winds[s]} {s}" for s in range(4)]
    if args.picture == "settlement":
        if not hand.ended:
            raise ScriptError("the hand has not ended, so there is no settlement to draw")
        return render_settlement(engine_views.settlement_view(hand, names, Labels(), ""))
    seat = None if hand.ended else args.seat
    view = hand.view(seat, reveal=frozenset(range(4))) if seat is None else hand.view(seat)
    seats = [
        engine_views.SeatText(name, net)
        for name, net in zip(names, hand.ledger.nets(), strict=True)
    ]
    table = engine_views.table_view(view, seats, Labels(), "", args.seat)
    return render_table(table)


def _render(args: argparse.Namespace) -> bytes:
    if args.command == "hand":
        return render_hand(_hand_view(args))
    if args.command == "tiles":
        return render_tiles(parse_tiles(args.tiles), width=args.width)
    if args.command == "round":
        return _render_round(args)
    data = loaders.load(args.file)
    if args.command == "table":
        return render_table(loaders.table_from_json(data))
    return render_settlement(loaders.settlement_from_json(data))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m renderer", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    hand = commands.add_parser("hand", help="a player's hand, numbered, as the DM shows it")
    hand.add_argument("hand", help='concealed tiles and melds, e.g. "123m456p[777s]"')
    hand.add_argument("--drawn", help="the tile just drawn, set apart on the right")
    hand.add_argument("--legal", help="legal discards; the other tiles are dimmed")
    hand.add_argument("--void", choices=sorted(_VOID_SUITS), help="the 定缺 suit")
    hand.add_argument("--waits", help="tiles the ready hand waits on")
    hand.add_argument("--wildcard", help="the 宝牌 kind")
    hand.add_argument("--title", default="", help="a caption above the hand")
    for name, what in (("table", "a whole table"), ("settlement", "a hand's settlement")):
        sub = commands.add_parser(name, help=f"{what}, from a JSON file")
        sub.add_argument("file", help="JSON description (see renderer.loaders)")
    round_ = commands.add_parser("round", help="a round script played through the engine")
    round_.add_argument("file", help="a round script (JSON)")
    round_.add_argument("--picture", choices=("table", "settlement"), default="table")
    round_.add_argument("--seat", type=int, choices=range(4), default=0, help="the viewer")
    tiles = commands.add_parser("tiles", help="a row of tiles, as the /fan calculator shows")
    tiles.add_argument("tiles", help='tiles in notation, e.g. "19m19p19s1234567z"')
    tiles.add_argument("--width", type=int, default=48, help="tile width in pixels")
    for sub in commands.choices.values():
        sub.add_argument("--out", help="output file (default <command>.png; - for stdout)")
    return parser


def _write(data: bytes, out: str) -> None:
    if out == "-":
        sys.stdout.buffer.write(data)
        return
    with open(out, "wb") as fh:
        fh.write(data)
    print(f"{out}: {len(data)} bytes")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        _write(_render(args), args.out or f"{args.command}.png")
    except (
        NotationError,
        loaders.ViewError,
        OSError,
        ScriptError,
        RuleError,
        IllegalActionError,
    ) as exc:
        parser.error(str(exc))
    except FontNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
