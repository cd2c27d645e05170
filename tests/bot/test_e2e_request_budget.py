"""What a hand costs in requests toward Discord's global limit of 50 a second.

Prompts ride on each player's last click (interaction tokens are outside the global
limit): each reaches them as a follow-up of that click, a new message that notifies
them, and the one before it is deleted through the same token. A hand message changes
only when something is asked of its player, and DMs are opened once per person.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.demo import SimulatedPlayer, control_name
from bot.pacing import Pacing
from fakediscord import RateLimits
from fakediscord.driver import Person
from fakediscord.interactions import MESSAGE_COMPONENT
from fakediscord.metrics import RequestMark
from fakediscord.models import Callback, Message
from tests.bot.harness import TIMEOUT, Harness, play_out, player, running_harness

pytestmark = pytest.mark.asyncio

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
TOKEN_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"
TOKEN_DELETES = (
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
)
TOKEN_ROUTES = (TOKEN_EDIT, FOLLOW_UP, *TOKEN_DELETES)
REACTION = "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
OPEN_DM = "POST /users/@me/channels"
TOKEN_LIFETIME = 15 * 60


def on(timeline: list[RequestMark], route: str, channels: set[int] | None = None) -> int:
    return sum(
        1
        for mark in timeline
        if mark.route == route and (channels is None or mark.channel_id in channels)
    )


async def test_prompts_ride_on_clicks_and_dms_change_only_when_asked(harness: Harness) -> None:
    people = [harness.owner, harness.join("Bei"), harness.join("Chen"), harness.join("Dong")]
    await harness.start_table(people[0], "sichuan", *people[1:], rounds="1")
    seats = [player(harness, p, react=i == 1) for i, p in enumerate(people)]
    await play_out(harness, seats, people[0])

    metrics = harness.fake.metrics
    timeline = metrics.timeline
    dms = {p.dm.id for p in people}
    clicks = sum(1 for i in harness.fake.world.interactions.values() if i.type == MESSAGE_COMPONENT)
    reactions = sum(seat.reactions for seat in seats)
    # A player's first hand message comes before any click, and so does their result:
    # those are the only DM requests toward the global limit (reactions aside).
    assert sum(1 for m in timeline if m.channel_id in dms and m.route != REACTION) <= 8
    follow_ups = on(timeline, FOLLOW_UP)
    assert follow_ups > clicks // 2
    # Each new prompt message took the place of the one before.
    for person in people:
        hand_messages = [
            m
            for m in harness.fake.world.messages.values()
            if m.channel_id == person.dm.id and any(a.filename == "hand.png" for a in m.attachments)
        ]
        assert len(hand_messages) > 3
        assert sum(1 for m in hand_messages if not m.deleted) == 1
    # A prompt, or controls taken away, per move at most; the table's news alone (another
    # seat's discard with nothing to answer) changes nobody's hand message.
    assert follow_ups + on(timeline, TOKEN_EDIT) <= 1.2 * (clicks + reactions)
    # One DM channel per person for the whole session, no user lookups.
    assert on(timeline, OPEN_DM) == len(people)
    assert not any(mark.route == "GET /users/{user_id}" for mark in timeline)
    assert metrics.global_rate_limited == 0


async def test_a_dead_token_falls_back_to_the_message_route(tmp_path: Path) -> None:
    """A click's token that Discord no longer accepts costs one refused request; the prompt
    still arrives, through the DM's own route, and the hand plays on."""
    pacing = Pacing(ai_delay=0.3, table_edit_interval=0.05, between_hands=0.05)
    async with running_harness(tmp_path, pacing) as harness:
        me = harness.owner
        await harness.start_table(me, "guangdong", rounds="1", fill_with_ai="true")
        seat = player(harness, me)
        world = harness.fake.world
        answered = 0
        while answered < 2:
            prompt = await me.next_prompt(timeout=TIMEOUT)
            live = world.messages[prompt.id]
            if live.has_controls():
                await seat.answer(live)
                answered = len(seat.answers)
        # The AI seats take 0.3 s over each move: the next prompt is still to come.
        world.clock.advance(TOKEN_LIFETIME + 60)
        mark = len(harness.fake.metrics.timeline)
        await play_out(harness, [seat], me)

        later = harness.fake.metrics.timeline[mark:]
        refused = [m for m in later if m.route in TOKEN_ROUTES and m.status == 401]
        assert len(refused) == 1, "one refusal, then the bot stops using that token"
        first_refusal = later.index(refused[0])
        fallback = later[first_refusal + 1 :]
        assert any(m.channel_id == me.dm.id for m in fallback)
        assert any(m.route in TOKEN_ROUTES and m.status in (200, 204) for m in fallback), (
            "the next click's fresh token is used again"
        )


@dataclass
class PatientReactor(SimulatedPlayer):
    """A person who answers claims by reaction, and once they have (the bot then offers
    its reactions), waits up to a second for the bot's reactions on a claim prompt before
    answering it. People take that long; a player who answered at once would have the
    table move on and the prompt replaced before the bot's first reaction is on."""

    bot_id: int = 0

    async def answer(self, message: Message) -> Callback | None:
        if self.reactions and _asks_claim(message):
            for _ in range(100):
                if any(self.bot_id in users for users in message.reactions.values()):
                    break
                await asyncio.sleep(0.01)
        return await super().answer(message)


def _asks_claim(message: Message) -> bool:
    return any(control_name(b["custom_id"]) == "pass" for b in message.buttons())


async def test_claim_reactions_only_for_players_who_react(harness: Harness) -> None:
    """Nobody gets the claim reactions put on their hand message until they answer a
    claim by reaction; from then on they do."""
    reactor, clicker = harness.owner, harness.join("Bei")
    await harness.start_table(reactor, "guangdong", clicker, rounds="4", fill_with_ai="true")
    bot_id = harness.fake.world.bot.id
    seats = [
        PatientReactor(reactor, harness.fake.world.messages, react=True, bot_id=bot_id),
        player(harness, clicker),
    ]
    await play_out(harness, seats, reactor, hands=4)

    def bot_reactions(person: Person) -> list[list[str]]:
        """Each hand message's reactions by the bot, oldest first, the deleted ones too."""
        return [
            [emoji for emoji, users in m.reactions.items() if bot_id in users]
            for m in harness.fake.world.messages.values()
            if m.channel_id == person.dm.id and any(a.filename == "hand.png" for a in m.attachments)
        ]

    assert not any(bot_reactions(clicker)), "no reactions for a player who clicks"
    assert seats[0].reactions > 0
    offered = bot_reactions(reactor)
    # Each claim prompt is a message of its own; a quick answer may replace it before
    # every reaction is on.
    assert any(offered), "a player who reacts gets the reactions"
    assert all("⬅️" not in emojis for emojis in offered), "no chow in 广东"


async def test_every_request_toward_the_global_limit_waits_for_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Requests no table code paces (here: sends straight through discord.py) and
    discord.py's retries after a 429 are admitted by the budget as they leave."""
    pacing = Pacing(requests_per_second=20, request_burst=1)
    # Windows of 0.2 s: one request per window makes the budget's 20 a second too many.
    limits = RateLimits(time_scale=0.2)
    async with running_harness(tmp_path, pacing, rate_limits=limits) as harness:
        bot = harness.bot
        assert bot is not None
        channels = [harness.fake.world.create_channel(harness.guild, f"t{n}") for n in range(4)]
        limits.global_limit = 1
        metrics = harness.fake.metrics
        metrics.reset()
        before = bot.budget.taken
        # When each request left the bot: what the budget paces. Their arrivals at the
        # fake may bunch up behind a busy machine's scheduling, which no sender controls.
        admitted: list[float] = []
        admit = bot.budget.admit

        async def timed_admit() -> None:
            await admit()
            admitted.append(time.monotonic())

        monkeypatch.setattr(bot.budget, "admit", timed_admit)
        await asyncio.gather(*(bot.get_partial_messageable(c.id).send("hi") for c in channels))
        limits.global_limit = 50
        posts = [m for m in metrics.timeline if m.route == "POST /channels/{channel_id}/messages"]
        refused = sum(1 for m in posts if m.status == 429)
        assert refused > 0 and len(posts) == len(channels) + refused
        # Every try, retries included, waited for its own slot: 20 a second at most.
        assert bot.budget.taken - before == len(posts) == len(admitted)
        gaps = [b - a for a, b in itertools.pairwise(admitted)]
        assert min(gaps) >= 0.8 / pacing.requests_per_second


async def test_a_dm_channel_is_opened_once_however_many_ask_for_it_at_once(
    harness: Harness,
) -> None:
    """A hand's first messages, a result and a notice may all want a new person's DM
    channel at the same moment: Discord is asked once (it allows five openings a second
    for the whole bot)."""
    bot = harness.bot
    assert bot is not None
    person = harness.join("Eun")
    channels = await asyncio.gather(*(bot.dm_channel(person.user.id) for _ in range(5)))
    assert {channel.id for channel in channels} == {person.dm.id}
    assert harness.fake.metrics.requests[OPEN_DM] == 1
    assert await harness.store.dm_channel_id(person.user.id) == person.dm.id


async def test_a_failed_dm_opening_reaches_everyone_who_waited_and_is_tried_again(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = harness.bot
    assert bot is not None
    person = harness.join("Fei")
    opened = bot.create_dm

    async def refused(user: object) -> object:
        await asyncio.sleep(0.01)
        raise RuntimeError("no channel")

    monkeypatch.setattr(bot, "create_dm", refused)
    asks = [bot.dm_channel(person.user.id) for _ in range(3)]
    results = await asyncio.gather(*asks, return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    monkeypatch.setattr(bot, "create_dm", opened)
    channel = await bot.dm_channel(person.user.id)
    assert channel.id == person.dm.id
