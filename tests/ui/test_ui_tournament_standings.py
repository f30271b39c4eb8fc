"""Tournament standings as players see them (issue 23): the text after each round and at the
end, and the picture (Pillow) with a column per round, the leader shaded."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.standings import LEADER, ROW, TOP
from bot.texts import t
from bot.ui.tournament.standings import standing_rows, standings_picture, standings_text
from tests.support.tournaments import paper_night


def test_the_text_names_the_round_ranks_everyone_and_states_the_tie_break() -> None:
    after_one = paper_night(1)
    text = standings_text(after_one)
    assert (
        text.splitlines()[0]
        == "**" + t("tournament.standings.after", None, round=1, rounds=3) + "**"
    )
    assert len(text.splitlines()) == 1 + 12 + 1
    assert text.splitlines()[-1] == t("tournament.tie_break", None)
    final = paper_night(3)
    assert final.status == "finished"
    assert standings_text(final).startswith("**" + t("tournament.standings.final", None))
    leader = final.standings()[0]
    assert f"`1.` **{leader.place.name}** — points: {leader.points}" in standings_text(final)


def test_a_leaver_is_shown_with_the_bot_playing_on() -> None:
    night = paper_night(1)
    night.apply("leave:1001")  # Bia leaves after round 1
    assert t("tournament.place.left", None, name="Bia") in standings_text(night)


def test_the_picture_has_a_column_per_round_and_the_leader_shaded() -> None:
    for played in (1, 3):
        night = paper_night(played)
        rows = standing_rows(night)
        assert all(len(r.round_points) == played for r in rows)
        assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
        image = Image.open(io.BytesIO(standings_picture(night)))
        assert image.format == "PNG" and image.height == TOP + ROW * 13 + 20
        leader_row = image.getpixel((image.width // 2, TOP + ROW + 3))
        second_row = image.getpixel((image.width // 2, TOP + 2 * ROW + 3))
        assert leader_row == LEADER and second_row != LEADER
    assert (
        Image.open(io.BytesIO(standings_picture(paper_night(3)))).width
        > Image.open(io.BytesIO(standings_picture(paper_night(1)))).width
    )
