"""Reactions as real Discord clients send them: keycaps and arrows with or without U+FE0F."""

import asyncio

import pytest

from fakediscord import FakeDiscord
from fakediscord.driver import Driver, Person
from fakediscord.emoji import EmojiForm, as_sent
from fakediscord.models import Guild
from tests.fakediscord.table_bot import TableBot

KEYCAP_THREE = "3\ufe0f\u20e3"
BARE_THREE = "3\u20e3"
LEFT_ARROW = "\u2b05\ufe0f"
BARE_LEFT = "\u2b05"


@pytest.mark.parametrize(
    "emoji, form, sent",
    [
        (KEYCAP_THREE, "without_fe0f", BARE_THREE),
        (BARE_THREE, "with_fe0f", KEYCAP_THREE),
        (LEFT_ARROW, "without_fe0f", BARE_LEFT),
        (BARE_LEFT, "with_fe0f", LEFT_ARROW),
        (BARE_THREE, "as_given", BARE_THREE),
        ("#\ufe0f\u20e3", "without_fe0f", "#\u20e3"),
        # Emoji shown as emoji by default have no variation to drop or add.
        ("👍", "with_fe0f", "👍"),
        ("🏆", "without_fe0f", "🏆"),
        ("❌", "with_fe0f", "❌"),
    ],
)
def test_how_a_client_writes_an_emoji(emoji: str, form: EmojiForm, sent: str) -> None:
    assert as_sent(emoji, form) == sent


async def test_discord_keeps_each_form_as_sent(
    fake: FakeDiscord, driver: Driver, guild: Guild, alice: Person, bot: TableBot
) -> None:
    """discord-api-docs#1254: 1️⃣ arrives as 31-E2-83-A3 from some clients and as
    31-EF-B8-8F-E2-83-A3 from others, and Discord hands back what each sent: the bot's
    MESSAGE_REACTION_ADD carries the person's form, and the two forms are two reactions."""
    message = await bot.text_channel(alice.home.id).send("claim?")
    await message.add_reaction(KEYCAP_THREE)
    await message.add_reaction(LEFT_ARROW)
    alice.emoji_form = "without_fe0f"
    await alice.react(message.id, KEYCAP_THREE)
    event = await asyncio.wait_for(bot.reactions.get(), 5)
    assert event.emoji.name == BARE_THREE and str(event.emoji) != KEYCAP_THREE
    reactions = fake.world.messages[message.id].reactions
    assert reactions[KEYCAP_THREE] == [fake.world.bot.id]
    assert reactions[BARE_THREE] == [alice.id]

    carol = driver.join(guild, "carol", emoji_form="with_fe0f")
    await carol.react(message.id, BARE_LEFT)
    event = await asyncio.wait_for(bot.reactions.get(), 5)
    assert event.emoji.name == LEFT_ARROW
    assert reactions[LEFT_ARROW] == [fake.world.bot.id, carol.id]
    await carol.unreact(message.id, BARE_LEFT)
    assert reactions[LEFT_ARROW] == [fake.world.bot.id]


def test_people_send_emoji_as_given_unless_told(fake: FakeDiscord, guild: Guild) -> None:
    assert Driver(fake).join(guild, "dan").emoji_form == "as_given"
    assert Driver(fake, emoji_form="without_fe0f").join(guild, "eve").emoji_form == "without_fe0f"
