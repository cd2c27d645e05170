"""A small discord.py bot used to drive the fake the way the real bot will."""

import asyncio
import io
import struct
import zlib
from typing import Literal

import discord
from discord import app_commands


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG of the given size, so tests can check the bytes that went through."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\x80" * (3 * width) for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class LobbyView(discord.ui.View):
    """A button and a select, as the lobby and the hand prompts will have."""

    def __init__(self, bot: "TableBot") -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(
            content=f"{interaction.user.name} sat down", view=self
        )
        self.bot.clicks.put_nowait(interaction.user.id)

    @discord.ui.select(
        custom_id="lobby:discard",
        placeholder="Discard",
        options=[
            discord.SelectOption(label="5万", value="5m"),
            discord.SelectOption(label="东", value="E"),
        ],
    )
    async def discard(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"discarded {select.values[0]}", ephemeral=True)


class TableBot(discord.Client):
    """Slash commands with a subcommand and a subcommand group, synced to one guild."""

    def __init__(self, guild_id: int, intents: discord.Intents | None = None) -> None:
        super().__init__(
            intents=intents or bot_intents(),
            guild_ready_timeout=0.05,
        )
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.clicks: asyncio.Queue[int] = asyncio.Queue()
        self.reactions: asyncio.Queue[discord.RawReactionActionEvent] = asyncio.Queue()
        self.errors: asyncio.Queue[Exception] = asyncio.Queue()
        self.release = asyncio.Event()
        self._add_commands()

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))

    def text_channel(self, channel_id: int) -> discord.TextChannel:
        """The text channel `channel_id`, from discord.py's cache."""
        channel = self.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel), channel
        return channel

    def known_user(self, user_id: int) -> discord.User:
        """The user `user_id`, from discord.py's cache."""
        user = self.get_user(user_id)
        assert user is not None, user_id
        return user

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        assert self.user is not None
        if payload.user_id != self.user.id:
            self.reactions.put_nowait(payload)

    def _add_commands(self) -> None:
        guild = discord.Object(self.guild_id)
        table = app_commands.Group(name="table", description="Tables", guild_ids=[self.guild_id])
        admin = app_commands.Group(
            name="admin",
            description="Server settings",
            guild_ids=[self.guild_id],
            default_permissions=discord.Permissions(manage_guild=True),
        )
        cards = app_commands.Group(name="cards", description="Room cards", parent=admin)

        @table.command(name="create", description="Open a table")
        @app_commands.describe(variant="Rule set", rounds="Hands to play")
        async def create(
            interaction: discord.Interaction,
            variant: Literal["mcr", "guangdong", "sichuan"],
            rounds: app_commands.Range[int, 1, 16],
        ) -> None:
            picture = discord.File(io.BytesIO(tiny_png()), filename="table.png")
            await interaction.response.send_message(
                f"{variant} table, {rounds} rounds", file=picture, view=LobbyView(self)
            )

        @table.command(name="slow", description="Answers when the test says so")
        async def slow(interaction: discord.Interaction) -> None:
            await self.release.wait()
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as error:
                self.errors.put_nowait(error)

        @table.command(name="defer", description="Defers, then answers")
        async def defer(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("done thinking")

        @cards.command(name="grant", description="Give room cards")
        async def grant(
            interaction: discord.Interaction, user: discord.Member, amount: int
        ) -> None:
            await interaction.response.send_message(
                f"{user.display_name} +{amount}", ephemeral=True
            )

        self.tree.add_command(table, guild=guild)
        self.tree.add_command(admin, guild=guild)


def bot_intents() -> discord.Intents:
    """The intents the table bot asks for."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.members = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.guild_reactions = True
    intents.dm_reactions = True
    return intents
