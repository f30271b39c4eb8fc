"""One state of a 1-person + 3-bot euchre game as a player reads it (issue 30's closing note):
the table message's and the hand message's text, and both pictures at 400 px wide.

    PYTHONPATH=. .venv/bin/python scripts/issue30_shots.py /work/notes/30-after

Runs unchanged on older commits (06afc71: "before").
"""

from __future__ import annotations

import io
import random
import sys
from typing import Any

from PIL import Image

from bot.pictures import seat as seat_pictures
from bot.pictures.scene import scene_of, seat_scene_of
from bot.pictures.table import table_png
from bot.ui.table import render
from tests.support.render import make_table


def words(parts: Any) -> str:
    text = getattr(parts.view, "text", None)
    if text is not None:
        return str(text)
    lines = [parts.content]
    if parts.embed is not None:
        data = parts.embed.to_dict()
        lines += [data.get("title", ""), data.get("description", "")]
        for field in data.get("fields", []):
            lines += [f"**{field['name']}**", field["value"]]
        lines.append((data.get("footer") or {}).get("text", ""))
    return "\n".join(line for line in lines if line)


def labels(parts: Any) -> str:
    view = parts.view
    rows = view.buttons.to_components() if hasattr(view, "buttons") else view.to_components()
    return " | ".join(c.get("label", "") for r in rows for c in r["components"])


def save(png: bytes, name: str) -> None:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    image.resize((400, round(height * 400 / width)), Image.LANCZOS).save(name)


def main(out: str) -> None:
    table = make_table("euchre", {}, 11, bots={1, 2, 3})
    table.record.settings["pictures"] = True
    rng = random.Random(5)
    game = table.game
    assert game is not None
    while True:  # to the second trick of a hand, seat 0 to act
        seat = game.to_act[0]
        view = game.view(None)
        if seat == 0 and view["phase"] == "play" and any(view["tricks_won"]) and view["trick"]:
            break
        legal = game.legal_actions(seat)
        bot = table.rules.bot_action(game, seat)
        game.apply(seat, bot if seat else legal[rng.randrange(len(legal))])
        table.record.version += 1
    table.record.turn_deadline = 1_800_000_000.0  # a 2-minute turn timer, 1:45 left
    public = render.table_message(table, None)
    hand = render.hand_message(table, 0, None)
    print("TABLE MESSAGE\n" + words(public) + "\n[buttons] " + labels(public))
    print("\nHAND MESSAGE\n" + words(hand) + "\n[buttons] " + labels(hand))
    save(table_png(scene_of(table, None)), f"{out}-table.png")
    scene = seat_scene_of(table, 0, None, now=table.record.turn_deadline - 105)
    assert scene is not None
    save(seat_pictures.seat_png(scene), f"{out}-hand.png")


if __name__ == "__main__":
    main(sys.argv[1])
