"""Setup of a Declaration Rummy game (RULES.md 3.2-3.4): players, deal size, the Preliminary,
shuffle, cut and deal, and the first turn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import is_regular
from cardtable.errors import RulesError
from cardtable.games.contract import CHANCE
from cardtable.games.declaration_rummy.dealing import (
    deal_hands,
    preliminary_deal,
    preliminary_key,
)
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, DEAL_SIZES, Rules
from cardtable.games.declaration_rummy.state import Phase, pack_cards, seat_left_of
from cardtable.registry import get_engine

from .helpers import advance, assert_conserved, card, cards, legal_texts, new_dealt


def test_registry_finds_the_declaration_rummy_engine() -> None:
    assert get_engine("declaration-rummy") is ENGINE
    assert get_engine("dr").title == "Declaration Rummy"


@pytest.mark.parametrize("players", range(2, 11))
def test_default_deal_is_the_most_cards_the_table_allows(players: int) -> None:
    state = new_dealt(Rules(players=players), seed=players)
    expected = DEAL_SIZES[players][1]
    assert all(len(hand) == expected for hand in state.hands)
    assert_conserved(state)


@pytest.mark.parametrize(
    ("players", "bad"), [(2, 11), (3, 1), (4, 8), (5, 6), (6, 6), (7, 4), (8, 3), (10, 3)]
)
def test_deal_size_outside_the_table_is_rejected(players: int, bad: int) -> None:
    with pytest.raises(RulesError, match=f"with {players} players each is dealt"):
        Rules(players=players, cards_dealt=bad)


@pytest.mark.parametrize("players", [1, 11, 0])
def test_player_count_outside_two_to_ten_is_rejected(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10 players"):
        Rules(players=players)


def test_setup_rejects_a_deal_size_forced_past_validation() -> None:
    rules = Rules(players=4)
    object.__setattr__(rules, "cards_dealt", 9)
    with pytest.raises(RulesError, match="with 4 players each is dealt 2 to 7 cards, not 9"):
        ENGINE.new_game(rules, seed=1)


def test_setup_rejects_rules_of_another_game() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class OtherRules:
        players: int = 2

    with pytest.raises(RulesError, match="needs its own Rules, not OtherRules"):
        ENGINE.new_game(OtherRules(), seed=1)  # type: ignore[arg-type]


def test_chosen_deal_size_is_dealt() -> None:
    state = new_dealt(Rules(players=5, cards_dealt=3), seed=4)
    assert [len(h) for h in state.hands] == [3] * 5


# --- Preliminary (3.3) ---------------------------------------------------------------------------


def test_preliminary_kings_spades_beats_hearts_dr14() -> None:
    # Top of the pack is last: seat 1 (left of the shuffler) gets KH, then seat 0 gets KS.
    dealt, dealer = preliminary_deal((0, 1), (False, False), cards("KS KH"))
    assert dealt[1] == (card("KH"),) and dealt[0] == (card("KS"),)
    assert dealer == 0


def test_preliminary_suit_order_is_spades_clubs_diamonds_hearts() -> None:
    ranked = sorted(cards("7H 7D 7C 7S"), key=preliminary_key)
    assert ranked == list(cards("7H 7D 7C 7S"))
    assert preliminary_key(card("KH")) > preliminary_key(card("QS"))
    assert preliminary_key(card("AS")) < preliminary_key(card("2H"))


def test_preliminary_passes_over_optional_cards() -> None:
    # Seat 1 is dealt W then C7 then 2C; seat 2 gets 5D; the shuffler (seat 0) gets NM0, 3H.
    pack = cards("3H NM0 5D 2C C7 W")
    dealt, dealer = preliminary_deal((0, 1, 2), (False,) * 3, pack)
    assert dealt[1] == cards("W C7 2C")
    assert dealt[2] == cards("5D")
    assert dealt[0] == cards("NM0 3H")
    assert dealer == 2


def test_preliminary_deals_from_the_shuffler_s_left_clockwise() -> None:
    dealt, _ = preliminary_deal((0, 1, 2, 3), (False,) * 4, cards("4S 3S 2S AS"))
    assert [dealt[s] for s in (1, 2, 3, 0)] == [cards(t) for t in ("AS", "2S", "3S", "4S")]


def test_preliminary_of_a_real_game_makes_the_highest_regular_card_dealer() -> None:
    for seed in range(20):
        state = advance(ENGINE.new_game(Rules(players=6, optional_cards=ALL_OPTIONAL), seed))
        finals = {seat: got[-1] for seat, got in enumerate(state.preliminary)}
        for got in state.preliminary:
            assert is_regular(got[-1]) and not any(is_regular(c) for c in got[:-1])
        assert state.dealer == max(finals, key=lambda s: preliminary_key(finals[s]))


def test_preliminary_cards_are_public_events() -> None:
    state = advance(ENGINE.new_game(Rules(players=3), 5))
    view = ENGINE.view(state, 0)
    assert view.preliminary == state.preliminary


# --- shuffle, cut, deal, first turn (3.4) --------------------------------------------------------


def test_deal_is_one_card_at_a_time_clockwise_from_the_dealer_s_left() -> None:
    pack = tuple(range(20, 0, -1))  # top card is 1, then 2, ...
    hands, stock = deal_hands((0, 1, 2, 3), 1, (False,) * 4, 3, pack)
    assert hands[2] == (1, 5, 9) and hands[3] == (2, 6, 10)
    assert hands[0] == (3, 7, 11) and hands[1] == (4, 8, 12)
    assert stock == tuple(range(20, 12, -1))


def _deal_card_by_card(
    order: tuple[int, ...], dealer: int, dropped: tuple[bool, ...], size: int, pack: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """RULES.md 3.4 literally: one card at a time from the top, clockwise from the dealer's left."""
    cards = list(pack)
    hands: list[list[int]] = [[] for _ in order]
    position = order.index(dealer)
    for _ in range(size):
        for step in range(1, len(order) + 1):
            seat = order[(position + step) % len(order)]
            if not dropped[seat]:
                hands[seat].append(cards.pop())
    return tuple(tuple(sorted(hand)) for hand in hands), tuple(cards)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), players=st.integers(2, 10))
def test_deal_matches_dealing_card_by_card(data: st.DataObject, players: int) -> None:
    order = tuple(data.draw(st.permutations(range(players))))
    dealer = data.draw(st.integers(0, players - 1))
    dropped = tuple(data.draw(st.lists(st.booleans(), min_size=players, max_size=players)))
    size = data.draw(st.integers(0, 52 // players))
    extra = data.draw(st.integers(0, 52 - size * players))
    pack = tuple(data.draw(st.permutations(range(52)))[: size * players + extra])
    assert deal_hands(order, dealer, dropped, size, pack) == _deal_card_by_card(
        order, dealer, dropped, size, pack
    )
    everybody = (False,) * players
    assert deal_hands(order, dealer, everybody, size, pack) == _deal_card_by_card(
        order, dealer, everybody, size, pack
    )


def test_cut_is_a_chance_step_only_when_offered() -> None:
    def chance_phases(rules: Rules) -> list[Phase]:
        state = ENGINE.new_game(rules, 3)
        seen = []
        while ENGINE.current_player(state) == CHANCE:
            seen.append(state.phase)
            state = ENGINE.chance_step(state)
        return seen

    assert chance_phases(Rules(players=3)) == [Phase.PRELIMINARY, Phase.SHUFFLE, Phase.CUT]
    assert chance_phases(Rules(players=3, offer_cut=False)) == [Phase.PRELIMINARY, Phase.SHUFFLE]


def test_cut_is_made_by_the_player_to_the_dealer_s_right() -> None:
    state = ENGINE.new_game(Rules(players=4), 8)
    while state.phase is not Phase.CUT:
        state = ENGINE.chance_step(state)
    dealer = state.dealer
    state = ENGINE.chance_step(state)
    cut_events = [e for e in state.events if e.verb == "cut"]
    assert cut_events[-1].seat == (dealer - 1) % 4


def test_first_turn_is_the_dealer_s_left_and_must_draw_from_the_stock() -> None:
    state = new_dealt(Rules(players=4), seed=12)
    assert state.first_player == seat_left_of(state, state.dealer)
    assert state.turn == state.first_player
    assert state.pile == ()
    assert legal_texts(state) == ["draw stock", "propose tie", "drop"]


def test_discard_pile_starts_with_the_first_discard() -> None:
    state = new_dealt(Rules(players=2), seed=2)
    first = state.turn
    state = ENGINE.apply(state, ENGINE.parse_action("draw stock"), first)
    chosen = state.hands[first][0]
    state = ENGINE.apply(state, ENGINE.parse_action(f"discard {_label(chosen)}"), first)
    assert state.pile == (chosen,)


def _label(card_id: int) -> str:
    from cardtable.cards import format_card

    return format_card(card_id)


def test_same_seed_same_game_different_seed_different_deal() -> None:
    a = new_dealt(Rules(players=4), seed=99)
    b = new_dealt(Rules(players=4), seed=99)
    c = new_dealt(Rules(players=4), seed=100)
    assert a == b
    assert a.hands != c.hands


def test_pack_holds_the_52_regular_cards_and_the_chosen_optional_cards() -> None:
    assert len(pack_cards(Rules())) == 52
    assert len(pack_cards(Rules(optional_cards=ALL_OPTIONAL))) == 64
    assert pack_cards(Rules(optional_cards=("W", "W", "NM2")))[52:] == cards("W W NM2")


def test_every_seed_conserves_the_pack_after_the_deal() -> None:
    rng = random.Random(0)
    for _ in range(30):
        players = rng.randint(2, 10)
        low, high = DEAL_SIZES[players]
        rules = Rules(
            players=players,
            cards_dealt=rng.randint(low, high),
            optional_cards=tuple(rng.sample(ALL_OPTIONAL, rng.randint(0, 12))),
        )
        assert_conserved(new_dealt(rules, rng.randrange(10**6)))
