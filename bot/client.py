"""The bot: a `commands.Bot` whose one `setup_hook` does the whole start-up."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.pictures import render_pool
from bot.settings import Settings
from bot.storage import Database, ResultsRepository
from bot.storage.backend import open_storage
from bot.storage.house_rules import HouseRulesStore
from bot.storage.recaps import RecapStore
from bot.storage.seasons import SeasonRepository
from bot.storage.tournaments import TournamentRepository
from bot.tables.beacon import Beacon
from bot.tables.seasons import SeasonKeeper
from bot.tables.service import TableService
from bot.tables.tournament_service import TournamentService
from bot.texts import t
from bot.ui.after_game.buttons import DYNAMIC_ITEMS as AFTER_GAME_ITEMS
from bot.ui.boards.buttons import DYNAMIC_ITEMS as BOARD_ITEMS
from bot.ui.boards.recap import WeeklyRecap
from bot.ui.boards.seasons import post_season_end, season_end_posted
from bot.ui.fair.deals import post_commitment
from bot.ui.kit.answer import say
from bot.ui.kit.budget import GlobalBudget
from bot.ui.kit.rest import is_too_late
from bot.ui.kit.translator import CatalogTranslator
from bot.ui.table.buttons import DYNAMIC_ITEMS as TABLE_ITEMS
from bot.ui.table.table_ui import TableUI
from bot.ui.tournament.threads import TournamentUI

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase

log = logging.getLogger(__name__)

T = TypeVar("T")

# Loaded in this order at start-up; nothing imports cogs.
EXTENSIONS: tuple[str, ...] = (
    "cogs.rules",
    "cogs.admin",
    "cogs.euchre",
    "cogs.truco",
    "cogs.table",
    "cogs.leaderboard",
    "cogs.replay",
    "cogs.season",
    "cogs.tournament",
    "cogs.verify",
    "cogs.recap",
    "cogs.settings",
)


# A payload that matches no command of ours, or a choice we no longer offer: the user's client
# has an out-of-date command list (answered as such, logged as a warning).
OUT_OF_DATE = (
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    app_commands.TransformerError,
)


# Every button family the bot sends: the tables' (registered here), the boards' and the after-game
# ones (registered by their cogs). A click on any other custom_id is answered as not valid.
BUTTON_FAMILIES = TABLE_ITEMS + BOARD_ITEMS + AFTER_GAME_ITEMS


class CardTableBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        extensions: tuple[str, ...] = EXTENSIONS,
        guild_ready_timeout: float = 2.0,
        clock: Callable[[], float] = time.time,
        **options: Any,
    ) -> None:
        shards = settings.shards
        if shards is not None:  # SHARD_COUNT / SHARD_IDS: connect as those shards only
            if isinstance(self, commands.AutoShardedBot):
                options.setdefault("shard_ids", [shard for shard, _ in shards])
                options.setdefault("shard_count", settings.shard_count)
            elif len(shards) == 1:
                options.setdefault("shard_id", shards[0][0])
                options.setdefault("shard_count", shards[0][1])
            else:
                raise ValueError("several shards in one process: use make_bot()")
        super().__init__(
            command_prefix=commands.when_mentioned,
            # Guilds only: interactions need no other intent, and the bot reads no messages
            # (every message event would cost it a parse, and Discord the sending).
            intents=discord.Intents(guilds=True),
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            # Nobody is notified unless a send names them (issue 13 item 3): every send, edit
            # and interaction answer carries this unless it names its users (the turn ping).
            allowed_mentions=discord.AllowedMentions.none(),
            # No message cache: the bot reads no messages (buttons carry their keys), and the
            # cache held every table's recent messages (~6 KB a table).
            max_messages=None,
            **options,
        )
        self.settings = settings
        # The table service's clock (turn deadlines); tests give the emulator's.
        self.clock = clock
        self.extension_names = extensions
        self.db: Database | PgDatabase | None = None  # PgDatabase with DATABASE_URL=postgresql
        # The collaborators setup_hook builds; read through the typed properties below.
        self._results: ResultsRepository | None = None
        self._seasons: SeasonRepository | None = None
        self._season_keeper: SeasonKeeper | None = None
        self._tournaments: TournamentService | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._table_service: TableService | None = None
        self._table_ui: TableUI | None = None
        self._weekly_recap: WeeklyRecap | None = None
        self.tree.error(self.on_app_command_error)

    @property
    def started(self) -> bool:
        """Whether setup_hook has built the collaborators (the properties below)."""
        return self._table_ui is not None

    @property
    def results(self) -> ResultsRepository:
        return _built(self._results, "results")

    @property
    def seasons(self) -> SeasonRepository:
        return _built(self._seasons, "seasons")

    @property
    def season_keeper(self) -> SeasonKeeper:
        return _built(self._season_keeper, "season_keeper")

    @property
    def tournaments(self) -> TournamentService:
        return _built(self._tournaments, "tournaments")

    @property
    def table_service(self) -> TableService:
        return _built(self._table_service, "table_service")

    @property
    def table_ui(self) -> TableUI:
        return _built(self._table_ui, "table_ui")

    @property
    def weekly_recap(self) -> WeeklyRecap:
        return _built(self._weekly_recap, "weekly_recap")

    def time_moved(self) -> None:
        """The clock jumped (tests advance it): the turn timers and the recap look again."""
        self.table_service.time_moved()
        self.weekly_recap.wake()

    async def setup_hook(self) -> None:
        storage = await open_storage(self.settings.database)
        log.info("storage: %s", self.settings.database.describe())
        self.db = storage.db
        self._results = storage.results
        self._table_service = service = TableService(
            storage.tables,
            bot_move_delay=self.settings.bot_move_delay,
            clock=self.clock,
            shards=self.settings.shards,  # restore and own only the tables of our guilds
            fair_deals=self.settings.fair_deals,
            beacon=Beacon(self.settings.beacon_relays),  # fair-v2's cuts (docs/fair-deals.md)
        )
        # This process's share of the token's global budget (split evenly between shards).
        budget = GlobalBudget.for_shards(self.settings.shards)
        self._table_ui = table_ui = TableUI(
            self,
            service,
            clock=self.clock,
            budget=budget,
            house_rules=HouseRulesStore(storage.db),
            button_families=BUTTON_FAMILIES,
        )
        # fair-v2: each game's commitment is in a message created for it (its id dates it).
        service.fair_cuts.announce = functools.partial(
            post_commitment, self, budget, table_ui.public.locale_of
        )
        self._weekly_recap = WeeklyRecap(self, RecapStore(storage.db), clock=self.clock)
        render_pool.warm_up()  # the pictures' worker starts with the bot, not at the first table
        # One process uploads the card emojis (the one of shard 0); the others wait for them.
        shards = self.settings.shards
        table_ui.card_emojis.start(
            self, upload=shards is None or any(shard == 0 for shard, _ in shards)
        )
        # Templates, not per-message views: buttons of every table (old ones too) keep working.
        self.add_dynamic_items(*TABLE_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        for name in self.extension_names:
            await self.load_extension(name)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %s", len(synced), guild.id)
        # Tables in play (and lobbies) come back; their messages show the state again and the
        # bot seats resume.
        await service.restore()
        # Seasons that ended while the bot was stopped are closed and posted now, once (the
        # close is claimed in the database); then a season that ends is closed within a poll.
        self._seasons = SeasonRepository(storage.db)
        self._season_keeper = keeper = SeasonKeeper(
            self._seasons,
            lambda s, e: post_season_end(self, s, e),
            self.clock,
            find_post=lambda s: season_end_posted(self, s),
        )
        if shards is None or any(shard == 0 for shard, _ in shards):  # one process posts
            keeper.start()
        # Tournaments (issue 23): rebuilt from their logs once the gateway has given the
        # channels and threads, then what a restart interrupted is done.
        self._tournaments = TournamentService(TournamentRepository(storage.db), service, self.clock)
        self._tournaments.host = TournamentUI(
            self, self._tournaments, show_table=table_ui.public.repost
        )
        resume = asyncio.create_task(self._resume_tournaments(), name="tournaments-resume")
        self._background.add(resume)
        resume.add_done_callback(self._background.discard)
        calm_garbage_collector()
        log.info("ready to start: %d extensions loaded", len(self.extension_names))

    async def _resume_tournaments(self) -> None:
        await self.wait_until_ready()
        await self.tournaments.restore()

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        if self._tournaments is not None:
            await self._tournaments.close()
        if self._season_keeper is not None:
            await self._season_keeper.close()
        if self._weekly_recap is not None:
            await self._weekly_recap.close()
        if self._table_service is not None:
            await self._table_service.close()
        if self._table_ui is not None:
            await self._table_ui.close()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def on_ready(self) -> None:
        # The guilds are known now: the recap looks at once (catching up a week that ended
        # while the bot was down), then at each week's end.
        if self._weekly_recap is not None:
            self._weekly_recap.start()
            self._weekly_recap.wake()
        log.info(
            "connected as %s (%s) in %d guilds%s",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
            f", shards {self.settings.shards}" if self.settings.shards else "",
        )

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error path for slash commands: a short ephemeral sentence, one log line."""
        locale = str(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t("error.dm", locale)
        elif isinstance(error, app_commands.BotMissingPermissions):
            text = t(
                "error.missing_permissions",
                locale,
                permissions=", ".join(error.missing_permissions),
            )
        elif isinstance(error, app_commands.MissingPermissions):
            text = t(
                "error.user_missing_permissions",
                locale,
                permissions=", ".join(error.missing_permissions),
            )
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = t("error.cooldown", locale, seconds=error.retry_after)
        elif isinstance(error, app_commands.CheckFailure):
            text = t("error.check_failed", locale)
        elif isinstance(error, OUT_OF_DATE):
            # The user's Discord client holds an older (or newer) list of our commands: a
            # command, subcommand or choice that is not ours any more. Nothing to fix here.
            log.warning(
                "slash command out of date in guild %s channel %s: %s",
                interaction.guild_id,
                interaction.channel_id,
                error,
            )
            text = t("error.command_out_of_date", locale)
        elif is_too_late(original := getattr(error, "original", error)):
            # Answered after Discord's 3 s deadline: the person saw "This interaction failed"
            # and any answer now meets the same 10062. One line, no traceback.
            log.warning(
                "command %s answered too late in guild %s channel %s: %s",
                interaction.command and interaction.command.qualified_name,
                interaction.guild_id,
                interaction.channel_id,
                original,
            )
            return
        else:
            log.error(
                "command %s failed in guild %s channel %s: %r",
                interaction.command and interaction.command.qualified_name,
                interaction.guild_id,
                interaction.channel_id,
                original,
                exc_info=original,
            )
            text = t("error.unexpected", locale)
        await say(interaction, text)


class ShardedCardTableBot(CardTableBot, commands.AutoShardedBot):
    """The bot running several shards in one process (SHARD_IDS with more than one id, or
    SHARD_COUNT alone: all of them)."""


def _built(part: T | None, name: str) -> T:
    if part is None:
        raise RuntimeError(f"bot.{name} is built by setup_hook: the bot has not started")
    return part


def make_bot(settings: Settings, **options: Any) -> CardTableBot:
    """The bot the settings ask for: one connection (unsharded, or one shard), or several."""
    shards = settings.shards
    if shards is not None and len(shards) > 1:
        return ShardedCardTableBot(settings, **options)
    return CardTableBot(settings, **options)


_GC_CALMED = False


def calm_garbage_collector() -> None:
    """Once per process, at start-up: what exists now (code, discord.py's state, restored
    tables) lives as long as the bot, so it is moved out of the collector's sight, and young
    collections run less often. A full collection of a bot with 200 busy tables otherwise
    stopped its event loop for 80-190 ms (scripts/bench_latency.py)."""
    global _GC_CALMED
    if _GC_CALMED:
        return
    _GC_CALMED = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
