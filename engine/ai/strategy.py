"""The shanten-driven seat strategy ("basic" and "normal").

Discards: keep the hand as close to ready as possible (shanten over the rule set's shapes,
void suit excluded); "normal" breaks ties by the unseen copies of the tiles that would
advance the hand, "basic" by a simple tile value. Claims and kongs are taken when they do
not set the hand back. Set-up prompts: 换三张 and 定缺 by the hand's weakest suit, the rule
set's default otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, ChooseVoid, Chow, Discard, Exchange, Kong, Pass, Pong, Win
from engine.ai.hints import ai_shapes, effective_tiles
from engine.analysis import HandShape, ShapeRules, shanten
from engine.suggestions import can_exchange, keep_value, suggest_exchange, suggest_void
from engine.view import View

# Discards tied on shanten whose effective tiles are counted (the least useful first).
_MAX_TIES = 3
# Effective tiles are counted from this shanten on; further from ready, the tile values
# alone decide (the counts barely differ there).
_COUNT_FROM = 2


class ShantenPlayer:
    def __init__(self, level: str = "normal") -> None:
        self.level = level

    def choose(self, view: View, legal: Sequence[Action], default: Action | None = None) -> Action:
        if view.prompt is not None:
            return self._prompt(view, legal, default)
        if len(legal) == 1:
            return legal[0]
        for action in legal:
            if isinstance(action, Win):
                return action
        seat = view.viewer
        assert seat is not None
        me = view.seats[seat]
        assert me.concealed is not None
        counts = list(me.concealed)
        melds = len(me.melds) + me.hidden_kongs
        rules = ai_shapes(view.shape_rules)
        if any(isinstance(a, Discard) for a in legal):
            return self._turn(view, legal, counts, melds, rules)
        return self._claim(view, legal, counts, melds, rules)

    # -- prompts ------------------------------------------------------------------------

    def _prompt(self, view: View, legal: Sequence[Action], default: Action | None) -> Action:
        seat = view.viewer
        assert seat is not None
        counts = view.seats[seat].concealed
        wanted: Action | None = None
        if counts is not None and view.prompt == "exchange" and can_exchange(counts):
            wanted = Exchange(seat, suggest_exchange(counts))
        elif counts is not None and view.prompt == "void":
            wanted = ChooseVoid(seat, suggest_void(counts))
        if wanted is not None and wanted in legal:
            return wanted
        return default if default is not None else legal[0]

    # -- own turn -------------------------------------------------------------------------

    def _turn(
        self,
        view: View,
        legal: Sequence[Action],
        counts: list[int],
        melds: int,
        rules: ShapeRules,
    ) -> Action:
        seat = view.viewer
        assert seat is not None
        kinds = sorted({a.tile for a in legal if isinstance(a, Discard)})
        after = HandShape(counts, melds, rules).each_change(-1)
        scored = [(after[k], k) for k in kinds]
        best = min(s for s, _ in scored)
        for action in legal:
            if isinstance(action, Kong) and self._kong_keeps(
                counts, melds, rules, after, action.tile, best
            ):
                return action
        ties = [k for s, k in scored if s == best]
        void = rules.void_suit
        if void is not None and all(k < 27 and k // 9 == void for k in ties):
            # Void-suit tiles never count: any of them is as good as another.
            return Discard(seat, min(ties, key=lambda k: (counts[k], k)))
        if len(ties) > 1 and self.level == "normal" and best <= _COUNT_FROM:
            ties = sorted(ties, key=lambda k: (keep_value(counts, k), k))[:_MAX_TIES]
            unseen = view.unseen()
            ranked = []
            for k in ties:
                counts[k] -= 1
                ranked.append((effective_tiles(counts, melds, rules, unseen), k))
                counts[k] += 1
            top = max(e for e, _ in ranked)
            ties = [k for e, k in ranked if e == top]
        choice = min(ties, key=lambda k: (keep_value(counts, k), k))
        ready = Discard(seat, choice, declare_ready=True)
        if self.level == "normal" and ready in legal:
            return ready
        return Discard(seat, choice)

    def _kong_keeps(
        self,
        counts: list[int],
        melds: int,
        rules: ShapeRules,
        after: dict[int, int],
        kind: int,
        best: int,
    ) -> bool:
        """A kong on one's turn is worth it when it leaves the hand no further from ready."""
        if counts[kind] == 4:
            counts[kind] -= 4
            kept = shanten(counts, melds + 1, rules)
            counts[kind] += 4
            return kept <= best
        return after[kind] <= best

    # -- claims -----------------------------------------------------------------------------

    def _claim(
        self,
        view: View,
        legal: Sequence[Action],
        counts: list[int],
        melds: int,
        rules: ShapeRules,
    ) -> Action:
        tile = view.claim_tile
        seat = view.viewer
        assert tile is not None and seat is not None
        now = shanten(counts, melds, rules)
        for action in legal:
            if isinstance(action, Kong):
                counts[tile] -= 3
                after = shanten(counts, melds + 1, rules)
                counts[tile] += 3
                if after <= now:
                    return action
        best: tuple[int, Action] | None = None
        for action in legal:
            if isinstance(action, Pong):
                used: tuple[int, ...] = (tile, tile)
            elif isinstance(action, Chow):
                used = tuple(k for k in action.tiles if k != tile)
            else:
                continue
            after = self._after_claim(counts, melds, rules, used)
            if after < now and (best is None or after < best[0]):
                best = (after, action)
        if best is not None:
            return best[1]
        return Pass(seat)

    def _after_claim(
        self, counts: list[int], melds: int, rules: ShapeRules, used: tuple[int, ...]
    ) -> int:
        """Shanten after melding ``used`` with the discard and making the best discard."""
        for k in used:
            counts[k] -= 1
        best = min(HandShape(counts, melds + 1, rules).each_change(-1).values())
        for k in used:
            counts[k] += 1
        return best
