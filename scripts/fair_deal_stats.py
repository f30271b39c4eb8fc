"""Is the fair-v1 shuffle uniform? Each card's position over many deals, by a chi-square test.

For every deck, N deals (hands 1..N of one game, each with its own cut) count where each card
lands in the shuffled deck. A uniform shuffle puts a card at each of the n positions with
probability 1/n: per card, X = sum over positions (count - N/n)^2 / (N/n) follows a chi-square
law with n - 1 degrees of freedom. Printed per deck: the largest X and its p-value, how many
cards fall below the 1% level (about 1% of them by chance alone), that smallest p-value times
the number of cards (Bonferroni: the whole deck passes at the 1% level when it is >= 0.01),
and the whole table's statistic (its (n-1)/n multiple follows chi-square with (n-1)^2 degrees
of freedom; a uniform permutation's rows and columns both sum to N).

    python3 scripts/fair_deal_stats.py            # 100,000 deals per deck
    python3 scripts/fair_deal_stats.py --deals 3000

tests/test_engine_fair_deal.py runs the same code on 3,000 deals.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import fair_deal

Shuffle = Callable[[bytes, Sequence[str]], list[str]]
PLAYERS = ("111111111111111111", "bot:1", "222222222222222222", "bot:3")


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with `dof` degrees of freedom: the regularized upper
    incomplete gamma Q(dof/2, x/2), by its series or its continued fraction."""
    a, z = dof / 2, x / 2
    if z <= 0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(log_front)


def position_counts(
    game: str,
    deck: Sequence[str],
    deals: int,
    game_seed: int = 2024,
    shuffle: Shuffle = fair_deal.shuffle,
) -> list[list[int]]:
    """counts[card index in `deck`][position after the shuffle] over hands 1..deals of one
    game: the real derivation (server seeds, chain, deal keys), a different cut each hand."""
    secret = fair_deal.game_secret(game_seed)
    index = {card: i for i, card in enumerate(deck)}
    counts = [[0] * len(deck) for _ in deck]
    previous = fair_deal.ZERO_COMMITMENT
    for hand in range(1, deals + 1):
        seed = fair_deal.server_seed(secret, hand)
        cut = str(1_300_000_000_000_000_000 + hand * 7919)  # snowflake-like
        key = fair_deal.deal_key(seed, game, len(deck), PLAYERS, hand, cut, previous)
        for position, card in enumerate(shuffle(key, deck)):
            counts[index[card]][position] += 1
        previous = fair_deal.commitment(seed)
    return counts


@dataclass(frozen=True)
class Report:
    cards: int
    deals: int
    max_statistic: float
    min_p: float
    below_1pct: int
    bonferroni_p: float  # min_p * cards, capped at 1
    table_statistic: float
    table_p: float

    def passes(self, level: float = 0.01) -> bool:
        """Every card uniform at `level` for the deck as a whole, and the whole table too."""
        return self.bonferroni_p >= level and self.table_p >= level


def chi_square_report(counts: list[list[int]]) -> Report:
    n = len(counts)
    deals = sum(counts[0])
    expected = deals / n
    statistics = [sum((c - expected) ** 2 / expected for c in row) for row in counts]
    p_values = [chi2_sf(x, n - 1) for x in statistics]
    table = sum(statistics)
    return Report(
        cards=n,
        deals=deals,
        max_statistic=max(statistics),
        min_p=min(p_values),
        below_1pct=sum(p < 0.01 for p in p_values),
        bonferroni_p=min(1.0, min(p_values) * n),
        table_statistic=table,
        table_p=chi2_sf(table * (n - 1) / n, (n - 1) ** 2),
    )


DECKS = (
    ("euchre", fair_deal.euchre_deck(24, False)),
    ("euchre", fair_deal.euchre_deck(24, True)),
    ("euchre", fair_deal.euchre_deck(32, True)),
    ("truco", fair_deal.TRUCO_DECK),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    args = parser.parse_args()
    ok = True
    for game, deck in DECKS:
        started = time.perf_counter()
        report = chi_square_report(position_counts(game, deck, args.deals))
        ok = ok and report.passes()
        n = report.cards
        print(
            f"{game}-{n}: {report.deals} deals, {time.perf_counter() - started:.1f} s | per card "
            f"(dof {n - 1}): max X = {report.max_statistic:.1f}, min p = {report.min_p:.4f}, "
            f"{report.below_1pct}/{n} below 1%, Bonferroni p = {report.bonferroni_p:.3f} | "
            f"table: X = {report.table_statistic:.1f}, p = {report.table_p:.3f} | "
            f"{'uniform' if report.passes() else 'NOT UNIFORM'} at the 1% level"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
