"""Every slash command with arbitrary option values, as a crafted client could send them,
through the fake Discord: each answer is a sentence within Discord's limits, never the
generic apology, and another table keeps playing meanwhile."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.pacing import Pacing
from fakediscord.commands import BOOLEAN, CHANNEL, INTEGER, NUMBER, STRING, USER
from fakediscord.driver import DriverError, Person
from tests.bot.harness import Harness, running_harness

GENERIC = ("Something went wrong", "出了点问题", "出了點問題")
CONTENT_LIMIT = 2000
DEFERRED, MODAL = 5, 9
PACING = Pacing(ai_delay=0.05, table_edit_interval=0.05, between_hands=0.05, vote_seconds=2.0)


@dataclass
class World:
    harness: Harness
    #: The guild's owner (an admin) runs commands in #general; a member anywhere.
    owner: Person
    member: Person
    places: list[int]
    table_id: int
    revision: int = 0
    checked: float = field(default_factory=time.monotonic)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_harness(tmp_path, PACING) as harness:
        # The table that keeps playing: its host on auto-play, AI seats in the others.
        host = harness.join("Host")
        lobby = await harness.start_table(
            host, "guangdong", rounds="16", fill_with_ai="true", turn_timer="1", claim_timer="1"
        )
        member = harness.join("Member")
        mine = await harness.open_table(member, "sichuan")
        assert harness.bot is not None
        (table_id,) = harness.bot.tables.running
        places = [harness.guild.channel_ids[0], lobby.channel_id, mine.channel_id]
        yield World(harness, harness.owner, member, places, table_id)


def leaves(commands: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every command that runs, as its words and its options."""
    found = []

    def walk(words: str, node: dict[str, Any]) -> None:
        options = node.get("options") or []
        nested = [o for o in options if o["type"] in (1, 2)]
        if nested:
            for child in nested:
                walk(f"{words} {child['name']}", child)
        else:
            found.append((words, options))

    for command in commands:
        walk(command["name"], command)
    return found


def values_for(option: dict[str, Any], users: list[int], channels: list[int]) -> Any:
    """Values a command declares, and anything else of the option's type."""
    choices = [c["value"] for c in option.get("choices") or []]
    kind = option["type"]
    plain: st.SearchStrategy[str | int | float]
    if kind == STRING:
        nested = st.integers(1, 3000).map(lambda n: "x=" + "[" * n + "]" * n)
        fitting = st.text(
            min_size=option.get("min_length", 0), max_size=min(option.get("max_length", 80), 80)
        )
        plain = st.one_of(fitting, st.text(min_size=900, max_size=1100), nested)
    elif kind == INTEGER:
        low, high = option.get("min_value", -50), option.get("max_value", 50)
        plain = st.one_of(st.integers(low, high), st.integers(-(10**30), 10**30))
    elif kind == NUMBER:
        plain = st.floats(allow_nan=False)
    elif kind == BOOLEAN:
        return st.booleans()
    elif kind == USER:
        return st.sampled_from(users)
    elif kind == CHANNEL:
        return st.sampled_from(channels)
    else:
        return st.none()
    return st.one_of(st.sampled_from(choices), plain) if choices else plain


@st.composite
def invocations(draw: st.DrawFn, world: World) -> tuple[Person, int, str, dict[str, Any]]:
    harness = world.harness
    commands = harness.fake.world.commands[harness.guild.id]
    words, options = draw(st.sampled_from(leaves(commands)))
    users = list(harness.guild.members)
    channels = list(harness.guild.channel_ids)
    given: dict[str, Any] = {}
    for option in options:
        if option.get("required") or draw(st.booleans()):
            given[option["name"]] = draw(values_for(option, users, channels))
    if draw(st.booleans()):
        return world.owner, world.places[0], words, given
    return world.member, draw(st.sampled_from(world.places)), words, given


async def answer_of(
    harness: Harness, person: Person, where: int, words: str, given: dict[str, Any]
) -> str | None:
    """The text the person reads in answer; None for a form the bot opened, "" for what
    even a crafted client cannot send (a command they may not use, a user or channel
    that does not exist)."""
    channel = harness.fake.world.channels[where]
    try:
        handle = await person.run(f"/{words}", channel=channel, checked=False, **given)
    except DriverError:
        return ""
    callback = await handle.response(timeout=10)
    if callback.type == MODAL:
        return None
    assert callback.message is not None
    if callback.type == DEFERRED:
        return (await person.next_edit(callback.message, timeout=10)).content
    return callback.message.content


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@given(data=st.data())
async def test_every_command_answers_a_sentence_whatever_its_options(
    world: World, data: st.DataObject
) -> None:
    person, where, words, given = data.draw(invocations(world))
    text = await answer_of(world.harness, person, where, words, given)
    if text:
        assert text.strip(), f"/{words} {given!r} answered nothing"
        assert len(text) <= CONTENT_LIMIT, f"/{words} {given!r}: {len(text)} characters"
        assert not any(g in text for g in GENERIC), f"/{words} {given!r}: {text!r}"
    # The other table went on meanwhile.
    assert world.harness.bot is not None
    running = world.harness.bot.tables.running.get(world.table_id)
    assert running is not None and not running.runtime.paused.is_set()
    now = time.monotonic()
    if now - world.checked > 5:
        # The host's timers run out within a second or two, AI seats move in 0.05 s.
        assert running.runtime.revision > world.revision
        world.revision, world.checked = running.runtime.revision, now
