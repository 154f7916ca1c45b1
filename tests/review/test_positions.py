"""Known positions, one per game and kind of error, where one move is clearly worse than the
best: the analysis marks it and names the right best move."""

from __future__ import annotations

from bots.positions import declaration as declaration_position
from bots.positions import indecision as indecision_position
from cardtable.cards import parse_cards
from cardtable.games.declaration_rummy.engine import ENGINE as DECLARATION
from cardtable.games.declaration_rummy.rules import Rules as DeclarationRules
from cardtable.games.indecision.engine import ENGINE as INDECISION
from cardtable.games.indian_rummy.engine import ENGINE as INDIAN
from cardtable.games.indian_rummy.rules import Rules as IndianRules
from cardtable.games.indian_rummy.state import Phase as IndianPhase
from cardtable.games.indian_rummy.state import scenario
from cardtable.review import ReviewBudget, explain_decision, review_decision

BUDGET = ReviewBudget(samples=8, screen=4, finalists=2)
# Win-or-lose values are noisier than points: more imagined deals for Declaration Rummy.
STEADY = ReviewBudget(samples=24, screen=4, finalists=2)

# 13 cards that make a valid show (a pure sequence, a second sequence, two sets), plus 2D drawn.
SHOW = "3H 4H 5H 6H 7C 8C 9C QS QD QC KS KH KD 2D"


def _indian_position() -> object:
    return scenario(
        IndianRules(),
        [SHOW, "AS 2S 3S 5S 6S 8S 9S 10S 2C 3C 4C 5C 6C"],
        pile="JH",
        wild_card="JD",
        phase=IndianPhase.DISCARD,
        drawn="2D",
        turn=0,
        has_drawn=[True, True],
        turns=4,
    )


def test_discarding_a_card_of_the_pure_sequence_instead_of_showing_is_a_blunder() -> None:
    state = _indian_position()
    played = INDIAN.parse_action("discard 4H")
    review = review_decision("indian-rummy", state, 0, played, budget=BUDGET)
    assert review.best == "declare 2D"
    assert review.label == "blunder", review
    assert "declare 2D" in explain_decision("indian-rummy", state, 0, review)


def test_a_wrong_show_is_a_blunder_and_the_valid_show_is_best() -> None:
    state = _indian_position()
    played = INDIAN.parse_action("declare 4H")
    review = review_decision("indian-rummy", state, 0, played, budget=BUDGET)
    assert review.best == "declare 2D"
    assert review.label == "blunder"
    assert review.cost >= IndianRules().wrong_show_penalty - 1


def test_an_invalid_stop_that_forfeits_the_hand_is_marked_and_the_valid_stop_is_best() -> None:
    state = indecision_position(["5H 6H 7H 7C 7S KD", "2C 4D 9S JH QC"], pile="3D")
    played = INDECISION.parse_action("stop 5H")
    review = review_decision("indecision", state, 0, played, budget=BUDGET)
    assert review.best == "stop KD"
    assert review.label == "blunder"
    assert review.win_cost is not None and review.win_cost > 0


def test_breaking_a_group_instead_of_going_out_is_marked() -> None:
    # Gin rules: a count of 13 may not declare, so going out is the only way to win now.
    rules = DeclarationRules(players=4, cards_dealt=6, gin_rummy=True)
    hands = ["2H 3H 4H 9S 9D 9C KC", "AS 2S 7D 8C JC KH", "3S 4S 5D 6C 7C 8H", "AD 2D 3D 4C 5H 6H"]
    state = declaration_position(hands, rules=rules)
    assert parse_cards("KC")[0] in state.hands[0]
    review = review_decision(
        "declaration-rummy", state, 0, DECLARATION.parse_action("discard 9S"), budget=STEADY
    )
    assert review.best == "go out"
    assert review.label == "blunder"
