"""Claim windows (after a discard) and rob windows (after an added kong): what each seat
may answer, the pass restrictions the answers leave, and what the window carries out once
every seat has answered.

Everything here decides without changing the hand; the round (``engine.round``) opens a
window, collects its answers and carries out its outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, Chow, Kong, Pass, Pong, Win
from engine.errors import Refusal
from engine.events import Restricted
from engine.rules.play import HandState, PassRules, ScoredWin, WinHow, WinLock, seats_after
from engine.tiles import suit, tile_str

SEATS = 4


@dataclass(slots=True)
class Offer:
    """What one seat may answer in a window."""

    win: ScoredWin | None = None
    kong: bool = False
    pong: bool = False
    chows: tuple[tuple[int, int, int], ...] = ()
    # Claims the seat could make but a rule or a pass restriction withholds ("win",
    # "pong", "kong"), each with the refusal the seat gets if it tries the claim.
    withheld: dict[str, Refusal] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        return self.win is not None or self.kong or self.pong or bool(self.chows)

    def blocked(self) -> tuple[tuple[str, str], ...]:
        """The withheld claims as the seat is told them: (claim, reason) pairs. A kong
        withheld along with its pong is told once, as the pong."""
        return tuple(
            (claim, refusal.reason)
            for claim, refusal in self.withheld.items()
            if claim != "kong" or "pong" not in self.withheld
        )

    def options(self) -> tuple[str, ...]:
        out = []
        if self.win is not None:
            out.append("win")
        if self.kong:
            out.append("kong")
        if self.pong:
            out.append("pong")
        if self.chows:
            out.append("chow")
        return tuple(out)

    def actions(self, seat: int, tile: int) -> list[Action]:
        """The seat's legal answers on ``tile``, passing last."""
        out: list[Action] = []
        if self.win is not None:
            out.append(Win(seat))
        if self.kong:
            out.append(Kong(seat, tile))
        if self.pong:
            out.append(Pong(seat))
        out.extend(Chow(seat, c) for c in self.chows)
        out.append(Pass(seat))
        return out


@dataclass(slots=True)
class Window:
    """An open claim window (after a discard) or rob window (after an added kong)."""

    tile: int
    from_seat: int
    rob: bool
    offers: dict[int, Offer]
    answers: dict[int, Action] = field(default_factory=dict)
    # Every seat's withheld claims, kept for seats that have nothing left to answer too.
    withheld: dict[int, dict[str, Refusal]] = field(default_factory=dict)

    def pending(self) -> list[int]:
        return [s for s in self.offers if s not in self.answers]

    def withheld_refusal(self, action: Action) -> Refusal | None:
        """The refusal a rule or pass restriction gave ``action``'s claim on the window's
        tile, if it withheld that claim."""
        if isinstance(action, Kong) and action.tile != self.tile:
            return None
        withheld = self.withheld.get(action.seat)
        return None if withheld is None else withheld.get(action.name)

    @property
    def taken(self) -> bool:
        """Some seat answered other than by passing: the tile is won or claimed."""
        return any(not isinstance(answer, Pass) for answer in self.answers.values())

    def winners(self, multiple_winners: bool) -> list[ScoredWin]:
        """The wins answered, in turn order from the discarder (or robbed seat); only
        the first unless the rule set lets several win (截和)."""
        wins = [
            offer.win
            for s in seats_after(self.from_seat)
            if (offer := self.offers.get(s)) is not None
            and offer.win is not None
            and isinstance(self.answers.get(s), Win)
        ]
        return wins if multiple_winners else wins[:1]

    def claim(self) -> Action | None:
        """The claim that takes an unwon discard: a kong or pong before any chow, each in
        turn order from the discarder; None when every seat passed."""
        order = seats_after(self.from_seat)
        for s in order:
            answer = self.answers.get(s)
            if isinstance(answer, Kong | Pong):
                return answer
        for s in order:
            answer = self.answers.get(s)
            if isinstance(answer, Chow):
                return answer
        return None


@dataclass(slots=True)
class PassLocks:
    """The pass restrictions in force, each until its seat's next draw: kinds a seat may
    not pong (过碰), and the value of the best win it declined (过胡, 过水不胡)."""

    pongs: list[set[int]] = field(default_factory=lambda: [set() for _ in range(SEATS)])
    wins: list[int | None] = field(default_factory=lambda: [None] * SEATS)

    def clear(self, seat: int) -> bool:
        """Lift the seat's restrictions (it drew); whether it had any."""
        had = bool(self.pongs[seat]) or self.wins[seat] is not None
        self.pongs[seat].clear()
        self.wins[seat] = None
        return had

    def pong_refusal(self, seat: int, tile: int) -> Refusal | None:
        if tile not in self.pongs[seat]:
            return None
        return Refusal(
            "pass_pong",
            f"seat {seat} passed a pong of {tile_str(tile)} and may not pong "
            f"{tile_str(tile)} until it draws",
        )

    def win_refusal(self, seat: int, value: int, lock: WinLock) -> Refusal | None:
        """Why a win worth ``value`` on a discard or robbed kong is withheld, if it is."""
        passed = self.wins[seat]
        if passed is None:
            return None
        if lock is WinLock.ALL:
            return Refusal(
                "pass_win",
                f"seat {seat} passed a win and may not win on a discard or rob a kong "
                "until it draws",
            )
        if value <= passed:
            return Refusal(
                "pass_win",
                f"seat {seat} passed a win worth {passed} and until it draws may only win on "
                f"a discard or a robbed kong worth more; this one is worth {value}",
            )
        return None

    def record(self, window: Window, rules: PassRules) -> list[Restricted]:
        """Restrict each seat that declined what the window offered it; the events that
        tell it so."""
        told = []
        for seat, offer in window.offers.items():
            answer = window.answers.get(seat)
            if (
                offer.win is not None
                and not isinstance(answer, Win)
                and rules.win_lock is not WinLock.NONE
            ):
                value = offer.win.score.compare_value
                old = self.wins[seat]
                self.wins[seat] = value if old is None else max(old, value)
                told.append(Restricted(seat, "pass_win", window.tile, value))
            if offer.pong and isinstance(answer, Pass) and rules.pong_lock:
                self.pongs[seat].add(window.tile)
                told.append(Restricted(seat, "pass_pong", window.tile))
        return told


def win_offer(
    state: HandState[Any],
    locks: PassLocks,
    seat: int,
    tile: int,
    how: WinHow,
    withheld: dict[str, Refusal],
) -> ScoredWin | None:
    """The win ``seat`` may claim with ``tile`` (discarded or robbed), if any. A win that
    the rule set or a pass restriction withholds is noted in ``withheld``."""
    rules = state.ruleset
    counts = list(state.concealed(seat))
    counts[tile] += 1
    if not rules.is_complete(state, seat, counts, tile, how):
        return None
    ctx = state.win_context(seat, tile, how)
    score = rules.score_win(state, ctx)
    refusal = rules.refuse_win(state, ctx, score) or locks.win_refusal(
        seat, score.compare_value, rules.pass_rules.win_lock
    )
    if refusal is not None:
        withheld["win"] = refusal
        return None
    return ScoredWin(ctx, score)


def discard_offer(
    state: HandState[Any],
    locks: PassLocks,
    may_be_ready: Callable[[int], bool],
    seat: int,
    discarder: int,
    tile: int,
) -> Offer:
    """What ``seat`` may answer to ``discarder``'s discard of ``tile``."""
    offer = Offer()
    if not state.is_active(seat):
        return offer
    if may_be_ready(seat):
        offer.win = win_offer(state, locks, seat, tile, WinHow.DISCARD, offer.withheld)
    if state.live_count == 0 or state.ready(seat) is not None:
        return offer
    held = state.concealed(seat)[tile]
    rules = state.ruleset
    if held >= 2:
        refusal = rules.refuse_meld(state, seat, tile, "pong") or locks.pong_refusal(seat, tile)
        if refusal is not None:
            offer.withheld["pong"] = refusal
        else:
            offer.pong = True
    if held == 3:
        refusal = rules.refuse_meld(state, seat, tile, "kong")
        if refusal is not None:
            offer.withheld["kong"] = refusal
        else:
            offer.kong = True
    if rules.allows_chow and seat == (discarder + 1) % SEATS:
        offer.chows = chows(state, seat, tile)
    return offer


def rob_offer(
    state: HandState[Any],
    locks: PassLocks,
    may_be_ready: Callable[[int], bool],
    seat: int,
    tile: int,
) -> Offer:
    """What ``seat`` may answer to a kong being added with ``tile``: a win, or nothing."""
    offer = Offer()
    if state.is_active(seat) and may_be_ready(seat):
        offer.win = win_offer(state, locks, seat, tile, WinHow.ROB_KONG, offer.withheld)
    return offer


def chows(state: HandState[Any], seat: int, tile: int) -> tuple[tuple[int, int, int], ...]:
    """Every chow ``seat`` may make with ``tile``, lowest first."""
    if tile >= 27:
        return ()
    hand = state.concealed(seat)
    out = []
    for low in (tile - 2, tile - 1, tile):
        if low < 0 or suit(low) != suit(tile) or low + 2 >= 27 or suit(low + 2) != suit(tile):
            continue
        others = [k for k in (low, low + 1, low + 2) if k != tile]
        if all(hand[k] for k in others) and (
            state.ruleset.refuse_meld(state, seat, low, "chow") is None
        ):
            out.append((low, low + 1, low + 2))
    return tuple(out)
