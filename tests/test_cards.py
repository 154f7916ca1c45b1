"""Cards: every accepted spelling, the packs' duplicate rules, and parse/format round trips."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import (
    CANT_DECLARE_0,
    COUNT_1,
    COUNT_12,
    DECLARATION_RUMMY_DECK,
    INDECISION_DECK,
    INDIAN_RUMMY_DECK,
    NO_MELD_0,
    NO_MELD_2,
    PRINTED_JOKER,
    WILDCARD,
    card_name,
    cards_mask,
    check_hand,
    format_card,
    make_card,
    mask_cards,
    parse_card,
    parse_cards,
    parse_rank,
    random_below,
    rank_of,
    shuffle_in_place,
    shuffled,
    suit_of,
)
from cardtable.errors import CardError

TEN_OF_HEARTS = make_card(9, 1)


@pytest.mark.parametrize("spelling", ["10H", "TH", "th", "10♥", "10♡", " 10h "])
def test_every_spelling_of_the_ten_of_hearts_parses_to_one_card(spelling: str) -> None:
    assert parse_card(spelling) == TEN_OF_HEARTS


@pytest.mark.parametrize(
    ("spelling", "card"),
    [
        ("qs", make_card(11, 0)),
        ("AS", make_card(0, 0)),
        ("1s", make_card(0, 0)),
        ("kd", make_card(12, 2)),
        ("2♣", make_card(1, 3)),
        ("PJ", PRINTED_JOKER),
        ("JK", PRINTED_JOKER),
        ("w", WILDCARD),
        ("C1", COUNT_1),
        ("c12", COUNT_12),
        ("NM0", NO_MELD_0),
        ("NM2", NO_MELD_2),
        ("CD0", CANT_DECLARE_0),
    ],
)
def test_players_spellings_and_specials_parse(spelling: str, card: int) -> None:
    assert parse_card(spelling) == card


@pytest.mark.parametrize("bad", ["1X", "11H", "", "H10", "ZZ", "C5", "NM1", "10"])
def test_unknown_card_is_a_clear_error_naming_it(bad: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        parse_card(bad)


def test_one_deck_game_rejects_a_duplicate() -> None:
    with pytest.raises(CardError, match="duplicate card 7H"):
        parse_cards("7H 7H 8C 9D 10S", deck=INDECISION_DECK)


def test_indian_rummy_hand_may_hold_the_same_card_twice_but_not_three_times() -> None:
    assert parse_cards("7H 7H PJ PJ", deck=INDIAN_RUMMY_DECK).count(parse_card("7H")) == 2
    with pytest.raises(CardError, match="too many 7H"):
        parse_cards("7H 7H 7H", deck=INDIAN_RUMMY_DECK)
    with pytest.raises(CardError, match="too many PJ"):
        parse_cards("PJ PJ PJ", deck=INDIAN_RUMMY_DECK)


def test_declaration_rummy_pack_has_three_wildcards_and_one_of_each_other_special() -> None:
    assert parse_cards("W W W C7", deck=DECLARATION_RUMMY_DECK).count(WILDCARD) == 3
    with pytest.raises(CardError, match="too many W"):
        parse_cards("W W W W", deck=DECLARATION_RUMMY_DECK)
    with pytest.raises(CardError, match="not in the Declaration Rummy pack"):
        parse_cards("PJ", deck=DECLARATION_RUMMY_DECK)


def test_packs_have_the_rule_book_sizes() -> None:
    assert INDECISION_DECK.size == 52
    assert INDIAN_RUMMY_DECK.size == 106
    assert DECLARATION_RUMMY_DECK.size == 64


def test_ranks_parse_for_wild_rank_options() -> None:
    assert [parse_rank(r) for r in ("A", "7", "10", "T", "j", "Q", "K")] == [0, 6, 9, 9, 10, 11, 12]
    with pytest.raises(CardError, match="unknown rank"):
        parse_rank("11")


def test_card_names_are_spoken_words() -> None:
    assert card_name(TEN_OF_HEARTS) == "ten of hearts"
    assert card_name(CANT_DECLARE_0) == "CAN'T DECLARE 0"


@given(st.integers(min_value=0, max_value=62))
def test_format_then_parse_round_trips(card: int) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card, symbols=True)) == card


@given(st.integers(min_value=0, max_value=51))
def test_rank_and_suit_rebuild_the_card(card: int) -> None:
    assert make_card(rank_of(card), suit_of(card)) == card


@given(st.sets(st.integers(min_value=0, max_value=62)))
def test_mask_round_trips_a_set_of_cards(cards: set[int]) -> None:
    assert mask_cards(cards_mask(cards)) == tuple(sorted(cards))


@given(st.lists(st.integers(min_value=0, max_value=51), max_size=20, unique=True))
def test_parse_cards_round_trips_a_one_deck_hand(cards: list[int]) -> None:
    text = " ".join(format_card(c) for c in cards)
    assert parse_cards(text) == tuple(cards)
    assert check_hand(cards, INDECISION_DECK) == tuple(cards)


def test_shuffled_gives_every_order_of_four_cards_about_equally_often() -> None:
    rng = random.Random(7)
    counts = Counter(shuffled((1, 2, 3, 4), rng) for _ in range(24_000))
    assert len(counts) == 24
    # 1000 expected each; a fair shuffle stays within 5 standard deviations (about 160).
    assert all(abs(n - 1000) < 160 for n in counts.values()), counts


@given(st.lists(st.integers(min_value=0, max_value=62), max_size=110), st.integers(0, 2**32))
def test_shuffled_keeps_every_card_and_draws_one_number_per_card(
    cards: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    result = shuffled(cards, rng)
    assert sorted(result) == sorted(cards)
    follow = random.Random(seed)
    for _ in cards:
        follow.random()
    assert rng.random() == follow.random()


class _CountingRandom(random.Random):
    """A generator whose draws go through Python methods (no fast path applies to it)."""

    def random(self) -> float:
        return super().random()


@given(st.lists(st.integers(min_value=0, max_value=62), max_size=110), st.integers(0, 2**32))
def test_shuffled_orders_a_plain_generator_s_cards_as_any_other_generator_does(
    cards: list[int], seed: int
) -> None:
    plain, other = random.Random(seed), _CountingRandom(seed)
    assert shuffled(cards, plain) == shuffled(cards, other)
    assert plain.random() == other.random()


@given(st.integers(min_value=1, max_value=300), st.integers(0, 2**32))
def test_random_below_draws_what_randrange_draws(size: int, seed: int) -> None:
    ours, stdlib = random.Random(seed), random.Random(seed)
    assert [random_below(ours, size) for _ in range(30)] == [
        stdlib.randrange(size) for _ in range(30)
    ]
    assert ours.random() == stdlib.random()  # the generators are left in the same state


def test_random_below_refuses_an_empty_range_as_randrange_does() -> None:
    with pytest.raises(ValueError):
        random_below(random.Random(1), 0)


@given(st.lists(st.integers(min_value=0, max_value=62), max_size=300), st.integers(0, 2**32))
def test_shuffle_in_place_puts_cards_where_random_shuffle_does(cards: list[int], seed: int) -> None:
    ours, stdlib = list(cards), list(cards)
    ours_rng, stdlib_rng = random.Random(seed), random.Random(seed)
    shuffle_in_place(ours, ours_rng)
    stdlib_rng.shuffle(stdlib)
    assert ours == stdlib
    assert ours_rng.random() == stdlib_rng.random()


@given(st.permutations(range(52)), st.integers(0, 2**32))
def test_shuffle_in_place_of_52_cards_puts_them_where_random_shuffle_does(
    deck: list[int], seed: int
) -> None:
    # A whole deck, as every Indecision deal shuffles.
    ours, stdlib = list(deck), list(deck)
    ours_rng, stdlib_rng = random.Random(seed), random.Random(seed)
    shuffle_in_place(ours, ours_rng)
    stdlib_rng.shuffle(stdlib)
    assert ours == stdlib
    assert ours_rng.getstate() == stdlib_rng.getstate()


def test_random_helpers_ask_any_other_generator_through_its_methods() -> None:
    class Scripted(random.Random):
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
            return 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle_in_place(cards, Scripted(1))
    assert cards == [3, 2, 1]
    assert random_below(Scripted(1), 40) == 0
