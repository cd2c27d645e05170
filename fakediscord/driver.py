"""Simulated people: members of a guild who run slash commands, read what the bot shows
them, click buttons, pick select options and react, with waits that wake on events."""

import asyncio
import shlex
from collections import deque
from collections.abc import Callable
from typing import Any

from fakediscord import threads
from fakediscord.commands import InvalidInvocation, resolve_invocation
from fakediscord.emoji import EmojiForm, as_sent
from fakediscord.errors import APIError
from fakediscord.interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    deliver,
    open_interaction,
)
from fakediscord.mentions import notifies
from fakediscord.messaging import add_reaction, parse_emoji, remove_reaction
from fakediscord.models import (
    BUTTON,
    STRING_SELECT,
    Callback,
    Channel,
    Guild,
    Interaction,
    Message,
    Role,
    User,
)
from fakediscord.permissions import VIEW_CHANNEL, flag
from fakediscord.server import FakeDiscord
from fakediscord.validation import LINK_STYLE
from fakediscord.world import MessageChange, World

DEFAULT_TIMEOUT = 5.0
INBOX_SIZE = 2000
TEXT_INPUT = 4
# Discord's client offers slash commands only where both of these are granted.
USE_COMMANDS = VIEW_CHANNEL | flag("use_application_commands")
LABEL = 18

ChangeFilter = Callable[[MessageChange], bool]
MessageFilter = Callable[[Message], bool]


class DriverError(Exception):
    """The person cannot do this in Discord's client (no such button, disabled, hidden…)."""


class DriverTimeout(DriverError, TimeoutError):
    """Nothing the person waited for arrived in time."""


class Inbox:
    """What a person has seen, in order; each change is taken by at most one wait.

    Waits that find nothing register a future that the next matching change resolves, so
    nobody polls.
    """

    def __init__(self, size: int = INBOX_SIZE) -> None:
        self._changes: deque[MessageChange] = deque(maxlen=size)
        self._waiters: list[tuple[ChangeFilter, asyncio.Future[MessageChange]]] = []

    def __len__(self) -> int:
        return len(self._changes)

    def pending(self) -> list[MessageChange]:
        return list(self._changes)

    def clear(self) -> None:
        self._changes.clear()

    def deliver(self, change: MessageChange) -> None:
        for index, (wanted, future) in enumerate(self._waiters):
            if not future.done() and wanted(change):
                del self._waiters[index]
                future.set_result(change)
                return
        self._changes.append(change)

    async def take(self, wanted: ChangeFilter, timeout: float, what: str) -> MessageChange:
        for index, change in enumerate(self._changes):
            if wanted(change):
                del self._changes[index]
                return change
        future: asyncio.Future[MessageChange] = asyncio.get_running_loop().create_future()
        entry = (wanted, future)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise DriverTimeout(
                f"no {what} within {timeout} s; unread: {self._describe()}"
            ) from None
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)

    def _describe(self) -> str:
        return (
            "; ".join(
                f"{c.kind} {c.message.id} {c.message.content[:40]!r}"
                for c in list(self._changes)[-5:]
            )
            or "nothing"
        )


class InteractionHandle:
    """An interaction a person started; its first answer can be awaited."""

    def __init__(self, interaction: Interaction, world: World) -> None:
        self.interaction = interaction
        self._world = world

    def deliver_again(self) -> None:
        """The gateway sends the same interaction once more (same id and token)."""
        deliver(self._world, self.interaction)

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def acknowledged(self) -> bool:
        return self.interaction.acknowledged

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened in answer, if it did."""
        return self.interaction.modal

    async def response(self, timeout: float = DEFAULT_TIMEOUT) -> Callback:
        """The bot's first answer: its type and the message it made or updated, if any."""
        try:
            return await asyncio.wait_for(asyncio.shield(self.interaction.answered), timeout)
        except TimeoutError:
            raise DriverTimeout(f"interaction {self.id} not answered within {timeout} s") from None


class Person:
    """A member of a guild, as the bot sees them through Discord.

    `emoji_form` is how their client writes keycap and arrow emoji in reactions: as the
    test gives them ("as_given"), or always with or without U+FE0F (`fakediscord.emoji`).
    """

    def __init__(
        self,
        world: World,
        user: User,
        guild: Guild | None,
        *,
        inbox_size: int = INBOX_SIZE,
        emoji_form: EmojiForm = "as_given",
    ) -> None:
        self._world = world
        self.user = user
        self.guild = guild
        self.inbox = Inbox(inbox_size)
        self.emoji_form: EmojiForm = emoji_form

    def __repr__(self) -> str:
        return f"<Person {self.user.name} {self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def locale(self) -> str:
        return self.user.locale

    @property
    def dm(self) -> Channel:
        """The DM channel between this person and the bot."""
        return self._world.dm_channel(self.user)

    @property
    def home(self) -> Channel:
        """Where commands run by default: the guild's first channel."""
        if self.guild is None or not self.guild.channel_ids:
            return self.dm
        return self._world.channels[self.guild.channel_ids[0]]

    def close_dms(self) -> None:
        self._world.close_dms(self.user)

    def open_dms(self) -> None:
        self._world.open_dms(self.user)

    # Acting

    async def run(
        self,
        command: str,
        *,
        channel: Channel | None = None,
        checked: bool = True,
        **options: Any,
    ) -> InteractionHandle:
        """Runs a slash command written as in the client: "/table create variant:mcr rounds:4".

        Options may also be passed as keyword arguments; names and choices may be given in
        the person's language. Unless ``checked``, numbers and texts go out as given,
        outside the command's choices and ranges (a crafted client).
        """
        words, typed = parse_command(command)
        typed.update(options)
        where = channel or self.home
        self._require_visible_channel(where)
        self._require_active(where, "use commands")
        try:
            invocation = resolve_invocation(
                self._world, self.user, where, words, typed, checked=checked
            )
        except InvalidInvocation as refused:
            raise DriverError(str(refused)) from refused
        interaction = open_interaction(
            self._world,
            kind=APPLICATION_COMMAND,
            user=self.user,
            channel=where,
            data=invocation.data,
            command_name=invocation.name,
        )
        return InteractionHandle(interaction, self._world)

    async def click(
        self,
        message: Message | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
    ) -> InteractionHandle:
        """Clicks the one button matching the label, custom_id or emoji."""
        live = self._live(message)
        button = _only(
            [
                b
                for b in live.buttons()
                if (label is None or b.get("label") == label)
                and (custom_id is None or b.get("custom_id") == custom_id)
                and (emoji is None or (b.get("emoji") or {}).get("name") == emoji)
            ],
            f"button label={label!r} custom_id={custom_id!r} emoji={emoji!r} on {live.id}",
        )
        if button.get("disabled"):
            raise DriverError(f"button {button.get('label')!r} is disabled")
        if button.get("style") == LINK_STYLE:
            raise DriverError("link buttons open a URL; they make no interaction")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return self._component(live, data)

    async def choose(
        self,
        message: Message | int,
        *choices: str,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> InteractionHandle:
        """Picks options of a string select by value or by label."""
        live = self._live(message)
        select = _only(
            [
                s
                for s in live.selects()
                if (custom_id is None or s.get("custom_id") == custom_id)
                and (placeholder is None or s.get("placeholder") == placeholder)
            ],
            f"select custom_id={custom_id!r} placeholder={placeholder!r} on {live.id}",
        )
        if select["type"] != STRING_SELECT:
            raise DriverError("only string selects can be driven")
        if select.get("disabled"):
            raise DriverError("the select is disabled")
        values = [_option_value(select, choice) for choice in choices]
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"choose between {low} and {high} options, not {len(values)}")
        data = {"custom_id": select["custom_id"], "component_type": STRING_SELECT, "values": values}
        return self._component(live, data)

    async def submit_modal(
        self, opened: InteractionHandle, values: dict[str, str]
    ) -> InteractionHandle:
        """Fills the modal the bot opened in answer to `opened`, by text inputs' custom_id."""
        modal = opened.modal
        if modal is None:
            raise DriverError("the bot opened no modal")
        source = opened.interaction
        channel = self._world.channels[source.channel_id]
        message = self._world.messages.get(source.message_id) if source.message_id else None
        data = {
            "custom_id": modal["custom_id"],
            "components": [_filled(row, values) for row in modal["components"]],
        }
        interaction = open_interaction(
            self._world,
            kind=MODAL_SUBMIT,
            user=self.user,
            channel=channel,
            data=data,
            message=message,
        )
        return InteractionHandle(interaction, self._world)

    async def react(self, message: Message | int, emoji: str) -> None:
        """Adds a reaction, written the way this person's client writes `emoji`."""
        live = self._live(message)
        self._require_active(self._world.channels[live.channel_id], "add reactions")
        add_reaction(self._world, live, self.user, parse_emoji(as_sent(emoji, self.emoji_form)))

    async def unreact(self, message: Message | int, emoji: str) -> None:
        live = self._live(message)
        sent = parse_emoji(as_sent(emoji, self.emoji_form))
        remove_reaction(self._world, live, self.user, sent)

    # Reading

    def messages(self, channel: Channel | None = None) -> list[Message]:
        """The current state of every message this person can see, oldest first."""
        return [
            message
            for message in self._world.messages.values()
            if not message.deleted
            and (channel is None or message.channel_id == channel.id)
            and self._world.can_see(self.user, message)
        ]

    async def next_change(
        self, wanted: ChangeFilter, *, timeout: float = DEFAULT_TIMEOUT, what: str = "change"
    ) -> MessageChange:
        return await self.inbox.take(wanted, timeout, what)

    async def next_message(
        self,
        *,
        channel: Channel | None = None,
        where: MessageFilter | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """The next new message shown to this person (channel, thread, DM or ephemeral)."""
        change = await self.inbox.take(
            lambda c: c.kind == "create" and _matches(c.message, channel, where),
            timeout,
            "new message",
        )
        return change.message

    async def next_edit(
        self,
        message: Message | int | None = None,
        *,
        where: MessageFilter | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """The next edit of `message` (or of any visible message) after this point."""
        wanted_id = _message_id(message) if message is not None else None
        change = await self.inbox.take(
            lambda c: (
                c.kind == "update"
                and (wanted_id is None or c.message.id == wanted_id)
                and _matches(c.message, None, where)
            ),
            timeout,
            "edit",
        )
        return change.message

    async def next_deletion(
        self, message: Message | int, *, timeout: float = DEFAULT_TIMEOUT
    ) -> Message:
        wanted_id = _message_id(message)
        change = await self.inbox.take(
            lambda c: c.kind == "delete" and c.message.id == wanted_id, timeout, "deletion"
        )
        return change.message

    async def next_notification(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """The next message whose arrival notifies this person: new in their DM, or new and
        mentioning them (``fakediscord.mentions``). A person on a phone notices nothing
        else: edits, however many, arrive silently."""
        change = await self.inbox.take(
            lambda c: notifies(self._world, c, self.user), timeout, "notification"
        )
        return change.message

    async def next_prompt(
        self,
        *,
        private: bool = True,
        where: MessageFilter | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """The next message created or edited with buttons or selects for this person.

        With `private` only DMs and ephemeral messages count: what is addressed to them alone.
        """

        def wanted(change: MessageChange) -> bool:
            message = change.message
            if change.kind == "delete" or not message.has_controls():
                return False
            if private and not self._addressed_to_me(message):
                return False
            return where is None or where(message)

        change = await self.inbox.take(wanted, timeout, "prompt")
        return change.message

    def _addressed_to_me(self, message: Message) -> bool:
        if message.ephemeral_for is not None:
            return message.ephemeral_for == self.user.id
        dm = self._world.dm_channels.get(self.user.id)
        return dm is not None and message.channel_id == dm.id

    def _live(self, message: Message | int) -> Message:
        live = self._world.messages.get(_message_id(message))
        if live is None or live.deleted or not self._world.can_see(self.user, live):
            raise DriverError(f"{self.user.name} cannot see message {_message_id(message)}")
        return live

    def _require_active(self, channel: Channel, action: str) -> None:
        """The Threads topic: "Users cannot edit messages, add reactions, use application
        commands, or join archived threads"; Discord's client does not offer them."""
        try:
            threads.require_active(self._world, channel)
        except APIError as archived:
            message = f"{self.user.name} cannot {action} in archived #{channel.name}"
            raise DriverError(message) from archived

    def _require_visible_channel(self, channel: Channel) -> None:
        if channel.is_dm:
            if channel.recipient is not self.user:
                raise DriverError("not this person's DM")
            return
        if self._world.permissions(self.user, channel) & USE_COMMANDS != USE_COMMANDS:
            raise DriverError(f"{self.user.name} cannot use commands in #{channel.name}")

    def _component(self, message: Message, data: dict[str, Any]) -> InteractionHandle:
        interaction = open_interaction(
            self._world,
            kind=MESSAGE_COMPONENT,
            user=self.user,
            channel=self._world.channels[message.channel_id],
            data=data,
            message=message,
        )
        return InteractionHandle(interaction, self._world)


class Driver:
    """Creates people and routes every message change to those who can see it.

    Every wait scans the changes a person has not taken yet, so a load test with many
    people gives them a small `inbox_size`: the oldest unread changes make way.
    """

    def __init__(
        self, fake: FakeDiscord, *, inbox_size: int = INBOX_SIZE, emoji_form: EmojiForm = "as_given"
    ) -> None:
        self.fake = fake
        self.world: World = fake.world
        self.inbox_size = inbox_size
        # How the clients of people created from now on write keycaps and arrows.
        self.emoji_form: EmojiForm = emoji_form
        self.people: dict[int, Person] = {}
        self._by_guild: dict[int | None, list[Person]] = {}
        self.world.observe(self._deliver)

    def join(
        self,
        guild: Guild,
        name: str,
        *,
        locale: str = "en-US",
        roles: tuple[Role, ...] = (),
        emoji_form: EmojiForm | None = None,
    ) -> Person:
        """A new user who joins `guild` (the bot sees GUILD_MEMBER_ADD)."""
        user = self.world.create_user(name, locale=locale)
        self.world.add_member(guild, user, roles)
        return self.person(user, guild, emoji_form=emoji_form)

    def person(
        self, user: User, guild: Guild | None = None, *, emoji_form: EmojiForm | None = None
    ) -> Person:
        """Drives an existing user, such as a guild's owner."""
        form = self.emoji_form if emoji_form is None else emoji_form
        person = Person(self.world, user, guild, inbox_size=self.inbox_size, emoji_form=form)
        self.people[user.id] = person
        self._by_guild.setdefault(guild.id if guild else None, []).append(person)
        return person

    def _deliver(self, change: MessageChange) -> None:
        message = change.message
        if message.ephemeral_for is not None:
            person = self.people.get(message.ephemeral_for)
            if person is not None:
                person.inbox.deliver(change)
            return
        channel = self.world.channels.get(message.channel_id)
        if channel is not None and channel.is_dm:
            recipient = channel.recipient
            person = self.people.get(recipient.id) if recipient is not None else None
            if person is not None:
                person.inbox.deliver(change)
            return
        for person in self._by_guild.get(message.guild_id, []):
            if self.world.can_see(person.user, message):
                person.inbox.deliver(change)


def parse_command(text: str) -> tuple[list[str], dict[str, Any]]:
    """Splits "/table create variant:mcr name:'a b'" into words and name:value options."""
    words: list[str] = []
    options: dict[str, Any] = {}
    for token in shlex.split(text.strip().removeprefix("/")):
        name, colon, value = token.partition(":")
        if colon and name:
            options[name] = value
        else:
            words.append(token)
    return words, options


def _message_id(message: Message | int) -> int:
    return message if isinstance(message, int) else message.id


def _matches(message: Message, channel: Channel | None, where: MessageFilter | None) -> bool:
    if channel is not None and message.channel_id != channel.id:
        return False
    return where is None or where(message)


def _only(found: list[dict[str, Any]], what: str) -> dict[str, Any]:
    if not found:
        raise DriverError(f"no {what}")
    if len(found) > 1:
        raise DriverError(f"more than one {what}")
    return found[0]


def _option_value(select: dict[str, Any], choice: str) -> str:
    for option in select.get("options") or []:
        if choice in (option["value"], option.get("label")):
            return str(option["value"])
    raise DriverError(f"the select has no option {choice!r}")


def _filled(component: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """A modal's row or label as Discord echoes it back, with the person's text."""
    if component.get("type") == LABEL:
        return {"type": LABEL, "component": _filled(component["component"], values)}
    if component.get("type") == TEXT_INPUT:
        custom_id = component["custom_id"]
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": values.get(custom_id, "")}
    return {
        "type": component.get("type"),
        "components": [_filled(child, values) for child in component.get("components", [])],
    }
