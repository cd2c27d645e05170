"""The "strong" level: speed, value and danger weighed together on every decision.

Each candidate discard (and each claim or kong, by the discard it leads to) is given

    utility = P(win) x value - danger

- **P(win)** from the shanten the discard leaves, the unseen copies of the tiles that
  advance it, and the tiles left in the wall.
- **value**: a ready hand is scored on each wait by the rule set's own calculator, with
  the table's options (a wait whose win would not reach MCR's minimum fan is worth
  nothing); a hand one step from ready looks one draw ahead over a sample of the unseen
  tiles that advance it, and scores the ready hands it reaches the same way, so an MCR
  hand keeps a path to its 8 fans before it is ready. Further away, the hand's shape
  counts: one suit (清一色, 混一色), pungs and pairs (对对胡, 七对), 根 (a fourth copy).
- **danger**: for each opponent still in play, how likely they are to be ready (报听,
  melds, how long the hand has run) times how likely the tile is to win for them: none
  in their 定缺 suit, little for an honor nobody can pair, less for a tile they threw
  themselves or its 筋, more in the suit their melds show. A far hand facing a ready one
  thus throws safe tiles (it folds).

Claims and kongs are judged by the same utility after the meld; in Sichuan and
Guangdong a kong that keeps the hand's speed is taken for its money. Set-up prompts
(换三张, 定缺) weigh the hand's potential: a suit held strongly enough for 清一色 is kept.
Wins are always taken. Everything is worked out from the seat's own view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.actions import Action, ChooseVoid, Chow, Discard, Kong, Pass, Pong, Win
from engine.ai.hints import ai_shapes, improving_kinds
from engine.ai.strategy import ShantenPlayer
from engine.analysis import HandShape, ShapeRules, shanten
from engine.rules.base import RuleError, TableOptions, WinFacts
from engine.rules.registry import VARIANTS, find_calculator
from engine.suggestions import keep_value, suit_strength
from engine.tiles import NUM_KINDS, HandSpec, Meld, MeldType, kinds_of
from engine.view import SeatInfo, View


@dataclass(frozen=True, slots=True)
class ValueModel:
    """How a rule set turns a win's total into points, roughly, and what dealing in
    costs: the scale that lets speed, value and danger be added up.

    A win worth ``total`` takes ``scale * base ** total + per_total * total + fixed``
    from the discarder, and ``self_drawn`` times that when self-drawn.
    """

    base: float
    scale: float
    per_total: float
    fixed: float
    self_drawn: float
    #: The total of the plainest win (what a hand far from ready is planned for).
    plain_total: int
    #: Points lost when dealing into a typical win.
    deal_in: float
    #: Whether a flush, pungs and pairs raise the value before the hand is ready.
    shapes_pay: bool
    #: Whether kongs pay at once (water money, kong settlement).
    kongs_pay: bool
    #: Whether a win must reach a minimum (MCR's 8 fans): the look-ahead checks it.
    gated: bool = False
    #: Whether a far hand folds against a ready one (not where 查叫 punishes it).
    folds: bool = True
    #: How much a tile's danger cuts a discard's score (Sichuan: a seat that deals in
    #: pays alone, and keeps paying while others are still in play).
    caution: float = 1.0
    #: What a flush multiplies a plain win by, less one (Sichuan 清一色 +2 番: x4).
    flush_gain: float = 1.0
    #: A self-drawn win's worth against the same win on a discard, where a seat may let
    #: a discard win go and still win self-drawn (Guangdong 过胡); 0 where it may not pay.
    self_draw_ratio: float = 0.0
    #: Steps from ready a kong may cost and still be made, for the money it takes at once
    #: (Sichuan: a concealed kong takes 2 from each seat still in play, more than most wins;
    #: Guangdong: 2 from each, or 3 from the discarder of a konged tile, once a hand is won).
    kong_slack: int = 0

    def points(self, total: int, self_drawn: bool) -> float:
        won = self.scale * self.base**total + self.per_total * total + self.fixed
        return won * (self.self_drawn if self_drawn else 1.0)


#: By rule set. MCR: B + F from the discarder and B from each other seat (B = 8), or
#: B + F from each when self-drawn; Sichuan doubles per 番 and every seat still in
#: play pays a self-drawn win; Guangdong pays a small hu 1 and a big hu 2 (stakes).
MODELS = {
    "mcr": ValueModel(1.0, 0.0, 1.0, 24.0, 2.0, 8, 12.0, False, False, gated=True),
    "sichuan": ValueModel(
        2.0,
        1.0,
        0.0,
        0.0,
        2.5,
        0,
        3.0,
        True,
        True,
        folds=False,
        flush_gain=3.0,
        kong_slack=1,
        caution=4.0,
    ),
    "guangdong": ValueModel(
        1.0,
        0.0,
        1.0,
        0.0,
        6.0,
        1,
        2.5,
        True,
        True,
        flush_gain=1.0,
        self_draw_ratio=6.0,
        kong_slack=1,
    ),
}
_DEFAULT_MODEL = ValueModel(1.0, 0.0, 1.0, 1.0, 2.0, 1, 2.0, False, False)

#: The look-ahead of one improving draw is spent on hands this many steps from ready.
DEEP_UP_TO = 2
#: Opponents' readiness (summed) from which a far hand weighs every tile for safety.
FOLD_PRESSURE = 0.7
#: A declared or near-certain ready opponent a far hand folds against.
FOLD_THREAT = 0.8
#: Off-suit tiles from which a flush is still worth a step of speed.
FLUSH_OFF = 2
#: Winning tiles a ready rival waits on, the chances a turn gives it (its draw and the
#: discards), and what a rival's win costs this seat on average.
RIVAL_WAITS = 6.0
RIVAL_CHANCES = 2.0
RIVAL_LOSS = 1.0
#: Tiles a seat sees per turn that could complete a ready hand (its draw and discards),
#: and tiles per turn that advance a hand not yet ready (its draw, pongs and chows).
SEEN_PER_TURN = 2.5
ADVANCE_PER_TURN = 1.3
#: The chance a ready hand waits on a given dangerous tile (about two kinds of twenty).
WAIT_SHARE = 0.15
#: Unseen winning tiles a typical ready hand has (what a hand far away is valued at).
READY_TILES = 6.0
#: What a step further from ready is worth, against the same hand a step nearer.
STEP = 0.35
#: Candidate discards given the look-ahead (the fastest first).
LOOKAHEAD_CANDIDATES = 4


@lru_cache(maxsize=64)
def calculator_options(variant: str, options: TableOptions | None, void: int | None) -> Any:
    """The calculator's options for a table's (its own 定缺 given as ``void_suit``)."""
    raw: dict[str, Any] = {} if options is None else dict(options.to_json())
    calculator = find_calculator(variant)
    names = {row.name for row in calculator.options}
    raw = {k: v for k, v in raw.items() if k in names}
    if void is not None and "void_suit" in names:
        raw["void_suit"] = "mps"[void]
    return calculator.options_type.parse(raw)


@lru_cache(maxsize=1 << 15)
def wait_values(
    variant: str,
    options: TableOptions | None,
    counts: tuple[int, ...],
    melds: tuple[Meld, ...],
    seat_wind: int,
    round_wind: int,
    wildcard: int | None,
    rules: ShapeRules,
) -> tuple[tuple[int, float], ...]:
    """A ready 13-tile hand's waits, each with the points of winning on it (the mean of a
    discard and a self-drawn win; 0 when the rule set's minimum is not reached)."""
    melded = len(melds)
    shape = HandShape(counts, melded, rules)
    if shape.value != 0:
        return ()
    model = MODELS.get(variant, _DEFAULT_MODEL)
    if variant not in VARIANTS:  # a rule set without a calculator: every win is plain
        plain = model.points(model.plain_total, False)
        return tuple((k, plain) for k, v in shape.each_change(1).items() if v < 0)
    calculator = find_calculator(variant)
    opts = calculator_options(variant, options, rules.void_suit)
    hand_kinds = tuple(kinds_of(counts))
    out = []
    for kind, after in shape.each_change(1).items():
        if after >= 0:
            continue
        worth = 0.0
        for self_drawn in (False, True):
            facts = WinFacts(
                hand=HandSpec(hand_kinds, melds),
                win_tile=kind,
                self_drawn=self_drawn,
                seat_wind=seat_wind,
                round_wind=round_wind,
                wildcard=wildcard,
            )
            try:
                result = calculator.score(facts, opts)
            except (RuleError, ValueError):
                continue
            if result.meets_minimum is False:
                continue
            worth += 0.5 * model.points(result.total, self_drawn)
        out.append((kind, worth))
    return tuple(out)


class StrongPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._base = ShantenPlayer("normal")

    # -- entry ------------------------------------------------------------------------------

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        if view.prompt is not None:
            return self._prompt(view, legal, default)
        if len(legal) == 1:
            return legal[0]
        reader = Reader(view)
        for action in legal:
            if isinstance(action, Win):
                if view.claim_tile is not None and reader.waits_for_self_draw(legal):
                    return Pass(reader.seat)
                return action
        return reader.decide(legal)

    def _prompt(self, view: View, legal: Sequence[Action], default: Action | None) -> Action:
        seat = view.viewer
        assert seat is not None
        counts = view.seats[seat].concealed
        if counts is not None and view.prompt == "void":
            wanted = ChooseVoid(seat, void_for_potential(counts))
            if wanted in legal:
                return wanted
        return self._base.choose(view, legal, default)


def void_for_potential(counts: Sequence[int]) -> int:
    """定缺 by the hand's potential: the weakest suit, keeping the strongest whole (a
    flush in the making is never the one given up)."""
    return min(range(3), key=lambda s: suit_strength(counts, s))


class Reader:
    """One decision: the seat's hand, the table's danger and the scoring of candidates."""

    def __init__(self, view: View) -> None:
        self.view = view
        seat = view.viewer
        assert seat is not None
        self.seat = seat
        me = view.seats[seat]
        assert me.concealed is not None
        self.me = me
        self.counts = list(me.concealed)
        self.melds = tuple(me.melds)
        self.melded = len(me.melds) + me.hidden_kongs
        self.rules = ai_shapes(view.shape_rules)
        self.unseen = view.unseen()
        self.unseen_total = max(1, sum(self.unseen))
        self.model = MODELS.get(view.variant, _DEFAULT_MODEL)
        active = sum(1 for s in view.seats if s.active)
        self.turns_left = max(0.5, view.live_count / max(1, active))
        self.threats = [(info, threat(info, view)) for info in view.seats if info.seat != seat]
        self.pressure = sum(t for _, t in self.threats)

    # -- the decision -----------------------------------------------------------------------

    def waits_for_self_draw(self, legal: Sequence[Action]) -> bool:
        """Whether to let a discard win go for a self-drawn one, where a self-drawn win
        pays several times more (Guangdong: 2 from each of three against 1): when this
        seat is likely to draw one of its winning tiles before anyone else wins."""
        ratio = self.model.self_draw_ratio
        if ratio <= 1.0 or Pass(self.seat) not in legal:
            return False
        waits = improving_kinds(tuple(self.counts), self.melded, self.rules)
        mine = sum(self.unseen[k] for k in waits) / self.unseen_total
        rivals = sum(t for _, t in self.threats) * RIVAL_WAITS / self.unseen_total * RIVAL_CHANCES
        step = mine + rivals
        if step <= 0:
            return False
        first = mine / step * (1.0 - float((1.0 - min(1.0, step)) ** self.turns_left))
        return first * ratio - (1.0 - first) * RIVAL_LOSS > 1.0

    def decide(self, legal: Sequence[Action]) -> Action:
        if any(isinstance(a, Discard) for a in legal):
            return self.turn(legal)
        return self.claim(legal)

    def turn(self, legal: Sequence[Action]) -> Action:
        kinds = sorted({a.tile for a in legal if isinstance(a, Discard)})
        after = HandShape(self.counts, self.melded, self.rules).each_change(-1)
        scores = self.discard_scores(self.counts, self.melds, self.melded, kinds, after)
        choice = max(kinds, key=lambda k: (scores[k], -keep_value(self.counts, k), -k))
        for action in legal:
            if isinstance(action, Kong) and self.kong_worth(action.tile, after):
                return action
        ready = Discard(self.seat, choice, declare_ready=True)
        if ready in legal and self.pressure < 1.5:
            return ready
        return Discard(self.seat, choice)

    def discard_scores(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        melded: int,
        kinds: Sequence[int],
        after: dict[int, int],
    ) -> dict[int, float]:
        """Each discard's score: its speed and value, cut by its danger; discards that
        set the hand back score below every other unless the hand folds."""
        best = min(after[k] for k in kinds)
        model = self.model
        fold = self.folding(best)
        tier = [k for k in kinds if after[k] == best]
        if model.gated and best <= 1:
            tier += [k for k in kinds if after[k] == best + 1]
        elif model.shapes_pay and best >= 1:
            main, off = main_suit(counts, melds)
            if 0 < off <= FLUSH_OFF:
                tier += [k for k in kinds if after[k] == best + 1 and k < 27 and k // 9 != main]
        # The look-ahead goes to the candidates one step from ready, the best first.
        deep: set[int] = set()
        ones = [k for k in tier if 1 <= after[k] <= DEEP_UP_TO and after[k] <= best + 1]
        if ones:
            firsts = {}
            for k in ones:
                counts[k] -= 1
                firsts[k] = sum(
                    self.unseen[i] for i in improving_kinds(tuple(counts), melded, self.rules)
                )
                counts[k] += 1
            deep = set(sorted(ones, key=lambda k: -firsts[k])[:LOOKAHEAD_CANDIDATES])
        out: dict[int, float] = {}
        for kind in kinds:
            cut = self.danger(kind)
            if fold:
                out[kind] = -cut - 0.01 * after[kind]
                continue
            if kind not in tier:
                out[kind] = -1000.0 * (after[kind] - best) - cut
                continue
            counts[kind] -= 1
            worth = self.offence(counts, melds, melded, after[kind], kind in deep)
            counts[kind] += 1
            out[kind] = worth - cut * model.caution
        return out

    def folding(self, best: int) -> bool:
        """Whether to throw only safe tiles: the hand cannot win in time against a seat
        that is most likely ready (never in Sichuan, where a hand not ready at the end
        pays 查叫)."""
        if not self.model.folds or best < 2:
            return False
        return max((t for _, t in self.threats), default=0.0) >= FOLD_THREAT or (
            best >= 3 and self.pressure >= FOLD_PRESSURE
        )

    # -- offence ----------------------------------------------------------------------------

    def offence(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        melded: int,
        sh: int,
        deep: bool,
        turns: float | None = None,
    ) -> float:
        """Expected points of a 13-tile hand: when ready, the chance of drawing or being
        thrown a winning tile in the turns left times what the waits pay; one step away
        (``deep``), the same for the ready hand each improving draw reaches; further,
        the chance of advancing times the value its shape promises."""
        turns = self.turns_left if turns is None else turns
        if sh == 0:
            return self.ready_gain(counts, melds, turns)
        improving = improving_kinds(tuple(counts), melded, self.rules)
        effective = sum(self.unseen[k] for k in improving)
        if not effective:
            return 0.0
        advance = chance(effective / self.unseen_total, turns * ADVANCE_PER_TURN, self.model.gated)
        later = max(0.5, turns * 0.6)
        if deep:
            total = 0.0
            for kind in improving:
                left = self.unseen[kind]
                if not left:
                    continue
                counts[kind] += 1
                reach = 0.0
                for out, next_sh in HandShape(counts, melded, self.rules).each_change(-1).items():
                    if next_sh == sh - 1:
                        counts[out] -= 1
                        reach = max(
                            reach, self.offence(counts, melds, melded, sh - 1, False, later)
                        )
                        counts[out] += 1
                counts[kind] -= 1
                total += left * reach
            return advance * total / effective
        typical = chance(READY_TILES / self.unseen_total, later * SEEN_PER_TURN, self.model.gated)
        return advance * STEP ** (sh - 1) * typical * self.shape_value(counts, melds)

    def ready_gain(self, counts: Sequence[int], melds: tuple[Meld, ...], turns: float) -> float:
        """A ready hand's chance to win in ``turns`` times the mean of what its waits pay
        (waits that pay nothing, below a minimum, count for nothing)."""
        waits = self.waits(counts, melds)
        good = sum(self.unseen[k] for k, v in waits if v > 0)
        if not good:
            return 0.0
        mean = sum(self.unseen[k] * v for k, v in waits if v > 0) / good
        return chance(good / self.unseen_total, turns * SEEN_PER_TURN, self.model.gated) * mean

    def waits(
        self, counts: Sequence[int], melds: tuple[Meld, ...]
    ) -> tuple[tuple[int, float], ...]:
        view = self.view
        return wait_values(
            view.variant,
            view.options,
            tuple(counts),
            melds,
            self.seat,
            view.facts.round_wind or 0,
            view.facts.wildcard,
            self.rules,
        )

    def shape_value(self, counts: Sequence[int], melds: tuple[Meld, ...]) -> float:
        """The value of a hand not near ready, by its shape: the plain win, raised for a
        flush, for pungs and pairs, and for fourth copies (根) where those pay."""
        model = self.model
        plain = 0.5 * (
            model.points(model.plain_total, False) + model.points(model.plain_total, True)
        )
        if not model.shapes_pay:
            return plain * mcr_shape_hope(counts, melds)
        bonus = 1.0
        _, off = main_suit(counts, melds)
        honors = sum(counts[27:]) + sum(3 for m in melds if m.kind >= 27)
        flush = (1.0, 0.5, 0.25, 0.1)
        if off < len(flush):
            bonus += (model.flush_gain if honors == 0 else 0.5) * flush[off]
        pairs = sum(1 for k in range(NUM_KINDS) if counts[k] >= 2)
        chows = sum(1 for m in melds if m.type is MeldType.CHOW)
        if not chows and pairs + len(melds) >= 4:
            bonus += 0.4 * (pairs + len(melds) - 3)
        if model.kongs_pay:
            bonus += 0.3 * sum(1 for k in range(NUM_KINDS) if counts[k] >= 3)
        return plain * bonus

    # -- defence ----------------------------------------------------------------------------

    def danger(self, kind: int) -> float:
        """Expected points lost by throwing ``kind`` now: the chance some seat still in
        play wins on it, times what dealing in costs."""
        if self.pressure == 0:
            return 0.0
        safe = 1.0
        for info, level in self.threats:
            if level:
                safe *= 1.0 - level * WAIT_SHARE * tile_danger(kind, info, self.view, self.unseen)
        return (1.0 - safe) * self.model.deal_in

    # -- kongs and claims -------------------------------------------------------------------

    def kong_worth(self, kind: int, after: dict[int, int]) -> bool:
        counts = self.counts
        if counts[kind] == 4:
            counts[kind] -= 4
            kept = shanten(counts, self.melded + 1, self.rules)
            counts[kind] += 4
        else:
            kept = after[kind]
        now = min(after.values())
        if kept > now + self.model.kong_slack:
            return False
        return self.model.kongs_pay or self.pressure < 1.0

    def claim(self, legal: Sequence[Action]) -> Action:
        """A meld that makes the hand faster, unless it spoils the hand's value (a flush
        in the making, MCR's path to its minimum) or opens a slow hand under threat."""
        view = self.view
        tile = view.claim_tile
        assert tile is not None
        counts = self.counts
        now = shanten(counts, self.melded, self.rules)
        model = self.model
        main, off = main_suit(counts, self.melds)
        keep: float | None = None
        best: tuple[int, float, Action] | None = None
        for action in legal:
            if isinstance(action, Kong):
                counts[tile] -= 3
                after = shanten(counts, self.melded + 1, self.rules)
                counts[tile] += 3
                if after <= now + model.kong_slack and (model.kongs_pay or after == 0):
                    return action
                continue
            if isinstance(action, Pong):
                used: tuple[int, ...] = (tile, tile)
                meld = Meld(MeldType.PUNG, tile, claimed=tile)
            elif isinstance(action, Chow):
                used = tuple(k for k in action.tiles if k != tile)
                meld = Meld(MeldType.CHOW, min(action.tiles), claimed=tile)
            else:
                continue
            if model.shapes_pay and off <= 3 and tile < 27 and tile // 9 != main:
                continue  # a flush in the making is not given up for speed
            for k in used:
                counts[k] -= 1
            melds = (*self.melds, meld)
            shape = HandShape(counts, self.melded + 1, self.rules).each_change(-1)
            kinds = [k for k in range(NUM_KINDS) if counts[k]]
            faster = min(shape[k] for k in kinds) if kinds else now
            worth = 0.0
            fits = faster < now and not (self.pressure >= FOLD_PRESSURE and faster >= 2)
            if fits and model.gated:
                if faster <= 1:
                    utilities = self.discard_scores(counts, melds, self.melded + 1, kinds, shape)
                    worth = max(utilities.values())
                    if keep is None:
                        for k in used:
                            counts[k] += 1
                        keep = self.offence(counts, self.melds, self.melded, now, now == 1)
                        for k in used:
                            counts[k] -= 1
                    fits = worth > 0 and worth >= 0.7 * keep
                else:
                    fits = mcr_shape_hope(counts, melds) >= 1.0
            for k in used:
                counts[k] += 1
            if fits and (best is None or (faster, -worth) < (best[0], -best[1])):
                best = (faster, worth, action)
        return best[2] if best is not None else Pass(self.seat)


def chance(per_try: float, tries: float, bounded: bool) -> float:
    """The expected hits in ``tries`` tries of ``per_try`` each, as a worth of speed.

    Unbounded it ranks every extra winning tile alike, which is right where only
    hands equally far from ready are compared. Where a slower hand is weighed against
    a ready one (a minimum to reach), it is bounded as ``x / (1 + x)``, so that a step
    from ready is never worth more than being ready (the exact ``1 - (1 - p) ** n`` is
    so flat near 1 that nearly every ready hand would rank alike)."""
    hits = per_try * tries
    return hits / (1.0 + hits) if bounded else hits


def main_suit(counts: Sequence[int], melds: tuple[Meld, ...]) -> tuple[int, int]:
    """The suit most held (concealed and melded) and how many suited tiles are not in it."""
    suits = [0, 0, 0]
    for k in range(27):
        suits[k // 9] += counts[k]
    for meld in melds:
        if meld.kind < 27:
            suits[meld.kind // 9] += 3
    main = max(range(3), key=lambda s: suits[s])
    return main, sum(suits) - suits[main]


def mcr_shape_hope(counts: Sequence[int], melds: tuple[Meld, ...]) -> float:
    """How much an MCR hand far from ready keeps open a path to its minimum: a flush or
    half-flush, pungs, seven pairs, or still concealed; a hand with chows out and
    none of these is worth little."""
    suits = [0, 0, 0, 0]
    for k in range(NUM_KINDS):
        suits[min(3, k // 9)] += counts[k]
    for meld in melds:
        suits[min(3, meld.kind // 9)] += 3
    main = max(suits[:3])
    off = sum(suits[:3]) - main
    hope = 0.5
    if off <= 3:
        hope += 0.5
    if not melds:
        hope += 0.4
        if sum(1 for k in range(NUM_KINDS) if counts[k] >= 2) >= 4:
            hope += 0.3
    elif all(m.type is not MeldType.CHOW for m in melds):
        hope += 0.3
    return hope


#: How often a seat is ready, by melds (0 to 3+) and discards made (0-1, 2-3, ... 14+):
#: measured over 150 hands of four "normal" seats per rule set (``readiness`` after each
#: discard). MCR's figures count a ready hand whether or not it reaches 8 fans; about
#: half do, which :data:`WINNABLE` accounts for.
READY_BY_VARIANT = {
    "sichuan": (
        (0.03, 0.08, 0.20, 0.33, 0.42, 0.58, 0.71, 0.84),
        (0.05, 0.25, 0.48, 0.53, 0.63, 0.71, 0.80, 0.88),
        (0.30, 0.38, 0.59, 0.66, 0.73, 0.86, 0.93, 0.99),
        (0.60, 0.70, 0.80, 0.85, 0.90, 0.95, 0.95, 0.95),
    ),
    "guangdong": (
        (0.00, 0.00, 0.04, 0.10, 0.19, 0.30, 0.44, 0.60),
        (0.00, 0.01, 0.10, 0.20, 0.29, 0.39, 0.52, 0.72),
        (0.05, 0.10, 0.14, 0.37, 0.46, 0.54, 0.63, 0.70),
        (0.30, 0.40, 0.50, 0.60, 0.70, 0.90, 0.95, 0.95),
    ),
    "mcr": (
        (0.00, 0.01, 0.05, 0.15, 0.27, 0.41, 0.50, 0.79),
        (0.00, 0.05, 0.14, 0.26, 0.42, 0.55, 0.71, 0.88),
        (0.10, 0.21, 0.31, 0.48, 0.54, 0.71, 0.83, 0.94),
        (0.60, 0.80, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95),
    ),
}
#: The share of ready hands that can win (MCR: those reaching the minimum).
WINNABLE = {"mcr": 0.45}


def threat(info: SeatInfo, view: View) -> float:
    """How likely a seat is ready to win now: 0 for a seat out of play, 1 for a declared
    ready hand, else from :data:`READY_BY_VARIANT`."""
    if not info.active or info.seat == view.viewer:
        return 0.0
    if info.ready:
        return WINNABLE.get(view.variant, 1.0)
    table = READY_BY_VARIANT.get(view.variant, READY_BY_VARIANT["guangdong"])
    row = table[min(3, len(info.melds))]
    return row[min(len(row) - 1, len(info.discards) // 2)] * WINNABLE.get(view.variant, 1.0)


def tile_danger(kind: int, info: SeatInfo, view: View, unseen: Sequence[int]) -> float:
    """How likely ``kind`` wins for a ready ``info`` (0..1, rough)."""
    voids = view.facts.voids
    if voids is not None and kind < 27 and kind // 9 == voids[info.seat]:
        return 0.0
    thrown = any(d.tile == kind for d in info.discards)
    if kind >= 27:
        left = unseen[kind]
        if left == 0:
            return 0.0
        base = 0.15 if left == 1 else 0.45
        return base * (0.3 if thrown else 1.0)
    rank = kind % 9
    base = (0.55, 0.7, 0.85, 0.95, 1.0, 0.95, 0.85, 0.7, 0.55)[rank]
    if thrown:
        base *= 0.3
    else:
        own = {d.tile for d in info.discards}
        sides = [kind - 3 if rank >= 3 else None, kind + 3 if rank <= 5 else None]
        present = [s for s in sides if s is not None]
        if present and all(s in own for s in present):
            base *= 0.5
    melded_suits = {m.kind // 9 for m in info.melds if m.kind < 27}
    if len(melded_suits) == 1 and len(info.melds) >= 2:
        base *= 1.6 if kind // 9 in melded_suits else 0.4
    return base
