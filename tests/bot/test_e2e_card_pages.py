"""/cards history page by page through the fake Discord: ◀ Newer and Older ▶ step
through the whole history in the same private message, for its owner only, and a
crafted page is answered in words."""

from __future__ import annotations

from bot.card_history import HISTORY_LINES, movement_line
from fakediscord.driver import Person
from fakediscord.models import Message
from tests.bot.harness import Harness
from tests.bot.test_e2e_lobby import answer_text

NEWER, OLDER = "◀ Newer", "Older ▶"
EDITED = 7


async def grants(harness: Harness, person: Person, count: int, first: int = 0) -> None:
    """``count`` grants of one card to the person, each noted with its number."""
    for number in range(first, first + count):
        await harness.store.grant_cards(
            harness.guild.id,
            person.id,
            1,
            key=f"test-grant-{person.id}-{number}",
            actor_id=harness.owner.id,
            note=f"grant {number:02d}",
        )


async def expected_lines(harness: Harness, person: Person) -> list[str]:
    """Every line of the person's history, newest first, as the bot writes them."""
    moves = await harness.store.card_history(harness.guild.id, person.id, limit=100)
    return [movement_line(move, "en") for move in moves]


async def open_history(person: Person) -> Message:
    opened = (await (await person.run("/cards history")).response()).message
    assert opened is not None and opened.ephemeral_for == person.id
    return opened


def button(message: Message, label: str) -> dict[str, object]:
    (found,) = [b for b in message.buttons() if b.get("label") == label]
    return found


def page_lines(message: Message) -> list[str]:
    """The movements a page shows, without its heading and its page number."""
    heading, *lines, page = message.content.splitlines()
    assert "Room cards" in heading and page.startswith("Page "), message.content
    return lines


async def turn(harness: Harness, person: Person, message: Message, label: str) -> Message:
    """Click a page button: it is answered by editing the same private message."""
    clicked = await person.click(message, label=label)
    assert (await clicked.response()).type == EDITED
    live = harness.live(message)
    assert live.id == message.id and live.ephemeral_for == person.id
    return live


async def test_a_long_history_pages_back_to_the_oldest_and_forward_again(
    harness: Harness,
) -> None:
    me = harness.owner
    await grants(harness, me, 40)
    everything = await expected_lines(harness, me)
    assert len(everything) >= 40

    shown = await open_history(me)
    pages = [page_lines(shown)]
    assert button(shown, NEWER).get("disabled"), "the newest page has nothing newer"
    while not button(shown, OLDER).get("disabled"):
        shown = await turn(harness, me, shown, OLDER)
        pages.append(page_lines(shown))
        assert f"Page {len(pages)}" in shown.content
    assert not button(shown, NEWER).get("disabled")
    assert [len(page) for page in pages[:-1]] == [HISTORY_LINES] * (len(pages) - 1)
    # Every movement once, newest first: the starter cards and the first grant last.
    assert [line for page in pages for line in page] == everything
    assert "grant 39" in pages[0][0] and "grant 00" in " ".join(pages[-1])

    back = [page_lines(shown)]
    while not button(shown, NEWER).get("disabled"):
        shown = await turn(harness, me, shown, NEWER)
        back.append(page_lines(shown))
    assert back[::-1] == pages
    assert not button(shown, OLDER).get("disabled")

    # Movements made since the history opened do not shift its pages.
    await grants(harness, harness.join("someone"), 1)
    await harness.store.grant_cards(
        harness.guild.id, me.id, 1, key="test-later", actor_id=me.id, note="later"
    )
    again = await turn(harness, me, shown, OLDER)
    assert page_lines(again) == pages[1]


async def test_a_history_of_one_page_has_no_buttons_and_later_ones_show_it_whole(
    harness: Harness,
) -> None:
    me = harness.owner
    await grants(harness, me, 3)
    single = await open_history(me)
    assert single.buttons() == []
    await grants(harness, me, HISTORY_LINES, first=3)
    full = await open_history(me)
    assert "Page 1" in full.content and not button(full, OLDER).get("disabled")
    last = await turn(harness, me, full, OLDER)
    assert page_lines(last) == (await expected_lines(harness, me))[HISTORY_LINES:]


async def test_someone_elses_history_page_is_refused_privately(harness: Harness) -> None:
    me, other = harness.owner, harness.join("小明", locale="zh-CN")
    await grants(harness, me, 20)
    await grants(harness, other, 20)
    mine = await open_history(me)
    theirs = await open_history(other)
    assert button(theirs, "下一页 ▶") and "第 1 页" in theirs.content
    # The other person's client sends my history's button: a crafted click.
    forged = str(button(mine, OLDER)["custom_id"])
    button(harness.live(theirs), "下一页 ▶")["custom_id"] = forged
    clicked = await other.click(theirs, custom_id=forged)
    callback = await clicked.response()
    assert callback.type != EDITED and callback.message is not None
    assert callback.message.ephemeral_for == other.id
    assert "别人的房卡明细" in await answer_text(clicked, other)
    assert harness.live(mine).content == mine.content, "my history is not touched"
    assert "grant 19" in harness.live(theirs).content, "nor is theirs"


async def test_a_crafted_page_is_answered_in_words(harness: Harness) -> None:
    me = harness.owner
    await grants(harness, me, 20)
    shown = await open_history(me)
    older = str(button(shown, OLDER)["custom_id"])
    _, kind, owner, anchor, page, arg = older.split(":")
    assert (kind, owner, page, arg) == ("cards", str(me.id), "0", "older")
    live = harness.live(shown)
    for crafted in (
        f"mj:cards:{owner}:{anchor}:9:older",  # past the oldest movement
        f"mj:cards:{owner}:{anchor}:0:newer",  # newer than the newest page
        f"mj:cards:{owner}:{anchor}:0:sideways",
        f"mj:cards:{owner}:{anchor}:0",
        f"mj:cards:{owner}:{2**62}:1:older",  # an anchor past any movement id
        f"mj:cards:{owner}:1:0:older",  # an anchor before every movement
    ):
        button(live, OLDER)["custom_id"] = crafted
        answer = await answer_text(await me.click(live, label=OLDER), me)
        assert "That page of your room-card history does not exist" in answer, crafted
    assert page_lines(harness.live(shown)) == page_lines(shown), "the page is not touched"
