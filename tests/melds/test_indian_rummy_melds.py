"""Indian Rummy hand counting: the test vectors of RULES.md 4.2, the house rules that touch
counting, input checks, and the exact search against an independent brute force
(tests/reference/brute_indian.py) on thousands of seeded hands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import INDIAN_RUMMY_DECK, PRINTED_JOKER, format_cards, parse_cards
from cardtable.errors import CardError, HandSizeError, RulesError
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.scoring import (
    Arrangement,
    arrange,
    card_points,
    parse_wild_rank,
    show_discards,
)
from cardtable.melds import indian

# tests/ is the import root (its test packages have no package above them).
from reference.brute_indian import (
    brute_points,
    brute_show_discards,
    brute_valid,
    group_is_legal,
)

PACK = INDIAN_RUMMY_DECK.cards()
CATEGORY_LETTER = {"two sequences": "A", "pure sequence only": "B", "no pure sequence": "C"}


def hand(text: str) -> tuple[int, ...]:
    return parse_cards(text, deck=INDIAN_RUMMY_DECK)


def wild(text: str) -> int | None:
    return parse_wild_rank(text)


def check_arrangement(
    cards: Sequence[int], result: Arrangement | indian.Solution, wild_rank: int | None
) -> None:
    """The groups are legal, disjoint, and with the loose cards make up exactly the hand."""
    laid = [c for group in result.groups for c in group.cards]
    assert Counter(laid) + Counter(result.loose) == Counter(cards)
    for group in result.groups:
        assert group_is_legal(group.kind, group.cards, group.represented, wild_rank), group
        if group.kind != "set":
            pure = all(c == r for c, r in zip(group.cards, group.represented, strict=True))
            assert (group.kind == "pure sequence") == pure, group
    assert result.raw_points == sum(indian.card_value(c, wild_rank) for c in result.loose)
    kinds = [group.kind for group in result.groups]
    if result.category == "two sequences":
        assert "pure sequence" in kinds
        assert sum(kind != "set" for kind in kinds) >= 2
    elif result.category == "pure sequence only":
        assert kinds == ["pure sequence"]
    else:
        assert kinds == []
    if result.valid_show:
        assert not result.loose and result.raw_points == 0


# ---------------------------------------------------------------------------------------------
# Test vectors IR1-IR9 (RULES.md 4.2).


def test_ir1_long_pure_sequence_splits_in_two_seed_example_counts_23() -> None:
    cards = hand("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C")
    result = arrange(cards, wild("2D"))
    assert (result.category, result.points) == ("two sequences", 23)
    assert format_cards(result.loose) == "KS 9D 4C"
    assert [g.kind for g in result.groups] == ["pure sequence", "pure sequence", "set"]
    check_arrangement(cards, result, wild("2D"))


def test_ir1_prime_six_card_pure_sequence_splits_three_and_three_beside_a_set_of_four() -> None:
    cards = hand("3H 4H 5H 6H 7H 8H QS QD QC QH KS 9D 4C")
    result = arrange(cards, wild("2"))
    assert (result.category, result.points) == ("two sequences", 23)
    assert sorted(len(g.cards) for g in result.groups) == [3, 3, 4]
    check_arrangement(cards, result, wild("2"))


def test_ir2_no_pure_sequence_counts_all_13_cards_96_capped_at_80() -> None:
    cards = hand("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S")
    result = arrange(cards, wild("2D"))
    assert (result.category, result.raw_points, result.points) == ("no pure sequence", 96, 80)
    assert len(result.loose) == 13
    assert arrange(cards, wild("2D"), Rules(max_points=None)).points == 96


def test_ir3_pure_sequence_without_a_second_sequence_sets_do_not_help_76() -> None:
    cards = hand("5H 6H 7H QS QD QC 2S 9D 4C KD 3C 8S 10H")
    result = arrange(cards, wild("J"))
    assert (result.category, result.points) == ("pure sequence only", 76)
    assert [g.describe() for g in result.groups] == ["Pure sequence 5H 6H 7H"]
    assert Counter(hand("QS QD QC")) <= Counter(result.loose)  # the queens still count
    check_arrangement(cards, result, wild("J"))


def test_ir4_printed_joker_completes_an_impure_sequence_in_a_valid_show() -> None:
    cards = hand("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH")
    result = arrange(cards, wild("4"))
    assert result.valid_show and result.points == 0
    assert indian.is_valid_show(cards, wild("4"))
    described = [g.describe() for g in result.groups]
    assert "Sequence 5S 6S PJ(7S) 8S" in described
    check_arrangement(cards, result, wild("4"))


def test_ir5_valid_show_whether_the_wild_7h_stands_as_itself_or_as_a_joker() -> None:
    # RULES.md IR5: 9S 10S JS is pure, so the hand is valid either way 5H 6H 7H is read.
    cards = hand("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S")
    result = arrange(cards, wild("7"))
    assert result.valid_show and result.points == 0
    assert "Pure sequence 9S 10S JS" in [g.describe() for g in result.groups]
    check_arrangement(cards, result, wild("7"))


def test_ir5_suggested_hand_is_valid_but_4h_5h_6h_is_pure_without_the_wild_7h() -> None:
    # RULES.md IR5 suggests 5H 6H 7H 9S 10S PJ 2C 2D 2S 4H 4D 4C 4S to test the wild-rank card
    # as itself alone; it is valid, but 4H 5H 6H is a pure sequence with no seven at all, so
    # it is valid with a 7D in place of the 7H too and does not isolate the rule.
    for seven in ("7H", "7D"):
        cards = hand(f"5H 6H {seven} 9S 10S PJ 2C 2D 2S 4H 4D 4C 4S")
        result = arrange(cards, wild("7"))
        assert result.valid_show and result.points == 0, seven
        check_arrangement(cards, result, wild("7"))


def test_ir5_wild_rank_card_as_itself_makes_the_only_pure_sequence() -> None:
    # The rule alone: 9S 10S PJ is impure and no other pure line exists, so 5H 6H 7H with the
    # wild 7H standing as itself is the only pure sequence, and the show is valid.
    cards = hand("5H 6H 7H 9S 10S PJ 2C 2D 2S KD KC KH KS")
    result = arrange(cards, wild("7"))
    assert result.valid_show and result.points == 0
    assert "Pure sequence 5H 6H 7H" in [g.describe() for g in result.groups]
    check_arrangement(cards, result, wild("7"))
    # A wild 7 of another suit can only stand in: the same hand is then a wrong show.
    assert not arrange(hand("5H 6H 7D 9S 10S PJ 2C 2D 2S KD KC KH KS"), wild("7")).valid_show


def test_ir6_two_impure_sequences_are_a_wrong_show_and_count_48_for_a_non_declarer() -> None:
    cards = hand("5H 6H PJ 9S 7C JS 2C 2D 2S 4D 4C 4S 7D")
    assert not indian.is_valid_show(cards, wild("7"))
    result = arrange(cards, wild("7"))
    assert not result.valid_show
    assert (result.category, result.points) == ("no pure sequence", 48)


def test_ir7_printed_joker_cut_makes_aces_wild_and_a_natural_ace_keeps_a_2_3_pure() -> None:
    cards = hand("AH 2H 3H 5S 6S PJ 9D 9C 9S KD KC KH QS")
    result = arrange(cards, wild("PJ"))
    assert (result.category, result.points) == ("two sequences", 10)
    assert format_cards(result.loose) == "QS"
    assert "Pure sequence AH 2H 3H" in [g.describe() for g in result.groups]
    check_arrangement(cards, result, wild("PJ"))


def test_ir7_without_the_natural_wild_ace_the_same_hand_has_no_pure_sequence_80() -> None:
    # A printed joker is the ace that cannot stand as itself: A-2-3 hearts turns impure,
    # nothing else is pure, and all 13 cards count (83, capped at 80).
    cards = hand("PJ 2H 3H 5S 6S PJ 9D 9C 9S KD KC KH QS")
    result = arrange(cards, wild("PJ"))
    assert (result.category, result.raw_points, result.points) == ("no pure sequence", 83, 80)


def test_ir8_two_identical_cards_never_make_a_set_35() -> None:
    cards = hand("9D 9D 9C 2H 3H 4H 5S 6S 7S KC KD KH 8C")
    result = arrange(cards, wild("Q"))
    assert (result.category, result.points) == ("two sequences", 35)
    assert format_cards(result.loose) == "9D 9D 8C 9C"


def test_ir9_king_ace_two_is_not_a_sequence_30() -> None:
    cards = hand("KH AH 2H 5S 6S 7S 9D 9C 9S QC QD QH 8C")
    result = arrange(cards, wild("4"))
    assert (result.category, result.points) == ("two sequences", 30)
    for group in result.groups:
        assert not {hand("KH")[0], hand("2H")[0]} <= set(group.represented)
    # RULES.md IR9's loose cards: QH KH AH laid pure leaves 2H QC QD 8C (2 + 10 + 10 + 8);
    # the queens laid as a set instead leave KH AH 2H 8C, also 30.
    loose = Counter(result.loose)
    assert loose in (Counter(hand("2H QC QD 8C")), Counter(hand("KH AH 2H 8C")))
    check_arrangement(cards, result, wild("4"))


def test_king_ace_two_never_counts_as_the_second_sequence() -> None:
    # Were K-A-2 a sequence, only 8C (8) would count; it is not, so all but 5S 6S 7S count.
    cards = hand("KH AH 2H 5S 6S 7S 9D 9C 9S JC JD JS 8C")
    result = arrange(cards, wild("4"))
    assert (result.category, result.raw_points, result.points) == ("pure sequence only", 87, 80)


# ---------------------------------------------------------------------------------------------
# Further rules of 2.4-2.8.


def test_queen_king_ace_is_a_sequence_with_the_ace_high() -> None:
    cards = hand("QS KS AS 2H 3H 4H 9D 9C 9S 5C 6C 7C 8C")
    result = arrange(cards, None)
    assert result.valid_show
    assert "Pure sequence QS KS AS" in [g.describe() for g in result.groups]


def test_joker_may_stand_for_the_high_ace_but_never_wrap_to_two() -> None:
    # KH PJ PJ is J-Q-K or Q-K-A of hearts, never K-A-2.
    cards = hand("KH PJ PJ 2C 3C 4C 9D 9C 9S 5S 6S 7S 8S")
    result = arrange(cards, None)
    assert result.valid_show
    check_arrangement(cards, result, None)


def test_set_takes_at_most_four_cards_including_jokers() -> None:
    # Three queens and two printed jokers: one joker fills the fourth suit, the other is
    # left over, and a lone joker makes no group: not a show.
    cards = hand("QS QD QC PJ PJ 2H 3H 4H 5C 6C 7C 8C 9C")
    result = arrange(cards, None)
    assert result.valid_show  # the spare joker grows the club sequence instead
    for group in result.groups:
        if group.kind == "set":
            assert len(group.cards) <= 4


def test_identical_wild_rank_cards_one_as_itself_one_as_joker_make_a_set() -> None:
    # 7s wild: 7S 7S 7H is a valid set (one 7S stands in for a missing suit) ...
    cards = hand("7S 7S 7H 2H 3H 4H 9D 10D JD JC QC KC AC")
    result = arrange(cards, wild("7"))
    assert result.valid_show
    check_arrangement(cards, result, wild("7"))
    # ... while two identical cards that are not jokers never share a set.
    assert not arrange(hand("9S 9S 9H 2H 3H 4H 9D 10D JD JC QC KC AC"), wild("7")).valid_show


def test_all_joker_group_is_not_allowed_by_default_but_jokers_may_join_other_groups() -> None:
    # Two printed jokers alone cannot form a group; they grow the impure sequence.
    cards = hand("AS 2S 3S 5H PJ 7H 9D 9C 9S KD KC KH PJ")
    result = arrange(cards, None)
    assert result.valid_show
    check_arrangement(cards, result, None)


def test_jokers_left_loose_count_nothing() -> None:
    assert card_points(PRINTED_JOKER, None) == 0
    assert card_points(hand("7D")[0], wild("7")) == 0
    assert card_points(hand("AD")[0], None) == 10
    assert card_points(hand("QD")[0], None) == 10
    assert card_points(hand("9D")[0], None) == 9


def test_category_a_minimises_the_loose_value_over_every_arrangement() -> None:
    # 8H could go to the run 6H 7H 8H or the set of eights; the run plus 8S 8D 8C is best.
    cards = hand("6H 7H 8H 8S 8D 8C AS 2S 3S KD QC 4D 2C")
    result = arrange(cards, None)
    assert result.points == 10 + 10 + 4 + 2
    check_arrangement(cards, result, None)


# ---------------------------------------------------------------------------------------------
# House rules (RULES.md 2.11) that touch counting.


def test_one_joker_per_sequence_house_rule_breaks_a_two_joker_sequence() -> None:
    cards = hand("AH 2H 3H 5S PJ PJ 8S 9D 9C 9S KD KC KH")
    assert arrange(cards, None).valid_show
    limited = Rules(jokers_per_sequence=1)
    result = arrange(cards, None, limited)
    assert not result.valid_show
    # Best left: 8S 9S PJ and 9D 9C PJ: only 5S is loose.
    assert result.points == 5
    assert not indian.is_valid_show(cards, None, jokers_per_sequence=1)
    for group in result.groups:
        assert group_is_legal(group.kind, group.cards, group.represented, None, limit=1)


def test_no_jokers_in_sequences_house_rule_value_zero() -> None:
    cards = hand("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH")
    assert not arrange(cards, wild("4"), Rules(jokers_per_sequence=0)).valid_show


def test_no_cap_house_rule_keeps_the_raw_count() -> None:
    cards = hand("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S")
    assert arrange(cards, wild("2"), Rules(max_points=None)).points == 96
    assert arrange(cards, wild("2"), Rules(max_points=50)).points == 50


def test_a_pack_without_printed_jokers_rejects_a_printed_joker() -> None:
    cards = hand("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH")
    with pytest.raises(CardError, match="without printed jokers"):
        arrange(cards, wild("4"), Rules(printed_jokers=0))


def test_no_wild_joker_cut_rejects_a_wild_rank() -> None:
    cards = hand("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH")
    with pytest.raises(RulesError):
        arrange(cards, wild("4"), Rules(wild_joker_cut=False))
    assert arrange(cards, None, Rules(wild_joker_cut=False)).valid_show


def test_all_joker_groups_house_rule_changes_nothing_while_a_wild_card_can_be_itself() -> None:
    # Three jokers need a wild-rank card (there are only two printed jokers), and that card
    # can always stand as itself: the house rule never changes a count in this pack.
    rng = random.Random(4242)
    for _ in range(150):
        wild_rank = rng.randrange(13)
        cards = joker_rich_hand(rng, 13, wild_rank)
        plain = indian.solve(cards, wild_rank)
        allowed = indian.solve(cards, wild_rank, all_joker_groups=True)
        assert (plain.raw_points, plain.valid_show) == (allowed.raw_points, allowed.valid_show)


# ---------------------------------------------------------------------------------------------
# Show discards (14 cards).


def test_show_discards_finds_the_one_stray_card() -> None:
    cards = hand("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD")
    assert format_cards(show_discards(cards, wild("7"))) == "KD"


def test_show_discards_lists_every_distinct_card_that_works() -> None:
    # A four-card set or a four-card sequence end can be put down as well as the stray card.
    cards = hand("5H 6H 7H 8H 9S 10S JS 2C 2D 2S 2H 4D KD QS")
    found = show_discards(cards, None)
    for card in found:
        rest = list(cards)
        rest.remove(card)
        assert indian.is_valid_show(rest, None)
    assert found == brute_show_discards(cards, None)


def test_show_discards_may_put_down_a_joker() -> None:
    cards = hand("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S PJ")
    assert PRINTED_JOKER in show_discards(cards, None)


def test_show_discards_with_no_show_is_empty() -> None:
    cards = hand("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S 2H")
    assert show_discards(cards, None) == ()


# ---------------------------------------------------------------------------------------------
# Input checks and text.


def test_arrange_needs_13_cards_and_names_the_count() -> None:
    with pytest.raises(HandSizeError, match="not 12"):
        arrange(hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"), None)


def test_show_discards_needs_14_cards_and_names_the_count() -> None:
    with pytest.raises(HandSizeError, match="not 13"):
        show_discards(hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), None)


def test_cards_must_come_from_the_indian_rummy_pack() -> None:
    cards = list(hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"))
    with pytest.raises(CardError, match="not in the Indian Rummy pack"):
        arrange([*cards, 53], None)  # a Declaration Rummy WILDCARD
    with pytest.raises(CardError, match="the Indian Rummy pack has 2"):
        arrange([*cards[:10], 0, 0, 0], None)  # three aces of spades
    with pytest.raises(CardError):
        arrange([*cards, "KS"], None)  # type: ignore[list-item]


def test_wild_rank_must_be_a_rank_index_or_none() -> None:
    cards = hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    with pytest.raises(CardError, match="wild rank"):
        arrange(cards, 13)
    with pytest.raises(CardError, match="wild rank"):
        arrange(cards, "7")  # type: ignore[arg-type]


def test_arrange_accepts_any_iterable_of_card_ints() -> None:
    cards = hand("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C")
    assert arrange(iter(cards), wild("2")).points == arrange(list(cards), wild("2")).points == 23


@pytest.mark.parametrize(
    ("text", "rank"),
    [("7", 6), ("Q", 11), ("10", 9), ("T", 9), ("a", 0), ("2D", 1), ("PJ", 0), ("none", None)],
)
def test_parse_wild_rank_reads_ranks_cut_cards_printed_joker_and_none(
    text: str, rank: int | None
) -> None:
    assert parse_wild_rank(text) == rank


def test_parse_wild_rank_rejects_nonsense_naming_it() -> None:
    with pytest.raises(CardError, match="'Z'"):
        parse_wild_rank("Z")


def test_explain_reads_like_the_seed_example() -> None:
    result = arrange(hand("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C"), wild("2"))
    assert result.explain() == (
        "Pure sequence 3H 4H 5H 6H; Pure sequence 7H 8H 9H; Set QS QD QC; "
        "loose KS 9D 4C = 10 + 9 + 4 = 23 points"
    )


def test_explain_of_a_valid_show_and_of_category_b() -> None:
    show = arrange(hand("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH"), wild("4"))
    assert show.explain().startswith("Valid show: Pure sequence AH 2H 3H; Sequence 5S 6S PJ(7S)")
    assert show.explain().endswith("= 0 points")
    only_pure = arrange(hand("5H 6H 7H QS QD QC 2S 9D 4C KD 3C 8S 10H"), wild("J"))
    assert "no second sequence" in only_pure.explain()
    assert only_pure.explain().endswith("= 76 points")


def test_to_json_has_the_documented_fields() -> None:
    data = arrange(hand("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S"), wild("2")).to_json()
    assert {"points", "valid_show", "groups", "loose", "category", "raw_points"} <= set(data)
    assert (data["points"], data["raw_points"], data["valid_show"]) == (80, 96, False)
    assert data["category"] == "no pure sequence"
    assert len(data["loose"]) == 13 and data["groups"] == []


# ---------------------------------------------------------------------------------------------
# The exact search against the brute force on seeded hands.


def meld_rich_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    """Runs and sets (possibly overlapping, so two-deck duplicates appear) plus a few strays."""
    while True:
        cards: list[int] = []
        while len(cards) < size:
            roll = rng.random()
            if roll < 0.45:
                suit, length = rng.randrange(4), rng.randint(3, 6)
                start = rng.randrange(14 - length)
                cards += [suit * 13 + (start + k) % 13 for k in range(length)]
            elif roll < 0.8:
                rank = rng.randrange(13)
                cards += [s * 13 + rank for s in rng.sample(range(4), rng.choice((3, 4)))]
            else:
                cards.append(PRINTED_JOKER if rng.random() < 0.4 else rng.randrange(52))
        cards = cards[:size]
        if max(Counter(cards).values()) <= 2:
            rng.shuffle(cards)
            return tuple(cards)


def joker_rich_hand(rng: random.Random, size: int, wild_rank: int) -> tuple[int, ...]:
    """Two to five wild-rank cards, up to two printed jokers, the rest meld-rich."""
    while True:
        wilds = [s * 13 + wild_rank for s in range(4) for _ in range(2)]
        rng.shuffle(wilds)
        cards = wilds[: rng.randint(2, 5)] + [PRINTED_JOKER] * rng.randint(0, 2)
        cards = (cards + list(meld_rich_hand(rng, size)))[:size]
        if max(Counter(cards).values()) <= 2:
            return tuple(cards)


def random_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    return tuple(rng.sample(PACK, size))


def assert_counts_like_brute_force(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_jokers: bool = False,
) -> None:
    category, raw, _ = brute_points(cards, wild_rank, limit, all_jokers, cap=None)
    solution = indian.solve(
        cards, wild_rank, jokers_per_sequence=limit, all_joker_groups=all_jokers
    )
    context = (format_cards(cards), wild_rank, limit, all_jokers)
    assert (CATEGORY_LETTER[solution.category], solution.raw_points) == (category, raw), context
    assert solution.valid_show == brute_valid(cards, wild_rank, limit, all_jokers), context
    assert (
        indian.raw_points(cards, wild_rank, jokers_per_sequence=limit, all_joker_groups=all_jokers)
        == raw
    )
    laid = [c for group in solution.groups for c in group.cards]
    assert Counter(laid) + Counter(solution.loose) == Counter(cards), context
    for group in solution.groups:
        assert group_is_legal(
            group.kind, group.cards, group.represented, wild_rank, limit, all_jokers
        ), (context, group)


def assert_discards_like_brute_force(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_jokers: bool = False,
) -> None:
    found = indian.show_discards(
        cards, wild_rank, jokers_per_sequence=limit, all_joker_groups=all_jokers
    )
    expected = brute_show_discards(cards, wild_rank, limit, all_jokers)
    assert found == expected, (format_cards(cards), wild_rank, limit, all_jokers)


WILD_RANKS = [None, *range(13)]


@pytest.mark.slow
def test_13_card_counts_equal_brute_force_on_random_hands_of_every_wild_rank() -> None:
    rng = random.Random(2101)
    for index in range(560):
        assert_counts_like_brute_force(random_hand(rng, 13), WILD_RANKS[index % 14])


@pytest.mark.slow
def test_13_card_counts_equal_brute_force_on_meld_rich_hands_of_every_wild_rank() -> None:
    rng = random.Random(2102)
    for index in range(700):
        assert_counts_like_brute_force(meld_rich_hand(rng, 13), WILD_RANKS[index % 14])


@pytest.mark.slow
def test_13_card_counts_equal_brute_force_on_joker_rich_hands_under_house_rules() -> None:
    rng = random.Random(2103)
    for index in range(160):
        wild_rank = index % 13
        limit = (None, None, 0, 1, 2, 3)[index % 6]
        assert_counts_like_brute_force(
            joker_rich_hand(rng, 13, wild_rank), wild_rank, limit, index % 5 == 0
        )


@pytest.mark.slow
def test_14_card_show_discards_equal_brute_force_on_random_and_meld_rich_hands() -> None:
    rng = random.Random(2104)
    for index in range(500):
        cards = random_hand(rng, 14) if index % 4 == 0 else meld_rich_hand(rng, 14)
        assert_discards_like_brute_force(cards, WILD_RANKS[index % 14])


@pytest.mark.slow
def test_14_card_show_discards_equal_brute_force_on_joker_rich_hands_under_house_rules() -> None:
    rng = random.Random(2105)
    for index in range(100):
        wild_rank = index % 13
        limit = (None, None, 0, 1, 2, 3)[index % 6]
        assert_discards_like_brute_force(
            joker_rich_hand(rng, 14, wild_rank), wild_rank, limit, index % 5 == 0
        )


# ---------------------------------------------------------------------------------------------
# Properties.

thirteen = st.lists(
    st.integers(min_value=0, max_value=len(PACK) - 1), min_size=13, max_size=13, unique=True
).map(lambda picks: tuple(PACK[i] for i in picks))
fourteen = st.lists(
    st.integers(min_value=0, max_value=len(PACK) - 1), min_size=14, max_size=14, unique=True
).map(lambda picks: tuple(PACK[i] for i in picks))
wild_ranks = st.one_of(st.none(), st.integers(min_value=0, max_value=12))


@settings(max_examples=300, deadline=None)
@given(thirteen, wild_ranks)
def test_points_are_between_zero_and_the_cap_and_a_valid_show_counts_zero(
    cards: tuple[int, ...], wild_rank: int | None
) -> None:
    result = arrange(cards, wild_rank)
    assert 0 <= result.points <= 80
    assert result.points <= result.raw_points or result.raw_points <= 80
    if result.valid_show:
        assert result.points == 0
    assert result.valid_show == indian.is_valid_show(cards, wild_rank)
    check_arrangement(cards, result, wild_rank)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(range(20)), min_size=13, max_size=13).map(
        lambda picks: tuple(PACK[i % 8 * 13 // 8 + i // 8] for i in picks)
    ),
    wild_ranks,
)
def test_crowded_hands_arrange_into_disjoint_legal_groups(
    cards: tuple[int, ...], wild_rank: int | None
) -> None:
    if max(Counter(cards).values()) > 2:
        return
    result = arrange(cards, wild_rank)
    check_arrangement(cards, result, wild_rank)


@settings(max_examples=120, deadline=None)
@given(fourteen, wild_ranks)
def test_every_show_discard_leaves_a_valid_show_and_no_other_card_does(
    cards: tuple[int, ...], wild_rank: int | None
) -> None:
    found = set(show_discards(cards, wild_rank))
    for card in set(cards):
        rest = list(cards)
        rest.remove(card)
        assert indian.is_valid_show(rest, wild_rank) == (card in found)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(("random", "meld-rich", "joker-rich")),
    st.sampled_from((None, None, 0, 1, 2, 3)),
    st.booleans(),
)
def test_show_discards_equal_brute_force_on_generated_hands(
    seed: int, kind: str, limit: int | None, all_jokers: bool
) -> None:
    rng = random.Random(seed)
    wild_rank = rng.choice(WILD_RANKS)
    if kind == "random":
        cards = random_hand(rng, 14)
    elif kind == "meld-rich" or wild_rank is None:
        cards = meld_rich_hand(rng, 14)
    else:
        cards = joker_rich_hand(rng, 14, wild_rank)
    assert_discards_like_brute_force(cards, wild_rank, limit, all_jokers)
