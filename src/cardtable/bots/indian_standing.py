"""When an Indian Rummy player should drop in Pool: the drop's penalty now against the deal
played on, each weighed by where it leaves the player in the standing.

A drop is certain: the penalty (first or middle drop) lands on this seat's total and the deal
is lost. Playing on is a gamble: with some chance the seat shows first and scores nothing
(while every other seat still in is counted), otherwise it is counted for whatever it holds
when someone else shows. :func:`forecast` prices that gamble from how many useful cards the
hand still misses (the shape of :mod:`cardtable.bots.indian_shape`), how many cards the seat
has drawn this deal, and how many seats are still in the deal. Its tables were measured in
self-play of Normal seats that never drop (single deals, heads-up and four players; 7,000
decisions): the chance of showing first, and the counts of the hands that lost (with or
without a pure sequence), in five equally likely steps.

Each outcome is valued by where it leaves the seat in the standing (:func:`outcome_value`):
its chance of outlasting the others, taken as its headroom under the pool limit squared over
everyone's headroom squared (a race of totals, in which the leader's chance is more than its
share of the headroom),
nothing once its total reaches the limit unless a rejoin would bring it back. So the points the
others score when this seat shows count too: heads-up a drop hands the rival a deal for
nothing, which is why a hopeless hand far from the limit still plays on.

Normal and Hard differ in what they know of their hand: Hard also scales the losing counts by
the points its hand would count now (a hand of high cards and no pure sequence loses more).

Free play and Deals never come here: their drop rule is the bots' own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.view import IndianRummyView

WIN_HEADS_UP: Final[tuple[tuple[float, ...], ...]] = (
    (0.80, 0.72, 0.72, 0.66),
    (0.65, 0.53, 0.44, 0.45),
    (0.50, 0.41, 0.34, 0.30),
    (0.41, 0.30, 0.27, 0.22),
    (0.38, 0.28, 0.22, 0.18),
    (0.36, 0.26, 0.20, 0.16),
)
"""Heads-up chance of showing first, by cards missing (row: 1..6 or more) and by cards drawn
so far this deal (column: 0-2, 3-5, 6-8, 9 or more)."""

MAX_COUNT: Final = 80
"""The most a hand counts in the measured games (the rules' cap)."""

RIVALS_EXPONENT: Final = 0.6
"""With ``k`` rivals in the deal the heads-up chance ``w`` becomes ``w ** (k ** 0.6)`` (fits
the four-player tables within a few points)."""

LOSING_COUNTS: Final[dict[tuple[bool, bool], tuple[tuple[int, ...], ...]]] = {
    (False, False): (
        (10, 55, 64, 67, 80),
        (2, 10, 43, 65, 78),
        (2, 4, 18, 54, 77),
        (3, 13, 32, 62, 76),
        (3, 13, 40, 62, 80),
        (3, 13, 25, 58, 78),
    ),
    (False, True): (
        (2, 3, 6, 12, 22),
        (2, 6, 12, 17, 33),
        (3, 9, 15, 25, 50),
        (5, 14, 23, 46, 61),
        (5, 14, 23, 46, 61),
        (5, 14, 23, 46, 61),
    ),
    (True, False): (
        (12, 47, 53, 66, 73),
        (4, 19, 54, 68, 80),
        (4, 16, 45, 69, 80),
        (7, 27, 57, 73, 80),
        (9, 40, 65, 77, 80),
        (7, 23, 56, 74, 80),
    ),
    (True, True): (
        (2, 4, 5, 10, 16),
        (2, 7, 13, 18, 27),
        (5, 15, 24, 40, 59),
        (6, 18, 29, 52, 67),
        (6, 18, 29, 52, 67),
        (6, 18, 29, 52, 67),
    ),
}
"""A losing hand's count in five equally likely steps, by cards missing (row: 1..6 or more),
keyed by (two or more rivals, the hand holds a pure sequence): a hand with a pure sequence is
counted far lower when it loses (rows 5 and 6 with one are rare and take row 4's counts)."""

TYPICAL_POINTS: Final = (15, 35, 56, 67, 71, 73)
"""The mean points (if someone showed now) of the hands behind each row of the tables, by
cards missing (1..6 or more): a hand holding more or fewer is expected to count in proportion."""

POINTS_SCALE: Final = (0.5, 1.6)
"""The narrowest and widest scaling of the losing counts by the points held."""

RIVAL_COUNT: Final[dict[bool, int]] = {False: 25, True: 33}
"""The mean count of a seat that did not show (heads-up, or with two or more rivals)."""


@dataclass(frozen=True, slots=True)
class Forecast:
    """The deal played on: the chance of showing first, the counts if not (equally likely),
    and what each rival still in the deal is expected to count if this seat shows."""

    win: float
    counts: tuple[int, ...]
    rival_count: int


def forecast(
    missing: float, drawn: int, rivals: int, points: int | None = None, *, pure: bool = False
) -> Forecast:
    """The deal played on by a hand ``missing`` useful cards from a show, after ``drawn``
    draws this deal, against ``rivals`` seats still in it, holding a ``pure`` sequence or not
    (see the module docstring); given the ``points`` the hand would count now, the losing
    counts are scaled by them."""
    row = min(max(round(missing), 1), len(WIN_HEADS_UP)) - 1
    column = min(drawn // 3, len(WIN_HEADS_UP[0]) - 1)
    heads_up = WIN_HEADS_UP[row][column]
    crowded = rivals >= 2
    win = heads_up ** (max(rivals, 1) ** RIVALS_EXPONENT)
    counts = LOSING_COUNTS[crowded, pure][row]
    if points is not None:
        low, high = POINTS_SCALE
        scale = min(max(points / TYPICAL_POINTS[row], low), high)
        counts = tuple(min(MAX_COUNT, round(count * scale)) for count in counts)
    return Forecast(win, counts, RIVAL_COUNT[crowded])


def draws_this_deal(view: IndianRummyView) -> int:
    """Roughly how many cards this seat has drawn this deal: the deal's turns shared among the
    seats still playing it."""
    playing = sum(1 for drop in view.drops if drop is None)
    return view.turns // max(1, playing)


def rivals_in_deal(view: IndianRummyView) -> tuple[int, ...]:
    """The other seats still playing this deal (not dropped, not out of the game)."""
    return tuple(seat for seat, drop in enumerate(view.drops) if drop is None and seat != view.seat)


def seats_in_game(view: IndianRummyView) -> tuple[int, ...]:
    """The seats still in the Pool game (this deal's droppers included)."""
    standing = view.standing
    if standing is None:
        return tuple(range(view.rules.players))
    return standing.seats_in


def outcome_value(view: IndianRummyView, totals: Sequence[int]) -> float:
    """How good the standing after this deal is for this seat, ``totals`` being everyone's
    totals then (see the module docstring); higher is better."""
    rules: Rules = view.rules
    limit = rules.pool_limit
    seat = view.seat
    others = [s for s in seats_in_game(view) if s != seat and totals[s] < limit]
    mine: int | None = totals[seat]
    if totals[seat] >= limit:
        mine = rejoin_total(view, totals, others)
    if mine is None:
        return 0.0
    headroom = limit - mine
    if not others:
        return 1.0
    rivals = sum((limit - totals[s]) ** 2 for s in others)
    return headroom**2 / (headroom**2 + rivals)


def rejoin_total(view: IndianRummyView, totals: Sequence[int], others: Sequence[int]) -> int | None:
    """The total this seat would rejoin with after being eliminated, if it could rejoin: at
    least two others left in, a rejoin left, and the highest total still in within the
    window."""
    rules = view.rules
    standing = view.standing
    if standing is None or len(others) < 2:
        return None
    used = standing.rejoins_used[view.seat] if standing.rejoins_used else 0
    if used >= rules.rejoins:
        return None
    highest = max(totals[s] for s in others)
    return highest + 1 if highest <= rules.rejoin_limit else None


def drop_gain(
    view: IndianRummyView, missing: float, points: int | None = None, *, pure: bool = False
) -> float:
    """The value of dropping now less the value of playing on (positive: drop), for a hand
    ``missing`` useful cards from a show that holds a ``pure`` sequence or not; ``points``
    (the count if someone showed now), when given, scales the losing counts."""
    rules = view.rules
    penalty = rules.middle_drop if view.has_drawn[view.seat] else rules.first_drop
    rivals = rivals_in_deal(view)
    ahead = forecast(missing, draws_this_deal(view), len(rivals), points, pure=pure)
    # A seat that dropped this deal already owes its penalty (the totals take it at the deal's
    # end): counted now, so a drop is not valued as a rejoin against rivals already out.
    totals = [total + (drop or 0) for total, drop in zip(view.totals, view.drops, strict=True)]
    seat = view.seat
    dropped = totals.copy()
    dropped[seat] += penalty
    drop = outcome_value(view, dropped)
    shown = totals.copy()
    for rival in rivals:
        shown[rival] += ahead.rival_count
    win = outcome_value(view, shown)
    lose = 0.0
    for count in ahead.counts:
        counted = totals.copy()
        counted[seat] += count
        lose += outcome_value(view, counted)
    lose /= len(ahead.counts)
    play_on = ahead.win * win + (1.0 - ahead.win) * lose
    return drop - play_on


def drop_pays(
    view: IndianRummyView, missing: float, points: int | None = None, *, pure: bool = False
) -> bool:
    """Should this seat, at the start of its turn in a Pool deal, drop?"""
    return drop_gain(view, missing, points, pure=pure) > 0.0
