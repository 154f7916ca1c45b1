"""Invariants of Indecision under random legal play with random seeds and rule settings: cards
are conserved, games end within their caps, records replay to the identical state, views leak
no hidden card, and determinization is consistent with the view it starts from."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.driver import play
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indecision import ENGINE, Phase, Rules, State
from cardtable.replay import record_of, replay

from .helpers import card_places, check_invariants, random_policy

RULES = st.builds(
    Rules,
    players=st.integers(2, 4),
    bike_inside_longer_run_counts=st.booleans(),
    strict_stop_turns=st.booleans(),
    win_check=st.sampled_from(["counting-order", "end-of-round"]),
    manual_declaration=st.booleans(),
    target_score=st.integers(10, 121),
    may_discard_taken_card=st.booleans(),
    deck_exhaustion=st.sampled_from(["reshuffle", "score-hand"]),
    hand_turn_cap=st.integers(3, 90),
    hand_cap=st.integers(1, 8),
)
STOP_CHANCE = st.sampled_from([0.0, 0.05, 0.5])
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _games(rules: Rules, seed: int, stop_chance: float) -> Any:
    """Yield every state of one game played by random legal moves (checked apply)."""
    choose = random_policy(stop_chance)
    rng = random.Random(seed)
    state = ENGINE.new_game(rules, seed)
    while True:
        yield state
        seat = ENGINE.current_player(state)
        if seat == TERMINAL:
            return
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            continue
        legal = ENGINE.legal_actions(state, seat)
        assert legal, "a seat on turn always has a legal action"
        action = choose(legal, rng)
        state = ENGINE.apply(state, action, seat)


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), stop_chance=STOP_CHANCE)
def test_random_play_conserves_cards_and_ends_within_its_caps(
    rules: Rules, seed: int, stop_chance: float
) -> None:
    bound = rules.hand_cap * (2 * rules.hand_turn_cap + 4 * rules.players + 10) + 20
    state = None
    for steps, state in enumerate(_games(rules, seed, stop_chance), 1):
        check_invariants(state)
        seat = ENGINE.current_player(state)
        for other in range(rules.players):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == ()
        assert steps <= bound, "the game outlived its caps"
    assert state is not None
    result = ENGINE.result(state)
    assert result is not None
    if result.reason == "cap":
        assert result.winners == () and state.table.hand_number == rules.hand_cap
    else:
        assert result.reason == "target"
        assert all(state.table.totals[w] >= rules.target_score for w in result.winners)


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), stop_chance=STOP_CHANCE)
def test_replaying_the_record_gives_the_identical_state(
    rules: Rules, seed: int, stop_chance: float
) -> None:
    choose = random_policy(stop_chance)

    class PolicyBot:
        name = "policy"
        version = "1"

        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return choose(legal, rng)

    game = play(ENGINE, rules, seed, [PolicyBot()] * rules.players)
    record = record_of("indecision", rules, seed, game.actions)
    assert replay(record) == game.state
    again = play(ENGINE, rules, seed, [PolicyBot()] * rules.players, checked=True)
    assert again.state == game.state and again.actions == game.actions


def _permute_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot see swapped around at random."""
    view = ENGINE.view(state, seat)
    public = set(view.hand) | set(view.pile)
    if view.stop_card is not None:
        public.add(view.stop_card)
    for cards in view.taken_cards().values():
        public |= cards
    for result in view.scoring:
        public |= set(result.cards)
    hidden = [card for card in card_places(state) if card not in public]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))

    def moved(card: int) -> int:
        return swap.get(card, card)

    counting = state.counting
    if counting is not None and counting.stop_card >= 0:
        counting = counting._replace(stop_card=moved(counting.stop_card))
    return state._replace(
        hands=tuple(tuple(moved(c) for c in hand) for hand in state.hands),
        deck=tuple(moved(c) for c in state.deck),
        drawn=moved(state.drawn) if state.drawn >= 0 else -1,
        counting=counting,
    )


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), stop_chance=STOP_CHANCE)
def test_views_leak_no_hidden_card_and_determinize_matches_the_view(
    rules: Rules, seed: int, stop_chance: float
) -> None:
    rng = random.Random(seed)
    checked = 0
    for index, state in enumerate(_games(rules, seed, stop_chance)):
        if (index % 5 and index > 8) or ENGINE.current_player(state) == CHANCE:
            continue
        checked += 1
        for seat in range(rules.players):
            view = ENGINE.view(state, seat)
            json.dumps(view.to_json())
            assert ENGINE.view(_permute_hidden(state, seat, rng), seat) == view
            sampled = ENGINE.determinize(view, rng)
            check_invariants(sampled)
            assert ENGINE.view(sampled, seat) == view
            assert set(ENGINE.legal_actions(sampled, seat)) == set(
                ENGINE.legal_actions(state, seat)
            )
            if state.phase in (Phase.DRAW, Phase.DISCARD, Phase.OPENING):
                assert sampled.hands[seat] == state.hands[seat]
    assert checked > 0


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6))
def test_checked_and_unchecked_apply_agree_on_legal_actions(rules: Rules, seed: int) -> None:
    for index, state in enumerate(_games(rules, seed, 0.1)):
        seat = ENGINE.current_player(state)
        if seat < 0 or index % 3:
            continue
        for action in ENGINE.legal_actions(state, seat):
            assert ENGINE.apply(state, action, seat) == ENGINE.apply_unchecked(state, action, seat)
            assert ENGINE.parse_action(str(action)) == action
        if index > 60:
            break


def test_long_hands_reach_reshuffles_and_deck_exhaustion() -> None:
    """The random-play properties above also cover the rare phases: check they occur."""
    phases: set[Phase] = set()
    endings: set[str] = set()
    for deck_exhaustion in ("reshuffle", "score-hand"):
        rules = Rules(players=4, deck_exhaustion=deck_exhaustion, hand_turn_cap=90, hand_cap=3)
        for state in _games(rules, 3, 0.0):
            phases.add(state.phase)
            if state.table.last_hand is not None:
                endings.add(state.table.last_hand.ending)
    assert Phase.RESHUFFLE in phases
    assert {"deck-exhausted", "turn-cap"} <= endings
