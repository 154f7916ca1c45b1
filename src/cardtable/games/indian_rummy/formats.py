"""Indian Rummy's Pool and Deals formats (RULES.md 2.13): the standing between deals and how a
finished deal moves it on.

Free play (the seed's "points only") has no standing: a state's ``deal.standing`` is ``None``
and nothing here runs. In Pool and Deals the standing holds who is still in, the rejoins used,
the chips (Deals), the offers and votes being answered, and once the game is over its winners.
The engine calls :func:`after_deal` when a deal ends and :func:`answer_rejoin` /
:func:`answer_finish` for the two decisions a person makes between deals; everything returns a
new standing (it is frozen) with the phase and seat that come next.

Decisions where 2.13 leaves room [DEC]:

* A player is eliminated when the deal that takes their total to ``pool_limit`` or more ends.
  When one player is left the game ends at once (no rejoin offer: nobody is left to play
  against). Should every player still in reach the limit in the same deal (possible only when
  the others are counted after a wrong show), those with the lowest total among them win.
* A rejoin is offered to the players eliminated by the deal just ended (a player out earlier
  who said no, or whose window had closed, is not asked again), one at a time clockwise from
  the dealer's left, while the highest total among the players still in is at most
  ``rejoin_limit`` and the player has rejoins left. Every acceptance of one offer round comes
  back with the same total: the highest total of those in before the round, plus one.
* The agreed finish is asked of the players left, one at a time clockwise from the dealer's
  left, before every deal while at most ``agreed_finish_players`` are left; one "play on"
  starts the deal.
* Deals: the winner of a deal is the valid declarer or the last player in; after a wrong show
  (no winner by the seed's rules) the player with the fewest points of the others, the first
  clockwise from the dealer's left on a tie. Nobody takes chips from a deal with no winner
  (the turn cap). A player pays at most the chips they hold. After the last deal the most chips
  win; players tied at the top play tie-break deals alone until one is ahead.
* ``game_deal_cap`` deals end any Pool or Deals game on the standing (lowest total among those
  in; most chips), sharing the win on a tie; so does Pool's ``deals`` when it is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.spec import TableFormat

GameEnd = Literal["last-player", "all-eliminated", "agreed-finish", "most-chips", "deal-cap"]
"""How a Pool or Deals game ended."""

Next = Literal["deal", "rejoin", "agreed-finish", "over"]
"""What comes after a finished deal or an answer: the next deal (a chance step), a rejoin
offer, an agreed-finish vote, or the end of the game."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a Pool or Deals game stands (see the module docstring).

    ``out[seat]``: the seat takes no part in the deals (eliminated in Pool; not among the tied
    players of a Deals tie-break). ``eliminated`` are the seats the last deal eliminated.
    ``rejoins_used`` counts each seat's rejoins. ``chips`` are each seat's chips (Deals; all 0
    in Pool). ``offers`` are the seats still to answer a rejoin offer (the first answers now)
    and ``rejoin_total`` the total they come back with; ``votes`` the seats still to answer the
    agreed finish. ``tie_break`` is set once a Deals game plays tie-break deals. ``winners`` and
    ``end`` are set when the game is over.
    """

    out: tuple[bool, ...]
    eliminated: tuple[int, ...] = ()
    rejoins_used: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    offers: tuple[int, ...] = ()
    rejoin_total: int = 0
    votes: tuple[int, ...] = ()
    tie_break: bool = False
    winners: tuple[int, ...] = ()
    end: GameEnd | None = None

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats still taking part, in seat order."""
        return tuple(seat for seat, out in enumerate(self.out) if not out)

    def to_json(self, rules: Rules, totals: Sequence[int]) -> dict[str, Any]:
        """The standing as JSON-ready data, with what the table shows beside it: the limit and
        how far each seat still in is from it (Pool), the starting chips (Deals)."""
        data: dict[str, Any] = {
            "format": rules.format,
            "out": list(self.out),
            "eliminated": list(self.eliminated),
            "rejoins_used": list(self.rejoins_used),
            "offers": list(self.offers),
            "rejoin_total": self.rejoin_total,
            "votes": list(self.votes),
            "winners": list(self.winners),
            "end": self.end,
        }
        if rules.format == "pool":
            data["limit"] = rules.pool_limit
            data["to_limit"] = [
                None if out else rules.pool_limit - total
                for out, total in zip(self.out, totals, strict=True)
            ]
            data["rejoin_open"] = rejoin_window_open(rules, self, totals)
        else:
            data["chips"] = list(self.chips)
            data["starting_chips"] = starting_chips(rules)
            data["deals"] = deals_to_play(rules)
            data["tie_break"] = self.tie_break
        return data


DEFAULT_DEALS: Final = 2
"""The deals of a Deals game whose ``deals`` is empty (best of 2, the shortest preset)."""


def deals_to_play(rules: Rules) -> int:
    """How many deals a Deals game plays before any tie-break deal."""
    return DEFAULT_DEALS if rules.deals is None else rules.deals


def starting_chips(rules: Rules) -> int:
    """Each player's chips at the start of a Deals game: ``chips_per_player`` x players."""
    return rules.chips_per_player * rules.players


def new_standing(rules: Rules) -> Standing | None:
    """The standing a new game starts with; ``None`` in free play."""
    if rules.format == "free-play":
        return None
    n = rules.players
    chips = starting_chips(rules) if rules.format == "deals" else 0
    return Standing(out=(False,) * n, rejoins_used=(0,) * n, chips=(chips,) * n)


def clockwise_from(first: int, seats: Sequence[int], n: int) -> tuple[int, ...]:
    """``seats`` ordered clockwise starting at seat ``first`` (or the next after it)."""
    return tuple(sorted(seats, key=lambda seat: (seat - first) % n))


def next_dealer(standing: Standing, dealer: int) -> int:
    """The next dealer: the first seat still in clockwise after ``dealer``."""
    n = len(standing.out)
    seat = (dealer + 1) % n
    while standing.out[seat]:
        seat = (seat + 1) % n
    return seat


def rejoin_window_open(rules: Rules, standing: Standing, totals: Sequence[int]) -> bool:
    """Is the highest total among the players still in at most ``rejoin_limit``?"""
    seats = standing.seats_in
    return bool(seats) and max(totals[seat] for seat in seats) <= rules.rejoin_limit


def _lowest(totals: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    best = min(totals[seat] for seat in seats)
    return tuple(seat for seat in seats if totals[seat] == best)


def _most_chips(chips: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    best = max(chips[seat] for seat in seats)
    return tuple(seat for seat in seats if chips[seat] == best)


def _over(standing: Standing, winners: Sequence[int], end: GameEnd) -> tuple[Standing, Next]:
    return replace(standing, offers=(), votes=(), winners=tuple(winners), end=end), "over"


def deal_winner(
    outcome: str,
    winner: int | None,
    declarer: int | None,
    points: Sequence[int],
    seats: Sequence[int],
    dealer: int,
) -> int | None:
    """Who takes the chips of a Deals deal: the deal's winner, or after a wrong show the player
    with the fewest points of the others (the first clockwise from the dealer's left on a tie);
    ``None`` for a deal with no winner (the turn cap)."""
    if winner is not None:
        return winner
    if outcome != "wrong-show" or declarer is None:
        return None
    others = [seat for seat in seats if seat != declarer]
    if not others:
        return None
    n = len(points)
    ordered = clockwise_from((dealer + 1) % n, others, n)
    return min(ordered, key=lambda seat: points[seat])


def after_deal(
    rules: Rules,
    standing: Standing,
    *,
    totals: Sequence[int],
    points: Sequence[int],
    outcome: str,
    winner: int | None,
    declarer: int | None,
    dealer: int,
    deals_played: int,
) -> tuple[Standing, Next]:
    """The standing once a deal has ended with ``points`` (``totals`` include them), and what
    comes next (see the module docstring)."""
    if rules.format == "deals":
        return _after_deals_deal(
            rules,
            standing,
            points=points,
            outcome=outcome,
            winner=winner,
            declarer=declarer,
            dealer=dealer,
            deals_played=deals_played,
        )
    n = rules.players
    before = standing.seats_in
    reached = tuple(seat for seat in before if totals[seat] >= rules.pool_limit)
    if len(reached) == len(before):
        # Nobody would be left: the lowest totals among them win (see the module docstring).
        return _over(replace(standing, eliminated=()), _lowest(totals, before), "all-eliminated")
    out = tuple(o or seat in reached for seat, o in enumerate(standing.out))
    standing = replace(standing, out=out, eliminated=reached)
    left = standing.seats_in
    if len(left) == 1:
        return _over(standing, left, "last-player")
    capped = rules.deals is not None and deals_played >= rules.deals
    if capped or deals_played >= rules.game_deal_cap:
        return _over(standing, _lowest(totals, left), "deal-cap")
    offered = tuple(seat for seat in reached if standing.rejoins_used[seat] < rules.rejoins)
    if offered and rejoin_window_open(rules, standing, totals):
        high = max(totals[seat] for seat in left)
        order = clockwise_from((dealer + 1) % n, offered, n)
        return replace(standing, offers=order, rejoin_total=high + 1), "rejoin"
    return _vote_or_deal(rules, standing, dealer)


def _vote_or_deal(rules: Rules, standing: Standing, dealer: int) -> tuple[Standing, Next]:
    left = standing.seats_in
    if rules.agreed_finish and 2 <= len(left) <= rules.agreed_finish_players:
        n = rules.players
        return replace(standing, votes=clockwise_from((dealer + 1) % n, left, n)), "agreed-finish"
    return standing, "deal"


def _after_deals_deal(
    rules: Rules,
    standing: Standing,
    *,
    points: Sequence[int],
    outcome: str,
    winner: int | None,
    declarer: int | None,
    dealer: int,
    deals_played: int,
) -> tuple[Standing, Next]:
    seats = standing.seats_in
    taker = deal_winner(outcome, winner, declarer, points, seats, dealer)
    chips = list(standing.chips)
    if taker is not None:
        for seat in seats:
            if seat != taker:
                paid = min(points[seat], chips[seat])
                chips[seat] -= paid
                chips[taker] += paid
    standing = replace(standing, chips=tuple(chips))
    if deals_played < deals_to_play(rules):
        return standing, "deal"
    leaders = _most_chips(chips, seats)
    if len(leaders) == 1:
        return _over(standing, leaders, "most-chips")
    if deals_played >= rules.game_deal_cap:
        return _over(standing, leaders, "deal-cap")
    out = tuple(seat not in leaders for seat in range(rules.players))
    return replace(standing, out=out, tie_break=True), "deal"


def answer_rejoin(
    rules: Rules, standing: Standing, totals: Sequence[int], seat: int, rejoin: bool, dealer: int
) -> tuple[Standing, tuple[int, ...], Next]:
    """``seat`` (the first of the offers) answers its rejoin offer: the standing, the totals and
    what comes next."""
    offers = standing.offers[1:]
    new_totals = tuple(totals)
    if rejoin:
        out = tuple(o and s != seat for s, o in enumerate(standing.out))
        used = tuple(u + (s == seat) for s, u in enumerate(standing.rejoins_used))
        new_totals = tuple(standing.rejoin_total if s == seat else t for s, t in enumerate(totals))
        standing = replace(standing, out=out, rejoins_used=used, offers=offers)
    else:
        standing = replace(standing, offers=offers)
    if offers:
        return standing, new_totals, "rejoin"
    standing, following = _vote_or_deal(rules, replace(standing, rejoin_total=0), dealer)
    return standing, new_totals, following


def answer_finish(standing: Standing, seat: int, agree: bool) -> tuple[Standing, Next]:
    """``seat`` (the first of the votes) answers the agreed finish."""
    if not agree:
        return replace(standing, votes=()), "deal"
    votes = standing.votes[1:]
    if votes:
        return replace(standing, votes=votes), "agreed-finish"
    return _over(standing, standing.seats_in, "agreed-finish")


FORMAT_TITLES: Final = {"free-play": "Free play", "pool": "Pool", "deals": "Deals"}


def format_title(rules: Rules) -> str:
    """The format's name as a table shows it: ``Pool 101``, ``Deals (best of 3)``, ``Free play``."""
    if rules.format == "pool":
        return f"Pool {rules.pool_limit}"
    if rules.format == "deals":
        return f"Deals (best of {deals_to_play(rules)})"
    return "Free play"


def format_key(rules: Rules) -> str:
    """The format's stable name, under which Your Record keeps its games: ``pool-101``,
    ``deals-3``, ``free-play`` (the presets' names where a preset makes it)."""
    if rules.format == "pool":
        return f"pool-{rules.pool_limit}"
    if rules.format == "deals":
        return f"deals-{deals_to_play(rules)}"
    return "free-play"


class Formats:
    """Indian Rummy's formats as listings and Your Record name them (the spec's
    ``table_format`` part)."""

    def of(self, rules: Rules) -> TableFormat:
        """The format of a table's rules."""
        return TableFormat(key=format_key(rules), title=format_title(rules))

    def title(self, key: str) -> str:
        """The title of a format's key (a record keeps the key): ``pool-101`` is ``Pool 101``.

        >>> [FORMATS.title(key) for key in ("pool-201", "deals-3", "free-play", "odd")]
        ['Pool 201', 'Deals (best of 3)', 'Free play', 'odd']
        """
        kind, _, number = key.partition("-")
        if kind == "pool" and number.isdigit():
            return f"Pool {int(number)}"
        if kind == "deals" and number.isdigit():
            return f"Deals (best of {int(number)})"
        return "Free play" if key == "free-play" else key


FORMATS: Final = Formats()
