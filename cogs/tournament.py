"""/tournament create|join|leave|start|status|end: a progressive euchre night, or a knockout or
round robin for pairs, in this channel (issue 23). Thin: the tournament service decides, its
errors are sentences. Pairs form in join order (bot.tables.tournament_pairs)."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardTableBot
from bot.tables.tournament import (
    FORMAT_PROGRESSIVE,
    MAX_HANDS,
    MAX_ROUNDS,
    TIE_BREAK,
    TournamentError,
)
from bot.texts import t
from bot.ui.kit.answer import Answer, respond, say, show
from bot.ui.kit.message_parts import MessageParts
from bot.ui.kit.translator import command_text
from bot.ui.tournament.standings import (
    created_text,
    joined_text,
    lobby_text,
    standings_picture,
    standings_text,
    started_tables,
    started_text,
)


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description=command_text("tournament.cmd")
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    def _here(self, interaction: discord.Interaction) -> int:
        found = self.bot.tournaments.in_channel(interaction.channel_id or 0)
        if found is None:
            raise TournamentError("tournament.error.none")
        return found[0].id

    async def _refused(self, interaction: discord.Interaction, error: TournamentError) -> None:
        await say(interaction, t(error.key, str(interaction.locale)))

    @app_commands.command(name="create", description=command_text("tournament.cmd.create"))
    @app_commands.describe(
        rounds=command_text("tournament.cmd.rounds"),
        hands=command_text("tournament.cmd.hands"),
        format=command_text("tournament.cmd.format"),
        game=command_text("tournament.cmd.game"),
        best_of=command_text("tournament.cmd.best_of"),
    )
    async def create(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        hands: app_commands.Range[int, 1, MAX_HANDS] | None = None,
        format: Literal["progressive", "knockout", "round_robin"] = "progressive",
        game: Literal["euchre", "truco"] = "euchre",
        best_of: Literal[1, 3] = 1,
    ) -> None:
        locale = str(interaction.guild_locale or interaction.locale)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        pairs = format != FORMAT_PROGRESSIVE
        # Progressive rounds are 2 hands unless said; a pairs match is a full game unless said.
        hands = hands if hands is not None else (0 if pairs else 2)
        try:
            record, _ = await self.bot.tournaments.create(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                rounds,
                hands,
                format=format,
                game=game,
                best_of=best_of,
            )
            await self.bot.tournaments.join(
                record.id, interaction.user.id, interaction.user.display_name
            )
        except TournamentError as error:
            await self._refused(interaction, error)
            return
        if pairs:
            created = t(
                "tournament.created.pairs",
                locale,
                host=f"<@{interaction.user.id}>",
                title=t(f"tournament.title.{format}", locale),
                game=t(f"game.{game}", locale),
                best_of=best_of,
            )
            tie_break = t(f"tournament.tie_break.{format}", locale)
        else:
            created = created_text(f"<@{interaction.user.id}>", rounds, hands, locale)
            tie_break = t("tournament.tie_break", locale)
        await show(interaction, MessageParts(created + "\n" + tie_break, None, None))

    @app_commands.command(name="join", description=command_text("tournament.cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        try:
            state = await self.bot.tournaments.join(
                self._here(interaction), interaction.user.id, interaction.user.display_name
            )
        except TournamentError as error:
            await self._refused(interaction, error)
            return
        await say(interaction, joined_text(state, str(interaction.locale)))

    @app_commands.command(name="leave", description=command_text("tournament.cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        try:
            state = await self.bot.tournaments.leave(self._here(interaction), interaction.user.id)
        except TournamentError as error:
            await self._refused(interaction, error)
            return
        key = "tournament.left.lobby" if state.status == "lobby" else "tournament.left.playing"
        await say(interaction, t(key, str(interaction.locale)))

    @app_commands.command(name="start", description=command_text("tournament.cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        locale = str(interaction.guild_locale or interaction.locale)
        try:
            tournament_id = self._here(interaction)
            record, before = self.bot.tournaments.get(tournament_id)
            if record.host_id != interaction.user.id:
                raise TournamentError("tournament.error.not_host")
            if before.status != "lobby":
                raise TournamentError("tournament.error.started")
        except TournamentError as error:
            await self._refused(interaction, error)
            return

        async def work() -> Answer:
            try:
                await self.bot.tournaments.start(tournament_id, interaction.user.id)
            except TournamentError as error:
                return t(error.key, str(interaction.locale))
            # The state after the start: the first round's threads are open by now.
            _, state = self.bot.tournaments.get(tournament_id)
            lines = [started_text(state, locale), *started_tables(state, locale)]
            return MessageParts("\n".join(lines)[:2000], None, None)

        # Threads and tables take a while: "thinking" at once, then the start message.
        await respond(interaction, work(), deadline=0)

    @app_commands.command(name="status", description=command_text("tournament.cmd.status"))
    @app_commands.describe(id=command_text("tournament.cmd.id"))
    async def status(
        self, interaction: discord.Interaction, id: app_commands.Range[int, 1] | None = None
    ) -> None:
        """The night in this channel (running, or else its latest: a finished night shows its
        final standings), or `id`: any tournament of this server."""
        locale = str(interaction.guild_locale or interaction.locale)
        assert interaction.guild_id is not None
        found = await self.bot.tournaments.shown(
            interaction.guild_id, interaction.channel_id or 0, id
        )
        if found is None:
            if id is None:
                await self._refused(interaction, TournamentError("tournament.error.none"))
            else:
                mine = str(interaction.locale)  # a refusal speaks the asker's language
                await say(interaction, t("tournament.error.no_such", mine, number=id))
            return
        _, state = found
        if state.status == "lobby":
            await say(interaction, lobby_text(state, locale))
            return
        picture = standings_picture(state, locale)
        file = discord.File(io.BytesIO(picture), filename="standings.png")
        text = standings_text(state, locale)[:2000]
        await show(interaction, MessageParts(text, None, None, files=[file]), private=True)

    @app_commands.command(name="end", description=command_text("tournament.cmd.end"))
    async def end(self, interaction: discord.Interaction) -> None:
        locale = str(interaction.guild_locale or interaction.locale)
        try:
            state = await self.bot.tournaments.end(self._here(interaction), interaction.user.id)
        except TournamentError as error:
            await self._refused(interaction, error)
            return
        ended = t("tournament.ended", locale) + "\n" + standings_text(state, locale)[:1800]
        await show(interaction, MessageParts(ended, None, None))


assert TIE_BREAK  # the rule the standings state (tournament.tie_break) is the model's


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(TournamentCog(bot))
