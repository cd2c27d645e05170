"""国标 (MCR) in play: the rule set the round engine runs (engine.rules.play).

136 tiles, chow from 上家, one winner per discard (截和), no pass restrictions, the
``min_fan`` minimum, and settlement at the end of the hand (B + F / B, doubled by the bets,
copied by the horses). The party rules of mcr.md §4 hang on the engine's hooks: the bets
are a prompt before the deal, the horse row and the 宝牌 indicator are set aside from the
back of the wall, the dice modes are prompts after the deal (火眼金睛, 偷天换日) or after
play (妙手回春), a chance value (天降财神) or the deal itself (巅峰时刻).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.actions import Action, Bet, LastChance, Peek, Swap
from engine.analysis import ShapeRules
from engine.controls import Choice, Control, PickNumbers, PickOne, PickTiles
from engine.errors import Refusal, ScriptError
from engine.events import Notice
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.modes import (
    CHANCE_TILES,
    LAST_CHANCE,
    PEAK,
    PEEK,
    ROUND_WINDS,
    SWAP,
    WEALTH,
    dice_mode,
    draw_chance_tiles,
    draw_wealth,
    round_wind,
)
from engine.rules.mcr.options import DICE_MODES, VARIANT, McrOptions
from engine.rules.mcr.party import (
    LAST_CHANCE_TILES,
    PEAK_TEMPLATES,
    ROUND_WIND,
    SCRIPT_FIELDS,
    SEATS,
    WEALTH_FAN,
    bet_refusal,
    check_fields,
    horse_picks,
    swap_choices,
    swap_refusal,
)
from engine.rules.mcr.peak import build_peak_deal, dealt_shanten, shanten_figures
from engine.rules.mcr.reading import (
    complete_with_wildcards,
    course_fans,
    ready_discards,
    wealth_last,
    wild_shanten,
)
from engine.rules.mcr.scorer import MCR_SHAPES
from engine.rules.mcr.settle import (
    HORSE_ROW,
    MAX_HORSES,
    Horse,
    SettledWin,
    horses_json,
    settle,
)
from engine.rules.play import (
    Aside,
    BoughtHorse,
    EndReason,
    Figure,
    HandState,
    Prompt,
    RuleFacts,
    RuleSet,
    ScoredWin,
    Stage,
    WinContext,
    WinHow,
    WinScore,
    seats_after,
)
from engine.tiles import NUM_KINDS, counts_of, format_tiles, kinds_of, parse_tiles, tile_str
from engine.wall import TILES_136, Deal

# Set-aside groups, in the order they come off the back of the wall (§1.3).
HORSES = "horses"
INDICATOR = "indicator"
SWAPPED = "swapped"  # 偷天换日's swapped-out tiles, dead for the hand

# Prompts (their ids are also their actions' names).
BET = "bet"
# The bet's control choosing the horses bought, and the argument of ``Bet`` it fills.
BUY_HORSES = "horses"

LAST_CHANCE_HOW = "last_chance"
NOT_A_WIN = "not_a_win"
NO_MODE = "none"  # a hand whose dice start no mode, as simulations name it
# Deals a simulation builds each way to compare 巅峰时刻 with normal deals.
PEAK_SAMPLE = 1000


@dataclass(slots=True)
class Chance:
    """One player's 妙手回春 chance: the four face-down tiles and what was picked."""

    seat: int
    tiles: tuple[int, ...]
    position: int | None = None
    hit: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "tiles": [tile_str(k) for k in self.tiles],
            "position": self.position,
            "hit": self.hit,
        }


State = HandState[McrOptions]


@dataclass(slots=True)
class HandNotes:
    """What the rule set remembers through one hand (``state.rule_notes``)."""

    mode: str | None
    indicator: int | None = None
    wealth_fan: int = 0
    # The 巅峰时刻 templates: build_deal's, which begin records as a chance value once
    # the hand's public start is announced (they stay secret until the end).
    templates: tuple[str, ...] = ()
    # Public from the deal on (after the bets): the dice mode and the wildcard.
    announced: bool = False
    factors: list[int] = field(default_factory=lambda: [1] * SEATS)
    horses: list[Horse] = field(default_factory=list)
    bets_placed: bool = False
    peek: dict[int, int] = field(default_factory=dict)
    swaps: list[int] | None = None
    chances: list[Chance] | None = None
    settled: bool = False

    @property
    def wildcard(self) -> int | None:
        """The 宝牌 kind: the indicator's own kind (§4.3, decision 14)."""
        return self.indicator


def notes(state: State) -> HandNotes:
    found = state.rule_notes
    assert isinstance(found, HandNotes), "the hand's notes are made by new_notes"
    return found


@dataclass(frozen=True, slots=True)
class Substitution:
    """What each wildcard of a win stood for: index among the concealed tiles (or
    "win") -> tile (§4.3)."""

    tiles: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"substitution": {k: tile_str(v) for k, v in self.tiles.items()}}


@dataclass(frozen=True, slots=True)
class McrFacts(RuleFacts):
    """What a viewer is told of an MCR hand besides the tiles, the 宝牌, the prevailing
    wind, the stakes and the horses bought (the shared facts): once the bets are in
    (``announced``), the dice mode and every bet; one's own 火眼金睛 target; how many tiles
    each seat swapped; at the end, what the end reveals (every 火眼金睛 target, 天降财神,
    the 巅峰时刻 templates)."""

    announced: bool = False
    mode: str | None = None
    bets: tuple[Bet, ...] = ()
    peek: int | None = None
    swaps: tuple[int, ...] | None = None
    settled: bool = False
    peeks: tuple[int | None, ...] = ()
    wealth_fan: int | None = None
    templates: tuple[str, ...] = ()


class McrRules(RuleSet[McrOptions]):
    """国标 with the party rules: the data switches and hooks that differ from the defaults."""

    variant = VARIANT
    options_type = McrOptions
    tiles = TILES_136
    allows_chow = True
    multiple_winners = False
    script_fields = SCRIPT_FIELDS
    separate_dealer_roll = True
    # The bets are made before the dice are rolled (§4.1): nobody may bet on a dice mode.
    dice_after_prompts = True

    # -- options and fields -----------------------------------------------------------

    def check_fields(self, raw: Mapping[str, Any], options: McrOptions) -> dict[str, Any]:
        return check_fields(raw)

    def first_fields(self, options: McrOptions) -> dict[str, Any]:
        return {ROUND_WIND: round_wind(1)}

    def next_fields(
        self, options: McrOptions, state: State, next_dealer_seat: int, hand_number: int
    ) -> dict[str, Any]:
        return {ROUND_WIND: round_wind(hand_number)}

    # -- the deal ---------------------------------------------------------------------

    def new_notes(self, state: State) -> HandNotes:
        return HandNotes(dice_mode(state.dice, state.options.dice_modes))

    def build_deal(self, state: State, rng: random.Random) -> Deal | None:
        """The 巅峰时刻 deal; None (the standard shuffle and deal) for other dice."""
        hand = notes(state)
        if hand.mode != PEAK:
            return None
        built, names = build_peak_deal(rng, state.options.peak_noise)
        hand.templates = tuple(names)
        return built

    def aside(self, state: State) -> Sequence[Aside]:
        """The horse row (the last 6 tiles), then the indicator before it, face up (§1.3);
        the engine shows it with the dice, once the bets are in."""
        out = []
        if state.options.horses:
            out.append(Aside(HORSES, HORSE_ROW))
        if state.options.wildcard:
            out.append(Aside(INDICATOR, 1, face_up=True))
        return out

    def begin(self, state: State) -> None:
        hand = notes(state)
        if state.options.wildcard:
            hand.indicator = state.set_aside[INDICATOR][0]
        if hand.mode == WEALTH:
            hand.wealth_fan = state.chance(WEALTH_FAN, draw_wealth)
        if hand.mode == PEAK:
            built = list(hand.templates)
            hand.templates = tuple(state.chance(PEAK_TEMPLATES, lambda _rng: built))

    def on_deal(self, state: State) -> None:
        """What everyone learns with the dice, once the bets are in: the dice mode and the
        宝牌 the indicator makes."""
        hand = notes(state)
        hand.announced = True
        if hand.mode is not None:
            state.emit(Notice("dice_mode", {"mode": hand.mode}))
        if hand.indicator is not None:
            shown = tile_str(hand.indicator)
            state.emit(Notice("wildcard", {"indicator": shown, "wildcard": shown}))

    # -- set-up prompts ---------------------------------------------------------------

    def next_prompt(self, state: State, stage: Stage) -> Prompt | None:
        hand = notes(state)
        done = {prompt.id for prompt, _ in state.prompts_done}
        everyone = tuple(range(SEATS))
        if stage is Stage.BEFORE_DEAL:
            if state.options.bets and BET not in done:
                return Prompt(BET, BET, everyone, stage)
            return None
        if stage is Stage.AFTER_DEAL:
            if hand.mode == PEEK and PEEK not in done:
                return Prompt(PEEK, PEEK, everyone, stage)
            if hand.mode == SWAP and state.options.swap_max and SWAP not in done:
                return Prompt(SWAP, SWAP, everyone, stage)
            return None
        # A hit ends the hand as won (§4.5.2), and later players get no chance.
        if hand.mode != LAST_CHANCE or state.end_reason is not EndReason.EXHAUSTED:
            return None
        if hand.chances is None:
            hand.chances = self._plan_chances(state)
        waiting = [c for c in hand.chances if c.position is None]
        if not waiting:
            return None
        return Prompt(LAST_CHANCE, LAST_CHANCE, (waiting[0].seat,), stage)

    def prompt_actions(self, state: State, prompt: Prompt, seat: int) -> list[Action]:
        options = state.options
        if prompt.id == BET:
            return [
                Bet(seat, factor, picks)
                for factor in options.factors(seat)
                for picks in horse_picks(options)
            ]
        if prompt.id == PEEK:
            return [Peek(seat, target) for target in seats_after(seat)]
        if prompt.id == SWAP:
            return [Swap(seat, c) for c in swap_choices(state.concealed(seat), options.swap_max)]
        return [LastChance(seat, p) for p in range(1, CHANCE_TILES + 1)]

    def prompt_controls(self, state: State, prompt: Prompt, seat: int) -> tuple[Control, ...]:
        """The bet as the horse positions bought (when horses are on), then a doubling
        factor; 火眼金睛 as one choice per opponent; 偷天换日 as a pick of the tiles to
        give up, or keeping them all; 妙手回春 as one choice per face-down tile. The set-up
        prompts mark the choice a time-out takes (:meth:`default_prompt_action`): no
        horses, ×1; one's 下家; keeping one's tiles. 妙手回春's is left unmarked: a
        face-down tile is no better than another, and a mark would say it is."""
        options = state.options
        default = self.default_prompt_action(state, prompt, seat)
        if prompt.id == BET:
            factors = tuple(Choice(Bet(seat, f, ()), number=f) for f in options.factors(seat))
            bet = PickOne(BET, factors, suggested=_place(factors, default))
            if not options.horses:
                return (bet,)
            positions = tuple(range(1, HORSE_ROW + 1))
            return (PickNumbers(BUY_HORSES, BUY_HORSES, positions, 0, MAX_HORSES), bet)
        if prompt.id == PEEK:
            targets = tuple(Choice(Peek(seat, t), seat=t) for t in seats_after(seat))
            return (PickOne(PEEK, targets, suggested=_place(targets, default)),)
        if prompt.id == SWAP:
            tiles = tuple(kinds_of(state.concealed(seat)))
            most = min(options.swap_max, len(tiles))
            kept = (Choice(Swap(seat, ())),)
            keep = PickOne(SWAP, kept, suggested=_place(kept, default))
            return (PickTiles(SWAP, SWAP, tiles, 1, most), keep)
        picks = tuple(Choice(LastChance(seat, p), number=p) for p in range(1, CHANCE_TILES + 1))
        return (PickOne(LAST_CHANCE, picks),)

    def check_prompt_action(self, state: State, prompt: Prompt, action: Action) -> Refusal | None:
        """Answers are checked by their meaning, so a bet may list its horses in any order
        and a swap is not looked up among thousands of choices."""
        options = state.options
        if prompt.id == BET and isinstance(action, Bet):
            return bet_refusal(options, action)
        if prompt.id == SWAP and isinstance(action, Swap):
            return swap_refusal(options, state.concealed(action.seat), action)
        return super().check_prompt_action(state, prompt, action)

    def default_prompt_action(self, state: State, prompt: Prompt, seat: int) -> Action:
        """No doubling and no horses; watch one's 下家; keep one's tiles; the first of the
        four face-down tiles (their order is random, so any fixed pick is a random one)."""
        if prompt.id == BET:
            return Bet(seat, 1, ())
        if prompt.id == PEEK:
            return Peek(seat, (seat + 1) % SEATS)
        if prompt.id == SWAP:
            return Swap(seat, ())
        return LastChance(seat, 1)

    def resolve_prompt(self, state: State, prompt: Prompt, answers: Mapping[int, Action]) -> None:
        if prompt.id == BET:
            self._place_bets(state, answers)
        elif prompt.id == PEEK:
            # Secret until the end: no event, each seat's view shows its own target.
            notes(state).peek = {s: a.target for s, a in answers.items() if isinstance(a, Peek)}
        elif prompt.id == SWAP:
            self._swap(state, answers)
        else:
            self._take_chance(state, answers)

    def _place_bets(self, state: State, answers: Mapping[int, Action]) -> None:
        hand = notes(state)
        row = state.set_aside.get(HORSES, ())
        for seat, action in sorted(answers.items()):
            assert isinstance(action, Bet)
            hand.factors[seat] = action.factor
            hand.horses.extend(Horse(seat, p, row[p - 1]) for p in sorted(action.horses))
        hand.bets_placed = True
        state.emit(Notice("bets", {"bets": self._bets_json(hand)}))

    def _bets(self, hand: HandNotes) -> tuple[Bet, ...]:
        """Every seat's bet as placed, its horses in position order."""
        return tuple(
            Bet(seat, hand.factors[seat], tuple(h.position for h in hand.horses if h.buyer == seat))
            for seat in range(SEATS)
        )

    def _bets_json(self, hand: HandNotes) -> list[dict[str, Any]]:
        return [{"seat": bet.seat, **bet.args_json()} for bet in self._bets(hand)]

    def _swap(self, state: State, answers: Mapping[int, Action]) -> None:
        """偷天换日 in seat order: give up the tiles, draw as many from the front of the live
        wall; the tiles given up are dead. Everyone learns only how many each swapped."""
        counts = [0] * SEATS
        for seat, action in sorted(answers.items()):
            assert isinstance(action, Swap)
            if not action.tiles:
                continue
            state.take_tiles(seat, action.tiles)
            got = [state.draw_front() for _ in action.tiles]
            state.give_tiles(seat, got)
            state.put_aside(SWAPPED, action.tiles)
            counts[seat] = len(action.tiles)
            data = {"gave": format_tiles(action.tiles), "got": format_tiles(got)}
            state.emit(Notice(SWAP, data, seat))
        notes(state).swaps = counts
        state.emit(Notice("swaps", {"counts": counts}))

    # -- 妙手回春 mode ------------------------------------------------------------------

    def chance_win(self, state: State, seat: int, kind: int) -> ScoredWin | None:
        """The win ``kind`` would make self-drawn as the last tile, if it reaches
        ``min_fan``; a kind the seat already holds four of wins nothing."""
        counts = list(state.concealed(seat))
        melded = sum(m.tiles.count(kind) for m in state.melds(seat))
        if counts[kind] + melded >= 4:
            return None
        counts[kind] += 1
        if not self.is_complete(state, seat, counts, kind, WinHow.SELF_DRAW):
            return None
        context = state.win_context(seat, kind, WinHow.SELF_DRAW, virtual=True)
        score = self.score_win(state, context)
        if self.refuse_win(state, context, score) is not None:
            return None
        return ScoredWin(context, replace(score, how=LAST_CHANCE_HOW))

    def winning_tiles(self, state: State, seat: int) -> dict[int, ScoredWin]:
        found = {k: self.chance_win(state, seat, k) for k in range(NUM_KINDS)}
        return {k: win for k, win in found.items() if win is not None}

    def _plan_chances(self, state: State) -> list[Chance]:
        """The eligible players in turn order from the last discarder's 下家, with their
        four tiles: the script's, or the best wait and three decoys (§4.5.2)."""
        discard = state.last_discard
        # An exhaustive draw is due only after a discard nobody won.
        assert discard is not None
        last = discard[0]
        order = (*seats_after(last), last)
        wins = {seat: self.winning_tiles(state, seat) for seat in order}
        eligible = [seat for seat in order if wins[seat]]
        if not eligible:
            return []

        def draw(rng: random.Random) -> list[str | None]:
            out: list[str | None] = [None] * SEATS
            for seat in eligible:
                found = wins[seat]
                best = max(found, key=lambda k: (found[k].score.total, -k))
                decoys = [k for k in range(NUM_KINDS) if k not in found]
                out[seat] = format_tiles(draw_chance_tiles(rng, best, decoys), sort=False)
            return out

        fixed = state.chance(LAST_CHANCE_TILES, draw)
        plan = []
        for seat in eligible:
            tiles = fixed[seat]
            if tiles is None:
                raise ScriptError(f"'{LAST_CHANCE_TILES}' gives no tiles for seat {seat}")
            plan.append(Chance(seat, tuple(parse_tiles(tiles))))
        return plan

    def _take_chance(self, state: State, answers: Mapping[int, Action]) -> None:
        hand = notes(state)
        assert hand.chances is not None
        ((seat, action),) = answers.items()
        assert isinstance(action, LastChance)
        chance = next(c for c in hand.chances if c.seat == seat)
        chance.position = action.position
        tile = chance.tiles[action.position - 1]
        win = self.chance_win(state, seat, tile)
        chance.hit = win is not None
        state.emit(
            Notice(
                LAST_CHANCE,
                {
                    "seat": seat,
                    "position": action.position,
                    "tile": tile_str(tile),
                    "hit": chance.hit,
                },
            )
        )
        if win is not None:
            state.award_win(win)

    # -- play ---------------------------------------------------------------------------

    def shape_rules(self, state: State, seat: int) -> ShapeRules:
        return MCR_SHAPES

    def completion_key(self, state: State, seat: int) -> Hashable:
        return (super().completion_key(state, seat), notes(state).wildcard)

    def is_complete(
        self, state: State, seat: int, counts: Sequence[int], tile: int, how: WinHow
    ) -> bool:
        """Every concealed wild-kind tile may stand for another tile, the winning tile too
        when self-drawn; a discarded or robbed wildcard counts only as itself (§4.3)."""
        claimed = None if how is WinHow.SELF_DRAW else tile
        return complete_with_wildcards(counts, state.melds(seat), notes(state).wildcard, claimed)

    def may_be_ready(self, state: State, seat: int) -> bool:
        wildcard = notes(state).wildcard
        return wild_shanten(state.concealed(seat), len(state.melds(seat)), wildcard) <= 0

    def can_declare_ready(self, state: State, seat: int, kind: int) -> bool:
        hand = notes(state)
        if not state.options.extra_fans:
            return False
        counts = tuple(state.concealed(seat))
        return kind in ready_discards(counts, tuple(state.melds(seat)), hand.wildcard)

    def score_win(self, state: State, win: WinContext) -> WinScore:
        """The calculator's score with the course-of-hand fans and 天降财神. 和绝张 reads
        the engine's count of visible copies, the face-up indicator included (decision
        28); a heavenly hand is scored on the tile the engine chose for it."""
        hand = notes(state)
        wind = ROUND_WINDS.index(state.fields[ROUND_WIND])
        result = score_win(
            win.facts(seat_wind=win.seat, round_wind=wind, wildcard=hand.wildcard),
            state.options,
            extra_fans=course_fans(state, win),
            wealth_fan=hand.wealth_fan,
            tile_chosen=True,
        )
        substitution = result.substitution
        return WinScore(
            total=result.total,
            fans=wealth_last(result.fans),
            meets_minimum=bool(result.meets_minimum),
            notes=None if substitution is None else Substitution(substitution),
        )

    def refuse_win(self, state: State, win: WinContext, score: WinScore | None) -> Refusal | None:
        """Below ``min_fan``; and, to explain a refused claim, a discarded or robbed
        wildcard that would have won had it been drawn."""
        wildcard = notes(state).wildcard
        if (
            score is None
            and not win.self_drawn
            and win.tile == wildcard
            and complete_with_wildcards(
                counts_of([*win.hand.concealed, win.tile]), win.hand.melds, wildcard
            )
        ):
            return Refusal(
                NOT_A_WIN,
                f"seat {win.seat} does not win: a discarded wildcard counts only as itself",
            )
        return super().refuse_win(state, win, score)

    def visible_hands(self, state: State, viewer: int) -> frozenset[int]:
        """火眼金睛: the one opponent the viewer chose, for the rest of the hand."""
        target = notes(state).peek.get(viewer)
        return frozenset() if target is None else frozenset((target,))

    # -- the end ----------------------------------------------------------------------

    def settle_hand(self, state: State) -> None:
        hand = notes(state)
        hand.settled = True
        state.emit(Notice("revealed", self._revealed(state)))
        settle(
            state.ledger,
            _settled_win(state),
            state.options.base_points,
            hand.factors,
            hand.horses,
        )

    def _revealed(self, state: State) -> dict[str, Any]:
        """What the end of the hand turns up (§4.1 step 7); 天降财神 only with a win."""
        hand = notes(state)
        out: dict[str, Any] = {
            "mode": hand.mode,
            "horses": horses_json(state.set_aside.get(HORSES, ()), hand.horses),
        }
        if hand.mode == PEEK:
            out["peek"] = [hand.peek.get(s) for s in range(SEATS)]
        if hand.mode == WEALTH and state.wins:
            out[WEALTH_FAN] = hand.wealth_fan
        if hand.mode == PEAK:
            out[PEAK_TEMPLATES] = list(hand.templates)
        return out

    def result_extras(self, state: State) -> dict[str, Any]:
        """Everything the hand decided, for the record (the round script holds it all)."""
        hand = notes(state)
        out = self._revealed(state)
        if hand.mode == WEALTH:
            out[WEALTH_FAN] = hand.wealth_fan
        out[ROUND_WIND] = state.fields[ROUND_WIND]
        out["wildcard"] = None if hand.wildcard is None else tile_str(hand.wildcard)
        out["bets"] = self._bets_json(hand)
        if hand.swaps is not None:
            out["swaps"] = hand.swaps
        if hand.chances is not None:
            out[LAST_CHANCE] = [c.to_json() for c in hand.chances]
        return out

    def view_facts(self, state: State, viewer: int | None) -> McrFacts:
        """The prevalent wind; once the bets are in, the dice mode, the 宝牌 and the bets;
        one's own 火眼金睛 target; the swap counts; at the end, everything revealed."""
        hand = notes(state)
        revealed = hand.settled
        factors = hand.factors
        return McrFacts(
            wildcard=hand.wildcard if hand.announced else None,
            round_wind=ROUND_WINDS.index(state.fields[ROUND_WIND]),
            factors=(factors[0], factors[1], factors[2], factors[3]) if hand.bets_placed else None,
            bought_horses=tuple(
                BoughtHorse(h.buyer, h.position, h.tile, h.target) for h in hand.horses
            )
            if revealed
            else (),
            announced=hand.announced,
            mode=hand.mode if hand.announced else None,
            bets=self._bets(hand) if hand.bets_placed else (),
            peek=None if viewer is None else hand.peek.get(viewer),
            swaps=None if hand.swaps is None else tuple(hand.swaps),
            settled=revealed,
            peeks=tuple(hand.peek.get(s) for s in range(SEATS))
            if revealed and hand.mode == PEEK
            else (),
            wealth_fan=hand.wealth_fan if revealed and hand.mode == WEALTH and state.wins else None,
            templates=hand.templates if revealed and hand.mode == PEAK else (),
        )

    # -- simulation -------------------------------------------------------------------

    def hand_statistics(self, state: State) -> Mapping[str, Figure]:
        """How often each dice mode starts, and how far from a win the dealt hands are in
        巅峰时刻 hands and in the others."""
        mode = notes(state).mode or NO_MODE
        out = {
            f"dice mode {name}": Figure(1 if mode == name else 0, percent=True)
            for name in (NO_MODE, *DICE_MODES)
        }
        shanten = dealt_shanten(state.dealt)
        average = sum(shanten) / len(shanten)
        counted, left_out = Figure(average), Figure(0, 0)
        peak = mode == PEAK
        out["dealt shanten, 巅峰时刻 hands"] = counted if peak else left_out
        out["dealt shanten, other hands"] = left_out if peak else counted
        return out

    def simulation_notes(self, options: McrOptions, hands: int, seed: int) -> Mapping[str, float]:
        """巅峰时刻 deals beside normal deals from the same seeds, however few 6-6 rolls
        the simulated hands had."""
        count = min(hands, PEAK_SAMPLE)
        peak, normal = shanten_figures(count, seed, options.peak_noise)
        return {
            f"dealt shanten over {count} seeded 巅峰时刻 deals": round(peak, 2),
            f"dealt shanten over {count} seeded normal deals": round(normal, 2),
        }


def _settled_win(state: State) -> SettledWin | None:
    if not state.wins:
        return None
    win = state.wins[0]
    context = win.context
    return SettledWin(
        context.seat, win.score.total, context.from_seat, context.how is WinHow.ROB_KONG
    )


def _place(choices: Sequence[Choice], default: Action) -> int:
    """The index among ``choices`` of the answer a time-out takes, so the mark and the
    time-out cannot differ."""
    return next(i for i, choice in enumerate(choices) if choice.action == default)


RULESET = McrRules()
