"""``/fan``: the calculator, answered privately as a picture and a list of fans.

The hand is written in the notation or as Chinese players write it (``123万456筒东东``,
``一二三萬``): the one tile parser reads both. A hand the calculator cannot score is
explained in the player's language, from the parser's error code and the rule set's
own answers (which tiles it plays with, whether it chows, whether it has a wildcard),
never with the calculator's English sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import finish
from bot.i18n import has, t
from bot.i18n.terms import (
    by_name,
    fan_name,
    fan_sum,
    tile_label,
    tiles_label,
    total_text,
    variant_name,
)
from bot.i18n.translator import text, variant_choices
from bot.pictures import as_file, hand_png, labels
from engine.rules.registry import VARIANTS, find_calculator, find_ruleset
from engine.score import handle
from engine.tiles import (
    HandSpec,
    MeldType,
    NotationError,
    check_copies,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_str,
)
from renderer.models import HandView

if TYPE_CHECKING:
    from bot.client import MahjongBot

WIND_LETTERS = ("E", "S", "W", "N")


def wind_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"choice.wind.{w}"), value=w) for w in WIND_LETTERS]


def build_request(
    variant: str,
    hand: str,
    win_tile: str | None,
    flags: dict[str, Any],
) -> tuple[dict[str, Any], HandSpec | None]:
    """The calculator request for the command's arguments, and the parsed hand.

    Without a winning tile, a 14-tile hand wins on its last written concealed tile and a
    13-tile hand asks for its waits. A hand that does not parse goes to the calculator
    as written, which names what is wrong.
    """
    request: dict[str, Any] = {"variant": variant, "hand": hand.replace(" ", ""), **flags}
    try:
        spec = parse_hand(request["hand"])
    except NotationError:
        return {**request, "win_tile": win_tile or ""}, None
    if win_tile is not None:
        return {**request, "win_tile": win_tile}, spec
    size = len(spec.concealed) + 3 * len(spec.melds)
    if size == 13:
        return {key: v for key, v in request.items() if key in ("variant", "hand", "wildcard")} | {
            "query": "waits"
        }, spec
    if size == 14 and spec.concealed:
        last = spec.concealed[-1]
        rest = HandSpec(spec.concealed[:-1], spec.melds)
        return {**request, "hand": rest.notation(), "win_tile": tile_str(last)}, rest
    return {**request, "win_tile": ""}, spec


def notation_text(field: str, error: NotationError, locale: str) -> str:
    """A notation error in the player's words: which field, which character (counted
    from 1, as written) and what is wrong with it."""
    key = f"fan.notation.{error.code}"
    return t(
        key if has(key) else "fan.notation.notation",
        locale,
        field=t(f"fan.field.{field}", locale),
        position=error.position + 1,
        char=error.char,
    )


def problem_text(
    variant: str, hand: str, win_tile: str | None, wildcard: str | None, locale: str
) -> str:
    """Why the calculator could not score the command's arguments, in the player's
    words: the first thing wrong with them, in the order the calculator checks."""
    try:
        spec = parse_hand(hand)
    except NotationError as exc:
        return notation_text("hand", exc, locale)
    tiles: dict[str, int] = {}
    for field, value in (("win_tile", win_tile), ("wildcard", wildcard)):
        if value:
            try:
                tiles[field] = parse_tile(value)
            except NotationError as exc:
                return notation_text(field, exc, locale)
    name = variant_name(variant, locale)
    if "wildcard" in tiles and not find_calculator(variant).allows_wildcard:
        return t("fan.problem.wildcard", locale, variant=name)
    held = spec.all_tiles() + ([tiles["win_tile"]] if "win_tile" in tiles else [])
    size = len(spec.concealed) + 3 * len(spec.melds) + ("win_tile" in tiles)
    if size != 14 and not (size == 13 and "win_tile" not in tiles):
        return t("fan.problem.count", locale, count=size)
    extra = check_copies(held)
    if extra is not None:
        return t("fan.problem.copies", locale, tile=tile_label(extra, locale))
    ruleset = find_ruleset(variant)
    absent = [k for k in held if k not in ruleset.tiles]
    if absent:
        return t("fan.problem.absent", locale, variant=name, tile=tile_label(absent[0], locale))
    if not ruleset.allows_chow and any(m.type is MeldType.CHOW for m in spec.melds):
        return t("fan.problem.chow", locale, variant=name)
    if size == 14:
        last = tiles.get("win_tile", spec.concealed[-1] if spec.concealed else None)
        if last is not None:
            return t("fan.problem.no_win", locale, tile=tile_label(last, locale))
    return t("fan.problem.unclear", locale)


def answer_text(
    variant: str,
    request: dict[str, Any],
    answer: dict[str, Any],
    locale: str,
    written: tuple[str, str | None] | None = None,
) -> str:
    """The answer in words. ``written`` is the hand and winning tile as the player typed
    them, which an error names; by default, the request's."""
    if not answer.get("ok"):
        hand, win_tile = written if written is not None else (request["hand"], None)
        if written is None and request.get("win_tile"):
            win_tile = request["win_tile"]
        problem = problem_text(variant, hand, win_tile, request.get("wildcard"), locale)
        return t("fan.error", locale, error=problem)
    head = t("fan.heading", locale, variant=variant_name(variant, locale))
    if request.get("query") == "waits":
        if answer["shanten"] > 0:
            return f"{head}\n" + t("fan.not_ready", locale, count=answer["shanten"])
        waits = tiles_label(parse_tiles("".join(answer["waits"])), locale)
        return f"{head}\n" + t("fan.waits", locale, tiles=waits)
    lines = [head]
    # Where the rule set names a win's worth (广东), its kinds are listed without numbers
    # that would seem to add up, and the worth shows with the factor it puts on the
    # payments, as the settlement picture shows them (大胡 ×2).
    named = by_name(variant)
    for line in answer["fans"]:
        name = fan_name(variant, line, locale)
        count = t("fan.count", locale, count=line["count"]) if line["count"] > 1 else ""
        key = "fan.line_named" if named else "fan.line"
        lines.append(t(key, locale, name=name, fan=line["fan"], count=count))
    total = total_text(variant, answer["total"], locale, fan_sum(answer["fans"]))
    if named and answer["total"] > 1:
        total = t("fan.total_factor", locale, total=total, n=answer["total"])
    lines.append(total)
    if answer.get("meets_minimum") is False:
        lines.append(t("fan.below_minimum", locale))
    return "\n".join(lines)


def picture_view(
    request: dict[str, Any], spec: HandSpec, answer: dict[str, Any], locale: str
) -> HandView:
    wildcard = request.get("wildcard")
    waits = answer.get("waits", []) if answer.get("ok") else []
    win = request.get("win_tile")
    return HandView(
        concealed=spec.concealed,
        drawn=parse_tile(win) if win else None,
        melds=spec.melds,
        waits=tuple(parse_tiles("".join(waits))),
        wildcard=parse_tile(wildcard) if wildcard else None,
        labels=labels(locale),
    )


class FanCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.fan.name"), description=text("cmd.fan.description"))
    @app_commands.rename(
        hand=text("opt.fan.hand.name"),
        win_tile=text("opt.fan.win_tile.name"),
        self_drawn=text("opt.fan.self_drawn.name"),
        kong_related=text("opt.fan.kong_related.name"),
        last_tile=text("opt.fan.last_tile.name"),
        fourth_tile=text("opt.fan.fourth_tile.name"),
        seat_wind=text("opt.fan.seat_wind.name"),
        round_wind=text("opt.fan.round_wind.name"),
        wildcard=text("opt.fan.wildcard.name"),
        variant=text("opt.variant.name"),
    )
    @app_commands.describe(
        hand=text("opt.fan.hand.description"),
        win_tile=text("opt.fan.win_tile.description"),
        self_drawn=text("opt.fan.self_drawn.description"),
        kong_related=text("opt.fan.kong_related.description"),
        last_tile=text("opt.fan.last_tile.description"),
        fourth_tile=text("opt.fan.fourth_tile.description"),
        seat_wind=text("opt.fan.seat_wind.description"),
        round_wind=text("opt.fan.round_wind.description"),
        wildcard=text("opt.fan.wildcard.description"),
        variant=text("opt.variant.description"),
    )
    @app_commands.choices(
        variant=variant_choices(), seat_wind=wind_choices(), round_wind=wind_choices()
    )
    async def fan(
        self,
        interaction: discord.Interaction[MahjongBot],
        hand: app_commands.Range[str, 1, 60],
        win_tile: app_commands.Range[str, 1, 3] | None = None,
        self_drawn: bool = False,
        kong_related: bool = False,
        last_tile: bool = False,
        fourth_tile: bool = False,
        seat_wind: str = "E",
        round_wind: str = "E",
        wildcard: app_commands.Range[str, 1, 3] | None = None,
        variant: str = VARIANTS[0],
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await self.bot.locale_of(interaction)
        # Every calculator accepts the winds; the rule sets that do not score them ignore them.
        flags: dict[str, Any] = {
            "self_drawn": self_drawn,
            "kong_related": kong_related,
            "last_tile": last_tile,
            "fourth_tile": fourth_tile,
            "seat_wind": seat_wind,
            "round_wind": round_wind,
        }
        if wildcard:
            flags["wildcard"] = wildcard
        request, spec = build_request(variant, hand, win_tile, flags)
        answer = handle(request)
        content = answer_text(variant, request, answer, locale, (hand, win_tile))
        if spec is None or not answer.get("ok"):
            await finish(interaction, content)
            return
        png = await hand_png(picture_view(request, spec, answer, locale))
        await finish(interaction, content, as_file(png, "fan.png"))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(FanCog(bot))
