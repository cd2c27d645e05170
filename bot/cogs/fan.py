"""``/fan``: the calculator, answered privately as a picture and a list of fans."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import finish
from bot.i18n import t
from bot.i18n.terms import fan_name, tiles_label, total_text, variant_name
from bot.i18n.translator import text, variant_choices
from bot.pictures import as_file, hand_png, labels
from bot.variants import VARIANTS
from engine.score import handle
from engine.tiles import (
    HandSpec,
    NotationError,
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


def answer_text(variant: str, request: dict[str, Any], answer: dict[str, Any], locale: str) -> str:
    if not answer.get("ok"):
        return t("fan.error", locale, error=answer.get("error", ""))
    head = t("fan.heading", locale, variant=variant_name(variant, locale))
    if request.get("query") == "waits":
        if answer["shanten"] > 0:
            return f"{head}\n" + t("fan.not_ready", locale, shanten=answer["shanten"])
        waits = tiles_label(parse_tiles("".join(answer["waits"])), locale)
        return f"{head}\n" + t("fan.waits", locale, tiles=waits)
    lines = [head]
    for line in answer["fans"]:
        name = fan_name(variant, line, locale)
        count = t("fan.count", locale, count=line["count"]) if line["count"] > 1 else ""
        lines.append(t("fan.line", locale, name=name, fan=line["fan"], count=count))
    lines.append(total_text(variant, answer["total"], locale))
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
        content = answer_text(variant, request, answer, locale)
        if spec is None or not answer.get("ok"):
            await finish(interaction, content)
            return
        png = await hand_png(picture_view(request, spec, answer, locale))
        await finish(interaction, content, as_file(png, "fan.png"))


async def setup(bot: MahjongBot) -> None:
    await bot.add_cog(FanCog(bot))
