"""What players read of a tournament's standings (issue 23): the text lines and the picture's
inputs, in the server's language. The picture itself is drawn by bot.pictures.standings."""

from __future__ import annotations

from bot.pictures.standings import StandingRow, standings_png
from bot.tables.tournament import Tournament
from bot.texts import t
from bot.ui.names import shown_name


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    by_round = tournament.round_points()
    return [
        StandingRow(
            rank=s.rank,
            name=s.place.name,
            round_points=by_round[s.place.number],
            points=s.points,
            rounds_won=s.rounds_won,
            is_bot=s.place.is_bot,
        )
        for s in tournament.standings()
    ]


def _heading(tournament: Tournament, locale: str | None) -> str:
    played = len({r for r, _ in tournament.results})
    if tournament.status == "finished":
        return t("tournament.standings.final", locale)
    return t("tournament.standings.after", locale, round=played, rounds=tournament.config.rounds)


def standings_text(tournament: Tournament, locale: str | None = None, limit: int = 20) -> str:
    lines = [f"**{_heading(tournament, locale)}**"]
    for s in tournament.standings()[:limit]:
        name = shown_name(s.place.name)
        if s.place.left:
            name = t("tournament.place.left", locale, name=name)
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
    rounds = len({r for r, _ in tournament.results})
    headers = [
        "#",
        t("tournament.column.player", locale),
        *(t("tournament.column.round", locale, number=n + 1) for n in range(rounds)),
        t("tournament.column.points", locale),
        t("tournament.column.won", locale),
    ]
    subtitle = t(
        "tournament.subtitle",
        locale,
        players=len(tournament.places),
        rounds=tournament.config.rounds,
        hands=tournament.config.hands,
    )
    return standings_png(
        t("tournament.title", locale) + " — " + _heading(tournament, locale),
        subtitle,
        headers,
        standing_rows(tournament),
    )
