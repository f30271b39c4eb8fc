"""How strong and how quick the bot levels are (issue 9). Prints, with 95% confidence intervals:

- euchre hard vs OpenSpiel's ISMCTS (1,000 simulations, random roll-outs), in lockstep with
  OpenSpiel's euchre under its rules (alone=maker, lead=left_of_dealer, no stick, the dealer
  must pick up, no lone defender): points per hand of the hard pair;
- the same against ISMCTS with 10,000 simulations (part ismcts10k; a small sample here);
- euchre hard vs the hard of commit 06afc71 (its search loaded with `git show`, at its budget
  then: 350 play-outs), default options: points per hand (part old);
- euchre normal vs the rule player (easy), default options: points per hand;
- truco hard vs the rule player, and vs an always-raise bluffer: games to 12 won (the issue's
  bluffer plays its cards at random; part bluffer-rules: one that plays them like the rule player);
- truco: two hard bots that signal (sinais) and read each other vs two hard bots without
  (part signals): games to 12 won;
- milliseconds per decision, p50 / p99 / max, per game and level (decisions with one legal
  action are not searched and not counted): wall time, and "cpu", the CPU time of the deciding
  process (on a machine shared with other work the wall time includes waiting for a core).

Every deal (euchre) or seed (truco) is played twice with the sides swapped; a pair's mean is one
sample of the interval. Usage:

    .venv/bin/python scripts/bench_ai.py [--hands 2000] [--games 400] [--jobs 2] [--part all]

Parts: ismcts, ismcts10k, old, normal, truco, bluffer, bluffer-rules, signals, latency, all.
`--signals`: in the truco and bluffer parts the hard pair signals (sinais), as bots do at a
default table.
A long run: nohup ... > /tmp/bench_ai.txt &
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.euchre import Game, Options, new_game
from bot.engine.euchre import bot_player as euchre_rules
from bot.engine.euchre import search as euchre_search
from bot.engine.euchre.cards import CODES, deck_for
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import bot_player as truco_rules
from bot.engine.truco import new_game as new_truco
from bot.engine.truco import search as truco_search
from bot.tables.bot_moves import ITERATIONS, search_seed

Times = dict[str, list[float]]  # "game level" -> seconds per decision

OS_RANKS, OS_SUITS = "9TJQKA", "CDHS"
OS_PASS, OS_ALONE, OS_PARTNER = 24, 29, 30
DECK24 = [CODES[c] for c in deck_for(24, False)]
ISMCTS_OPTIONS = Options(alone="maker", lead="left_of_dealer", stick_the_dealer=False)


def os_card(code: str) -> int:
    return OS_RANKS.index(code[0]) * 4 + OS_SUITS.index(code[1])


def os_code(action: int) -> str:
    return OS_RANKS[action // 4] + OS_SUITS[action % 4]


def random_deal(rng: random.Random) -> tuple[list[list[str]], list[str]]:
    cards = DECK24[:]
    rng.shuffle(cards)
    return [cards[5 * s : 5 * s + 5] for s in range(4)], cards[20:]


def fixed(deal: Any) -> Callable[[int, int], Any]:
    """A `deals` callable that always deals `deal` (each benchmark hand is one deal)."""
    return lambda _hand, _dealer: deal


def hand_points(game: Game, team: int) -> int:
    for event in reversed(game.events):
        if event.kind == "hand_scored":
            points: int = event.data["points"]
            return points if event.data["scoring_team"] == team else -points
    return 0  # thrown in


def timed(times: Times, key: str, choose: Callable[..., str], *args: Any) -> str:
    """Runs one decision and records its wall time under `key` and the CPU time of this
    process under `key cpu` (the search's own cost, whatever else the machine is running)."""
    start = time.perf_counter()
    cpu = time.process_time()
    action = choose(*args)
    times.setdefault(key + " cpu", []).append(time.process_time() - cpu)
    times.setdefault(key, []).append(time.perf_counter() - start)
    return action


def euchre_search_move(
    game: Game, seat: int, level: str, seed: int, times: Times, legal: list[str] | None = None
) -> str:
    view = game.view(seat)
    if legal is not None:
        view["legal_actions"] = legal
    if len(view["legal_actions"]) == 1:
        return str(view["legal_actions"][0])
    iterations = ITERATIONS["euchre"][level]
    history = game.hand_history(seat)
    return timed(
        times,
        f"euchre {level}",
        lambda: euchre_search.choose(
            view, history, iterations, search_seed(seed, len(game.actions), seat)
        ),
    )


# --- euchre hard vs OpenSpiel ISMCTS ------------------------------------------------------------


def _ismcts_hand(
    pyspiel: Any, bot: Any, deal: Any, dealer: int, team: int, seed: int, times: Times
) -> int:
    """One hand: our hard search plays `team`, ISMCTS the other; our points minus theirs."""
    game = new_game(ISMCTS_OPTIONS, 0, first_dealer=dealer, deals=fixed(deal))
    params = {"allow_lone_defender": False, "stick_the_dealer": False}
    state = pyspiel.load_game("euchre", params).new_initial_state()
    state.apply_action(dealer)
    hands, kitty = deal
    for i in range(20):
        state.apply_action(os_card(hands[(dealer + i) % 4][i // 4]))
    state.apply_action(os_card(kitty[0]))
    discard_phase = pyspiel.euchre.Phase.DISCARD

    def ours(seat: int) -> bool:
        return seat % 2 == team

    def dealer_keeps_turned(g: Game) -> list[str]:
        # OpenSpiel's dealer must take the turned card: never "leave it" (discard:<turned>).
        return [a for a in g.legal_actions(g.dealer) if a != "discard:" + g.turned_card]

    while game.hand_number == 0 and not game.is_over:
        seat = game.to_act[0]
        phase = game.phase
        if phase == "play":
            if ours(seat):
                action = euchre_search_move(game, seat, "hard", seed, times)
                state.apply_action(os_card(action[5:]))
            else:
                action = "play:" + os_code(bot.step(state))
                state.apply_action(os_card(action[5:]))
            game.apply(seat, action)
            continue
        # Bidding (the only other phase reached at the top of this loop).
        if ours(seat):
            action = euchre_search_move(game, seat, "hard", seed, times)
            suit = game.turned_card[1] if action.startswith("order") else action[5:6]
            state.apply_action(OS_PASS if action == "pass" else 25 + OS_SUITS.index(suit))
            game.apply(seat, action)
            if action == "pass":
                continue
            alone = action.endswith(":alone")
            if state.current_phase() == discard_phase:
                if game.phase == "discard":
                    d = game.dealer
                    if ours(d):
                        discard = euchre_search_move(
                            game, d, "hard", seed, times, dealer_keeps_turned(game)
                        )
                    else:
                        discard = "discard:" + os_code(bot.step(state))
                    state.apply_action(os_card(discard[8:]))
                    game.apply(d, discard)
                else:  # our dealer sits out (E15): OpenSpiel's discards anyway
                    state.apply_action(state.legal_actions()[0])
            state.apply_action(OS_ALONE if alone else OS_PARTNER)
            continue
        os_bid = bot.step(state)
        if os_bid == OS_PASS:
            state.apply_action(OS_PASS)
            game.apply(seat, "pass")
            continue
        suit = OS_SUITS[os_bid - 25]
        plain = "order" if phase == "bidding1" else f"call:{suit}"
        state.apply_action(os_bid)
        discard = ""
        if state.current_phase() == discard_phase:
            d = game.dealer
            if ours(d):  # our dealer discards before the maker says alone (OpenSpiel's order)
                ahead = game.clone()
                ahead.apply(seat, plain)
                discard = euchre_search_move(
                    ahead, d, "hard", seed, times, dealer_keeps_turned(ahead)
                )
            else:
                discard = "discard:" + os_code(bot.step(state))
            state.apply_action(os_card(discard[8:]))
        alone = bot.step(state) == OS_ALONE
        state.apply_action(OS_ALONE if alone else OS_PARTNER)
        game.apply(seat, plain + (":alone" if alone else ""))
        if game.phase == "discard":
            assert discard
            game.apply(game.dealer, discard)
    return hand_points(game, team)


def ismcts_chunk(
    first: int, count: int, simulations: int = 1000
) -> tuple[list[float], Times, dict[str, int]]:
    import pyspiel

    times: Times = {}
    pairs = []
    for index in range(first, first + count):
        rng = random.Random(9_000_000 + index)
        deal = random_deal(rng)
        dealer = rng.randrange(4)
        game_seed = 1000 + index
        evaluator = pyspiel.RandomRolloutEvaluator(1, index)
        bot = pyspiel.ISMCTSBot(index, evaluator, 2.0, simulations)
        total = 0
        for team in (0, 1):
            total += _ismcts_hand(pyspiel, bot, deal, dealer, team, game_seed, times)
        pairs.append(total / 2)
    return pairs, times, {}


# --- euchre hard vs the hard of commit 06afc71 ---------------------------------------------------

OLD_COMMIT = "06afc71"
OLD_ITERATIONS = 350  # the hard budget at OLD_COMMIT (bot/tables/bot_moves.py): its hard as it was


def _old_search() -> Any:
    """The euchre search module as it was at OLD_COMMIT (`git show`), imported under another
    name; its imports (the engine, the rule player) are today's."""
    import importlib.util
    import subprocess

    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{OLD_COMMIT}:bot/engine/euchre/search.py"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader("old_euchre_search", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, f"{OLD_COMMIT}:search.py", "exec"), module.__dict__)
    return module


def old_chunk(first: int, count: int) -> tuple[list[float], Times, dict[str, int]]:
    old = _old_search()
    times: Times = {}
    pairs = []
    options = Options()
    for index in range(first, first + count):
        rng = random.Random(8_000_000 + index)
        deal = random_deal(rng)
        dealer = rng.randrange(4)
        total = 0
        for team in (0, 1):
            game = new_game(options, 0, first_dealer=dealer, deals=fixed(deal))
            while game.hand_number == 0 and not game.is_over:
                seat = game.to_act[0]
                if seat % 2 == team:
                    action = euchre_search_move(game, seat, "hard", index, times)
                elif len(game.legal_actions(seat)) == 1:
                    action = game.legal_actions(seat)[0]
                else:
                    seed = search_seed(index, len(game.actions), seat)
                    action = old.choose_action(game, seat, OLD_ITERATIONS, seed)
                game.apply(seat, action)
            total += hand_points(game, team)
        pairs.append(total / 2)
    return pairs, times, {}


# --- euchre normal vs the rule player -----------------------------------------------------------


def normal_chunk(first: int, count: int) -> tuple[list[float], Times, dict[str, int]]:
    times: Times = {}
    pairs = []
    options = Options()
    for index in range(first, first + count):
        rng = random.Random(7_000_000 + index)
        deal = random_deal(rng)
        dealer = rng.randrange(4)
        total = 0
        for team in (0, 1):
            game = new_game(options, 0, first_dealer=dealer, deals=fixed(deal))
            while game.hand_number == 0 and not game.is_over:
                seat = game.to_act[0]
                if seat % 2 == team:
                    action = euchre_search_move(game, seat, "normal", index, times)
                else:
                    action = timed(times, "euchre easy", euchre_rules.choose_action, game, seat)
                game.apply(seat, action)
            total += hand_points(game, team)
        pairs.append(total / 2)
    return pairs, times, {}


# --- truco hard vs the rule player / an always-raise bluffer ------------------------------------


def _always_raise(legal: list[str]) -> str | None:
    """The bluffer's bet: it raises whenever it may and accepts every ask it cannot raise
    (the hand of ten included); None: a card is to be played."""
    for action in ("raise", "accept"):
        if action in legal:
            return action
    return None


def bluffer(game: Any, seat: int, rng: random.Random) -> str:
    """The issue's always-raise bluffer: `_always_raise`, and a legal card at random.
    scripts/bench_truco_rev.py gives 06afc71's hard the issue's figure against it (and far
    less against `rules_bluffer`)."""
    legal = game.legal_actions(seat)
    return _always_raise(legal) or str(legal[rng.randrange(len(legal))])


def rules_bluffer(game: Any, seat: int, rng: random.Random) -> str:
    """A harder bluffer: `_always_raise`, and its cards played like the rule player's."""
    return _always_raise(game.legal_actions(seat)) or truco_rules.choose_action(game, seat)


def hard_truco(game: Any, seat: int, rng: random.Random) -> str:
    """A hard truco bot that neither signals nor reads signals (no signal is sent to it)."""
    legal = game.legal_actions(seat)
    if len(legal) == 1:
        return str(legal[0])
    seed = search_seed(7, len(game.actions), seat)
    return truco_search.choose_action(game, seat, ITERATIONS["truco"]["hard"], seed)


def truco_chunk(
    first: int, count: int, opponent: str, signals: bool = False
) -> tuple[list[float], Times, dict[str, int]]:
    """Truco games of hard against `opponent`; `signals`: our pair signals honestly, as bots do
    at a table with sinais on (the default), against the rule player or the bluffer too."""
    times: Times = {}
    pairs = []
    hands = 0
    others: dict[str, Callable[[Any, int, random.Random], str]] = {
        "rules": lambda game, seat, _rng: truco_rules.choose_action(game, seat),
        "bluffer": bluffer,
        "bluffer-rules": rules_bluffer,
        "signals": hard_truco,
    }
    other = others[opponent]
    for index in range(first, first + count):
        won = 0
        for team in (0, 1):
            game = new_truco(TrucoOptions(), 5_000_000 + index)
            rng = random.Random(index)  # the bluffer's random cards: reproducible by seed
            while not game.is_over:
                seat = game.to_act[0]
                if (signals or opponent == "signals") and seat % 2 == team:
                    # Our pair signals honestly on its first turn of a hand (sinais).
                    signal = truco_rules.signal_to_send(game.view(seat))
                    if signal is not None:
                        game.apply(seat, signal)
                if seat % 2 == team:
                    legal = game.legal_actions(seat)
                    if len(legal) == 1:
                        action = legal[0]
                    else:
                        action = timed(
                            times,
                            "truco hard",
                            truco_search.choose_action,
                            game,
                            seat,
                            ITERATIONS["truco"]["hard"],
                            search_seed(index, len(game.actions), seat),
                        )
                else:
                    action = other(game, seat, rng)
                game.apply(seat, action)
            won += game.winner == team
            hands += game.hand_number + 1
        pairs.append(won / 2)
    return pairs, times, {"hands": hands}


# --- a person's clicks while bots think (the real bot on the emulator) -------------------------


async def _clicks_while_bots_think(level: str, clicks: int) -> tuple[list[float], list[float]]:
    """One person and three bots of `level` at a euchre table; while a bot is to act, the person
    clicks Show my hand. Returns (acknowledgement latencies, click-to-answer times), seconds."""
    import tempfile

    from bot.settings import Settings
    from emulator import Emulator, run_bot

    emu = Emulator()
    await emu.start()
    acks: list[float] = []
    seen: list[float] = []
    try:
        guild = emu.add_guild("Bench")
        channel = guild.add_channel("table")
        person = emu.add_user("ana")
        guild.add_member(person)
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                token=None,
                database_path=Path(folder) / "bench.sqlite3",
                dev_guild_id=guild.id,
                log_level="WARNING",
                bot_move_delay=0.0,
            )
            async with run_bot(emu, settings) as bot:
                service = bot.table_service
                assert service is not None
                lobby = await person.slash(channel, "euchre new")
                for _ in range(3):
                    await person.click(lobby, f"Add bot: {level}")
                await lobby.wait_until(lambda m: not m.button("Start").disabled, timeout=15)
                await person.click(lobby, "Start")
                table = service.in_channel(channel.id)
                assert table is not None and table.message_id is not None
                message = await lobby.wait_until(
                    lambda m: any(b.label == "Show my hand" for b in m.buttons), timeout=15
                )
                game = table.game
                assert game is not None
                while len(seen) < clicks and not game.is_over:
                    mine = table.seat_of(person.id) in game.to_act
                    start = time.perf_counter()
                    interaction = await person.send_click(message, "Show my hand")
                    hand = await interaction.response(10)
                    if not mine:
                        seen.append(time.perf_counter() - start)
                        if interaction.ack_latency is not None:
                            acks.append(interaction.ack_latency)
                        continue
                    enabled = [
                        b
                        for b in hand.buttons
                        if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
                    ]
                    await person.click(hand, enabled[0].custom_id or "")
    finally:
        await emu.stop()
    return acks, seen


def latency_part(clicks: int) -> None:
    import asyncio

    for level in ("easy", "hard"):
        acks, seen = asyncio.run(_clicks_while_bots_think(level, clicks))
        print(f"\nShow my hand while three {level} bots play ({len(seen)} clicks)", flush=True)
        print_times({"acknowledged": acks, "answer shown": seen})


# --- running and printing -----------------------------------------------------------------------


def run(
    chunk: Callable[..., tuple[list[float], Times, dict[str, int]]],
    total: int,
    jobs: int,
    *extra: Any,
    first: int = 0,
) -> tuple[list[float], Times, dict[str, int]]:
    """`total` deals (seeds) from number `first` on, in chunks over `jobs` processes."""
    size = max(1, math.ceil(total / (jobs * 4)))
    starts = list(range(first, first + total, size))
    pairs: list[float] = []
    times: Times = {}
    counts: dict[str, int] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(chunk, s, min(size, first + total - s), *extra) for s in starts]
        for future in futures:
            p, t, c = future.result()
            pairs += p
            for key, values in t.items():
                times.setdefault(key, []).extend(values)
            for key, value in c.items():
                counts[key] = counts.get(key, 0) + value
    return pairs, times, counts


def interval(samples: list[float]) -> str:
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0
    return f"{mean:+.3f} ± {half:.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f})"


def share(samples: list[float]) -> str:
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0
    low, high = 100 * (mean - half), 100 * (mean + half)
    return f"{100 * mean:.1f}% ± {100 * half:.1f} (95% CI {low:.1f} .. {high:.1f}%)"


def print_times(times: Times) -> None:
    for key in sorted(times):
        values = sorted(times[key])
        p50 = values[len(values) // 2] * 1000
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
        print(
            f"  {key:<18} {len(values):>7} decisions  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  "
            f"max {values[-1] * 1000:7.1f} ms",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="euchre hands per match (even)")
    parser.add_argument("--games", type=int, default=400, help="truco games per match (even)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--first", type=int, default=0, help="first deal / seed number (disjoint samples)"
    )
    parser.add_argument(
        "--part",
        choices=(
            "ismcts",
            "ismcts10k",
            "old",
            "normal",
            "truco",
            "bluffer",
            "bluffer-rules",
            "signals",
            "latency",
            "all",
        ),
        default="all",
    )
    parser.add_argument("--save", help="append each part's pairs to SAVE.<part>")
    parser.add_argument(
        "--signals",
        action="store_true",
        help="truco, bluffer: the hard pair signals (sinais), as bots do at a default table",
    )
    parser.add_argument("--pooled", nargs="*", help="print the interval of saved pair files")
    args = parser.parse_args()
    if args.pooled:
        for path in args.pooled:
            pooled(path)
        return
    print(f"iterations per decision: {ITERATIONS}", flush=True)
    every = ("ismcts", "old", "normal", "truco", "bluffer", "bluffer-rules", "signals")
    parts = every if args.part == "all" else (args.part,)
    if args.part in ("latency", "all"):
        latency_part(60)
    for part in parts:
        if part == "latency":
            continue
        start = time.perf_counter()
        if part == "ismcts":
            pairs, times, _ = run(ismcts_chunk, args.hands // 2, args.jobs, first=args.first)
            title = f"euchre hard vs OpenSpiel ISMCTS-1000, {2 * len(pairs)} hands"
            figure = f"points per hand {interval(pairs)}   (target >= +0.30)"
        elif part == "ismcts10k":
            pairs, times, _ = run(ismcts_chunk, args.hands // 2, args.jobs, 10000, first=args.first)
            title = f"euchre hard vs OpenSpiel ISMCTS-10000, {2 * len(pairs)} hands"
            figure = f"points per hand {interval(pairs)}"
        elif part == "old":
            pairs, times, _ = run(old_chunk, args.hands // 2, args.jobs, first=args.first)
            title = f"euchre hard vs the hard of {OLD_COMMIT}, {2 * len(pairs)} hands"
            figure = f"points per hand {interval(pairs)}   (target >= +0.05)"
        elif part == "normal":
            pairs, times, _ = run(normal_chunk, args.hands // 2, args.jobs, first=args.first)
            title = f"euchre normal vs the rule player (easy), {2 * len(pairs)} hands"
            figure = f"points per hand {interval(pairs)}   (target >= +0.30)"
        else:
            opponent = {"truco": "rules", "signals": "signals"}.get(part, part)
            pairs, times, counts = run(
                truco_chunk, args.games // 2, args.jobs, opponent, args.signals, first=args.first
            )
            target = {"truco": "70", "bluffer": "80", "signals": "50"}.get(part)
            who = {
                "truco": "the rule player",
                "bluffer": "an always-raise bluffer (random cards)",
                "bluffer-rules": "an always-raise bluffer playing cards like the rule player",
                "signals": "hard without signals (ours signal)",
            }[part]
            title = f"truco hard vs {who}, {2 * len(pairs)} games to 12 ({counts['hands']} hands)"
            if args.signals and part != "signals":
                title += ", our pair signalling (sinais)"
            figure = f"games won {share(pairs)}" + (f"   (target >= {target}%)" if target else "")
        print(f"\n{title}  [{time.perf_counter() - start:.0f} s]", flush=True)
        print(f"  {figure}", flush=True)
        print_times(times)
        if args.save:
            # One pair's mean a line, under the part's name: runs on disjoint --first ranges
            # add up to one sample (--pooled prints its interval).
            with open(f"{args.save}.{part}", "a", encoding="utf-8") as out:
                out.writelines(f"{value!r}\n" for value in pairs)


def pooled(path: str) -> None:
    """The interval of every pair saved in `path` (one part's file of --save)."""
    values = [float(line) for line in Path(path).read_text(encoding="utf-8").split()]
    games = path.rsplit(".", 1)[-1] in ("truco", "bluffer", "bluffer-rules", "signals")
    label = f"games won {share(values)}" if games else f"points per hand {interval(values)}"
    print(f"{path}: {len(values)} pairs ({2 * len(values)} hands or games)  {label}")


if __name__ == "__main__":
    main()
