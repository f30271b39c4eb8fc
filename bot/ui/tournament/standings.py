"""What players read of a tournament's standings (issue 23): the text lines and the picture's
inputs, in the server's language. The picture itself is drawn by bot.pictures.standings."""

from __future__ import annotations

from bot.pictures.standings import StandingRow, standings_png
from bot.tables.records import bot_number
from bot.tables.tournament import Place, Tournament
from bot.tables.tournament_pairs import FORMAT_KNOCKOUT, team_of_place, team_places
from bot.texts import n, t
from bot.ui.words.names import shown_name


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    by_round = tournament.round_points()
    return [
        StandingRow(
            rank=s.rank,
            name=picture_name(s.place),
            round_points=by_round[s.place.number],
            points=s.points,
            rounds_won=s.rounds_won,
            is_bot=s.place.is_bot,
        )
        for s in tournament.standings()
    ]


def picture_name(place: Place, locale: str | None = None) -> str:
    """A place in the standings picture: a bot as the table pictures name it ("Bot 12")."""
    if place.user_id is None:
        return t("picture.bot_name", locale, number=bot_number(place.name, place.number))
    return place.name


def _heading(tournament: Tournament, locale: str | None) -> str:
    played = len({r for r, _ in tournament.results})
    if tournament.status == "finished":
        return t("tournament.standings.final", locale)
    return t("tournament.standings.after", locale, round=played, rounds=tournament.total_rounds)


def standings_text(tournament: Tournament, locale: str | None = None, limit: int = 20) -> str:
    if tournament.config.pairs:
        return pairs_text(tournament, locale, limit)
    lines = [f"**{_heading(tournament, locale)}**"]
    for s in tournament.standings()[:limit]:
        name = place_label(s.place, locale)
        lines.append(
            t(
                "tournament.standings.row",
                locale,
                rank=s.rank,
                name=name,
                points=s.points,
                won=s.rounds_won,
            )
        )
    lines.append(t("tournament.tie_break", locale))
    return "\n".join(lines)


def standings_picture(tournament: Tournament, locale: str | None = None) -> bytes:
    if tournament.config.pairs:
        return pairs_picture(tournament, locale)
    rounds = len({r for r, _ in tournament.results})
    headers = [
        "#",
        t("tournament.column.player", locale),
        *(t("tournament.column.round", locale, number=n + 1) for n in range(rounds)),
        t("tournament.column.points", locale),
        t("tournament.column.won", locale),
    ]
    return standings_png(
        t("tournament.title", locale) + " — " + _heading(tournament, locale),
        subtitle_text(tournament, locale),
        headers,
        standing_rows(tournament),
    )


# --- the night's sentences: every count goes through its plural ("1 round of 1 hand") -------


def subtitle_text(tournament: Tournament, locale: str | None = None) -> str:
    """The standings picture's subtitle: who plays, how many rounds of how many hands."""
    if tournament.config.pairs:
        return t(
            "tournament.subtitle.pairs",
            locale,
            pairs=n("plural.pairs", locale, tournament.team_count),
            game=t(f"game.{tournament.config.game}", locale),
            best_of=tournament.config.best_of,
        )
    return t(
        "tournament.subtitle",
        locale,
        players=n("plural.players", locale, len(tournament.places)),
        rounds=n("plural.rounds", locale, tournament.total_rounds),
        hands=n("plural.hands", locale, tournament.config.hands),
    )


def created_text(host: str, rounds: int, hands: int, locale: str | None = None) -> str:
    """The announcement of a progressive night (`host` a mention)."""
    return t(
        "tournament.created",
        locale,
        host=host,
        rounds=n("plural.rounds", locale, rounds),
        hands=n("plural.hands", locale, hands),
    )


def joined_text(tournament: Tournament, locale: str | None = None) -> str:
    return t("tournament.joined", locale, count=n("plural.players", locale, len(tournament.places)))


def lobby_text(tournament: Tournament, locale: str | None = None) -> str:
    """Who has joined a night that has not started."""
    names = ", ".join(p.name for p in tournament.places) or "—"
    count = n("plural.players", locale, len(tournament.places))
    return t("tournament.lobby", locale, count=count, players=names)


def started_text(tournament: Tournament, locale: str | None = None) -> str:
    """The start of the night: its size, bots included (the threads follow it)."""
    bots = n("plural.bots", locale, sum(1 for p in tournament.places if p.user_id is None))
    if tournament.config.pairs:
        return t(
            "tournament.started.pairs",
            locale,
            pairs=n("plural.pairs", locale, tournament.team_count),
            bots=bots,
            rounds=n("plural.rounds", locale, tournament.total_rounds),
        )
    return t(
        "tournament.started",
        locale,
        places=n("plural.places", locale, len(tournament.places)),
        bots=bots,
        tables=n("plural.tables", locale, tournament.table_count),
        rounds=n("plural.rounds", locale, tournament.config.rounds),
    )


# --- pairs: knockout and round robin ---------------------------------------------------------


def pair_names(tournament: Tournament, team: int, locale: str | None = None) -> str:
    """ "Ana & Bob" (a leaver shown as replaced by a bot)."""
    names = []
    for number in team_places(team):
        place = tournament.places[number]
        name = shown_name(place.name)
        names.append(t("tournament.place.left", locale, name=name) if place.left else name)
    return " & ".join(names)


def pairs_title(tournament: Tournament, locale: str | None) -> str:
    return t(f"tournament.title.{tournament.config.format}", locale)


def match_lines(tournament: Tournament, locale: str | None = None) -> list[str]:
    """Every match with a result, round by round (a knockout's byes too): the bracket so far."""
    lines = []
    for rnd, played in enumerate(tournament.schedule):
        if tournament.config.format == FORMAT_KNOCKOUT and played.sitting_out:
            for number in played.sitting_out[::2]:
                names = pair_names(tournament, team_of_place(number), locale)
                lines.append(t("tournament.match.bye", locale, round=rnd + 1, names=names))
        for table, match in enumerate(played.tables):
            scores = tournament.results.get((rnd, table))
            if scores is None:
                continue
            a = pair_names(tournament, team_of_place(match.north_south[0]), locale)
            b = pair_names(tournament, team_of_place(match.east_west[0]), locale)
            score = f"{scores[0]}–{scores[1]}"
            lines.append(t("tournament.match.row", locale, round=rnd + 1, a=a, b=b, score=score))
    return lines


def pairs_text(tournament: Tournament, locale: str | None = None, limit: int = 20) -> str:
    lines = [f"**{pairs_title(tournament, locale)} — {_heading(tournament, locale)}**"]
    knockout = tournament.config.format == FORMAT_KNOCKOUT
    for s in tournament.pair_standings()[:limit]:
        names = pair_names(tournament, s.team, locale)
        if not knockout:
            row = t(
                "tournament.pair.row", locale, rank=s.rank, names=names, won=s.won, played=s.played
            )
        elif s.out_in is not None:
            row = t("tournament.pair.out", locale, rank=s.rank, names=names, round=s.out_in + 1)
        elif s.rank == 1 and tournament.played_out:
            row = t("tournament.pair.champion", locale, rank=s.rank, names=names)
        else:
            row = t("tournament.pair.in", locale, rank=s.rank, names=names)
        lines.append(row)
    lines.append(t(f"tournament.tie_break.{tournament.config.format}", locale))
    lines += match_lines(tournament, locale)[-limit:]
    return "\n".join(lines)


def pairs_picture(tournament: Tournament, locale: str | None = None) -> bytes:
    standings = tournament.pair_standings()
    rounds = len({r for r, _ in tournament.results})
    headers = [
        "#",
        t("tournament.column.pair", locale),
        *(t("tournament.column.round", locale, number=n + 1) for n in range(rounds)),
        t("tournament.column.won", locale),
        t("tournament.column.played", locale),
    ]
    rows = [
        StandingRow(
            rank=s.rank,
            name=pair_names(tournament, s.team),
            round_points=s.by_round,
            points=s.won,
            rounds_won=s.played,
            is_bot=all(tournament.places[p].is_bot for p in team_places(s.team)),
        )
        for s in standings
    ]
    title = pairs_title(tournament, locale) + " — " + _heading(tournament, locale)
    return standings_png(title, subtitle_text(tournament, locale), headers, rows)


# --- where everyone sits: the start message and each table's first message (issue 34) ------


def place_label(place: Place, locale: str | None = None, *, mention: bool = False) -> str:
    """A place as the tables show it: a bot by the number the table gives it ("🤖 Bot 12"),
    a person by name (or `<@id>` with `mention`), a leaver as replaced by a bot."""
    if place.user_id is None:
        return t("table.bot_name", locale, number=bot_number(place.name, place.number))
    name = f"<@{place.user_id}>" if mention else shown_name(place.name)
    return t("tournament.place.left", locale, name=name) if place.left else name


def _pair(places: tuple[Place, Place], locale: str | None, mention: bool) -> str:
    return t("table.and", locale).join(place_label(p, locale, mention=mention) for p in places)


def table_line(
    tournament: Tournament, rnd: int, table: int, locale: str | None = None
) -> tuple[str, str]:
    """The two partnerships of a round's table, people as mentions (north–south first)."""
    a, b, c, d = tournament.seats(rnd, table)
    return _pair((a, c), locale, True), _pair((b, d), locale, True)


def started_tables(tournament: Tournament, locale: str | None = None) -> list[str]:
    """The start message's list: each table of the first round, its thread and its seats."""
    lines = []
    for table in range(tournament.tables_in(0)):
        thread = tournament.threads.get((0, table))
        north_south, east_west = table_line(tournament, 0, table, locale)
        lines.append(
            t(
                "tournament.started.table",
                locale,
                table=table + 1,
                thread=f"<#{thread}>" if thread is not None else "",
                north_south=north_south,
                east_west=east_west,
            )
        )
    return lines


def welcome_text(
    tournament: Tournament, rnd: int, table: int, deadline: float, locale: str | None = None
) -> str:
    """A table's first message in its thread: the round, its hands, who sits where, and the
    round's time left as a Discord timestamp (each reader's clock counts it down)."""
    north_south, east_west = table_line(tournament, rnd, table, locale)
    config = tournament.config
    hands = (
        n("plural.hands", locale, config.hands)
        if config.hands
        else t(f"game.{config.game}", locale)
    )
    return t(
        "tournament.welcome",
        locale,
        round=rnd + 1,
        rounds=tournament.total_rounds,
        table=table + 1,
        hands=hands,
        north_south=north_south,
        east_west=east_west,
        deadline=f"<t:{int(deadline)}:R>",
    )


def people_at(tournament: Tournament, rnd: int, table: int) -> list[int]:
    """The people (not bots, not leavers) at a round's table: whom its first message pings."""
    return [p.user_id for p in tournament.seats(rnd, table) if p.user_id is not None and not p.left]
