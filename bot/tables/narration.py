"""What just happened, in the words players use at the table.

Lines come from the public events (what a spectator may know). A rule set may word a
moment its own way: ``log.<variant>.<moment>`` wins over ``log.<moment>`` (血战到底 says
刮风 and 下雨 for kongs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import has, t
from bot.i18n.terms import reason_name, suit_label, tile_label, tiles_label, variant_text
from bot.runtime.hands import named_how
from engine.events import (
    Claimed,
    DiceRolled,
    Discarded,
    Event,
    HandEnded,
    Konged,
    KongRobbed,
    Notice,
    Paid,
    PromptAnswered,
    PromptOpened,
    WallExhausted,
    Won,
)
from engine.ledger import Payment
from engine.tiles import parse_tile

SUIT_LETTERS = "mps"
KONG_REASONS = frozenset({"kong_exposed", "kong_concealed", "kong_added", "kong_exposed_side"})
MULTIPLE_WIN_KEYS = {2: "log.double_win", 3: "log.triple_win"}


class Narrator:
    """Words for one table: its rule set, the players' names (seats of the hand) as a
    message's text shows them (``terms.player_names``: Markdown-escaped), a reader."""

    def __init__(self, variant: str, names: Sequence[str], locale: str) -> None:
        self.variant = variant
        self.names = names
        self.locale = locale

    def say(self, moment: str, **values: object) -> str:
        return variant_text(self.variant, f"log.{moment}", self.locale, **values)

    def tile(self, kind: int) -> str:
        return tile_label(kind, self.locale)

    def lines(self, events: Sequence[Event], *, closing: bool = True) -> list[str]:
        """A line for each event that says something; without ``closing``, none for the
        end of the hand (a hand message's headline says it)."""
        out: list[str] = []
        named: set[tuple[int | None, int]] = set()
        # At the end of a hand the settlement picture lists every payment.
        ending = any(isinstance(e, HandEnded) for e in events)
        # A robbed kong's line names every robber: their wins need no line of their own.
        robbed = any(isinstance(e, KongRobbed) for e in events)
        for event in events:
            if (ending and isinstance(event, Paid)) or (
                not closing and isinstance(event, HandEnded)
            ):
                continue
            if robbed and isinstance(event, Won) and event.how == "rob_kong":
                continue
            line = self.line(event)
            if isinstance(event, Won) and event.how in ("discard", "rob_kong"):
                group = (event.from_seat, event.tile)
                together = sum(
                    1
                    for e in events
                    if isinstance(e, Won) and (e.from_seat, e.tile) == group and e.how == event.how
                )
                if together in MULTIPLE_WIN_KEYS and group not in named:
                    line = f"{line} · {t(MULTIPLE_WIN_KEYS[together], self.locale)}"
                named.add(group)
            if line:
                out.append(line)
        return out

    def line(self, event: Event) -> str:
        """One event's line."""
        match event:
            case Discarded(seat=seat, tile=tile, declare_ready=ready):
                moment = "discard_ready" if ready else "discard"
                return self.say(moment, name=self.names[seat], tile=self.tile(tile))
            case Claimed(seat=seat, claim=claim, tiles=tiles, from_seat=from_seat):
                return self.say(
                    claim,
                    name=self.names[seat],
                    tiles=tiles_label(tiles, self.locale),
                    tile=self.tile(tiles[0]),
                    other=self.names[from_seat],
                )
            case Konged(seat=seat, kong=kind, tile=tile):
                shown = self.tile(tile) if tile is not None else ""
                return self.say(f"kong_{kind}", name=self.names[seat], tile=shown)
            case KongRobbed(seat=seat, tile=tile, robbers=robbers):
                return self.say(
                    "robbed",
                    names=self._names(robbers),
                    other=self.names[seat],
                    tile=self.tile(tile),
                )
            case Won():
                return self._won(event)
            case Paid(lines=lines):
                return self._water(lines)
            case PromptOpened(prompt=prompt):
                key = f"prompt.{prompt}"
                return self.say(key) if has(f"log.{key}") else ""
            case PromptAnswered(seat=seat):
                return self.say("answered", name=self.names[seat])
            case Notice(name="exchange", data=data):
                return self.say(
                    "exchange",
                    name=self.names[data["from_seat"]],
                    other=self.names[data["to_seat"]],
                )
            case Notice(name="void", data=data):
                voids = [
                    t(
                        "log.void_one",
                        self.locale,
                        name=self.names[s],
                        suit=suit_label(SUIT_LETTERS.index(letter), self.locale),
                    )
                    for s, letter in enumerate(data["voids"])
                ]
                return self.say("voids", voids=t("list.separator", self.locale).join(voids))
            case DiceRolled(dice=dice):
                return self.say("dice_rolled", dice=f"{dice[0]}+{dice[1]}")
            case Notice(name="dice_mode", data=data):
                return self.say("dice_mode", mode=t(f"mode.{data['mode']}", self.locale))
            case Notice(name="wildcard", data=data):
                return self.say("wildcard", tile=self.tile(parse_tile(str(data["wildcard"]))))
            case Notice(name="bets", data=data):
                return self._bets(data["bets"])
            case Notice(name="revealed", data=data):
                return self._revealed(data)
            case Notice(name="swaps", data=data):
                counts = [
                    self.say("swap_one", name=self.names[s], n=n)
                    for s, n in enumerate(data["counts"])
                ]
                return self.say("swaps", counts=t("list.separator", self.locale).join(counts))
            case Notice(name="last_chance", data=data):
                moment = "last_chance_hit" if data["hit"] else "last_chance_miss"
                return self.say(
                    moment,
                    name=self.names[data["seat"]],
                    position=data["position"],
                    tile=self.tile(parse_tile(str(data["tile"]))),
                )
            case WallExhausted():
                return self.say("exhausted")
            case HandEnded():
                return self.say("hand_over")
        return ""

    def _bets(self, bets: Sequence[Mapping[str, Any]]) -> str:
        """底分押倍 and 万马奔腾 once everyone has bet."""
        sep = t("list.separator", self.locale)
        parts = []
        for bet in bets:
            horses = sep.join(str(h) for h in bet["horses"])
            key = "bet_one_horses" if horses else "bet_one"
            parts.append(
                self.say(key, name=self.names[bet["seat"]], factor=bet["factor"], horses=horses)
            )
        return self.say("bets", bets=sep.join(parts))

    def _revealed(self, data: Mapping[str, Any]) -> str:
        """What the end of a hand turns up that only its settlement would otherwise
        keep: whom each seat watched (火眼金睛) or the hand each was dealt (巅峰时刻).
        The horse row is the settlement picture's."""
        sep = t("list.separator", self.locale)
        if "peek" in data:
            watched = [
                self.say("peek_one", name=self.names[s], other=self.names[target])
                for s, target in enumerate(data["peek"])
                if target is not None
            ]
            return self.say("revealed", mode=t("mode.peek", self.locale), items=sep.join(watched))
        if "peak_templates" in data:
            dealt = [
                self.say("peak_one", name=self.names[s], template=self._template(template))
                for s, template in enumerate(data["peak_templates"])
            ]
            return self.say("revealed", mode=t("mode.peak", self.locale), items=sep.join(dealt))
        return ""

    def _template(self, template: str) -> str:
        """A 巅峰时刻 template: named by the fan it aims at, or a hand of random tiles."""
        key = f"fan.{self.variant}.{template}"
        return t(key, self.locale) if has(key) else self.say("peak_random")

    def reveals(self, events: Sequence[Event]) -> list[str]:
        """The lines of what the hand's end turned up, for the summary under its
        settlement, which stays in the thread when the table message moves on."""
        lines = (self.line(e) for e in events if isinstance(e, Notice) and e.name == "revealed")
        return [line for line in lines if line]

    def _names(self, seats: Sequence[int]) -> str:
        return t("list.separator", self.locale).join(self.names[s] for s in seats)

    def _won(self, event: Won) -> str:
        name = self.names[event.seat]
        tile = self.tile(event.tile)
        fans = {line.id for line in event.fans}
        how = named_how(event.how, event.replacement)
        if how in ("self_draw", "kong_bloom"):
            moment = "win_kong_bloom" if how == "kong_bloom" else "win_self"
            return self.say(moment, name=name, tile=tile, total=event.total)
        if event.how == "last_chance":
            # MCR's 妙手回春 mode: a self-drawn win on the tile the player picked.
            return self.say("win_last_chance", name=name, tile=tile, total=event.total)
        other = self.names[event.from_seat] if event.from_seat is not None else ""
        if event.how == "rob_kong":
            return self.say("win_rob", name=name, other=other, tile=tile, total=event.total)
        # 杠上炮: the discard came right after the discarder's kong (血战).
        moment = "win_kong_discard" if "kong_discard" in fans else "win_discard"
        return self.say(moment, name=name, other=other, tile=tile, total=event.total)

    def _water(self, lines: Sequence[Payment]) -> str:
        """Kong money paid on the spot (血战到底): who collects how much, and where it
        moves on to a 杠上炮's winner."""
        collected: dict[tuple[int, str], int] = {}
        for payment in lines:
            if payment.reason in KONG_REASONS:
                key = (payment.payee, payment.reason)
                collected[key] = collected.get(key, 0) + payment.amount
        parts = [
            self.say(
                self._collects(r),
                name=self.names[p],
                amount=n,
                reason=reason_name(self.variant, r, self.locale),
            )
            for (p, r), n in collected.items()
        ]
        # 呼叫转移: a 杠上炮's discarder hands that kong's money to the winner.
        parts += [
            self.say(
                "call_transfer",
                name=self.names[payment.payee],
                other=self.names[payment.payer],
                amount=payment.amount,
            )
            for payment in lines
            if payment.reason == "call_transfer"
        ]
        return t("list.separator", self.locale).join(parts)

    def _collects(self, reason: str) -> str:
        """The moment of kong money collected: a rule set may name it by its reason (血战
        calls an added kong's money 刮风 when it is paid, which a 绕杠's never is, so the
        kong itself is announced without the word)."""
        own = f"collects.{reason}"
        return own if has(f"log.{self.variant}.{own}") else "collects"
