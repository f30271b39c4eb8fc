"""A Discord emulator on 127.0.0.1: the real, unmodified bot connects to it as to Discord.

An aiohttp server speaks enough REST v10 and Gateway (real HTTP, a real websocket) for discord.py:
login, application info, command sync, HELLO/IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME
(always answered INVALID_SESSION false), INTERACTION_CREATE, interaction callbacks (types 4, 5,
6, 7, 9), follow-ups and @original through the interaction webhook, channel messages (create,
edit, delete, fetch, history), channels, DMs, users, members. Only `discord.http.Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY` are pointed at it, by the harness.

Quick start::

    from emulator import Emulator, run_bot

    async with Emulator() as emu:                     # or: emu = Emulator(); await emu.start()
        guild = emu.add_guild("Cards")                # the bot is in it; emu.owner owns it
        table = guild.add_channel("table")            # bot_can_view=, bot_can_send= to deny
        alice = emu.add_user("alice", locale="pt-BR"); guild.add_member(alice)
        settings = Settings(token=None, database_path=tmp / "db.sqlite3", dev_guild_id=guild.id)
        async with run_bot(emu, settings) as bot:     # the real CardTableBot, ready
            reply = await alice.slash(table, "rules", game="euchre")   # waits for the answer
            assert reply.ephemeral and "trump" in reply.text
            lobby = await alice.slash(table, "euchre new")   # "group sub" for subcommands
            hand = await alice.click(lobby, "Show my hand") # by label or custom_id
            hand = await alice.click(hand, "J♥")            # type 7 edits `hand` in place
        emu.assert_clean()     # no broken rule, unhandled request, bot error or emulator error

Emulator(*, response_deadline=3.0, token_lifetime=900.0, rate_limits=False,
         discord_limits=True, message_rate=(5, 5.0), bot_name="CardTable", owner_name="owner",
         privileged_intents=0, backlog=1024, shard_count=1, max_guilds_per_shard=2500)
    start() / stop() / `async with`; url, api_base, gateway_url, port, token, application_id
    bot (the bot's Account; its user id is the application id), owner (a SimulatedUser, the
    application's owner: `bot.is_owner` is true for them; owner of every guild by default)
    add_guild(name, *, locale="en-US", owner=None, shard=None) -> Guild (shard=(id, count):
    an id of that shard); add_user(name, *, locale) ->
    SimulatedUser; user(name); guilds, channels, users, messages (dicts by id)
    clock: Clock -- clock.advance(seconds) jumps forward (token expiry, rate-limit windows,
    command quotas); clock.now() monotonic, clock.time() wall time
    set_rate_limits(enabled=True, *, limit=None, per=None): per-channel message buckets (off by
    default); set_discord_limits(enabled=True, *, global_limit=50, invalid_limit=10_000): the
    global limit (interaction endpoints exempt), route buckets with counting headers and the
    invalid-request ban, ON by default (emulator/ratelimits.py cites Discord's values);
    response_deadline and token_lifetime may be changed on the instance
    set_old_message_edits(enabled=True, *, limit=3, per=3600, age=3600): the 30046 rule (below);
    old_message_edit_refusals -> [OldMessageRefusal: channel_id, message_id, at]
    commands.registered(guild_id | None) -> the synced command payloads (None: global)
    add_application_emoji(name, image) -> id: an emoji the application uploaded in an earlier
    run (Discord keeps them across restarts)
    delete_message(message) -- a moderator deletes a public message (MESSAGE_DELETE)
    gateway: drop(code=4000, *, shard_id=None) to cut the bot's connection; sessions, frames,
    ready_count, connected (every guild's shard online), identified, session_for(guild_id),
    connected_to(guild_id), shard_connected(shard_id, shard_count)
    Shards: GET /gateway/bot recommends `shard_count`; IDENTIFY `shard: [id, count]` (4010 if
    invalid, 4011 past `max_guilds_per_shard`); a guild's READY entry, GUILD_CREATE and events go
    only to the session of shard (guild_id >> 22) % count (DMs: shard 0)
    await wait_connected(sessions=1, timeout=10); await wait_for(predicate, timeout=5, what=...)
    (event-driven: the predicate is re-checked at every state change, HTTP answer or frame)
    Records: requests (HttpRecord: method, path, query, body, status, response, started, ended),
    gateway.frames (Frame: direction "in"/"out", op, event, data, seq, at, session),
    interactions, violations, unhandled, internal_errors, rate_limit_hits,
    invalid_request_count, bot_errors (ERROR log lines of a harnessed bot)
    ack_latencies() -> [seconds]; requests_to(method, path_part); summary()
    take_violations(code=None) / take_bot_errors(contains="") remove what a test provoked;
    problems() -> [str]; assert_clean() raises AssertionError listing them

Guild: id, name, locale, owner_id, channels, members, add_channel(name, *, bot_can_view=True,
    bot_can_send=True, topic=None) -> Channel, channel(name), add_member(user), roles,
    permissions(user_id, channel=None)
Channel: id, name, guild (None in a DM), recipient (DM), is_dm, messages (public, oldest first,
    latest state), last_message, public(id), history(), bot_permissions, permissions_for(user),
    set_bot_permissions(*, view=, send=, read_history=, embed_links=) (True allow, False deny,
    None leave; sends CHANNEL_UPDATE), await wait_for_message(predicate=None, timeout=5)
Message (live: always the latest state): id, channel, author, content, embeds, embed, components,
    flags, attachments, ephemeral, ephemeral_for (the one user who sees it), loading ("thinking"),
    interaction (the Interaction that made it), created_at, edited_at, deleted, dismissed,
    versions (MessageVersion: content, embeds, components, flags, at -- every state, first to
    latest), edits, text (content + embeds + text displays, for assertions), buttons
    (Button: id, custom_id, label, style, disabled, emoji, url, row), button(label_or_id),
    select_menu(custom_id_or_placeholder), visible_to(account),
    await wait_until(predicate, timeout=5)
SimulatedUser: id, name, locale, mention, guilds, dm (their DM channel with the bot),
    ephemerals (theirs, still on screen), last_ephemeral, failures (interactions that showed
    "This interaction failed"), modals (opened for them), sees(message),
    visible_messages(channel), dismiss(message)
    await slash(channel, "name" | "group sub", *, timeout=5, **options) -> Message
    await click(message, label_or_custom_id, *, timeout=5) -> Message
    await select(message, custom_id_or_placeholder, values, *, timeout=5) -> Message
    await submit_modal(modal, {custom_id: value}, *, timeout=5) -> Message
    await say(channel, content) -> Message (a plain message; the bot gets MESSAGE_CREATE)
    send_slash / send_click / send_select / send_modal: the same without waiting -> Interaction
    The waiting forms return what the user then sees: the new message (callback 4, or 5 once
    its "thinking" is replaced), or the clicked message (6, 7). They raise InteractionFailed
    when the user saw "This interaction failed", EmulatorUsageError when a person could not do
    it (command not synced here, unknown or invalid option, message not visible to them,
    button absent or disabled, link button), TimeoutError if nothing settles in time.
    Options: str, int, float, bool, a SimulatedUser (user option), a Channel (channel option);
    `timeout` is reserved -- pass an option of that name through send_slash(**{...}).
Interaction: id, token, type (2 command, 3 component, 5 modal submit), user, channel, data,
    payload (the INTERACTION_CREATE sent), source_message, created_at, dispatched_at, acked_at,
    ack_latency, response_type, acknowledged, settled, failed, failure, original, followups,
    modal, command, custom_id; await wait_settled(timeout=5); await response(timeout=5)
Modal: custom_id, title, components, fields, interaction

Rules enforced (each breach answered with Discord's status and code and recorded as a Violation:
code, status, message, detail, method, path, interaction_id):
- first response within response_deadline s (real time unless the clock jumps): else the user
  sees "This interaction failed" (recorded, path "(no response)") and a late callback is 404
  10062 (recorded too); a second acknowledgement 400 40060; a callback type unfit for the
  interaction (6/7 for a slash command, a modal after a modal) 400 50035;
- the interaction webhook (follow-ups, GET/PATCH/DELETE @original or an id) works only after
  the first response (10015) and for token_lifetime s on the clock (401 50027); a deferred
  "thinking" response never completed fails after token_lifetime ("The application did not
  respond"); the first follow-up after a type-5 defer replaces the "thinking" message;
- messages: content <= 2000; embeds <= 10, title <= 256, description <= 4096, <= 25 fields
  (name <= 256, value <= 1024), footer <= 2048, author <= 256, 6000 in all; legacy components
  <= 5 action rows of 1..5 buttons or one select, custom_id 1..100 and unique in the message,
  label <= 80, a label or emoji, link buttons with url and no custom_id, selects with 1..25
  options (label/value/description <= 100, unique values), placeholder <= 150; Components V2
  (flag 1<<15): <= 40 components, text <= 4000, no content or embeds, flag cannot be removed;
  an empty message is 50006; attachments <= 10 MiB each (413 40005). Components are stored
  numbered "id": 1..n depth first, like Discord;
- ephemeral (flag 64) only through interaction responses and follow-ups: on a channel message
  it is 50035; an ephemeral message is seen by its user alone, never echoed on the gateway,
  unreachable through channel endpoints (404 10008, recorded) and its ephemerality is fixed;
  a dismissed one answers 10008 to edits (not a violation: a race the bot must handle);
- permissions: the bot's channel permissions (role + overwrites) gate channel endpoints
  (403 50001 without View Channel, 403 50013 without Send Messages / Read Message History,
  50005 editing another's message) and are sent as app_permissions;
- rate limits: X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket on every response;
  with rate limits on, message create and edit each have a per-channel bucket (message_rate,
  default 5 per 5 s) answered 429 with Via, Retry-After, X-RateLimit-Scope and a JSON body
  with retry_after (counted in rate_limit_hits, not a violation: discord.py retries);
- edits of channel messages older than an hour (by the clock): Discord allows only a few and
  answers 400 30046 "Maximum number of edits to messages older than 1 hour reached" beyond.
  Discord publishes no numbers, so this rule is OFF unless a test calls
  set_old_message_edits(): then per channel `limit` edits of messages older than `age` s
  succeed within any `per` s (defaults 3, 3600, 3600) and the next is refused (recorded in
  old_message_edit_refusals, not a violation: the bot must handle it, e.g. by reposting);
- commands: names 1..32 lower case, descriptions 1..100, <= 25 options (required first, unique
  names), <= 25 choices, valid locales, <= 100 commands, 200 creations a day per scope
  (30034); syncing to a guild without the bot 403; a user can only invoke what is synced
  where they are (a DM offers global commands only);
- gateway: wrong token 4004, privileged intents the application lacks 4014, RESUME -> op 9.
Requests the emulator does not handle answer 404 and land in `unhandled`; the emulator's own
errors answer 400 (never 5xx, which discord.py retries) and land in `internal_errors`.

Harness (emulator.harness): run_bot(emu, settings, *, extensions=None,
guild_ready_timeout=0.05, ready_timeout=15) runs the real CardTableBot (the settings' token is
replaced by the emulator's); run_client(emu, client, *, ready_timeout=15) runs any discord.py
client; pointed_at(emu) only points discord.py at the emulator. All restore discord.py, close
the client and await its task in `finally`.
Fixtures (tests/conftest.py): emulator, world (World: emu, guild "Cards", table "#table",
alice en-US, bob pt-BR, carol fr, dave en-GB; players), bot_settings, running_bot, probe_bot
(a ProbeBot whose /probe runs a test's handler); helpers build_world, raw_callback,
raw_channel_message. Benchmark: `python -m emulator.bench [-n 200]`.
"""

from emulator.errors import EmulatorUsageError, InteractionFailed, Violation
from emulator.harness import pointed_at, run_bot, run_client
from emulator.server import Emulator
from emulator.state import Button, Channel, Guild, Interaction, Message, Modal
from emulator.users import SimulatedUser

__all__ = [
    "Button",
    "Channel",
    "Emulator",
    "EmulatorUsageError",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "Message",
    "Modal",
    "SimulatedUser",
    "Violation",
    "pointed_at",
    "run_bot",
    "run_client",
]
