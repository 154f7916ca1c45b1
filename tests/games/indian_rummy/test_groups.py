"""A player's own groups labelled as the count reads them (RULES.md 2.4, 2.8), and the solver's
arrangement the page lays out: the labels agree with the exact solver on every hand tried."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.cards import PRINTED_JOKER, format_card, parse_cards
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.groups import (
    best_groups,
    evaluate,
    group_kind,
    place,
    same_groups,
    show_put_down,
)
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.scoring import arrange
from cardtable.melds.indian import is_valid_show

from .helpers import play, show_once_kd_is_down


def cards(text: str) -> list[int]:
    return list(parse_cards(text, deck=None))


@pytest.mark.parametrize(
    ("group", "wild", "kind"),
    [
        ("5H 6H 7H", None, "pure sequence"),
        ("5H 6H 7H", 6, "pure sequence"),  # a wild-rank card as itself keeps it pure
        ("5H 6H 7D", 6, "sequence"),  # the 7D stands in for the 7H
        ("5H PJ 7H", None, "sequence"),
        ("QH KH AH", None, "pure sequence"),  # the ace high
        ("AH 2H 3H", None, "pure sequence"),  # the ace low
        ("KH AH 2H", None, None),  # never around the corner
        ("KH PJ PJ", None, "sequence"),  # J-Q-K or Q-K-A, never K-A-2
        ("5H 6H 8H", None, None),
        ("QS QD QC", None, "set"),
        ("QS QD QC QH", None, "set"),
        ("QS QD PJ", None, "set"),
        ("QS QD QC QH PJ", None, None),  # at most four cards in a set
        ("QS QS QD", None, None),  # two identical cards are never both themselves in a set
        ("7S 7S 7H", 6, "sequence"),  # one 7S as itself, two jokers around it
        ("5H 6H", None, None),  # a group has three cards at least
        ("PJ PJ 7D", 6, "sequence"),  # the 7D as itself, never a group of jokers only
    ],
)
def test_rule_2_4_each_group_is_read_as_the_strongest_group_it_makes(
    group: str, wild: int | None, kind: str | None
) -> None:
    assert group_kind(cards(group), wild) == kind


def test_rule_2_4_house_rule_joker_limit_per_sequence() -> None:
    one_joker = Rules(jokers_per_sequence=1)
    assert group_kind(cards("5H PJ 7H"), None, one_joker) == "sequence"
    assert group_kind(cards("5H PJ PJ 8H"), None, one_joker) is None
    assert group_kind(cards("5H PJ PJ"), None, one_joker) == "set"  # the limit is for sequences


def test_rule_2_8_two_sequences_one_pure_only_loose_groups_count() -> None:
    result = evaluate(
        [cards("5H 6H 7H"), cards("9S PJ JS"), cards("QS QD QC"), cards("KD 3C")], None
    )
    assert [(g.label, g.points) for g in result.groups] == [
        ("pure sequence", 0),
        ("sequence", 0),
        ("set", 0),
        ("loose", 13),
    ]
    assert (result.category, result.points, result.valid_show) == ("two sequences", 13, False)


def test_rule_2_8_pure_sequence_alone_leaves_sets_counting() -> None:
    result = evaluate([cards("5H 6H 7H"), cards("QS QD QC"), cards("KD 3C 9S 2D 4C 8S 10H")], None)
    assert [(g.label, g.points, g.counts) for g in result.groups] == [
        ("pure sequence", 0, False),
        ("set", 30, True),
        ("loose", 10 + 3 + 9 + 2 + 4 + 8 + 10, False),
    ]
    assert result.category == "pure sequence only"
    # Two pure sequences and nothing else: the two sequences are there, so nothing else counts.
    two = evaluate([cards("5H 6H 7H"), cards("9S 10S JS"), cards("KD")], None)
    assert (two.category, two.points) == ("two sequences", 10)


def test_rule_2_8_no_pure_sequence_every_card_counts_capped() -> None:
    result = evaluate([cards("5H PJ 7H"), cards("QS QD QC"), cards("KD KC 9S 9D 10H JH 8C")], None)
    assert [g.label for g in result.groups] == ["sequence", "set", "loose"]
    assert result.category == "no pure sequence"
    assert result.points == 80  # 5 + 7 + 30 + 10 + 10 + 9 + 9 + 10 + 10 + 8 = 108, capped
    uncapped = evaluate([cards("5H PJ 7H"), cards("KD")], None, Rules(max_points=None))
    assert uncapped.points == 22


def test_a_valid_show_needs_all_thirteen_cards_in_groups() -> None:
    show = [cards("5H 6H 7H"), cards("9S 10S JS"), cards("2C 2D 2S"), cards("4H 4D 4C 4S")]
    assert evaluate(show, 6).valid_show
    assert not evaluate([*show[:3], cards("4H 4D"), cards("4C 4S")], 6).valid_show


def test_a_drawn_card_joins_the_group_it_completes_else_a_group_of_its_own() -> None:
    placed = place([cards("QS QD"), cards("5H 6H")], cards("7H QC 2C"), None)
    assert [[format_card(c) for c in group] for group in placed] == [
        ["QS", "QD", "QC"],
        ["5H", "6H", "7H"],
        ["2C"],
    ]
    # A card that makes a pure sequence of a near one wins over one that would only make a set.
    assert place([cards("8D 8C"), cards("9H 10H")], cards("8H"), None)[1] == cards("9H 10H 8H")


def _random_arranged_hand(rng: random.Random, wild: int | None) -> list[list[int]]:
    """13 cards as groups a player might make: runs, sets, jokers in them, some broken."""
    jokers = [PRINTED_JOKER] + ([] if wild is None else [s * 13 + wild for s in range(4)])
    while True:
        groups: list[list[int]] = []
        while sum(map(len, groups)) < 13:
            if rng.random() < 0.5:
                rank = rng.randrange(13)
                group = [s * 13 + rank for s in rng.sample(range(4), rng.choice([3, 4]))]
            else:
                suit, length = rng.randrange(4), rng.choice([3, 3, 4, 5])
                start = rng.randrange(0, 14 - length + 1)
                group = [suit * 13 + (start + i) % 13 for i in range(length)]
            for _ in range(rng.choice([0, 0, 1, 2])):
                group[rng.randrange(len(group))] = rng.choice(
                    jokers if rng.random() < 0.6 else range(PRINTED_JOKER + 1)
                )
            groups.append(group)
        flat = [card for group in groups for card in group]
        if len(flat) == 13 and max(Counter(flat).values()) <= 2:
            return groups


def test_labels_never_claim_more_than_the_solver_finds() -> None:
    # Any arrangement's count is at least the solver's best, and a valid show as arranged is a
    # valid show for the solver: a group read as valid that is not would break either.
    rng = random.Random(2401)
    shows = 0
    for _ in range(600):
        wild = rng.choice([None, *range(13)])
        rules = rng.choice([Rules(), Rules(max_points=None), Rules(jokers_per_sequence=1)])
        groups = _random_arranged_hand(rng, wild)
        hand = [card for group in groups for card in group]
        mine = evaluate(groups, wild, rules)
        best = arrange(hand, wild, rules)
        assert mine.points >= best.points, (groups, wild)
        if mine.valid_show:
            shows += 1
            assert best.valid_show, (groups, wild)
    assert shows > 30  # the hands tried include real shows


def test_the_solvers_arrangement_is_labelled_with_the_solvers_count() -> None:
    rng = random.Random(2402)
    pack = [card for card in range(PRINTED_JOKER + 1) for _ in range(2)]
    for _ in range(300):
        wild = rng.choice([None, *range(13)])
        rules = rng.choice([Rules(), Rules(max_points=None)])
        hand = rng.sample(pack, 13) if rng.random() < 0.5 else None
        if hand is None:
            hand = [card for group in _random_arranged_hand(rng, wild) for card in group]
        best = best_groups(hand, wild, rules)
        solved = arrange(hand, wild, rules)
        labelled = evaluate(best.partition(), wild, rules)
        assert (labelled.points, labelled.valid_show) == (solved.points, solved.valid_show)
        assert labelled.points == best.points and labelled.category == solved.category
        assert sorted(c for group in best.partition() for c in group) == sorted(hand)


def test_fourteen_cards_the_best_arrangement_puts_down_the_card_that_leaves_a_show() -> None:
    hand = cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD")
    best = best_groups(hand, 6, Rules())
    assert best.put_down == cards("KD")[0] and best.valid_show and best.points == 0
    assert best.partition()[-1] == cards("KD")
    assert is_valid_show([c for group in best.partition()[:-1] for c in group], 6)


def test_same_groups_ignores_order_inside_and_between_groups() -> None:
    assert same_groups([cards("5H 6H 7H"), cards("KD")], [cards("KD"), cards("7H 5H 6H")])
    assert not same_groups([cards("5H 6H 7H KD")], [cards("5H 6H 7H"), cards("KD")])


def test_rule_2_7_a_mis_arranged_valid_hand_is_still_a_valid_show() -> None:
    # The page's groups never reach the engine: the solver checks the show (a player never
    # loses for arranging a valid hand badly).
    rules = Rules(players=2)
    state = show_once_kd_is_down(rules)
    muddled = [cards("5H 6H"), cards("7H 9S 10S"), cards("JS 2C 2D 2S 4H"), cards("4D 4C 4S")]
    assert not evaluate(muddled, 6, rules).valid_show
    after = play(state, (0, "declare KD"))
    assert after.deal.last_deal is not None and after.deal.last_deal.outcome == "valid-show"
    assert ENGINE.view(after, 0).last_deal is not None


def test_rule_2_7_fourteen_cards_grouped_say_which_put_down_leaves_a_show() -> None:
    grouped = [cards("5H 6H 7H"), cards("9S 10S JS KD"), cards("2C 2D 2S"), cards("4H 4D 4C 4S")]
    assert show_put_down(grouped, 6) == cards("KD")[0]  # taken out of the group it sits in
    # Thirteen cards, or fourteen with no show in them as grouped: nothing to put down.
    assert show_put_down([*grouped[:3], cards("4H 4D 4C")], 6) is None
    broken = [cards("5H 6H 8H"), cards("9S 10S JS KD"), cards("2C 2D 2S"), cards("4H 4D 4C 4S")]
    assert show_put_down(broken, 6) is None
