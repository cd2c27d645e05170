"""The offline demo: the real bot against a local fake Discord, one table per rule set.

    python -m bot.demo [--out demo-output] [--rounds 4]

Simulated people create the tables, sit down beside AI seats, and play whole sessions by
clicking, choosing and reacting on what the bot shows them; the progress of each table is
printed, and every picture the bot sends is written to the output folder (each table's
lobby once, as ``<variant>-lobby.png``), with the first turn and claim prompt of each
table as a phone shows them (``<variant>-dm-turn.png``, ``<variant>-dm-claim.png``).
The person who won most hands then plays two more one-hand sessions of their rule set,
so that their rating has a course to draw, and asks ``/stats``: its picture is
``stats.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import MahjongBot
from bot.ids import CustomId, CustomIdError
from bot.pacing import Pacing
from bot.runtime.clicks import ACT, AUTO, PICK, REACTIONS
from bot.settings import Settings
from bot.tables.manager import LOBBY_PICTURE
from bot.variants import playable_variants
from data.sqlite import SqliteStore
from fakediscord import FakeDiscord, RateLimits
from fakediscord.driver import Driver, DriverError, InteractionHandle, Person
from fakediscord.models import BUTTON, Callback, Message
from fakediscord.world import MessageChange
from renderer.message import render_message
from renderer.models import ButtonView, MessageView

DEMO_PACING = Pacing(ai_delay=0.15, table_edit_interval=1.0, between_hands=1.5, vote_seconds=10)
# Discord's rate-limit windows, shortened so that a session takes a minute, not ten.
DEMO_RATE_SCALE = 0.1
WAIT = 0.5
SUCCESS = 3
# Which turn and which claim prompt of a table the screenshots show: ones with a table
# around them.
SHOWN_PROMPT = {"turn": 8, "claim": 2}
CLAIM_EMOJI = {name: emoji for emoji, name in REACTIONS.items()}
VARIATION_SELECTOR = "\ufe0f"
# Who sits at each rule set's table; the other seats are AI players.
PLAYERS = {
    "mcr": (("Mei", "zh-CN"),),
    "guangdong": (("Ah Keung", "zh-TW"), ("Lily", "en-US")),
    "sichuan": (("小张", "zh-CN"), ("阿美", "zh-TW"), ("Sam", "en-US"), ("老李", "zh-CN")),
}


@dataclass
class SimulatedPlayer:
    """A person at a table who answers every prompt addressed to them.

    They only see what Discord shows: they win whenever a win button is offered, claim
    pongs and kongs, take the suggested 定缺 and 换三张, and otherwise discard the tile
    they drew. With ``react`` they answer claims with reactions rather than buttons. With
    ``think`` they take, on average, that many seconds over each prompt (half to one and
    a half times it), as people do.

    An ``attentive`` person plays as on a phone: they notice only what notifies them (a
    new message in their DMs, a message that mentions them), look after a human delay
    drawn from ``glance`` seconds, answer what the conversation shows, and keep answering
    while the answer to their click asks them again; edits reach them only then.
    """

    person: Person
    world_messages: dict[int, Message]
    react: bool = False
    seed: int = 7
    think: float = 0.0
    attentive: bool = False
    glance: tuple[float, float] = (2.0, 8.0)
    answers: list[int] = field(default_factory=list)
    private_replies: list[str] = field(default_factory=list)
    reactions: int = 0
    #: What notified an attentive person and they opened, as it looked then.
    noticed: list[Message] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    async def play(self, stop: asyncio.Event) -> None:
        if self.attentive:
            await self._play_attentively(stop)
            return
        while not stop.is_set():
            try:
                prompt = await self.person.next_prompt(timeout=WAIT)
            except DriverError:
                continue
            if self.think:
                await asyncio.sleep(self.think * self._rng.uniform(0.5, 1.5))
            live = self.world_messages[prompt.id]
            if live.has_controls():
                await self.answer(live)

    async def _play_attentively(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                notified = await self.person.next_notification(timeout=WAIT)
            except DriverError:
                continue
            await asyncio.sleep(self._rng.uniform(*self.glance))
            await self._look(self.world_messages[notified.id])

    async def _look(self, message: Message) -> None:
        """Open what notified them and answer it while it asks them something."""
        if message.deleted:
            return
        if message.guild_id is not None:
            # A mention in the thread (closed DMs): its button shows the hand privately.
            shows = [b for b in message.buttons() if control_name(b["custom_id"]) == "show"]
            if not shows:
                return
            handle = await self.person.click(message, custom_id=shows[0]["custom_id"])
            shown = (await handle.response()).message
            if shown is None:
                return
            message = self.world_messages[shown.id]
        self.noticed.append(message.snapshot())
        seen: set[str] = set()
        while message.has_controls() and not message.deleted:
            controls = tuple(b["custom_id"] for b in message.buttons() + message.selects())
            if seen & set(controls):
                return
            seen |= set(controls)
            callback = await self.answer(message)
            if callback is None or callback.message is None or callback.type == 4:
                return
            message = self.world_messages[callback.message.id]

    async def answer(self, message: Message) -> Callback | None:
        try:
            handle = await self._act(message)
            if handle is None:
                return None
            # A click the bot never answers is Discord's "This interaction failed"; the
            # person goes on with the next prompt.
            callback = await handle.response(timeout=20)
        except DriverError:
            return None
        self.answers.append(callback.type)
        if callback.type == 4 and callback.message is not None:
            self.private_replies.append(callback.message.content)
        return callback

    async def _act(self, message: Message) -> InteractionHandle | None:
        person = self.person
        buttons = [
            b
            for b in message.buttons()
            # The 摸切 and 自动胡 toggles stay as they are.
            if not b.get("disabled") and control_name(b["custom_id"]) != AUTO
        ]
        styles = {control_name(b["custom_id"]): b for b in buttons}
        selects = message.selects()
        for kind in ("win", "back", "kong", "pong"):
            if kind not in styles:
                continue
            if self.react and kind in CLAIM_EMOJI and "pass" in styles:
                await self._react(message, CLAIM_EMOJI[kind])
                return None
            return await person.click(message, custom_id=styles[kind]["custom_id"])
        discards = [b for b in buttons if control_name(b["custom_id"]) == "discard"]
        suggested = [b for b in buttons if b.get("style") == SUCCESS and b not in discards]
        if suggested:
            return await person.click(message, custom_id=suggested[0]["custom_id"])
        triple = [s for s in selects if s.get("min_values") == 3]
        if triple:
            values = [o["value"] for o in triple[0]["options"]][:3]
            return await person.choose(message, *values, custom_id=triple[0]["custom_id"])
        if discards:
            # The tile just drawn is the last one, as in the picture.
            return await person.click(message, custom_id=discards[-1]["custom_id"])
        if "pass" in styles:
            if self.react:
                await self._react(message, CLAIM_EMOJI["pass"])
                return None
            return await person.click(message, custom_id=styles["pass"]["custom_id"])
        if buttons:
            return await person.click(message, custom_id=self._rng.choice(buttons)["custom_id"])
        return None

    async def _react(self, message: Message, emoji: str) -> None:
        # Taking a reaction back presses it again: the bot cannot clear it in DMs. The
        # reaction is kept as the person's client sent it, with or without U+FE0F.
        bare = emoji.replace(VARIATION_SELECTOR, "")
        mine = [
            sent
            for sent, users in message.reactions.items()
            if sent.replace(VARIATION_SELECTOR, "") == bare and self.person.id in users
        ]
        if mine:
            await self.person.unreact(message, mine[0])
        else:
            await self.person.react(message, emoji)
        self.reactions += 1


def control_name(custom_id: str) -> str:
    """What a hand's control does, whatever the language: the engine's name of the action
    it answers with (or of what a select chooses), else the control's own kind."""
    try:
        cid = CustomId.decode(custom_id)
    except CustomIdError:
        return ""
    return cid.arg.split(".")[0] if cid.kind in (ACT, PICK) else cid.kind


class PictureSaver:
    """Writes every distinct picture the bot sends (or edits in) to a folder, in order,
    as ``NNNN-<variant or dm>-<kind>.png``; each table's lobby once, as it last looked
    (its seats filled), as ``<variant>-lobby.png`` when :meth:`close` is called."""

    def __init__(self, folder: Path, channel_names: dict[int, str]) -> None:
        self.folder = folder
        self.channel_names = channel_names
        self.count = 0
        self._seen: set[str] = set()
        self._lobbies: dict[int, bytes] = {}

    def __call__(self, change: MessageChange) -> None:
        for attachment in change.message.attachments:
            if attachment.filename == LOBBY_PICTURE:
                # The lobby is posted before its thread is known; it is named at the end.
                self._lobbies[change.message.channel_id] = attachment.data
                continue
            digest = hashlib.sha256(attachment.data).hexdigest()
            if digest in self._seen:
                continue
            self._seen.add(digest)
            self.count += 1
            where = self.channel_names.get(change.message.channel_id, "dm")
            name = f"{self.count:04d}-{where}-{attachment.filename}"
            (self.folder / name).write_bytes(attachment.data)

    def close(self) -> None:
        for channel_id, data in self._lobbies.items():
            where = self.channel_names.get(channel_id, str(channel_id))
            (self.folder / f"{where}-{LOBBY_PICTURE}").write_bytes(data)
            self.count += 1


class Screens:
    """Writes, for each rule set, a turn and a claim prompt a person at its table was sent
    in the middle of its first hand, as a phone shows them: ``<variant>-dm-turn.png`` and
    ``<variant>-dm-claim.png``."""

    def __init__(self, folder: Path, fake: FakeDiscord, dms: dict[int, str]) -> None:
        self.folder = folder
        self.fake = fake
        self.dms = dms
        self.seen: Counter[tuple[str, str]] = Counter()

    def __call__(self, change: MessageChange) -> None:
        message = change.message
        variant = self.dms.get(message.channel_id)
        if variant is None or change.kind != "create" or not message.attachments:
            return
        names = {control_name(b["custom_id"]) for b in message.buttons()}
        kind = "turn" if "discard" in names else "claim" if "pass" in names else None
        if kind is None:
            return
        self.seen[(variant, kind)] += 1
        if self.seen[(variant, kind)] != SHOWN_PROMPT[kind]:
            return
        world = self.fake.world
        emojis = {e.id: e.image for e in world.app_emojis.values()}
        shot = render_message(message_view(message, emojis, world.bot.name, time.time()))
        (self.folder / f"{variant}-dm-{kind}.png").write_bytes(shot)


# Discord's button colours by style: primary, secondary, success, danger.
BUTTON_FILLS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c"}
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_TIMESTAMP = re.compile(r"<t:(\d+):R>")


def message_view(
    message: Message, emojis: dict[int, bytes], author: str, now: float
) -> MessageView:
    """A message of the fake Discord as its phone app shows it: ``**bold**`` as bold,
    relative timestamps as the seconds left from ``now``, buttons with their style's
    colour and their emoji (``emojis``: the application's, by id) or label."""
    lines = []
    for line in message.content.splitlines():
        line = _TIMESTAMP.sub(lambda m: f"{max(0, int(m.group(1)) - int(now))} s", line)
        runs: list[tuple[str, bool]] = []
        at = 0
        for match in _BOLD.finditer(line):
            runs += [(line[at : match.start()], False), (match.group(1), True)]
            at = match.end()
        runs.append((line[at:], False))
        lines.append(tuple(run for run in runs if run[0]))
    rows = []
    for row in message.components:
        buttons = []
        for button in row.get("components", []):
            if button.get("type") != BUTTON:
                continue
            emoji = button.get("emoji") or {}
            icon = emojis.get(int(emoji["id"])) if emoji.get("id") else None
            fill = BUTTON_FILLS.get(button.get("style", 2), BUTTON_FILLS[2])
            buttons.append(ButtonView(button.get("label") or "", icon, fill))
        rows.append(tuple(buttons))
    picture = next((a.data for a in message.attachments if a.filename.endswith(".png")), None)
    return MessageView(author, tuple(lines), picture, tuple(rows))


class Progress:
    """Prints what happens at each table: the line under each table picture, the
    settlements and the end of each session."""

    def __init__(self, tables: dict[int, str]) -> None:
        self.tables = tables
        self._last: dict[int, str] = {}
        self.started = time.monotonic()

    def __call__(self, change: MessageChange) -> None:
        message = change.message
        label = self.tables.get(message.channel_id)
        if label is None or message.ephemeral_for is not None or change.kind == "delete":
            return
        lines = [line for line in message.content.splitlines() if line.strip()]
        if not lines:
            return
        shown = lines[1] if len(lines) > 1 and change.kind == "update" else " · ".join(lines[:3])
        if self._last.get(message.id) == shown:
            return
        self._last[message.id] = shown
        elapsed = time.monotonic() - self.started
        print(f"{elapsed:6.1f}s [{label}] {shown[:160]}", flush=True)


def button(message: Message, kind: str) -> dict[str, Any]:
    """The message's button of a kind (``join``, ``start`` …), whatever its language."""
    for found in message.buttons():
        if found["custom_id"].split(":")[1] == kind:
            return found
    raise DriverError(f"no {kind} button on message {message.id}")


async def open_table(
    people: Sequence[Person],
    variant: str,
    rounds: int,
    *,
    on_thread: Callable[[int], None] | None = None,
    **options: str,
) -> Message:
    """The first person opens a table with ``/table create`` and the others join it;
    returns the lobby message. ``on_thread`` learns the table's thread as soon as it exists."""
    host = people[0]
    given: dict[str, Any] = {"variant": variant, "rounds": str(rounds), **options}
    created = await host.run("/table create", **given)
    thinking = (await created.response()).message
    assert thinking is not None
    opened = await host.next_edit(thinking)
    thread_id = int(opened.content.split("<#")[1].split(">")[0])
    if on_thread is not None:
        on_thread(thread_id)
    lobby = await host.next_message(where=lambda m: m.channel_id == thread_id and m.has_controls())
    for person in people[1:]:
        joined = await person.click(lobby, custom_id=button(lobby, "join")["custom_id"])
        await joined.response()
    return lobby


async def play_session(
    lobby: Message, players: Sequence[SimulatedPlayer], timeout: float
) -> Message:
    """The first player starts the table and everybody plays until the session is over;
    returns the closing message (the one with Play again)."""
    host = players[0].person
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.play(stop)) for player in players]
    try:
        live = players[0].world_messages[lobby.id]
        started = await host.click(live, custom_id=button(live, "start")["custom_id"])
        await started.response()
        return await host.next_message(
            where=lambda m: m.channel_id == lobby.channel_id and "again" in _kinds(m),
            timeout=timeout,
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks)


async def play_table(
    fake: FakeDiscord,
    variant: str,
    people: Sequence[Person],
    rounds: int,
    threads: dict[int, str],
) -> list[SimulatedPlayer]:
    """Open a table, seat the people (AI players fill the rest) and play the session."""

    def opened(thread_id: int) -> None:
        threads[thread_id] = variant

    lobby = await open_table(people, variant, rounds, on_thread=opened, fill_with_ai="true")
    players = [
        SimulatedPlayer(person, fake.world.messages, react=i % 2 == 1, seed=i)
        for i, person in enumerate(people)
    ]
    await play_session(lobby, players, timeout=rounds * 120)
    return players


#: One-hand sessions the /stats player plays after the main ones.
EXTRA_SESSIONS = 2


async def most_wins(
    store: SqliteStore, guild_id: int, people: dict[str, list[Person]]
) -> tuple[str, Person]:
    """The rule set and person with the most winning hands."""
    best: tuple[int, str, Person] | None = None
    for variant, seated in people.items():
        for person in seated:
            wins = (await store.player_stats(person.id, guild_id=guild_id)).wins
            if best is None or wins > best[0]:
                best = (wins, variant, person)
    assert best is not None
    return best[1], best[2]


async def more_sessions(
    fake: FakeDiscord, variant: str, person: Person, threads: dict[int, str]
) -> None:
    for _ in range(EXTRA_SESSIONS):
        await play_table(fake, variant, [person], 1, threads)


async def save_stats(person: Person, path: Path) -> None:
    """``/stats`` as its asker sees it: the picture that replaces "thinking…"."""
    asked = await person.run("/stats")
    thinking = (await asked.response()).message
    assert thinking is not None
    answer = await person.next_edit(thinking, timeout=30)
    picture = next(a for a in answer.attachments if a.filename == "stats.png")
    path.write_bytes(picture.data)


def _kinds(message: Message) -> set[str]:
    return {b["custom_id"].split(":")[1] for b in message.buttons()}


async def run_demo(out: Path, rounds: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    variants = playable_variants()
    if not variants:
        print("no rule set can be played yet", file=sys.stderr)
        return 1
    rates = RateLimits(time_scale=DEMO_RATE_SCALE)
    async with FakeDiscord(rate_limits=rates) as fake:
        guild = fake.world.create_guild("麻将俱乐部", locale="zh-CN")
        driver = Driver(fake)
        threads: dict[int, str] = {}
        saver = PictureSaver(out, threads)
        fake.world.observe(saver)
        fake.world.observe(Progress(threads))
        people = {v: [driver.join(guild, n, locale=loc) for n, loc in PLAYERS[v]] for v in variants}
        dms = {p.dm.id: v for v, seated in people.items() for p in seated}
        fake.world.observe(Screens(out, fake, dms))
        with tempfile.TemporaryDirectory() as scratch:
            database = Path(scratch) / "demo.sqlite3"
            store = await SqliteStore.open(database, synchronous="NORMAL")
            settings = Settings(
                token=fake.token,
                database=database,
                dev_guild_id=guild.id,
                log_level="WARNING",
                turn_timer=20,
                claim_timer=10,
            )
            bot = MahjongBot(settings, store, pacing=DEMO_PACING, guild_ready_timeout=0.05)
            try:
                async with fake.run_client(bot):
                    # The first start uploads the tile emojis; the tables wait for them.
                    await bot.tile_emoji.ready()
                    await asyncio.gather(
                        *(play_table(fake, v, people[v], rounds, threads) for v in variants)
                    )
                    rated, first = await most_wins(store, guild.id, people)
                    await more_sessions(fake, rated, first, threads)
                    await save_stats(first, out / "stats.png")
                    board = await first.run("/leaderboard")
                    answer = await board.response()
                    if answer.message is not None:
                        print(answer.message.content)
            finally:
                await store.close()
                saver.close()
        report = fake.report()
    print(f"{saver.count} pictures written to {out}/")
    print(
        f"{report['total_requests']} requests to Discord, "
        f"{sum(report['rate_limited'].values())} rate-limited, "
        f"{report['interactions_late']} of {report['interactions']} interactions answered late"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("demo-output"), help="picture folder")
    parser.add_argument(
        "--rounds", type=int, choices=(1, 4, 8, 16), default=4, help="hands per table"
    )
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run_demo(args.out, args.rounds))
    return 130


if __name__ == "__main__":
    raise SystemExit(main())
