"""A player's name with Discord Markdown in it reads as it is written: escaped wherever a
message's text names the player (the lobby, the table message, hand messages, the
settlement, the session's summary, the boards, a vote, a refusal), and as it is in the
pictures and labels, which Discord does not format."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from bot import pictures
from bot.i18n import EN
from bot.runtime.snapshots import BoardState, HandFacts
from bot.tables import lobby, prompts
from data.models import GuildConfig, Seat
from engine.round import Round
from fakediscord.models import Message
from tests.bot.harness import Harness, play_out, player
from tests.bot.test_e2e_commands import final
from tests.bot.test_e2e_lobby import answer_text
from tests.bot.test_e2e_ratings import CODE
from tests.bot.test_lobby_words import a_table

#: Emphasis, strikethrough and a spoiler: raw, the name would format the line around it.
NAME = "a_b*c*~~d~~||e||"
#: The name as a message's raw content carries it, so that Discord shows it as written.
SHOWN = r"a\_b\*c\*\~\~d\~\~\|\|e\|\|"


def strings(value: object) -> Iterator[str]:
    """Every string inside a picture's view (dataclasses, tuples, strings)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from strings(item)


def shows_the_name(content: str) -> bool:
    """Whether ``content`` names the player escaped, and never raw."""
    return SHOWN in content and NAME not in content


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The strings of every picture drawn from now on, by the renderer's kind."""
    seen: dict[str, list[str]] = {}
    draw = pictures._draw

    async def spy(kind: str, *args: Any, background: bool = False) -> bytes:
        seen.setdefault(kind, []).extend(strings(args))
        return await draw(kind, *args, background=background)

    monkeypatch.setattr(pictures, "_draw", spy)
    return seen


async def test_a_markdown_name_reads_as_written_in_texts_and_as_it_is_in_pictures(
    harness: Harness, drawn: dict[str, list[str]]
) -> None:
    odd = harness.join(NAME)
    lobby_message = await harness.open_table(odd, "sichuan", rounds="1", fill_with_ai="true")
    assert f"1. {SHOWN} (host)" in harness.live(lobby_message).content
    assert NAME not in harness.live(lobby_message).content
    await (await odd.click(lobby_message, label="Start")).response()
    (settlement,) = await play_out(harness, [player(harness, odd)], odd)
    summary = await odd.next_message(where=lambda m: "session is over" in m.content, timeout=20)
    thread = lobby_message.channel_id

    def table_message(message: Message) -> bool:
        return message.channel_id == thread and any(
            a.filename == "table.png" for a in message.attachments
        )

    # The table message's title names the dealer, the player (the host sits first).
    table = await odd.next_change(lambda c: table_message(c.message), what="table message")
    assert shows_the_name(table.message.content), table.message.content
    dms = [m.content for m in odd.messages(odd.dm)]
    assert any(SHOWN in dm for dm in dms) and not any(NAME in dm for dm in dms)
    assert shows_the_name(settlement.content), settlement.content
    assert shows_the_name(summary.content), summary.content
    assert f"{SHOWN} — " in await answer_text(await odd.run("/leaderboard"), odd)
    stats = await final(await odd.run("/stats"), odd)
    assert f"**{SHOWN}**" in stats.content  # type: ignore[attr-defined]
    history = await answer_text(await odd.run("/history"), odd)
    assert f"Recent hands of **{SHOWN}**" in history

    # A replay says whose view it shows in words; its seat select labels are not Markdown.
    found = CODE.search(settlement.content)
    assert found is not None, settlement.content
    replay = (await (await odd.run("/replay", code=found.group(1))).response()).message
    assert replay is not None and f"as {SHOWN} saw it" in replay.content
    labels = [o["label"] for s in replay.selects() for o in s["options"]]
    assert NAME in labels, labels

    # Every picture draws the name as it is: the renderer prints a backslash as one.
    for kind in ("lobby", "table", "desk", "settlement", "stats"):
        assert any(NAME in s for s in drawn[kind]), kind
        assert not any("\\" in s for s in drawn[kind]), kind


async def test_a_disband_vote_names_its_asker_as_written(harness: Harness) -> None:
    odd, guest = harness.join(NAME), harness.owner
    lobby_message = await harness.start_table(odd, "guangdong", guest, fill_with_ai="true")
    thread = harness.fake.world.channels[lobby_message.channel_id]
    poll = (await (await odd.run("/table disband", channel=thread)).response()).message
    assert poll is not None
    assert poll.content.startswith(f"{SHOWN} proposes"), poll.content


async def test_a_guest_who_cannot_pay_is_named_as_written(harness: Harness) -> None:
    host, odd = harness.owner, harness.join(NAME)
    await answer_text(await host.run("/admin config", card_payer="split"), host)
    await answer_text(await host.run("/admin cards grant", user=odd.id, amount="-10"), host)
    lobby_message = await harness.open_table(host, "sichuan", odd, rounds="16", fill_with_ai="true")
    refused = await answer_text(await host.click(lobby_message, label="Start"), host)
    assert refused.startswith(f"{SHOWN} cannot pay"), refused


async def test_the_table_message_names_a_player_put_on_auto_play_as_written(
    harness: Harness,
) -> None:
    odd = harness.join(NAME)
    await harness.start_table(
        odd, "sichuan", rounds="1", fill_with_ai="true", turn_timer="1", claim_timer="1"
    )
    harness.pace_ai(0.3)
    told = await odd.next_change(
        lambda c: "timed out twice" in c.message.content and c.message.channel_id != odd.dm.id,
        timeout=20,
        what="the table's line of auto-play",
    )
    assert f"{SHOWN} timed out twice" in told.message.content, told.message.content


# -- pictures and words side by side, without Discord ---------------------------------------


def test_the_lobby_escapes_a_name_in_words_and_draws_it_as_it_is() -> None:
    table = a_table("mcr", (Seat(0, "Host", 10), Seat(1, NAME, 11)))
    config = GuildConfig(guild_id=1)
    assert lobby.seat_lines(table, EN)[1] == f"2. {SHOWN}"
    assert [chair.name for chair in lobby.picture(table, config, EN).chairs][:2] == ["Host", NAME]


def test_a_hands_titles_and_seats_escape_the_name_in_words_only() -> None:
    hand = Round.new("mcr", {"dice_modes": []}, 3)
    facts = HandFacts(1, "mcr", 1, 4, (NAME, "B", "C", "D"), (0, 1, 2, 3))
    no = (False, False, False, False)
    board = BoardState(facts, 0, hand.view(None), (0, 0, 0, 0), no, no, ())
    assert prompts.title(facts, EN).endswith(f"dealer {SHOWN}")
    assert prompts.names(facts, EN)[0] == SHOWN
    assert prompts.title(facts, EN, plain=True).endswith(f"dealer {NAME}")
    assert prompts.table_title(board, EN, plain=True).endswith(f"dealer {NAME}")
    assert prompts.seat_texts(board, EN)[0].name == NAME
