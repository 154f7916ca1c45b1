"""Indecision computer players: Easy, Normal and Hard.

Every hand is scored when anyone stops, so what counts is the race: a stop is good when the
stopper's hand beats what the others are likely holding, and only the stopper must meet the stop
requirements (everyone has had a turn; all five kept cards used, or a Prile of 4).

* **Easy** keeps the five cards that score most right now, takes the pile's top card only when
  it raises that score, and stops (validly only) once its hand scores 10 or more, or when the
  stop wins the game.
* **Normal** also values what a hand can become: it keeps the five cards with the best mix of
  score now and expected best score after one more draw from the unseen cards. It estimates
  each opponent's hand from the cards they took from the pile and the unseen cards, stops when
  its valid hand beats that estimate by a margin (at once when the stop reaches the target
  first), and holds back when the others' counts would carry them past the target.
* **Hard** deals the hidden cards many times consistently with its view and plays each of its
  best few candidate actions to the end of the hand with a fast greedy policy, valuing the end
  by the race (a won game is worth 1; otherwise the estimated chance of winning from the
  totals); Normal's judgement breaks ties.

Manual declaration mode: every level announces its true score and confirms it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cardtable.bots.base import Bot
from cardtable.bots.search import SearchBudget, best_by_search
from cardtable.games.indecision.actions import (
    CONFIRM,
    DRAW_DECK,
    DRAW_PILE,
    Confirm,
    Declare,
    Discard,
    IndecisionAction,
    Stop,
)
from cardtable.games.indecision.engine import ENGINE
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.scoring import hand_scorer
from cardtable.games.indecision.state import Phase, State
from cardtable.games.indecision.view import IndecisionView
from cardtable.melds.indecision import IndecisionScorer

HARD_BUDGET: Final = SearchBudget(rollouts=160, max_steps=120, work=6000)
"""Hard's default search budget, all in work: rollouts per decision, seat actions per rollout,
and seat actions per decision (a typical decision spends 1,000-2,000; the cap bounds the rare
long one without making the choice depend on the machine's speed)."""
VALID_BONUS: Final = 3.0
"""Worth of a five-card hand being a valid stop, on top of its score, when comparing keeps."""


def scorer_of(rules: Rules) -> IndecisionScorer:
    """The rules' hand scorer (cached by the scoring module)."""
    return hand_scorer(rules)


def keeps(hand: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Each way to keep five of six cards: ``(spare card, kept five)``."""
    return [(hand[i], (*hand[:i], *hand[i + 1 :])) for i in range(len(hand))]


def turn_requirement_met(view: IndecisionView) -> bool:
    """Stop requirement 1 for the seat on turn (its current turn counts unless strict)."""
    if view.rules.strict_stop_turns:
        return all(view.had_turn)
    return all(had or seat == view.seat for seat, had in enumerate(view.had_turn))


def unseen_cards(view: IndecisionView) -> list[int]:
    """Cards this seat has not seen and does not know to be in another hand."""
    known = set(view.hand) | set(view.pile)
    for cards in view.taken_cards().values():
        known |= cards
    return [card for card in range(52) if card not in known]


def links(card: int, others: Sequence[int]) -> int:
    """How many of ``others`` could meld with ``card``: same rank, same suit, or a rank within
    two (circular), each counted once."""
    rank, suit = card % 13, card // 13
    count = 0
    for other in others:
        if other == card:
            continue
        other_rank = other % 13
        gap = min((rank - other_rank) % 13, (other_rank - rank) % 13)
        if other_rank == rank or other // 13 == suit or gap <= 2:
            count += 1
    return count


def hand_worth(scorer: IndecisionScorer, kept: Sequence[int]) -> float:
    """Score plus :data:`VALID_BONUS` when the five cards would make a valid stop."""
    score, used = scorer.value(kept)
    return score + (VALID_BONUS if used else 0.0)


def best_keep(scorer: IndecisionScorer, hand: Sequence[int]) -> tuple[float, int]:
    """The best :func:`hand_worth` of five of six cards and the spare card giving it (ties keep
    the better connected cards)."""
    best = -1.0
    spare = hand[0]
    best_links = 99
    for card, kept in keeps(hand):
        worth = hand_worth(scorer, kept)
        tie_links = links(card, kept)
        if worth > best or (worth == best and tie_links < best_links):
            best, spare, best_links = worth, card, tie_links
    return best, spare


def draw_potential(scorer: IndecisionScorer, kept: Sequence[int], pool: Sequence[int]) -> float:
    """Expected :func:`best_keep` worth after drawing one card of ``pool`` to ``kept``."""
    if not pool:
        return hand_worth(scorer, kept)
    total = 0.0
    for card in pool:
        total += best_keep(scorer, (*kept, card))[0]
    return total / len(pool)


@dataclass(frozen=True, slots=True)
class StopOption:
    """A valid stop: the spare card and the kept hand's score."""

    spare: int
    score: int


def valid_stops(scorer: IndecisionScorer, view: IndecisionView) -> list[StopOption]:
    """Every stop that meets both requirements, best score first."""
    if not turn_requirement_met(view):
        return []
    out = []
    for card, kept in keeps(view.hand):
        score, used = scorer.value(kept)
        if used:
            out.append(StopOption(card, score))
    return sorted(out, key=lambda option: -option.score)


def estimate_opponents(
    scorer: IndecisionScorer, view: IndecisionView, rng: random.Random, samples: int = 24
) -> dict[int, float]:
    """Each other seat's expected hand score: its known pickups filled up with random unseen
    cards, plus a little for the improvement that play has brought since the deal."""
    taken = view.taken_cards()
    pool = unseen_cards(view)
    turns_each = view.turns / max(1, view.players)
    out: dict[int, float] = {}
    for seat, cards in taken.items():
        held = [c for c in cards][:5]
        need = 5 - len(held)
        if need <= 0 or len(pool) < need:
            out[seat] = float(scorer.value(held[:5])[0]) if len(held) == 5 else 4.0
            continue
        total = 0.0
        for _ in range(samples):
            total += scorer.value((*held, *rng.sample(pool, need)))[0]
        out[seat] = total / samples + min(4.0, 0.9 * turns_each)
    return out


def would_win_now(view: IndecisionView, score: int) -> bool:
    """A valid stop scoring ``score`` reaches the target before anyone else is counted."""
    rules = view.rules
    return rules.win_check == "counting-order" and view.totals[view.seat] + score >= (
        rules.target_score
    )


def declaration(view: IndecisionView, legal: Sequence[IndecisionAction]) -> IndecisionAction:
    """Manual declaration mode: announce the true score of this seat's hand, then confirm."""
    if any(isinstance(action, Confirm) for action in legal):
        return CONFIRM
    true_score = scorer_of(view.rules).value(view.hand)[0] if len(view.hand) == 5 else 0
    for action in legal:
        if isinstance(action, Declare) and action.points == true_score:
            return action
    return legal[0]


class EasyBot:
    """Greedy Indecision player (see the module docstring)."""

    name = "easy"
    version = "1"
    stop_at = 10

    def choose(
        self, view: IndecisionView, legal_actions: Sequence[IndecisionAction], rng: random.Random
    ) -> IndecisionAction:
        """Easy's choice."""
        if view.phase in (Phase.DECLARE, Phase.CONFIRM):
            return declaration(view, legal_actions)
        scorer = scorer_of(view.rules)
        if view.phase is Phase.DRAW:
            return self._draw(scorer, view, legal_actions)
        stops = valid_stops(scorer, view)
        if stops and (stops[0].score >= self.stop_at or would_win_now(view, stops[0].score)):
            return _stop_action(legal_actions, stops[0].spare)
        _, spare = best_keep(scorer, view.hand)
        return _discard_action(legal_actions, spare)

    @staticmethod
    def _draw(
        scorer: IndecisionScorer, view: IndecisionView, legal: Sequence[IndecisionAction]
    ) -> IndecisionAction:
        top = view.pile_top
        if DRAW_DECK not in legal or top is None:
            return legal[0]
        with_top = best_keep(scorer, (*view.hand, top))[0]
        return DRAW_PILE if with_top > hand_worth(scorer, view.hand) else DRAW_DECK


class NormalBot:
    """Heuristic Indecision player (see the module docstring).

    ``potential_weight`` mixes the kept hand's worth now with its expected worth after one more
    draw; ``stop_margin`` is how far a valid stop must beat the best opponent estimate.
    """

    name = "normal"
    version = "1"

    def __init__(self, *, potential_weight: float = 0.55, stop_margin: float = 2.0) -> None:
        self.potential_weight = potential_weight
        self.stop_margin = stop_margin

    def choose(
        self, view: IndecisionView, legal_actions: Sequence[IndecisionAction], rng: random.Random
    ) -> IndecisionAction:
        """Normal's choice."""
        if view.phase in (Phase.DECLARE, Phase.CONFIRM):
            return declaration(view, legal_actions)
        scorer = scorer_of(view.rules)
        if view.phase is Phase.DRAW:
            return self.draw(scorer, view, legal_actions)
        stop = self.stop_choice(scorer, view, rng)
        if stop is not None:
            return _stop_action(legal_actions, stop)
        return _discard_action(legal_actions, self.discard_choice(scorer, view, legal_actions))

    def draw(
        self,
        scorer: IndecisionScorer,
        view: IndecisionView,
        legal: Sequence[IndecisionAction],
    ) -> IndecisionAction:
        """Take the pile's top card when it beats an average unseen card."""
        top = view.pile_top
        if DRAW_DECK not in legal or top is None:
            return legal[0]
        with_top = best_keep(scorer, (*view.hand, top))[0]
        expected = draw_potential(scorer, view.hand, unseen_cards(view))
        return DRAW_PILE if with_top > expected + 0.25 else DRAW_DECK

    def keep_values(self, scorer: IndecisionScorer, view: IndecisionView) -> dict[int, float]:
        """For each possible spare card, the worth of the five cards kept."""
        pool = unseen_cards(view)
        weight = self.potential_weight
        values: dict[int, float] = {}
        for card, kept in keeps(view.hand):
            now = hand_worth(scorer, kept)
            later = draw_potential(scorer, kept, pool)
            values[card] = (1.0 - weight) * now + weight * later - 0.01 * links(card, kept)
        return values

    def discard_choice(
        self, scorer: IndecisionScorer, view: IndecisionView, legal: Sequence[IndecisionAction]
    ) -> int:
        """The card to discard (among the legal discards)."""
        values = self.keep_values(scorer, view)
        allowed = [a.card for a in legal if isinstance(a, Discard)] or list(view.hand)
        return max(allowed, key=lambda card: (values[card], -card))

    def stop_choice(
        self, scorer: IndecisionScorer, view: IndecisionView, rng: random.Random
    ) -> int | None:
        """The spare card of a stop worth making now, or ``None`` to play on."""
        stops = valid_stops(scorer, view)
        if not stops:
            return None
        best = stops[0]
        if would_win_now(view, best.score):
            return best.spare
        estimates = estimate_opponents(scorer, view, rng)
        target = view.rules.target_score
        for seat, expected in estimates.items():
            if view.totals[seat] + expected + 3.0 >= target:
                return None
        rival = max(estimates.values(), default=0.0)
        if best.score >= rival + self.stop_margin + max(0.0, 6.0 - view.turns):
            return best.spare
        return None


class HardBot:
    """Search player: determinized rollouts to the end of the hand (see the module docstring).

    ``candidates`` is how many of Normal's preferred discards are searched besides the draws and
    the best valid stop; ``budget`` bounds the rollouts per decision.
    """

    name = "hard"
    version = "1"

    def __init__(
        self,
        *,
        candidates: int = 3,
        budget: SearchBudget = HARD_BUDGET,
    ) -> None:
        self.candidates = candidates
        self.budget = budget
        self.normal = NormalBot()
        self.rollout_bot = EasyBot()

    def choose(
        self, view: IndecisionView, legal_actions: Sequence[IndecisionAction], rng: random.Random
    ) -> IndecisionAction:
        """Hard's choice."""
        if view.phase in (Phase.DECLARE, Phase.CONFIRM):
            return declaration(view, legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        scorer = scorer_of(view.rules)
        candidates, prior = self._candidates(scorer, view, legal_actions, rng)
        if len(candidates) == 1:
            return candidates[0]
        hand_number = view.hand_number
        players = view.players

        def hand_over(state: State) -> bool:
            return state.table.hand_number != hand_number or state.phase is Phase.GAME_OVER

        def policy(
            state: State, seat: int, legal: Sequence[IndecisionAction], dice: random.Random
        ) -> IndecisionAction:
            return self.rollout_bot.choose(ENGINE.view(state, seat), legal, dice)

        seat = view.seat

        def value(state: State, _seat: int) -> float:
            table = state.table
            if table.winners:
                return 1.0 / len(table.winners) if seat in table.winners else 0.0
            return race_value(table.totals, seat, view.rules.target_score, players)

        chosen: IndecisionAction = best_by_search(
            ENGINE,
            view,
            candidates,
            rng,
            policy=policy,
            leaf_value=value,
            horizon=hand_over,
            budget=self.budget,
            prior=prior,
        )
        return chosen

    def _candidates(
        self,
        scorer: IndecisionScorer,
        view: IndecisionView,
        legal: Sequence[IndecisionAction],
        rng: random.Random,
    ) -> tuple[list[IndecisionAction], list[float]]:
        if view.phase is Phase.DRAW:
            first = self.normal.draw(scorer, view, legal)
            ordered = [first, *[a for a in legal if a != first]]
            return ordered, [1.0] + [0.0] * (len(ordered) - 1)
        values = self.normal.keep_values(scorer, view)
        ranked = sorted(view.hand, key=lambda card: (-values[card], card))
        out: list[IndecisionAction] = []
        prior: list[float] = []
        for card in ranked:
            discard = _discard_or_none(legal, card)
            if discard is not None and len(out) < self.candidates:
                out.append(discard)
                prior.append(values[card])
        stops = valid_stops(scorer, view)
        if stops:
            stop = _stop_action(legal, stops[0].spare)
            out.append(stop)
            prior.append(values.get(stops[0].spare, 0.0))
            if would_win_now(view, stops[0].score):
                return [stop], [0.0]
        return out, prior


def race_value(totals: Sequence[int], seat: int, target: int, players: int) -> float:
    """Estimated chance that ``seat`` wins the race from these totals (no game over yet).

    Each player needs ``target - total`` more points; with hands worth about 9 points to a
    stopper and everyone scoring each hand, the leader's edge is judged relative to how much
    is left to play.
    """
    need = [max(1, target - total) for total in totals]
    mine = need[seat]
    others = min(need[s] for s in range(players) if s != seat)
    scale = 6.0 + 0.22 * min(mine, others)
    edge = (others - mine) / scale
    base = 1.0 / players
    return base + (1.0 - base) * math.tanh(edge) if edge >= 0 else base * (1.0 + math.tanh(edge))


def _stop_action(legal: Sequence[IndecisionAction], card: int) -> IndecisionAction:
    for action in legal:
        if isinstance(action, Stop) and action.card == card:
            return action
    return legal[0]


def _discard_or_none(legal: Sequence[IndecisionAction], card: int) -> IndecisionAction | None:
    for action in legal:
        if isinstance(action, Discard) and action.card == card:
            return action
    return None


def _discard_action(legal: Sequence[IndecisionAction], card: int) -> IndecisionAction:
    for action in legal:
        if isinstance(action, Discard) and action.card == card:
            return action
    # The card just taken may not go straight back (strict rules): the next best discard.
    for action in legal:
        if isinstance(action, Discard):
            return action
    return legal[0]


GameBot = Bot[IndecisionView, IndecisionAction]
"""A computer player of Indecision."""


def make_bot(level: str) -> GameBot:
    """The Indecision bot of ``level`` (``easy``, ``normal`` or ``hard``)."""
    bots: dict[str, type[GameBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
    return bots[level]()


__all__ = ["EasyBot", "HardBot", "NormalBot", "make_bot", "race_value"]
