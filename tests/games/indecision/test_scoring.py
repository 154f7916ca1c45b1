"""The Indecision hand scorer: the test vectors of RULES.md 4.1, the explanation format, input
checks, and agreement with an independent brute-force reference on thousands of hands."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest

from cardtable.cards import parse_cards
from cardtable.errors import CardError, HandSizeError
from cardtable.games.indecision import MeldValues, Rules, score_hand
from cardtable.melds.indecision import IndecisionScorer, count_hand

from .brute_force import reference_count

DEFAULT = Rules()
ALT = Rules(bike_inside_longer_run_counts=True)


def named(text: str, rules: Rules = DEFAULT) -> Counter[tuple[str, frozenset[int], int]]:
    """The counted melds of a hand as a multiset of (name, cards, points)."""
    return Counter((m.name, frozenset(m.cards), m.points) for m in score_hand(text, rules).melds)


def meld(name: str, cards: str, points: int) -> tuple[str, frozenset[int], int]:
    return (name, frozenset(parse_cards(cards)), points)


# -- the seed's four examples (E1-E4) and their structural twins -------------------------------


def test_e1_prile_with_bike_and_two_runs_scores_23() -> None:
    hand = score_hand("5H 6H 7H 7C 7S")
    assert (hand.score, hand.all_cards_used) == (23, True)
    assert named("5H 6H 7H 7C 7S") == Counter(
        [
            meld("Prile of 3", "7H 7C 7S", 12),
            meld("Run on a Bike of 3", "5H 6H 7H", 5),
            meld("Run of 3", "5H 6H 7C", 3),
            meld("Run of 3", "5H 6H 7S", 3),
        ]
    )


def test_e1_prime_prile_at_the_bottom_of_the_run_scores_23() -> None:
    hand = score_hand("7H 7C 7S 8H 9H")
    assert (hand.score, hand.all_cards_used) == (23, True)
    assert sorted(m.name for m in hand.melds) == [
        "Prile of 3",
        "Run of 3",
        "Run of 3",
        "Run on a Bike of 3",
    ]


def test_e2_double_run_of_four_with_pair_and_flush_scores_17() -> None:
    assert (score_hand("10C JD QC KC KH").score, score_hand("10C JD QC KC KH").all_cards_used) == (
        17,
        True,
    )
    assert named("10C JD QC KC KH") == Counter(
        [
            meld("Run of 4", "10C JD QC KC", 6),
            meld("Run of 4", "10C JD QC KH", 6),
            meld("Pair", "KC KH", 2),
            meld("Flush of 3", "10C QC KC", 3),
        ]
    )


def test_e2_prime_run_wraps_from_king_to_ace_scores_17() -> None:
    hand = score_hand("JC QD KC KS AC")
    assert (hand.score, hand.all_cards_used) == (17, True)
    assert Counter(m.name for m in hand.melds) == Counter(
        {"Run of 4": 2, "Pair": 1, "Flush of 3": 1}
    )


def test_e3_bike_plus_non_adjacent_suit_card_scores_bike_and_flush_of_four() -> None:
    hand = score_hand("5C 6C 7C 7D 10C")
    assert (hand.score, hand.all_cards_used) == (14, True)
    assert named("5C 6C 7C 7D 10C") == Counter(
        [
            meld("Run of 3", "5C 6C 7D", 3),
            meld("Run on a Bike of 3", "5C 6C 7C", 5),
            meld("Pair", "7C 7D", 2),
            meld("Flush of 4", "5C 6C 7C 10C", 4),
        ]
    )


def test_e4_double_double_run_counts_four_runs_and_two_pairs() -> None:
    hand = score_hand("5S 5H 6D 6C 7S")
    assert (hand.score, hand.all_cards_used) == (16, True)
    assert Counter(m.name for m in hand.melds) == Counter({"Run of 3": 4, "Pair": 2})


# -- derived vectors D1-D13 (D14 is a manual-declaration vector: see test_engine_rules) --------

DERIVED = [
    ("D1", "QS KH AD 4C 8S", 3, False, 3),
    ("D2", "KS AH 2D 6C 9S", 3, False, 3),
    ("D3", "5H 6H 7H 10H 2C", 9, False, 9),
    ("D4", "5H 6H 7H 10H 2H", 10, True, 10),
    ("D5", "5H 6H 7H 8C 2D", 6, False, 11),
    ("D6", "5H 6H 7H 8H 2C", 10, False, 10),
    ("D7", "7S 7H 7D 7C 9S", 24, True, 24),
    ("D8", "3D 3C 9H 9S 9D", 14, True, 14),
    ("D9", "5H 6H 7H 8C 9H", 13, True, 18),
    ("D10", "5H 6H 7H 8H 8C", 18, True, 18),
    ("D11", "2S 2H 5D 9C KS", 2, False, 2),
    ("D12", "AS 2S 3S QH KD", 9, True, 14),
    ("D13", "5H 6H 7H 7C 8C", 14, True, 19),
]


@pytest.mark.parametrize(
    ("vector", "cards", "score", "all_used", "alternative"), DERIVED, ids=[d[0] for d in DERIVED]
)
def test_derived_vectors_score_as_the_rule_book_says(
    vector: str, cards: str, score: int, all_used: bool, alternative: int
) -> None:
    hand = score_hand(cards)
    assert (hand.score, hand.all_cards_used) == (score, all_used)
    assert score_hand(cards, ALT).score == alternative


def test_runs_wrap_from_queen_king_ace_and_king_ace_two() -> None:
    assert named("QS KH AD 4C 8S") == Counter([meld("Run of 3", "QS KH AD", 3)])
    assert named("KS AH 2D 6C 9S") == Counter([meld("Run of 3", "KS AH 2D", 3)])


def test_flush_not_counted_when_suit_cards_are_exactly_a_bike() -> None:
    assert named("5H 6H 7H 8H 2C") == Counter([meld("Run on a Bike of 4", "5H 6H 7H 8H", 10)])


def test_shorter_sequences_inside_a_longer_interval_are_not_counted() -> None:
    names = [m.name for m in score_hand("5H 6H 7H 8C 2D").melds]
    assert names == ["Run of 4"]


def test_bike_inside_longer_run_counts_when_option_is_set() -> None:
    assert named("5H 6H 7H 8C 2D", ALT) == Counter(
        [meld("Run of 4", "5H 6H 7H 8C", 6), meld("Run on a Bike of 3", "5H 6H 7H", 5)]
    )


def test_prile_of_four_counts_no_priles_or_pairs_inside_and_exempts_the_fifth_card() -> None:
    hand = score_hand("7S 7H 7D 7C 9S")
    assert [m.name for m in hand.melds] == ["Prile of 4"]
    assert hand.all_cards_used
    assert hand.unused_cards == parse_cards("9S")


def test_meld_values_come_from_the_rules_table() -> None:
    values = MeldValues(prile_4=36, run_5=12, bike_4=8, bike_5=20, flush_5=7)
    rules = Rules(meld_values=values)
    assert score_hand("7S 7H 7D 7C 9S", rules).score == 36
    assert score_hand("5H 6H 7H 8C 9S", rules).score == 12
    assert score_hand("5H 6H 7H 8H 2C", rules).score == 8
    assert score_hand("5H 6H 7H 8H 9H", rules).score == 20
    assert score_hand("5H 6H 7H 10H 2H", rules).score == 5 + 7


# -- explanation, JSON, input checks ------------------------------------------------------------


def test_explain_groups_repeated_melds_and_states_all_cards_used() -> None:
    assert score_hand("5H 6H 7H 7C 7S").explain() == (
        "Prile of 3 7S 7H 7C = 12; Run on a Bike of 3 5H 6H 7H = 5; Run of 3 x2 = 6; "
        "total 23, all cards used"
    )
    assert score_hand("2S 2H 5D 9C KS").explain() == (
        "Pair 2S 2H = 2; total 2, not all cards used (5D 9C KS unused)"
    )
    assert "Prile of 4: 9S may stay unused" in score_hand("7S 7H 7D 7C 9S").explain()
    assert score_hand("2S 4H 6D 8C 10S").explain().startswith("no melds; total 0")


def test_to_json_has_score_all_cards_used_and_melds() -> None:
    data = score_hand("10C JD QC KC KH").to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["score"] == 17 and data["all_cards_used"] is True
    assert {"name": "Pair", "cards": ["KH", "KC"], "points": 2} in data["melds"]
    assert sum(m["points"] for m in data["melds"]) == 17


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("7S 7H 7D 7C", HandSizeError, "exactly 5 cards, not 4"),
        ("7S 7H 7D 7C 9S 9H", HandSizeError, "exactly 5 cards, not 6"),
        ("7S 7S 7D 7C 9S", CardError, "duplicate card 7S"),
        ("7S 7H 7D 7C ZZ", CardError, "unknown card 'ZZ'"),
    ],
)
def test_hand_must_be_five_distinct_cards_of_one_deck(
    cards: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        score_hand(cards)


def test_card_ints_are_checked_too() -> None:
    with pytest.raises(CardError, match="duplicate card AS"):
        score_hand([0, 0, 1, 2, 3])
    with pytest.raises(CardError, match="52 is not a card"):
        score_hand([0, 1, 2, 3, 52])


# -- agreement with the brute-force reference ----------------------------------------------------

ODD_VALUES = MeldValues(
    pair=2,
    prile_3=13,
    prile_4=29,
    run_3=3,
    run_4=7,
    run_5=11,
    bike_3=17,
    bike_4=19,
    bike_5=23,
    flush_3=31,
    flush_4=37,
    flush_5=41,
)
"""Values that are all different, so a meld counted under the wrong name changes the score."""


def _random_hands(count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), 5)) for _ in range(count)]


def _meld_rich_hands(count: int, seed: int) -> list[tuple[int, ...]]:
    """Hands drawn from a few adjacent ranks, so pairs, runs and bikes are common."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        low = rng.randrange(13)
        width = rng.choice((3, 4, 5, 6))
        pool = [suit * 13 + (low + i) % 13 for i in range(width) for suit in range(4)]
        hands.append(tuple(rng.sample(pool, 5)))
    return hands


def _structured_families() -> list[tuple[int, ...]]:
    """Every hand of three families: the 20 cards J Q K A 2 (wrap-around, all multiplicities),
    the 13 hearts (bikes and flushes), and two suits of ranks 3-9 (bikes inside runs)."""
    wrap = [suit * 13 + rank for rank in (10, 11, 12, 0, 1) for suit in range(4)]
    hearts = [13 + rank for rank in range(13)]
    two_suits = [suit * 13 + rank for rank in range(2, 9) for suit in (1, 3)]
    return [hand for pool in (wrap, hearts, two_suits) for hand in combinations(pool, 5)]


def _assert_agrees(hands: list[tuple[int, ...]], values: MeldValues, alt: bool) -> None:
    scorer = IndecisionScorer(values, bike_inside_longer_run_counts=alt)
    for hand in hands:
        score, used, melds = reference_count(hand, values, alt)
        assert scorer.value(hand) == (score, used), hand
        counted = scorer.count(hand)
        assert (counted.score, counted.all_cards_used) == (score, used), hand
        assert counted.score == sum(m.points for m in counted.melds), hand
        covered = {c for m in counted.melds for c in m.cards}
        prile_4 = any(m.name == "Prile of 4" for m in counted.melds)
        assert counted.all_cards_used == (prile_4 or len(covered) == 5), hand
        assert Counter((m.name, frozenset(m.cards), m.points) for m in counted.melds) == Counter(
            melds
        ), hand


@pytest.mark.parametrize("alt", [False, True], ids=["default", "bike-inside-longer-run"])
def test_scorer_agrees_with_brute_force_on_seeded_random_hands(alt: bool) -> None:
    _assert_agrees(_random_hands(3000, 11) + _meld_rich_hands(3000, 12), ODD_VALUES, alt)


@pytest.mark.parametrize("alt", [False, True], ids=["default", "bike-inside-longer-run"])
def test_scorer_agrees_with_brute_force_on_every_hand_of_structured_families(alt: bool) -> None:
    _assert_agrees(_structured_families(), ODD_VALUES, alt)


def test_scorer_agrees_with_brute_force_under_default_values() -> None:
    values = MeldValues()
    _assert_agrees(_meld_rich_hands(2000, 13), values, False)
    for hand in _random_hands(500, 14):
        assert count_hand(hand).score == reference_count(hand, values)[0]


def test_declaration_limit_bounds_every_score() -> None:
    for alt in (False, True):
        scorer = IndecisionScorer(ODD_VALUES, bike_inside_longer_run_counts=alt)
        limit = scorer.max_score()
        assert max(scorer.value(h)[0] for h in _structured_families()) <= limit


# -- the shared-meld count against the meld-by-meld one ------------------------------------------


@pytest.mark.parametrize("values", [MeldValues(), ODD_VALUES], ids=["default", "odd"])
def test_count_lists_exactly_what_the_meld_by_meld_count_lists(values: MeldValues) -> None:
    # count() reuses meld objects keyed by card bits; listed_count() builds every meld from the
    # hand. Same score, same all-used, same melds in the same order, for every hand tried, and
    # a second pass (now served from the remembered melds) agrees as well.
    scorer = IndecisionScorer(values)
    hands = _random_hands(3000, 21) + _meld_rich_hands(3000, 22) + _structured_families()
    for _ in range(2):
        for hand in hands:
            assert scorer.count(hand) == scorer.listed_count(hand), hand


def test_count_takes_any_iterable_and_keeps_the_cards_in_their_order() -> None:
    hand = [45, 4, 17, 30, 5]  # 7C 5S 5H 5D 6S
    counted = IndecisionScorer().count(iter(hand))
    assert counted.cards == tuple(hand)
    assert [m.name for m in counted.melds] == ["Prile of 3", "Run of 3", "Run of 3", "Run of 3"]


@pytest.mark.parametrize(
    "cards, message",
    [
        ([True, 1, 2, 3, 4], "True is not a card"),
        ([0.0, 1, 2, 3, 4], "0.0 is not a card"),
        ([-1, 1, 2, 3, 4], "-1 is not a card"),
        ([10**30, 1, 2, 3, 4], "is not a card"),
        ([7, 7, 2, 3, 4], "duplicate card 8S"),
    ],
)
def test_count_refuses_what_is_not_five_distinct_cards(cards: list[object], message: str) -> None:
    with pytest.raises(CardError, match=message):
        IndecisionScorer().count(cards)  # type: ignore[arg-type]
