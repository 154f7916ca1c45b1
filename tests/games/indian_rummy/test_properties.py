"""Invariants of random legal play, for random seeds, table sizes and house rules: cards are
conserved, views leak nothing and determinize consistently, records replay to the same state,
every game ends within its cap, and the quick show filter never rejects a valid show."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import PRINTED_JOKER
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import (
    ENGINE,
    hand_points,
    show_is_valid,
    surely_wrong_show,
)
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.scoring import arrange
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, pack_of
from cardtable.melds.indian import is_valid_show, show_discards, surely_no_show
from cardtable.replay import record_of, replay

HOUSE_RULES = [
    Rules(),
    PRESETS["gentle-drops"],
    PRESETS["no-cap"],
    PRESETS["printed-jokers-only"],
    PRESETS["one-joker-per-sequence"],
    Rules(joker_from_discard="opening-card"),
    Rules(printed_jokers=0),
    Rules(wrong_show_others="counted"),
    Rules(drops_allowed=False, all_joker_groups=True),
]


def _scramble_hidden(state: IndianRummyState, seat: int, rng: random.Random) -> IndianRummyState:
    """The same state with every card ``seat`` cannot see dealt again at random."""
    others = [s for s in range(state.players) if s != seat]
    hidden = [c for s in others for c in state.hands[s]] + list(state.stock)
    rng.shuffle(hidden)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], hidden = tuple(sorted(hidden[:size])), hidden[size:]
    drawn = state.drawn
    if drawn is not None and state.turn != seat and not state.drawn_from_pile:
        drawn = rng.choice(hands[state.turn])
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(hidden), drawn=drawn)


def _check_cards(state: IndianRummyState) -> None:
    if state.deal_number == 0:
        return
    assert state.card_places() == Counter(pack_of(state.rules))
    if state.phase in (Phase.DRAW, Phase.DISCARD, Phase.RESHUFFLE):
        for seat, hand in enumerate(state.hands):
            on_turn = state.phase is Phase.DISCARD and seat == state.turn
            assert len(hand) == (14 if on_turn else 13)
            assert list(hand) == sorted(hand)


def _choose(
    legal: list[act.IndianRummyAction], rng: random.Random, patient: bool
) -> act.IndianRummyAction:
    """Uniform among the legal actions; a patient player never drops or declares."""
    if patient:
        calm: list[act.IndianRummyAction] = [
            a for a in legal if not isinstance(a, act.Drop | act.Declare)
        ]
        if calm:
            legal = calm
    return legal[rng.randrange(len(legal))]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 4),
    house=st.sampled_from(HOUSE_RULES),
    patient=st.booleans(),
)
def test_random_legal_play_keeps_every_invariant(
    seed: int, players: int, house: Rules, patient: bool
) -> None:
    cap = 150 if patient else 40
    rules = dataclasses.replace(house, players=players, deals=2, deal_turn_cap=cap)
    rng = random.Random(seed)
    state = ENGINE.new_game(rules, seed)
    log: list[tuple[int, act.IndianRummyAction]] = []
    steps = 0
    while True:
        steps += 1
        assert steps <= 2 * (2 * cap + 3), "a game ran past its cap"
        seat = ENGINE.current_player(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            _check_cards(state)
            continue
        _check_cards(state)
        for watcher in range(players):
            view = ENGINE.view(state, watcher)
            assert view.hand == state.hands[watcher]
            # The view is a function of what the watcher may see only.
            assert ENGINE.view(_scramble_hidden(state, watcher, rng), watcher) == view
        if steps % 5 == 0:
            view = ENGINE.view(state, seat)
            sampled = ENGINE.determinize(view, rng)
            assert ENGINE.view(sampled, seat) == view
            _check_cards(sampled)
            assert ENGINE.legal_actions(sampled, seat) == ENGINE.legal_actions(state, seat)
        legal = list(ENGINE.legal_actions(state, seat))
        assert legal and all(ENGINE.legal_actions(state, s) == () for s in range(players)
                             if s != seat)  # fmt: skip
        action = _choose(legal, rng, patient)
        checked = ENGINE.apply(state, action, seat)
        assert checked == ENGINE.apply_unchecked(state, action, seat)
        assert ENGINE.parse_action(str(action)) == action
        log.append((seat, action))
        state = checked
    result = ENGINE.result(state)
    assert result is not None and len(state.deal_points) == 2
    assert result.scores == state.totals
    assert state.totals == tuple(sum(p[s] for p in state.deal_points) for s in range(players))
    record = record_of("indian-rummy", rules, seed, log)
    assert replay(record) == state


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), house=st.sampled_from(HOUSE_RULES))
def test_determinize_matches_the_view_mid_deal(seed: int, players: int, house: Rules) -> None:
    rules = dataclasses.replace(house, players=players, deals=None, deal_turn_cap=200)
    rng = random.Random(seed)
    state = ENGINE.new_game(rules, seed)
    for _ in range(rng.randrange(1, 120)):
        seat = ENGINE.current_player(state)
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            continue
        state = ENGINE.apply_unchecked(
            state, _choose(list(ENGINE.legal_actions(state, seat)), rng, patient=True), seat
        )
    for watcher in range(players):
        view = ENGINE.view(state, watcher)
        sampled = ENGINE.determinize(view, rng)
        assert ENGINE.view(sampled, watcher) == view
        _check_cards(sampled)
        # Cards an opponent took from the pile and kept stay in that opponent's sampled hand.
        kept: list[Counter[int]] = [Counter() for _ in range(players)]
        for event in view.events:
            if event.verb == "take-discard":
                kept[event.seat][event.cards[0]] += 1
            elif event.verb == "discard" and kept[event.seat][event.cards[0]]:
                kept[event.seat][event.cards[0]] -= 1
        for seat in range(players):
            assert not kept[seat] - Counter(sampled.hands[seat])


def _random_show(rng: random.Random, wild_rank: int | None) -> tuple[int, ...]:
    """A 13-card hand built from groups (often a valid show, sometimes broken on purpose)."""
    jokers = [PRINTED_JOKER] + ([] if wild_rank is None else [s * 13 + wild_rank for s in range(4)])
    while True:
        hand: list[int] = []
        kinds = ["pure", *rng.choices(["pure", "impure", "set"], k=5)]
        for kind in kinds:
            if kind == "set":
                rank = rng.randrange(13)
                group = [s * 13 + rank for s in rng.sample(range(4), rng.choice([3, 4]))]
                if rng.random() < 0.4:
                    group[rng.randrange(len(group))] = rng.choice(jokers)
            else:
                suit, length = rng.randrange(4), rng.choice([3, 3, 4, 4, 5, 6])
                start = rng.randrange(0, 14 - length + 1)
                group = [suit * 13 + (start + i) % 13 for i in range(length)]
                if kind == "impure":
                    for _ in range(rng.choice([1, 1, 2])):
                        group[rng.randrange(length)] = rng.choice(jokers)
            hand += group
            if len(hand) >= 13:
                break
        if len(hand) == 13 and max(Counter(hand).values()) <= 2:
            for _ in range(rng.choice([0, 0, 1, 2])):
                hand[rng.randrange(13)] = rng.randrange(PRINTED_JOKER + 1)
            if max(Counter(hand).values()) <= 2:
                return tuple(sorted(hand))


def test_quick_show_filter_never_rejects_a_valid_show() -> None:
    rng = random.Random(20240)
    valid = rejected = 0
    for _ in range(3000):
        wild_rank = rng.choice([None, *range(13)])
        hand = _random_show(rng, wild_rank)
        exact = is_valid_show(hand, wild_rank)
        quick = surely_wrong_show(hand, wild_rank)
        assert not (exact and quick), hand
        valid += exact
        rejected += quick
    # The sample holds plenty of both kinds, so the check above means something.
    assert valid > 600 and rejected > 300


def test_no_show_filter_never_rejects_a_hand_that_holds_a_show() -> None:
    # 13 cards: a valid show or not; 14 cards: a valid show after some put-down or not. The
    # hands are near-shows (a show plus a random card, or with cards swapped for random ones)
    # and plain random hands, so both answers come up often.
    rng = random.Random(20241)
    pack = [c for c in range(PRINTED_JOKER + 1) for _ in range(2)]
    shows = rejected = 0
    for index in range(4000):
        wild_rank = rng.choice([None, *range(13)])
        if index % 4 == 3:
            hand = tuple(rng.sample(pack, 14))
        else:
            hand = (*_random_show(rng, wild_rank), rng.randrange(PRINTED_JOKER + 1))
            if index % 4 == 2:
                hand = hand[:13]
            if max(Counter(hand).values()) > 2:
                continue
        exact = bool(show_discards(hand, wild_rank)) if len(hand) == 14 else None
        if exact is None:
            exact = is_valid_show(hand, wild_rank)
        quick = surely_no_show(hand, wild_rank)
        assert not (exact and quick), (hand, wild_rank)
        shows += exact
        rejected += quick
    assert shows > 800 and rejected > 800


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), house=st.sampled_from(HOUSE_RULES))
def test_engine_counts_a_hand_as_arrange_does(seed: int, house: Rules) -> None:
    rng = random.Random(seed)
    wild_rank = rng.choice([None, *range(13)]) if house.wild_joker_cut else None
    pack = list(pack_of(house))
    hand = tuple(rng.sample(pack, 13)) if rng.random() < 0.5 else _random_show(rng, wild_rank)
    if house.printed_jokers == 0 and PRINTED_JOKER in hand:
        hand = tuple(c for c in hand if c != PRINTED_JOKER) + (0,) * hand.count(PRINTED_JOKER)
        if max(Counter(hand).values()) > 2:
            return
    arrangement = arrange(hand, wild_rank, house)
    assert hand_points(hand, wild_rank, house) == arrangement.points
    assert show_is_valid(hand, wild_rank, house) == arrangement.valid_show
