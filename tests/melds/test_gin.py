"""The gin rummy preset: exact deadwood, the best discard, the arrangement and its checks.

The exact search is compared with an independent brute force (tests/reference/brute_gin.py)
on thousands of seeded hands: random ones, meld-rich ones, and every small size.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import format_card, parse_cards
from cardtable.errors import CardError, HandSizeError
from cardtable.melds import gin_deadwood as exported_gin_deadwood
from cardtable.melds.gin import (
    GinArrangement,
    gin_arrangement,
    gin_best_discard,
    gin_card_value,
    gin_deadwood,
)

# tests/ is the import root (its test packages have no package above them).
from reference.brute_gin import brute_best_discard, brute_deadwood, is_meld


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def meld_rich_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    """Two or three disjoint melds (runs of 3-5, sets of 3-4) filled up with random cards."""
    while True:
        hand: set[int] = set()
        for _ in range(rng.choice((2, 3))):
            if rng.random() < 0.5:
                suit, length = rng.randrange(4), rng.choice((3, 4, 5))
                start = rng.randrange(14 - length)
                meld = {suit * 13 + start + k for k in range(length)}
            else:
                rank = rng.randrange(13)
                meld = {s * 13 + rank for s in rng.sample(range(4), rng.choice((3, 4)))}
            if not meld & hand:
                hand |= meld
        if len(hand) <= size:
            rest = [c for c in range(52) if c not in hand]
            hand |= set(rng.sample(rest, size - len(hand)))
            hand_list = list(hand)
            rng.shuffle(hand_list)
            return tuple(hand_list)


def test_issue_example_reaches_gin_by_discarding_3h_where_greedy_melding_fails() -> None:
    hand = cards("AS 2S JS AC 2C 2D JD AH 2H 3H JH")
    # Laying the run AH 2H 3H first (as a greedy search would) strands AS AC: 2 deadwood.
    assert gin_deadwood(hand) == 2
    assert gin_best_discard(hand) == (0, parse_cards("3H")[0])
    arrangement = gin_arrangement(hand)
    assert arrangement.best_discard == parse_cards("3H")[0]
    assert arrangement.deadwood_after_best_discard == 0


def test_aces_are_low_only_so_queen_king_ace_is_not_a_run() -> None:
    assert gin_deadwood(cards("QS KS AS")) == 21
    assert gin_deadwood(cards("AS 2S 3S")) == 0


def test_king_ace_two_does_not_wrap_around() -> None:
    assert gin_deadwood(cards("KH AH 2H")) == 13


def test_face_cards_count_ten_and_the_ace_one() -> None:
    assert [gin_card_value(c) for c in cards("AS 2H 9D 10C JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]
    assert gin_deadwood(cards("AS JH QD KC")) == 31


def test_a_set_of_four_may_give_a_card_to_a_run() -> None:
    # 7S joins 5S 6S (run of three); 7H 7D 7C still make a set: nothing is left over.
    assert gin_deadwood(cards("5S 6S 7S 7H 7D 7C")) == 0


def test_a_card_used_twice_is_not_counted_twice() -> None:
    # 8S could be in the run or in the set of eights, not both: KD QH plus one of the two.
    hand = cards("6S 7S 8S 8H 8D KD QH")
    assert gin_deadwood(hand) == 20 + min(8 + 8, 6 + 7)


def test_long_run_split_is_never_needed_but_a_seven_card_run_counts_zero() -> None:
    assert gin_deadwood(cards("AS 2S 3S 4S 5S 6S 7S")) == 0


def test_empty_and_tiny_hands() -> None:
    assert gin_deadwood(()) == 0
    assert gin_deadwood(cards("KS")) == 10
    assert gin_best_discard(cards("KS")) == (0, parse_cards("KS")[0])


def test_best_discard_prefers_the_higher_card_then_the_lower_id_on_ties() -> None:
    # Discarding any of KS QH JD leaves 20 deadwood... of the same value: the lowest id wins.
    deadwood, card = gin_best_discard(cards("2C 3C 4C 5C 9S 9H 9D KS QH JD 10C"))
    assert (deadwood, format_card(card)) == (30, "KS")


def test_whole_deck_is_all_melds() -> None:
    assert gin_deadwood(range(52)) == 0
    # Every discard leaves gin: the highest-valued card with the lowest id, the 10 of spades.
    assert gin_best_discard(range(52)) == (0, parse_cards("10S")[0])
    _check_arrangement(tuple(range(52)))


def test_hands_with_many_four_card_ranks_equal_brute_force() -> None:
    # Many ranks held in all four suits: the sets can be laid in thousands of ways.
    rng = random.Random(1706)
    for _ in range(30):
        ranks = rng.sample(range(13), rng.randint(4, 6))
        hand = [s * 13 + r for r in ranks for s in range(4)]
        hand += rng.sample([c for c in range(52) if c not in hand], rng.randint(0, 4))
        assert gin_deadwood(hand) == brute_deadwood(tuple(hand)), hand
        deadwood, card = gin_best_discard(hand)
        assert deadwood == brute_best_discard(tuple(hand)), hand
        rest = list(hand)
        rest.remove(card)
        assert gin_deadwood(rest) == deadwood
        _check_arrangement(tuple(hand))


def test_melds_package_exports_the_same_function() -> None:
    assert exported_gin_deadwood is gin_deadwood


@pytest.mark.parametrize(
    "bad",
    [(0, 0), (0, 52), (-1, 3), (1, "AS"), (1, None)],
    ids=["duplicate", "printed joker", "negative", "text", "none"],
)
def test_foreign_or_repeated_cards_are_rejected_with_card_error(bad: tuple[object, ...]) -> None:
    with pytest.raises(CardError):
        gin_deadwood(bad)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        gin_arrangement(bad)  # type: ignore[arg-type]


def test_duplicate_error_names_the_card() -> None:
    with pytest.raises(CardError, match="duplicate card 7H"):
        gin_deadwood([19, 2, 19])


def test_best_discard_of_an_empty_hand_is_a_hand_size_error() -> None:
    with pytest.raises(HandSizeError):
        gin_best_discard(())


def test_accepts_any_iterable_of_card_ints() -> None:
    hand = cards("AS 2S 3S 9D")
    assert gin_deadwood(iter(hand)) == gin_deadwood(list(hand)) == 9


def test_arrangement_explains_melds_and_deadwood() -> None:
    arrangement = gin_arrangement(cards("AS 2S 3S 7H 7D 7C KD QH"))
    assert isinstance(arrangement, GinArrangement)
    assert arrangement.explain() == (
        "Run AS 2S 3S; Set of 7s 7H 7D 7C; deadwood QH KD = 10 + 10 = 20"
    )
    data = arrangement.to_json()
    assert data == {
        "deadwood": 20,
        "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
        "deadwood_cards": ["QH", "KD"],
    }


def test_arrangement_of_eleven_cards_reports_the_best_discard() -> None:
    arrangement = gin_arrangement(cards("2C 3C 4C 5C 9S 9H 9D KS QH JD 10C"))
    data = arrangement.to_json()
    assert data["best_discard"] == "KS"
    assert data["deadwood_after_best_discard"] == 30
    assert data["deadwood"] == 40
    assert arrangement.explain().endswith("best discard KS leaves 30")


def test_gin_hand_explains_no_deadwood() -> None:
    assert gin_arrangement(cards("AS 2S 3S")).explain() == "Run AS 2S 3S; no deadwood (gin)"


def _check_arrangement(hand: tuple[int, ...]) -> None:
    arrangement = gin_arrangement(hand)
    laid = [c for meld in arrangement.melds for c in meld]
    assert sorted(laid + list(arrangement.deadwood_cards)) == sorted(hand)
    assert all(is_meld(meld) for meld in arrangement.melds), arrangement
    assert arrangement.deadwood == sum(gin_card_value(c) for c in arrangement.deadwood_cards)
    assert arrangement.deadwood == gin_deadwood(hand)


def test_deadwood_equals_brute_force_on_random_hands_of_10_and_11() -> None:
    rng = random.Random(1701)
    for _ in range(1500):
        hand = tuple(rng.sample(range(52), rng.choice((10, 11))))
        assert gin_deadwood(hand) == brute_deadwood(hand), hand


def test_deadwood_equals_brute_force_on_meld_rich_hands_of_10_and_11() -> None:
    rng = random.Random(1702)
    for _ in range(1500):
        hand = meld_rich_hand(rng, rng.choice((10, 11)))
        assert gin_deadwood(hand) == brute_deadwood(hand), hand


def test_deadwood_equals_brute_force_on_every_small_size() -> None:
    rng = random.Random(1703)
    for size in range(10):
        for _ in range(120):
            if size >= 6 and rng.random() < 0.5:
                hand = meld_rich_hand(rng, size)
            else:
                hand = tuple(rng.sample(range(52), size))
            assert gin_deadwood(hand) == brute_deadwood(hand), hand


@pytest.mark.slow
def test_best_discard_equals_trying_every_discard_on_eleven_card_hands() -> None:
    rng = random.Random(1704)
    for index in range(1200):
        hand = meld_rich_hand(rng, 11) if index % 2 else tuple(rng.sample(range(52), 11))
        deadwood, card = gin_best_discard(hand)
        assert deadwood == brute_best_discard(hand), hand
        assert card in hand
        rest = list(hand)
        rest.remove(card)
        assert gin_deadwood(rest) == deadwood


def test_arrangements_are_legal_and_cover_the_hand() -> None:
    rng = random.Random(1705)
    for index in range(600):
        size = rng.choice((3, 7, 10, 11))
        hand = (
            meld_rich_hand(rng, size)
            if index % 2 and size >= 6
            else tuple(rng.sample(range(52), size))
        )
        _check_arrangement(hand)


hands = st.integers(min_value=0, max_value=15).flatmap(
    lambda size: st.lists(
        st.integers(min_value=0, max_value=51), min_size=size, max_size=size, unique=True
    )
)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_deadwood_is_between_zero_and_the_total_value(hand: list[int]) -> None:
    deadwood = gin_deadwood(hand)
    assert 0 <= deadwood <= sum(gin_card_value(c) for c in hand)


@settings(max_examples=150, deadline=None)
@given(hands.filter(bool))
def test_the_best_discard_never_leaves_more_than_discarding_a_deadwood_card(
    hand: list[int],
) -> None:
    after, card = gin_best_discard(hand)
    arrangement = gin_arrangement(hand)
    for loose in arrangement.deadwood_cards:
        assert after <= arrangement.deadwood - gin_card_value(loose)
    assert card in hand


@settings(max_examples=100, deadline=None)
@given(hands)
def test_order_of_the_cards_does_not_matter(hand: list[int]) -> None:
    assert gin_deadwood(hand) == gin_deadwood(list(reversed(hand))) == gin_deadwood(sorted(hand))
