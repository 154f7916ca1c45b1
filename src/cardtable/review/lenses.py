"""What the analysis must know of each game: which hand (deal) a state belongs to, when a hand
is over, how much a finished (or cut-off) hand is worth to a seat, how every seat plays in the
imagined continuations, and the thresholds that mark costly moves.

The unit of value is the game's own:

* **Indecision**: points of the hand, the seat's points minus the others' average (it is a
  race to 121), with the chance to win the game from the totals reached; rollouts go to the
  end of the hand.
* **Indian Rummy**: penalty points of the deal (negated: higher is better); rollouts go to the
  end of the deal, and one cut off by the budget's ``max_steps`` values the hand by the points
  it would count if someone showed then (capped), or the drop penalty paid. No chance to win
  is given: the deal's points are the game. The answers between the deals of a Pool game (a
  rejoin offer, the agreed finish) are choices about the standing, not judged
  (:attr:`Lens.standing_choice`).
* **Declaration Rummy**: one deal is the game, so the unit is the chance to win in percent (an
  agreed tie counts as the share of the game it gives each player still in); a rollout cut off
  before the end counts the hands as if the game were declared then.

The thresholds carry the noise ``benchmarks/bench_judge.py`` measured at the default budget:
the median and 95th percentile of a move's cost difference between two sampler seeds, over the
decisions of a seat that follows the hint (Declaration Rummy: the larger of its two runs' 95th
percentiles).

Each lens also names the analysis's **judge**, the game's Hard player as the coach hints it
(its choice with the coach's dice): its choice is always valued with the best candidates, and
it is the best move unless another move beats it by a clear margin
(:mod:`cardtable.review.sampler`), so the analysis's best move is one a strong player makes and
agrees with the hint unless it can say why the hint was worse. How the
hidden cards are dealt is the judge's own hand model where it has one (Declaration Rummy's
rivals' hands look played, :func:`~cardtable.bots.declaration_rivals.biased_deal`), and how every
seat plays on after a candidate is fast and plays to win: Indecision's and Declaration Rummy's
Easy level, and in Indian Rummy the improving seat of :mod:`cardtable.playouts` played to the end
of the deal, which reaches a show as a player does (the Easy seat never did within the old three
turns, so every kept hand counted as if it were shown against at once, and a drop looked best).
The Normal and Hard players cost many times as much a decision (benchmarks/README.md, "Figures
the modules' docstrings refer to"), too slow for the hundred or more rollouts of one decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import Bot
from cardtable.registry import get_engine, get_spec, load
from cardtable.review.model import Thresholds

ValueFn = Callable[[Any, Any, int, bool], tuple[float, float | None]]
"""``(start, end, seat, over) -> (value, chance to win or None)``."""
RolloutPolicy = Callable[[Any, int, Sequence[Any], random.Random], Any]
"""``(state, seat, legal, rng) -> action``: how a seat plays on in a rollout."""
Determinizer = Callable[[Any, random.Random], Any]
"""``(view, rng) -> state``: how the hidden cards are dealt for the analysis."""


Judge = Callable[[Any, Sequence[Any]], Any]
"""``(view, legal) -> action``: the judge's choice."""


def coach_judge(game: str) -> Judge:
    """The coach's hint as the judge: the Hard player's choice with the coach's own dice, so
    that the analysis's best move and the hint a player saw at the table are the same move
    unless the analysis finds a clearly better one."""
    # Each game's own parts, under the same names (Phase, EasyBot) in every game.
    from cardtable.coach import hint

    def choose(view: Any, legal: Sequence[Any]) -> Any:
        return hint(game, view, legal).action

    return choose


def bot_policy(game: str, bot: Bot) -> RolloutPolicy:
    """A rollout policy that asks ``bot`` with the seat's view, as at the table."""
    engine = get_engine(game)

    def choose(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
        return bot.choose(engine.view(state, seat), legal, rng)

    return choose


@dataclass(frozen=True, slots=True)
class Lens:
    """One game's knowledge for the analysis (see the module docstring)."""

    game: str
    thresholds: Thresholds
    hand_of: Callable[[Any], int]
    hand_over: Callable[[Any, Any], bool]
    value: ValueFn
    policy: RolloutPolicy
    to_end_of_hand: bool
    """``True`` when rollouts always run to the end of the hand (short hands)."""
    judge: Judge
    """The strong player whose choice is the best move unless beaten clearly: the coach's
    hint, which is the Hard player's choice (see :func:`coach_judge`)."""
    determinizer: Determinizer | None = None
    """How the hidden cards are dealt (``None``: the engine's ``determinize``)."""
    reluctant: Callable[[Any], bool] = lambda action: False
    """Moves a strong player makes only with good cause (a drop, a tie proposal): they beat the
    judge's choice only by the "blunder" threshold, not merely by an inaccuracy."""
    standing_choice: Callable[[Any], bool] = lambda state: False
    """States whose decision is about the game's standing rather than a deal (Indian Rummy's
    rejoin offer and agreed-finish vote between the deals of a Pool game): coming back, staying
    out or sharing the win changes who plays on and for what, which a deal's points cannot
    weigh, so the analysis does not judge them (they get no cost, label or accuracy)."""
    cut: Callable[[Any, Any, int], bool] | None = None
    """``(start, state, lookahead) -> True`` where a rollout that does not run to the end of
    the hand stops: at the same point of the deal whatever the candidate (``None``: after
    ``2 * lookahead`` of the seat's own decisions)."""


def indecision_lens() -> Lens:
    """Indecision's lens (its spec names it)."""
    # Each game's own parts, under the same names (Phase, EasyBot) in every game.
    from cardtable.bots.indecision import EasyBot, race_value
    from cardtable.games.indecision.state import Phase

    def hand_of(state: Any) -> int:
        number: int = state.table.hand_number
        return number

    def hand_over(start: Any, end: Any) -> bool:
        return bool(
            end.table.hand_number != start.table.hand_number or end.phase is Phase.GAME_OVER
        )

    def value(start: Any, end: Any, seat: int, _over: bool) -> tuple[float, float | None]:
        before, after = start.table.totals, end.table.totals
        gains = [after[s] - before[s] for s in range(len(after))]
        others = [g for s, g in enumerate(gains) if s != seat]
        points = gains[seat] - sum(others) / max(1, len(others))
        table = end.table
        if table.winners:
            win = 1.0 / len(table.winners) if seat in table.winners else 0.0
        else:
            win = race_value(table.totals, seat, table.rules.target_score, len(after))
        return float(points), win

    return Lens(
        game="indecision",
        thresholds=Thresholds(
            unit="points", inaccuracy=1.5, mistake=3.0, blunder=6.0, noise=0.0, noise_p95=0.19
        ),
        hand_of=hand_of,
        hand_over=hand_over,
        value=value,
        policy=bot_policy("indecision", EasyBot()),
        to_end_of_hand=True,
        judge=coach_judge("indecision"),
    )


def indian_rummy_lens() -> Lens:
    """Indian Rummy's lens (its spec names it)."""
    # Each game's own parts, under the same names (Phase, EasyBot) in every game.
    from cardtable.cards import random_below
    from cardtable.games.indian_rummy.state import Phase
    from cardtable.melds.indian import raw_points
    from cardtable.playouts import improving_actions

    improving = improving_actions(get_engine("indian-rummy"))

    def policy(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
        choices = improving(state, seat, legal)
        return choices[random_below(rng, len(choices))]

    def hand_of(state: Any) -> int:
        number: int = state.deal_number
        return number

    def hand_over(start: Any, end: Any) -> bool:
        return bool(end.last_deal is not start.last_deal or end.phase is Phase.GAME_OVER)

    def value(start: Any, end: Any, seat: int, over: bool) -> tuple[float, float | None]:
        if over:
            return float(start.totals[seat] - end.totals[seat]), None
        if end.drops[seat] is not None:
            return -float(end.drops[seat]), None
        rules = end.rules
        points = raw_points(
            end.hands[seat][:13],
            end.wild_rank,
            jokers_per_sequence=rules.jokers_per_sequence,
            all_joker_groups=rules.all_joker_groups,
        )
        if rules.max_points is not None:
            points = min(points, rules.max_points)
        return -float(points), None

    return Lens(
        game="indian-rummy",
        thresholds=Thresholds(
            unit="points", inaccuracy=3.0, mistake=6.0, blunder=12.0, noise=0.0, noise_p95=3.8
        ),
        hand_of=hand_of,
        hand_over=hand_over,
        value=value,
        policy=policy,
        to_end_of_hand=True,
        judge=coach_judge("indian-rummy"),
        reluctant=lambda action: str(action) == "drop",
        standing_choice=lambda state: state.phase in (Phase.REJOIN, Phase.AGREED_FINISH),
    )


def declaration_rummy_lens() -> Lens:
    """Declaration Rummy's lens (its spec names it)."""
    # Each game's own parts, under the same names (Phase, EasyBot) in every game.
    from cardtable.bots.declaration_rivals import biased_deal
    from cardtable.bots.declaration_rummy import EasyBot
    from cardtable.games.declaration_rummy.hands import hand_count
    from cardtable.games.declaration_rummy.state import Phase

    def hand_of(state: Any) -> int:
        number: int = state.game_number
        return number

    def hand_over(start: Any, end: Any) -> bool:
        return bool(end.outcome is not None or end.game_number != start.game_number)

    def cut(start: Any, state: Any, lookahead: int) -> bool:
        # At a turn's start, once every player still in has had ``lookahead`` more turns: a
        # draw and a tie proposal are then cut at the same point of the deal (counting the
        # seat's own decisions cut a proposal a turn later, with a hand of one card fewer).
        players = sum(1 for dropped in state.dropped if not dropped)
        return bool(state.phase is Phase.DRAW and state.turns - start.turns >= lookahead * players)

    def value(start: Any, end: Any, seat: int, over: bool) -> tuple[float, float | None]:
        outcome = end.outcome if end.outcome is not None else None
        if outcome is None and end.history and end.game_number != start.game_number:
            outcome = end.history[-1]
        if outcome is not None:
            if outcome.winner is None and outcome.reason == "tie":
                # An agreed tie splits the game's one point among the players still in.
                still = [s for s, count in enumerate(outcome.counts) if count is not None]
                win = 1.0 / len(still) if seat in still else 0.0
            else:
                win = 1.0 if outcome.winner == seat else 0.0
            return 100.0 * win, win
        if end.dropped[seat]:
            return 0.0, 0.0
        counts = {
            s: hand_count(tuple(sorted(hand)))
            for s, hand in enumerate(end.hands)
            if not end.dropped[s]
        }
        low = min(counts.values())
        if counts[seat] != low:
            return 0.0, 0.0
        win = 1.0 / sum(1 for c in counts.values() if c == low)
        return 100.0 * win, win

    return Lens(
        game="declaration-rummy",
        thresholds=Thresholds(
            unit="% chance to win",
            inaccuracy=5.0,
            mistake=10.0,
            blunder=20.0,
            noise=0.0,
            noise_p95=9.4,
        ),
        hand_of=hand_of,
        hand_over=hand_over,
        value=value,
        policy=bot_policy("declaration-rummy", EasyBot()),
        to_end_of_hand=False,
        judge=coach_judge("declaration-rummy"),
        reluctant=lambda action: str(action) in ("drop", "propose tie"),
        determinizer=biased_deal,
        cut=cut,
    )


_CACHE: dict[str, Lens] = {}


def lens_of(game: str) -> Lens:
    """The lens of ``game`` (a registered name)."""
    if game not in _CACHE:
        _CACHE[game] = load(get_spec(game).lens)()
    return _CACHE[game]


def kind_of(action: Any) -> str:
    """The kind of a decision from its notation: ``draw``, ``discard``, ``stop``…"""
    word = str(action).split(" ", 1)[0]
    return "draw" if word in ("draw", "take") else word
