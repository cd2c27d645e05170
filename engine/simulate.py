"""``python -m engine.simulate --variant V --hands N --seed S [--ai LEVEL]``.

Plays N hands with four AI seats (sessions of the rule set's planned length, one after
another) and prints hands per second, win rates by seat, the average winning score, the
draw rate and the rule set's own figures (``RuleSet.hand_statistics``, added up over the
hands, and ``RuleSet.simulation_notes``); long runs show a progress bar on standard
error. Every hand is checked: tile conservation, payments summing to zero, and replaying
its round script rebuilding the same final state. A rule set that is not implemented yet
is reported as unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, overload

from engine.actions import Action
from engine.ai import LEVELS, Player, make_player
from engine.round import Round
from engine.rules.base import RuleError
from engine.rules.play import Figure, RuleSet
from engine.rules.registry import VARIANTS, find_ruleset
from engine.session import Session, hand_seed
from engine.tiles import counts_of

_PROGRESS_FROM = 200  # runs at least this long show a progress bar


class PromptChoices(Sequence[Action]):
    """A seat's legal answers to a set-up prompt, listed only if someone iterates them:
    a 换三张 has hundreds, and a player that knows its pick only asks ``in``."""

    def __init__(self, rnd: Round, seat: int) -> None:
        self._round = rnd
        self._seat = seat
        self._listed: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._listed is None:
            self._listed = self._round.legal_actions(self._seat)
        return self._listed

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Action)
            and action.seat == self._seat
            and self._round.is_legal(action)
        )

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._list()[index]

    def __len__(self) -> int:
        return len(self._list())


def play_out(
    rnd: Round,
    players: Sequence[Player],
    after: Callable[[Round, Action], None] | None = None,
) -> Round:
    """Let ``players`` (one per seat of the hand) play ``rnd`` to its end; ``after`` is
    told of every action once it is applied."""
    while not rnd.ended:
        seat = rnd.to_act()[0]
        if rnd.prompt is not None:
            choices: Sequence[Action] = PromptChoices(rnd, seat)
        else:
            choices = rnd.legal_actions(seat)
            if len(choices) == 1:
                action = choices[0]
                rnd.apply(action)
                if after is not None:
                    after(rnd, action)
                continue
        action = players[seat].choose(rnd.view(seat), choices, rnd.default_action(seat))
        rnd.apply(action)
        if after is not None:
            after(rnd, action)
    return rnd


def check_hand(rnd: Round) -> list[str]:
    """The invariants every finished hand keeps; returns what is broken."""
    problems = []
    if rnd.tile_census() != counts_of(rnd.ruleset.tiles):
        problems.append("tiles are not conserved")
    if sum(rnd.ledger.nets()) != 0:
        problems.append("payments do not sum to zero")
    again = Round.from_script(rnd.to_script(), ruleset=rnd.ruleset)
    if again.snapshot() != rnd.snapshot():
        problems.append("replaying the round script does not rebuild the same state")
    return problems


@dataclass(slots=True)
class Tally:
    """One of the rule set's figures, added up over the hands (see ``Figure``)."""

    amount: float = 0.0
    out_of: float = 0.0
    percent: bool = False

    def add(self, figure: Figure) -> None:
        self.amount += figure.amount
        self.out_of += figure.out_of
        self.percent = figure.percent

    @property
    def value(self) -> float | None:
        """The ratio, rounded; None when no hand counted."""
        return round(self.amount / self.out_of, 4) if self.out_of else None


@dataclass(slots=True)
class Stats:
    """What a simulation counts."""

    variant: str
    levels: tuple[str, ...]
    hands: int = 0
    seconds: float = 0.0
    wins_by_seat: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    wins_by_chair: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    net_by_chair: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    win_totals: int = 0
    wins: int = 0
    draws: int = 0
    failures: list[str] = field(default_factory=list)
    # The rule set's figures of each hand and its figures of the whole run, by label.
    figures: dict[str, Tally] = field(default_factory=dict)
    notes: dict[str, float] = field(default_factory=dict)

    def add_figures(self, figures: Mapping[str, Figure]) -> None:
        for label, figure in figures.items():
            self.figures.setdefault(label, Tally()).add(figure)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "ai": list(self.levels),
            "hands": self.hands,
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "win_rate_by_seat": [round(w / max(1, self.hands), 4) for w in self.wins_by_seat],
            "win_rate_by_chair": [round(w / max(1, self.hands), 4) for w in self.wins_by_chair],
            "net_by_chair": self.net_by_chair,
            "average_winning_score": round(self.win_totals / self.wins, 2) if self.wins else None,
            "draw_rate": round(self.draws / max(1, self.hands), 4),
            "figures": {label: tally.value for label, tally in self.figures.items()},
            "notes": {label: round(value, 4) for label, value in self.notes.items()},
            "failures": self.failures,
        }


def _progress(done: int, total: int, out: TextIO) -> None:
    width = 30
    filled = width * done // total
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        out.write("\n")
    out.flush()


def simulate(
    ruleset: RuleSet[Any],
    hands: int,
    seed: int,
    levels: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    check: bool = True,
    progress: TextIO | None = None,
) -> Stats:
    """Play ``hands`` hands; ``levels`` are the AI levels of chairs 0-3 (a player's fixed
    place; seats follow the dealer). Wins are counted both by seat and by chair."""
    stats = Stats(ruleset.variant, tuple(levels))
    players = [
        make_player(level, hand_seed(seed, -1 - chair)) for chair, level in enumerate(levels)
    ]
    session_number = 0
    session: Session | None = None
    step = max(1, hands // 100)
    start = time.perf_counter()
    while stats.hands < hands:
        if session is None or session.over:
            session_number += 1
            session = Session(ruleset, options, f"{seed}:{session_number}")
        rnd = session.start_hand()
        seated = [players[session.chair_of(seat)] for seat in range(4)]
        play_out(rnd, seated)
        if check:
            stats.failures.extend(
                f"hand {stats.hands + 1}: {problem}" for problem in check_hand(rnd)
            )
        stats.add_figures(ruleset.hand_statistics(rnd))
        record = session.finish_hand()
        stats.hands += 1
        for win in rnd.wins:
            stats.wins_by_seat[win.seat] += 1
            stats.wins_by_chair[(win.seat + record.dealer) % 4] += 1
            stats.win_totals += win.score.total
            stats.wins += 1
        for chair, net in enumerate(record.net):
            stats.net_by_chair[chair] += net
        if not rnd.wins:
            stats.draws += 1
        if progress is not None and hands >= _PROGRESS_FROM and stats.hands % step == 0:
            _progress(stats.hands, hands, progress)
    stats.seconds = time.perf_counter() - start
    stats.notes = dict(ruleset.simulation_notes(ruleset.read_options(options or {}), hands, seed))
    return stats


def _report(stats: Stats) -> str:
    data = stats.to_json()
    rate = data["hands_per_second"]
    lines = [
        f"{stats.variant}: {stats.hands} hands in {stats.seconds:.2f} s ({rate} hands/s), "
        f"AI {', '.join(stats.levels)}",
        "  win rate by seat (0 = dealer): "
        + "  ".join(f"{seat}: {r:.1%}" for seat, r in enumerate(data["win_rate_by_seat"])),
        "  win rate by chair (AI):        "
        + "  ".join(f"{chair}: {r:.1%}" for chair, r in enumerate(data["win_rate_by_chair"])),
        "  net by chair:                  "
        + "  ".join(f"{chair}: {n}" for chair, n in enumerate(stats.net_by_chair)),
        f"  average winning score: {data['average_winning_score']}",
        f"  draw rate: {data['draw_rate']:.1%}",
    ]
    for label, tally in stats.figures.items():
        value = tally.value
        shown = "-" if value is None else f"{value:.1%}" if tally.percent else f"{value}"
        lines.append(f"  {label}: {shown}")
    lines.extend(f"  {label}: {value}" for label, value in data["notes"].items())
    lines.append(
        f"  checks: {'all passed' if not stats.failures else f'{len(stats.failures)} failed'}"
    )
    lines.extend(f"    {f}" for f in stats.failures[:10])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--variant", required=True, choices=[*VARIANTS, "all"])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ai",
        default="normal",
        help=f"one level for every seat, or four separated by commas ({', '.join(LEVELS)})",
    )
    parser.add_argument("--options", default="{}", help="table options as a JSON object")
    parser.add_argument("--no-check", action="store_true", help="skip the per-hand checks")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    levels = args.ai.split(",")
    if len(levels) == 1:
        levels *= 4
    if len(levels) != 4 or any(level not in LEVELS for level in levels):
        parser.error(f"--ai takes one level or four, each one of {', '.join(LEVELS)}")
    options = json.loads(args.options)
    failed = False
    requested = args.variant
    for variant in VARIANTS if requested == "all" else (requested,):
        try:
            ruleset = find_ruleset(variant)
            ruleset.read_options(options)
        except RuleError as exc:
            unavailable = {"variant": variant, "unavailable": str(exc)}
            print(json.dumps(unavailable) if args.json else f"{variant}: unavailable ({exc})")
            continue
        stats = simulate(
            ruleset,
            args.hands,
            args.seed,
            levels,
            options=options,
            check=not args.no_check,
            progress=sys.stderr,
        )
        failed = failed or bool(stats.failures)
        print(json.dumps(stats.to_json()) if args.json else _report(stats))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
