"""Invariants of random legal play under random settings (hypothesis): cards are conserved,
views leak nothing, records replay to the identical state, every game ends within its cap, and
determinized states agree with the view they came from."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cards import WILDCARD, parse_card
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.declaration_rummy.actions import DROP
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.hands import hand_can_go_out, hand_count
from cardtable.games.declaration_rummy.rules import (
    ALL_OPTIONAL,
    DEAL_SIZES,
    OPTIONAL_LABELS,
    Rules,
)
from cardtable.games.declaration_rummy.state import Phase, pack_cards
from cardtable.melds.declaration import dr_can_go_out, dr_count
from cardtable.replay import record_of, replay

from .helpers import State, WeightedRandomBot, assert_conserved

CARD_VERBS = {
    "preliminary",
    "first-dealer",
    "take-discard",
    "take-extra",
    "discard",
    "declare",
    "go-out",
    "four-sevens",
}
"""The only events that show cards: face-up cards everyone saw."""


@st.composite
def any_rules(draw: Any) -> Rules:
    players = draw(st.integers(2, 10))
    low, high = DEAL_SIZES[players]
    singles = draw(st.sets(st.sampled_from([x for x in OPTIONAL_LABELS if x != "W"])))
    wildcards = draw(st.integers(0, 3))
    flag = st.booleans()
    return Rules(
        players=players,
        cards_dealt=draw(st.integers(low, high)),
        optional_cards=(*sorted(singles), *("W",) * wildcards),
        offer_cut=draw(flag),
        gin_rummy=draw(flag),
        gin_threshold=draw(st.integers(3, 12)),
        declare_bonus=draw(flag),
        going_out_single_meld=draw(flag),
        declare_or_go_out=draw(flag),
        three_card_draw=draw(flag),
        four_sevens=draw(flag),
        spread_out_discard=draw(flag),
        missing_cards=draw(flag),
        missing_optional=draw(st.integers(0, 12)),
        missing_regular=draw(st.integers(0, 7)),
        seating=draw(flag),
        shuffle_option=draw(flag),
        match=draw(flag),
        match_wins=draw(st.integers(1, 2)),
        match_game_cap=draw(st.integers(1, 3)),
        exhaustion_circuits=draw(st.integers(1, 3)),
        turn_cap=draw(st.sampled_from([12, 40, 120, 250])),
    )


def _labels(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _labels(item, out)
    elif isinstance(value, list):
        for item in value:
            _labels(item, out)


def _cards_in(value: Any) -> set[int]:
    found: list[str] = []
    _labels(value, found)
    ids: set[int] = set()
    for label in found:
        try:
            ids.add(parse_card(label))
        except ValueError:
            continue
    return ids


def check_view_leaks_nothing(state: State, seat: int) -> None:
    view = ENGINE.view(state, seat)
    data = view.to_json()
    json.dumps(data)  # the browser gets it as JSON
    dropped = state.dropped[seat]
    assert view.hand == (() if dropped else state.hands[seat])
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert set(data["stock"]) == {"level", "label"}
    for event in view.events:
        assert not event.cards or event.verb in CARD_VERBS, event
    # Everything but the public record (events, the discards and face-up takes since the deal,
    # Preliminary, finished games) shows only the seat's own cards and the face-up discards.
    public = ("events", "discarded", "known_held", "preliminary", "rules")
    private = {k: v for k, v in data.items() if k not in public}
    private.pop("outcome")
    private.pop("history")
    face_up = set(state.pile) if state.rules.spread_out_discard else set(state.pile[-1:])
    shown = _cards_in(private)
    assert shown <= set(view.hand) | face_up, shown - set(view.hand) - face_up
    hidden = set(state.stock) | set(state.removed)
    if not state.rules.spread_out_discard:
        hidden |= set(state.pile[:-1]) - set(state.pile[-1:])
    for other in range(len(state.hands)):
        if other != seat:
            hidden |= set(state.hands[other])
    hidden.discard(WILDCARD)  # three copies: one may be hidden while another is shown
    hidden -= set(view.hand) | face_up
    assert not shown & hidden
    # Finished games reveal the hands of players still in, never a dropped hand.
    for outcome in data["history"]:
        for index, hand in enumerate(outcome["hands"]):
            assert (hand is None) == (outcome["counts"][index] is None)
    if state.outcome is not None and state.phase is not Phase.BETWEEN_GAMES:
        for other, hand in enumerate(state.outcome.hands):
            assert (hand is None) == state.dropped[other]


def check_determinize(state: State, seat: int, rng: random.Random) -> None:
    view = ENGINE.view(state, seat)
    guess = ENGINE.determinize(view, rng)
    assert ENGINE.view(guess, seat) == view
    assert_conserved(guess)
    assert list(ENGINE.legal_actions(guess, seat)) == list(ENGINE.legal_actions(state, seat))


def play_and_check(
    rules: Rules, seed: int, bot: WeightedRandomBot, out_of_turn_drop: float = 0.0
) -> None:
    state = ENGINE.new_game(rules, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    steps = 0
    games_turns: list[int] = []
    while True:
        steps += 1
        assert steps < 20_000, "game did not end"
        assert_conserved(state)
        if steps % 7 == 0:
            check_determinize(state, steps % rules.players, rng)
        seat = ENGINE.current_player(state)
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            continue
        if seat == TERMINAL:
            break
        check_view_leaks_nothing(state, seat)
        check_view_leaks_nothing(state, (seat + steps) % rules.players)
        if state.phase is not Phase.BETWEEN_GAMES:
            for other in range(rules.players):
                offered = DROP in ENGINE.legal_actions(state, other)
                assert offered == (not state.dropped[other])
            others = [s for s in range(rules.players) if s != seat and not state.dropped[s]]
            if others and rng.random() < out_of_turn_drop:
                leaver = others[rng.randrange(len(others))]
                state = ENGINE.apply(state, DROP, leaver)
                log.append((leaver, DROP))
                continue
        if steps % 5 == 0:
            check_determinize(state, seat, rng)
        legal = ENGINE.legal_actions(state, seat)
        assert legal, "the seat to act has no legal action"
        action = bot.choose(ENGINE.view(state, seat), legal, rng)
        before_game = state.game_number
        state = ENGINE.apply(state, action, seat)
        log.append((seat, action))
        if state.outcome is not None and state.game_number == before_game:
            games_turns.append(state.turns)
    assert state.phase is Phase.OVER
    assert all(turns <= rules.turn_cap for turns in games_turns)
    result = ENGINE.result(state)
    assert result is not None and len(result.utilities) == rules.players
    assert abs(sum(result.utilities) - 1.0) < 1e-9
    assert replay(record_of("declaration-rummy", rules, seed, log)) == state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=any_rules(),
    seed=st.integers(0, 2**32),
    drop=st.sampled_from([0.0, 0.0, 0.01]),
    tie=st.sampled_from([0.0, 0.02]),
    finish=st.sampled_from([0.02, 0.1, 0.5]),
    out_of_turn=st.sampled_from([0.0, 0.0, 0.005]),
)
def test_random_play_keeps_every_invariant(
    rules: Rules, seed: int, drop: float, tie: float, finish: float, out_of_turn: float
) -> None:
    bot = WeightedRandomBot(drop=drop, tie=tie, finish=finish)
    play_and_check(rules, seed, bot, out_of_turn_drop=out_of_turn)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_long_games_without_early_endings_reach_the_exhaustion_ending(
    players: int, seed: int
) -> None:
    # A player who never declares, goes out, drops or proposes a tie plays until the stock is
    # exhausted and someone declines (or the safeguard), so the whole stock is played through.
    rules = Rules(players=players, cards_dealt=2, turn_cap=400)
    bot = WeightedRandomBot(finish=0.0)
    state = ENGINE.new_game(rules, seed)
    rng = random.Random(seed)
    exhausted_seen = False
    while ENGINE.current_player(state) != TERMINAL:
        seat = ENGINE.current_player(state)
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            continue
        exhausted_seen |= state.exhaustion
        action = bot.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        state = ENGINE.apply(state, action, seat)
        assert_conserved(state)
    assert state.outcome is not None
    assert exhausted_seen
    assert state.outcome.reason in ("declined", "exhaustion-cap", "turn-cap")


def _three_card_hands() -> list[tuple[int, ...]]:
    """Every sorted three-card hand the pack with all optional cards can deal."""
    ids = sorted(set(pack_cards(Rules(optional_cards=ALL_OPTIONAL))))
    copies = Counter(pack_cards(Rules(optional_cards=ALL_OPTIONAL)))
    return [
        hand
        for hand in combinations_with_replacement(ids, 3)
        if all(n <= copies[card] for card, n in Counter(hand).items())
    ]


def test_three_card_hands_count_and_go_out_as_the_solver_says() -> None:
    # The engine answers three-card hands (every turn's hand with 8-10 players) without the
    # search; every such hand must get the solver's answers.
    hands = _three_card_hands()
    assert len(hands) > 37_000
    for hand in hands:
        assert hand_count(hand) == dr_count(hand), hand
        for single_meld in (False, True):
            assert hand_can_go_out(hand, single_meld) == dr_can_go_out(
                hand, single_meld=single_meld
            ), (hand, single_meld)
