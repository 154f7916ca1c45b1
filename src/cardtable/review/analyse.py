"""Walk a game record and analyse every decision of one seat, from that seat's view at that
moment (:mod:`cardtable.review.sampler`), hand by hand; explain the three costliest. Choices
about the standing between deals (:attr:`~cardtable.review.lenses.Lens.standing_choice`: a
Pool rejoin, the agreed finish) are not judged."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from cardtable.registry import get_engine
from cardtable.replay import GameRecord, replay_steps
from cardtable.review.explain import explain
from cardtable.review.lenses import kind_of, lens_of
from cardtable.review.model import DecisionReview, GameReview, HandReview, ReviewBudget
from cardtable.review.sampler import distinct, evaluate

Progress = Callable[[int, int], None]
"""``(decisions done, decisions in all)``, called after each decision."""

DEFAULT_BUDGET = ReviewBudget()


def review_record(
    record: GameRecord,
    seat: int,
    *,
    budget: ReviewBudget = DEFAULT_BUDGET,
    sampler_seed: int = 0,
    hands: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """Analyse ``seat``'s decisions in ``record`` (only those of ``hands`` if given).

    Raises :class:`~cardtable.errors.RecordError` for a record that does not replay and
    ``ValueError`` for a seat the game does not have.
    """
    engine = get_engine(record.game)
    lens = lens_of(engine.name)
    players = engine.rules_from_json(record.rules).players
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0-{players - 1}, not {seat}")
    wanted = None if hands is None else set(hands)
    todo: list[tuple[int, Any, Any]] = []
    for step in replay_steps(record):
        if step.seat != seat:
            continue
        hand = lens.hand_of(step.before)
        if wanted is not None and hand not in wanted:
            continue
        legal = distinct(engine.legal_actions(step.before, seat))
        # A choice about the standing (a Pool rejoin) is no move of a deal to judge.
        if len(legal) > 1 and not lens.standing_choice(step.before):
            todo.append((step.index, step.before, step.action))
    reviews: list[DecisionReview] = []
    for done, (index, before, action) in enumerate(todo):
        reviews.append(
            review_decision(
                engine.name,
                before,
                seat,
                action,
                index=index,
                budget=budget,
                sampler_seed=sampler_seed,
            )
        )
        if progress is not None:
            progress(done + 1, len(todo))
    top = _explain_top(engine.name, seat, reviews, todo)
    explained = {review.index: review for review in top}
    by_hand: dict[int, list[DecisionReview]] = {}
    for review in reviews:
        by_hand.setdefault(review.hand, []).append(explained.get(review.index, review))
    return GameReview(
        game=engine.name,
        seat=seat,
        thresholds=lens.thresholds,
        sampler_seed=sampler_seed,
        budget=budget,
        hands=tuple(HandReview(hand, tuple(items)) for hand, items in sorted(by_hand.items())),
        top=top,
    )


def review_decision(
    game: str,
    state: Any,
    seat: int,
    action: Any,
    *,
    index: int = 0,
    budget: ReviewBudget = DEFAULT_BUDGET,
    sampler_seed: int = 0,
) -> DecisionReview:
    """Analyse ``seat`` playing ``action`` in ``state`` (the decision numbered ``index`` in its
    record): only ``seat``'s view of ``state`` is read."""
    engine = get_engine(game)
    lens = lens_of(engine.name)
    view = engine.view(state, seat)
    legal = distinct(engine.legal_actions(state, seat))
    notations = [str(a) for a in legal]
    if str(action) not in notations:
        raise ValueError(f"'{action}' is not a legal move for seat {seat} here")
    if lens.standing_choice(state):
        raise ValueError(
            f"'{action}' is a choice about the game's standing, not a move of a deal: "
            "the analysis does not judge it"
        )
    found = evaluate(
        engine,
        lens,
        view,
        legal,
        notations.index(str(action)),
        budget=budget,
        key=f"review:{sampler_seed}:{index}",
    )
    best, mine = found.moves[found.best], found.moves[found.played]
    cost = max(0.0, best.value - mine.value)
    win_cost = None
    if best.win is not None and mine.win is not None:
        win_cost = best.win - mine.win
    thresholds = lens.thresholds
    return DecisionReview(
        index=index,
        hand=lens.hand_of(state),
        kind=kind_of(action),
        played=mine.action,
        best=best.action,
        cost=cost,
        error=found.error,
        win_cost=win_cost,
        label=thresholds.label(cost, found.error),
        accuracy=thresholds.accuracy(cost),
        candidates=found.moves,
        judge=found.moves[found.judged].action,
    )


def explain_decision(game: str, state: Any, seat: int, review: DecisionReview) -> str:
    """The explanation of an analysed decision in the game's terms (from ``seat``'s view)."""
    engine = get_engine(game)
    view = engine.view(state, seat)
    legal = distinct(engine.legal_actions(state, seat))
    by_text = {str(a): a for a in legal}
    return explain(
        engine.name,
        view,
        legal,
        by_text[review.played],
        by_text[review.best],
        review.cost,
        review.error,
        lens_of(engine.name).thresholds,
        {candidate.action: candidate.value for candidate in review.candidates},
    )


def _explain_top(
    game: str, seat: int, reviews: list[DecisionReview], todo: list[tuple[int, Any, Any]]
) -> tuple[DecisionReview, ...]:
    """The three costliest decisions, costliest first, with their explanations."""
    costly = sorted((r for r in reviews if r.cost > 0), key=lambda r: (-r.cost, r.index))[:3]
    states = {index: before for index, before, _ in todo}
    return tuple(
        replace(review, explanation=explain_decision(game, states[review.index], seat, review))
        for review in costly
    )
