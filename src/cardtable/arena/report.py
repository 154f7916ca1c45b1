"""Turning arena games into results: pairwise win rates with 95% intervals, points per deal
(Indian Rummy), the Bradley-Terry ladder, decision times, and their JSON and table forms.

The unit of every interval is a duplicate deal (one deal played in every seat rotation), the
smallest independent piece of an arena run.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.arena.play import GameOutcome
from cardtable.arena.schedule import level_of
from cardtable.arena.stats import (
    Estimate,
    anchor_ratings,
    bootstrap_ratings,
    bradley_terry,
    mean_ci,
    pair_wins,
    percentile,
)
from cardtable.games.spec import arena_changes
from cardtable.registry import get_spec


def _by_points(game: str, rules: Any = None) -> bool:
    """Whether the game's deals are compared by penalty points (lower is better), as its spec
    says, instead of by utilities; never for ``rules`` the arena plays whole (Indian Rummy's
    Pool and Deals, judged by their final standing: see ``GameSpec.arena_rules_unless``)."""
    spec = get_spec(game)
    if rules is not None and not arena_changes(spec, rules):
        return False
    return spec.deals_compared_by_points


@dataclass(frozen=True, slots=True)
class Pairing:
    """How bot ``a`` fared against bot ``b``: games each won (ties half), ``score`` = a's share
    with its interval over duplicate deals, and for points games each side's mean points per
    deal and the mean difference ``a - b``."""

    a: str
    b: str
    games: int
    deals: int
    a_wins: int
    b_wins: int
    ties: int
    score: Estimate
    a_points: Estimate | None = None
    b_points: Estimate | None = None
    points_difference: Estimate | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "duplicate_deals": self.deals,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "ties": self.ties,
            "a_score": _estimate_json(self.score),
        }
        if self.a_points is not None:
            data["a_mean_points"] = _estimate_json(self.a_points)
        if self.b_points is not None:
            data["b_mean_points"] = _estimate_json(self.b_points)
        if self.points_difference is not None:
            data["mean_points_difference"] = _estimate_json(self.points_difference)
        return data


@dataclass(frozen=True, slots=True)
class Rung:
    """One bot on the ladder: Elo-style rating (anchored at Random when present) and its 95%
    bootstrap interval."""

    bot: str
    rating: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "bot": self.bot,
            "rating": round(self.rating, 1),
            "ci95": [round(self.low, 1), round(self.high, 1)],
            "games": self.games,
        }


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """Per-decision time of one bot level over every decision with a real choice."""

    level: str
    decisions: int
    p50_ms: float
    p95_ms: float
    max_ms: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "level": self.level,
            "decisions": self.decisions,
            "p50_ms": round(self.p50_ms, 3),
            "p95_ms": round(self.p95_ms, 3),
            "max_ms": round(self.max_ms, 3),
        }


@dataclass(frozen=True, slots=True)
class ArenaReport:
    """Everything an arena run measured."""

    game: str
    rules: dict[str, Any]
    seed: int
    players: int
    bots: tuple[str, ...]
    games: int
    workers: int
    elapsed_s: float
    pairings: tuple[Pairing, ...]
    ladder: tuple[Rung, ...]
    times: tuple[DecisionTimes, ...]
    endings: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (the ``--json`` output)."""
        return {
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "players": self.players,
            "bots": list(self.bots),
            "games": self.games,
            "workers": self.workers,
            "elapsed_s": round(self.elapsed_s, 2),
            "pairings": [p.to_json() for p in self.pairings],
            "ladder": [r.to_json() for r in self.ladder],
            "decision_times": [t.to_json() for t in self.times],
            "endings": dict(sorted(self.endings.items())),
        }


def _estimate_json(estimate: Estimate) -> dict[str, Any]:
    def clean(value: float) -> float | None:
        return None if math.isinf(value) or math.isnan(value) else round(value, 4)

    return {
        "mean": clean(estimate.mean),
        "ci95": [clean(estimate.low), clean(estimate.high)],
        "n": estimate.n,
    }


def _compare(by_points: bool, outcome: GameOutcome, seat_a: int, seat_b: int) -> float:
    """1 if the bot in ``seat_a`` did better than the one in ``seat_b``, 0 if worse, 0.5 even
    (``by_points``: lower points are better; else higher utilities)."""
    if by_points:
        points_a = outcome.scores[seat_a]
        points_b = outcome.scores[seat_b]
        if points_a is None or points_b is None or points_a == points_b:
            return 0.5
        return 1.0 if points_a < points_b else 0.0
    if outcome.utilities[seat_a] == outcome.utilities[seat_b]:
        return 0.5
    return 1.0 if outcome.utilities[seat_a] > outcome.utilities[seat_b] else 0.0


def _seats(outcome: GameOutcome, label: str) -> list[int]:
    return [seat for seat, name in enumerate(outcome.seats) if name == label]


def build_pairings(
    game: str, labels: Sequence[str], outcomes: Iterable[GameOutcome], rules: Any = None
) -> tuple[list[Pairing], dict[tuple[str, str], list[float]]]:
    """Pairwise results, and each pairing's per-deal score shares (for the ladder); ``rules``
    are the arena's rules (see :func:`_by_points`)."""
    by_points = _by_points(game, rules)
    units: dict[tuple[int, int], list[GameOutcome]] = {}
    for outcome in outcomes:
        units.setdefault((outcome.lineup, outcome.deal), []).append(outcome)
    shares: dict[tuple[str, str], list[float]] = {}
    points: dict[tuple[str, str], list[tuple[float, float]]] = {}
    tallies: dict[tuple[str, str], list[int]] = {}
    for games in units.values():
        present = set(games[0].seats)
        for a, b in itertools.combinations(labels, 2):
            if a not in present or b not in present:
                continue
            per_game = []
            a_points: list[float] = []
            b_points: list[float] = []
            tally = tallies.setdefault((a, b), [0, 0, 0])
            for outcome in games:
                duels = [
                    _compare(by_points, outcome, sa, sb)
                    for sa in _seats(outcome, a)
                    for sb in _seats(outcome, b)
                ]
                share = sum(duels) / len(duels)
                per_game.append(share)
                tally[0 if share > 0.5 else 1 if share < 0.5 else 2] += 1
                if by_points:
                    a_points.extend(float(outcome.scores[s] or 0) for s in _seats(outcome, a))
                    b_points.extend(float(outcome.scores[s] or 0) for s in _seats(outcome, b))
            shares.setdefault((a, b), []).append(sum(per_game) / len(per_game))
            if by_points:
                points.setdefault((a, b), []).append(
                    (sum(a_points) / len(a_points), sum(b_points) / len(b_points))
                )
    pairings = []
    for (a, b), unit_shares in shares.items():
        a_wins, b_wins, ties = tallies[(a, b)]
        pair_points = points.get((a, b))
        pairings.append(
            Pairing(
                a=a,
                b=b,
                games=a_wins + b_wins + ties,
                deals=len(unit_shares),
                a_wins=a_wins,
                b_wins=b_wins,
                ties=ties,
                score=mean_ci(unit_shares),
                a_points=mean_ci([p[0] for p in pair_points]) if pair_points else None,
                b_points=mean_ci([p[1] for p in pair_points]) if pair_points else None,
                points_difference=(
                    mean_ci([p[0] - p[1] for p in pair_points]) if pair_points else None
                ),
            )
        )
    return pairings, shares


def build_ladder(
    labels: Sequence[str],
    shares: dict[tuple[str, str], list[float]],
    games_per_deal: float,
    games_played: dict[str, int],
    *,
    seed: int,
) -> list[Rung]:
    """The Bradley-Terry ladder, best first, anchored at Random (rating 0) when it played."""
    anchor = next((label for label in labels if level_of(label) == "random"), None)
    ratings = anchor_ratings(bradley_terry(labels, pair_wins(shares, games_per_deal)), anchor)
    intervals = bootstrap_ratings(
        labels, shares, games_per_unit=games_per_deal, anchor=anchor, seed=seed
    )
    rungs = [
        Rung(label, ratings[label], *intervals[label], games_played.get(label, 0))
        for label in labels
    ]
    return sorted(rungs, key=lambda rung: -rung.rating)


def build_times(times: dict[str, list[float]]) -> list[DecisionTimes]:
    """Decision-time percentiles per bot level (labels of one level pooled)."""
    pooled: dict[str, list[float]] = {}
    for label, values in times.items():
        pooled.setdefault(level_of(label), []).extend(values)
    out = []
    for level, values in pooled.items():
        out.append(
            DecisionTimes(
                level=level,
                decisions=len(values),
                p50_ms=percentile(values, 50) * 1000 if values else math.nan,
                p95_ms=percentile(values, 95) * 1000 if values else math.nan,
                max_ms=max(values) * 1000 if values else math.nan,
            )
        )
    return out
