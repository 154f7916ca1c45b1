"""The arena's statistics: means with 95% confidence intervals, percentiles, and a
Bradley-Terry rating ladder fitted to pairwise results (with bootstrap intervals).

Pure functions over plain numbers, so they can be checked by hand:

>>> mean_ci([1.0, 0.0, 1.0, 1.0]).mean
0.75
>>> round(percentile([1.0, 2.0, 3.0, 4.0], 50), 2)
2.5
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

Z95: Final = 1.959964
"""Two-sided 95% quantile of the normal distribution."""
ELO_SCALE: Final = 400.0 / math.log(10.0)
"""Natural-log strength to Elo points: a 400-point gap is 10:1 odds."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its normal-approximation 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        """True when the interval lies entirely on one side of ``value``."""
        return self.low > value or self.high < value


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean of independent observations and its 95% interval (mean ± 1.96 standard errors).

    With fewer than two observations the interval is unbounded.
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, -math.inf, math.inf, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, -math.inf, math.inf, n)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation between order statistics."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = math.ceil(position)
    if low == high:
        return ordered[low]
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


PairScores = Mapping[tuple[str, str], float]
"""``(a, b) -> games a won against b`` (ties count half to each side)."""


def bradley_terry(
    players: Sequence[str],
    wins: PairScores,
    *,
    prior_games: float = 1.0,
    iterations: int = 500,
) -> dict[str, float]:
    """Bradley-Terry strengths as Elo-style ratings, fitted by the MM algorithm.

    ``prior_games`` virtual drawn games between every pair keep a player who never won (or never
    lost) at a finite rating. Ratings are returned with mean 0; anchor them with
    :func:`anchor_ratings`.

    >>> r = bradley_terry(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0}, prior_games=0)
    >>> round(r["a"] - r["b"])  # 3:1 odds
    191
    """
    names = list(players)
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    won = [[0.0] * size for _ in range(size)]
    for (a, b), score in wins.items():
        won[index[a]][index[b]] += score
    for i in range(size):
        for j in range(size):
            if i != j:
                won[i][j] += prior_games / 2.0
    strength = [1.0] * size
    for _ in range(iterations):
        updated = []
        for i in range(size):
            total_wins = sum(won[i][j] for j in range(size) if j != i)
            denominator = sum(
                (won[i][j] + won[j][i]) / (strength[i] + strength[j])
                for j in range(size)
                if j != i and won[i][j] + won[j][i] > 0
            )
            updated.append(total_wins / denominator if denominator > 0 else strength[i])
        logs = [math.log(s) if s > 0 else -50.0 for s in updated]
        shift = sum(logs) / size
        strength = [math.exp(x - shift) for x in logs]
    return {name: ELO_SCALE * math.log(strength[index[name]]) for name in names}


def anchor_ratings(ratings: Mapping[str, float], anchor: str | None) -> dict[str, float]:
    """Shift ratings so that ``anchor`` sits at 0 (no shift when it is absent)."""
    shift = ratings.get(anchor, 0.0) if anchor is not None else 0.0
    return {name: value - shift for name, value in ratings.items()}


def pair_wins(
    samples: Mapping[tuple[str, str], Sequence[float]], games_per_unit: float
) -> dict[tuple[str, str], float]:
    """Games won each way from per-unit score shares.

    ``samples[(a, b)]`` holds one number in 0..1 per independent unit (a duplicate deal): the
    share of its ``games_per_unit`` games that ``a`` won against ``b``, ties counting half.
    """
    wins: dict[tuple[str, str], float] = {}
    for (a, b), shares in samples.items():
        total = math.fsum(shares) * games_per_unit
        wins[(a, b)] = wins.get((a, b), 0.0) + total
        wins[(b, a)] = wins.get((b, a), 0.0) + len(shares) * games_per_unit - total
    return wins


def bootstrap_ratings(
    players: Sequence[str],
    samples: Mapping[tuple[str, str], Sequence[float]],
    *,
    games_per_unit: float,
    anchor: str | None,
    resamples: int = 200,
    seed: int = 0,
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of the anchored ratings: each resample redraws the units of
    every pairing with replacement (``samples`` as for :func:`pair_wins`) and refits."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {name: [] for name in players}
    for _ in range(resamples):
        redrawn = {
            pair: [shares[rng.randrange(len(shares))] for _ in shares]
            for pair, shares in samples.items()
            if shares
        }
        wins = pair_wins(redrawn, games_per_unit)
        rated = anchor_ratings(bradley_terry(players, wins, iterations=200), anchor)
        for name, value in rated.items():
            draws[name].append(value)
    return {
        name: (percentile(values, 2.5), percentile(values, 97.5)) for name, values in draws.items()
    }
