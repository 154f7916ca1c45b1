"""Views (RULES.md 3.4: piles not countable) and determinization."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cardtable.cards import WILDCARD, format_card
from cardtable.games.contract import PublicEvent
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules
from cardtable.games.declaration_rummy.state import Phase, scenario
from cardtable.games.declaration_rummy.view import (
    PILE_LABELS,
    STOCK_LABELS,
    pile_level,
    stock_level,
)

from .helpers import State, assert_conserved, card, cards, new_dealt, play

TWO = Rules(players=2, cards_dealt=3)

VIEW_KEYS = {
    "discarded",
    "known_held",
    "seat",
    "rules",
    "phase",
    "to_act",
    "game_number",
    "order",
    "dealer",
    "first_player",
    "turn",
    "hand",
    "drawn",
    "hand_sizes",
    "dropped",
    "draw_kind",
    "stock",
    "discard_pile",
    "removed_unseen",
    "exhaustion",
    "tie_proposers",
    "vote",
    "events",
    "turn_events_from",
    "preliminary",
    "outcome",
    "match_wins",
    "history",
}


def _state_with_stock(size: int, pile: str = "7S") -> State:
    stock = tuple(c for c in range(52) if c not in cards("AS 2S 9H KH KD 9C 7S 8S 4D"))[:size]
    return scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock=stock, pile=pile)


def test_view_json_has_exactly_the_documented_fields_and_no_pile_counts() -> None:
    data = ENGINE.view(_state_with_stock(20), 0).to_json()
    assert set(data) == VIEW_KEYS
    assert set(data["stock"]) == {"level", "label"}
    assert set(data["discard_pile"]) == {"level", "label", "top", "cards"}


@pytest.mark.parametrize(("a", "b"), [(13, 24), (6, 12), (1, 5), (25, 40)])
def test_stock_sizes_in_the_same_level_give_identical_views(a: int, b: int) -> None:
    for seat in (0, 1):
        view_a = ENGINE.view(_state_with_stock(a), seat)
        view_b = ENGINE.view(_state_with_stock(b), seat)
        assert view_a == view_b


def test_pile_sizes_in_the_same_level_give_identical_views() -> None:
    a = ENGINE.view(_state_with_stock(10, pile="8S 4D 7S"), 0)
    b = ENGINE.view(_state_with_stock(10, pile="4D 8S 7S"), 0)
    assert a == b and a.discard_top == card("7S") and a.pile_label == "a few cards"


def test_stack_levels_are_coarse() -> None:
    assert [stock_level(n) for n in (0, 1, 5, 6, 12, 13, 24, 25, 40, 41, 60)] == [
        0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
    ]  # fmt: skip
    assert [pile_level(n) for n in (0, 1, 2, 5, 6, 12, 13, 24, 25)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5,
    ]  # fmt: skip
    assert len(STOCK_LABELS) == len(PILE_LABELS) == 6


def test_other_hands_show_only_their_size() -> None:
    state = scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock="5C 6C", pile="7S")
    view = ENGINE.view(state, 0)
    assert view.hand == cards("AS 2S 9H") and view.hand_sizes == (3, 3)
    text = str(view.to_json())
    for label in ("KH", "KD", "9C", "5C", "6C"):
        assert f"'{label}'" not in text


def test_drawn_card_is_shown_only_to_its_drawer() -> None:
    state = play(
        scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock="5C 6C", pile="7S"), (1, "draw stock")
    )
    assert ENGINE.view(state, 1).drawn == (card("6C"),)
    other = ENGINE.view(state, 0)
    assert other.drawn == () and "'6C'" not in str(other.to_json())
    assert other.events[-1] == PublicEvent(1, "draw-stock", ())


def test_squared_pile_shows_only_its_top_card() -> None:
    state = scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock="5C 6C", pile="4D 8S 7S")
    view = ENGINE.view(state, 0)
    assert view.discard_top == card("7S") and view.discard_pile is None
    assert "'4D'" not in str(view.to_json()) and "'8S'" not in str(view.to_json())


def test_events_cover_only_the_previous_and_current_turn() -> None:
    state = scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock="5C 6C 4C 3C", pile="7S")
    state = play(
        state,
        (1, "draw stock"),
        (1, "discard KH"),
        (0, "draw stock"),
        (0, "discard 9H"),
        (1, "take discard"),
    )
    view = ENGINE.view(state, 0)
    assert [(e.seat, e.verb) for e in view.events] == [
        (0, "draw-stock"),
        (0, "discard"),
        (1, "take-discard"),
    ]
    assert view.turn_events_from == 2


def test_end_of_game_reveals_every_non_dropped_hand_with_counts() -> None:
    state = scenario(
        Rules(players=3, cards_dealt=3),
        ["AS 2S 9H", "KH KD 9C", "4H 4S 4C"],
        stock="5C 6C",
        pile="7S",
    )
    state = play(state, (2, "drop"), (1, "draw stock"), (1, "declare"))
    view = ENGINE.view(state, 0)
    outcome = view.outcome
    assert outcome is not None
    assert outcome.hands[0] == cards("AS 2S 9H") and outcome.hands[2] is None
    assert outcome.counts == (12, 41, None)
    assert outcome.declarer == 1 and outcome.winner == 0
    data = view.to_json()["outcome"]
    assert data["hands"][2] is None and data["melds"][2] is None
    assert "'4H'" not in str(view.to_json())


def test_view_of_a_seat_that_is_not_at_the_table_is_refused() -> None:
    state = new_dealt(TWO, 1)
    with pytest.raises(ValueError, match="no seat 5"):
        ENGINE.view(state, 5)


# --- determinization -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=4),
        Rules(players=3, optional_cards=ALL_OPTIONAL, spread_out_discard=True),
        Rules(
            players=2,
            missing_cards=True,
            optional_cards=ALL_OPTIONAL,
            missing_optional=5,
            missing_regular=7,
        ),
    ],
)
def test_determinized_state_gives_the_same_view_and_conserves_cards(rules: Rules) -> None:
    rng = random.Random(3)
    state = new_dealt(rules, 5)
    for _ in range(25):
        seat = ENGINE.current_player(state)
        for viewer in range(rules.players):
            view = ENGINE.view(state, viewer)
            guess = ENGINE.determinize(view, rng)
            assert ENGINE.view(guess, viewer) == view
            assert_conserved(guess)
            assert list(ENGINE.legal_actions(guess, viewer)) == list(
                ENGINE.legal_actions(state, viewer)
            )
        enders = ("drop", "declare", "propose tie", "go out")
        legal = [a for a in ENGINE.legal_actions(state, seat) if str(a) not in enders]
        state = ENGINE.apply(state, legal[rng.randrange(len(legal))], seat)
        if state.phase is not Phase.DRAW and state.phase is not Phase.PLAY:
            break


def test_determinize_keeps_cards_seen_going_into_a_hand() -> None:
    used = cards("AS 2S 9H KH KD 9C 4D 7S")
    rest = tuple(c for c in range(52) if c not in used)
    state = scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock=rest, pile="4D 7S")
    state = play(state, (1, "take discard"))
    guess = ENGINE.determinize(ENGINE.view(state, 0), random.Random(1))
    assert card("7S") in guess.hands[1]
    assert guess.hands[0] == state.hands[0]


def test_determinize_varies_the_hidden_cards() -> None:
    state = new_dealt(Rules(players=3), 9)
    view = ENGINE.view(state, 0)
    guesses = {ENGINE.determinize(view, random.Random(s)).hands[1] for s in range(10)}
    assert len(guesses) > 1


def test_determinize_of_a_finished_game_keeps_the_revealed_hands() -> None:
    used = cards("AS 2S 9H KH KD 9C 4H 4S 4C 7S")
    rest = tuple(c for c in range(52) if c not in used)
    state = scenario(
        Rules(players=3, cards_dealt=3),
        ["AS 2S 9H", "KH KD 9C", "4H 4S 4C"],
        stock=rest,
        pile="7S",
    )
    state = play(state, (1, "draw stock"), (1, "declare"))
    view = ENGINE.view(state, 0)
    guess = ENGINE.determinize(view, random.Random(4))
    assert guess.hands == state.hands
    assert ENGINE.view(guess, 0) == view
    assert_conserved(guess)


def _random_states(rules: Rules, seed: int, moves: int) -> list[State]:
    """The states of a seeded game played at random (never dropping or ending it early)."""
    rng = random.Random(seed)
    state = new_dealt(rules, seed)
    states = [state]
    for _ in range(moves):
        if ENGINE.result(state) is not None or ENGINE.current_player(state) < 0:
            break
        seat = ENGINE.current_player(state)
        legal = [
            a
            for a in ENGINE.legal_actions(state, seat)
            if str(a).split(" ")[0] not in ("drop", "declare", "go", "four", "propose")
        ]
        if not legal:
            break
        state = ENGINE.apply(state, rng.choice(legal), seat)
        while ENGINE.current_player(state) == -1:  # the chance steps of a reshuffle
            state = ENGINE.chance_step(state, rng)
        states.append(state)
    return states


def test_squared_pile_a_view_lists_only_its_own_seats_discards() -> None:
    # RULES.md 3.4: the pile is kept squared, nobody looks through earlier discards: the
    # view's JSON carries no seat's discards but the viewer's own.
    rules = Rules(players=4)
    states = _random_states(rules, seed=7, moves=60)
    checked = 0
    for state in states:
        for seat in range(rules.players):
            view = ENGINE.view(state, seat)
            listed = view.to_json()["discarded"]
            assert len(listed) == rules.players
            assert listed[seat] == [format_card(c) for c in view.discarded_by(seat)]
            for other in range(rules.players):
                if other != seat:
                    assert listed[other] == [], (seat, other, listed[other])
                    checked += bool(view.discarded_by(other))
    assert checked > 20  # other seats had discarded (and the view object still knows it)


def test_squared_pile_covered_discards_of_others_never_reach_a_view() -> None:
    # A card another seat discarded that is now covered on the pile (not its top, not in the
    # recent events, not taken back up) appears nowhere in a seat's view JSON.
    rules = Rules(players=3)
    seen_covered = 0
    for state in _random_states(rules, seed=11, moves=90):
        pile = state.pile
        recent = {c for event in state.events for c in event.cards}
        for seat in range(rules.players):
            view = ENGINE.view(state, seat)
            text = json.dumps(view.to_json())
            own = set(view.discarded_by(seat)) | set(view.hand)
            held = {c for s in range(rules.players) for c in view.held_by(s)}
            dealt_up = {c for cards in state.preliminary for c in cards}
            for other in range(rules.players):
                if other == seat:
                    continue
                covered = set(view.discarded_by(other)) & set(pile[:-1]) - set(
                    pile[-1:]
                ) - recent - own - held - dealt_up - {WILDCARD}
                for card_id in covered:
                    seen_covered += 1
                    assert f'"{format_card(card_id)}"' not in text, (seat, other, card_id)
    assert seen_covered > 10


def test_views_of_one_state_are_the_same_whichever_state_was_viewed_before() -> None:
    """Every seat's view of a state is built from the seat-independent part worked out once
    per state: a view made right after another seat's view of the same state equals the one
    made right after a view of another state, and holds this seat's own cards only."""
    rng = random.Random(5)
    rules = Rules(players=6, spread_out_discard=True)
    states = [new_dealt(rules, seed=3)]
    while len(states) < 60 and ENGINE.current_player(states[-1]) >= 0:
        state = states[-1]
        seat = ENGINE.current_player(state)
        lasting = [
            action
            for action in ENGINE.legal_actions(state, seat)
            if str(action).split(" ")[0] not in ("drop", "declare", "go", "four", "propose")
        ]
        states.append(play(state, (seat, str(rng.choice(lasting)))))
    for before, state in itertools.pairwise(states):
        for seat in range(rules.players):
            ENGINE.view(before, seat)
            fresh = ENGINE.view(state, seat)  # the state's first view since another's
            ENGINE.view(state, (seat + 1) % rules.players)
            again = ENGINE.view(state, seat)  # after another seat's view of the same state
            assert fresh == again
            assert fresh.seat == seat
            own = () if state.dropped[seat] else state.hands[seat]
            assert fresh.hand == own
            assert fresh.hand_sizes == tuple(len(hand) for hand in state.hands)
