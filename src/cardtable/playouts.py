"""Full-length random playouts through an engine's fast path, and what they cost per decision.

A random seat that picks uniformly among all legal actions ends most rummy deals at once: in
Indian Rummy it soon drops or declares a wrong show, in Declaration Rummy it drops or proposes
a tie. Such playouts time the deal, not the play. The playout seat here picks uniformly among
the *playing* actions instead (:func:`playing_actions`):

* Indian Rummy: never drops, and declares only when the show is valid (the exact solver's
  :func:`~cardtable.melds.indian.show_discards`, after a few bit tests that rule out most
  hands);
* Declaration Rummy: never drops and never proposes a tie;
* Indecision: every legal action.

A search's rollouts need more than that in Indian Rummy: two playing seats throw cards at
random and seldom reach a show (5 of 200 seeded deals in 400 turns), so a hand kept looks no
better than a drop. :func:`improving_actions` gives the seat that the rollouts of
:class:`cardtable.envs.rollouts.PlayoutEvaluator` use instead, which improves its hand at the
cost of a few bit operations per decision: it draws the pile's top card only when that card
completes a pure sequence or a set, shows whenever the show is valid (the same check as the
playing seat), otherwise keeps every card in a pure sequence or a set and throws the card
with the fewest links to the others (another suit of its rank, its suit within two ranks),
the highest of those (ties: the caller's random pick), never a joker, never drops. Two such
seats reach a valid show within 40 decisions in 85% of deals, the playing seats in none, at
about 70 µs a decision against 10 µs (``benchmarks/bench_rollout_seats.py``). It does not
count points with the solver: throwing the card that leaves the best arrangement's fewest
points cost 0.4-1.2 ms a decision in trials, several times this seat, and reached shows
later. The other games' improving seat is their playing seat.

:func:`random_playouts` drives ``current_player`` / ``chance_step`` / ``legal_actions`` /
``apply_unchecked`` the way a search bot does, and times everything: chance steps, the legal
lists, the playing-action filter, the random choice and applying it. Its figure is
microseconds per seat decision, the engine's cost that the benchmarks set beside OpenSpiel's
``gin_rummy`` and that ``cardtable simulate`` reports. :func:`gin_rummy_playouts` plays
OpenSpiel's ``gin_rummy`` by the same loop from Python (when ``pyspiel`` is installed, as the
``research`` extra does), chance outcomes drawn uniformly, which is its own distribution for
the deal and the draws. Both loops choose with :func:`~cardtable.cards.random_below`, the
number ``randrange`` would give from the same draws at about half its cost.
"""

from __future__ import annotations

import importlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cardtable.cards import PRINTED_JOKER, random_below
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.games.declaration_rummy import actions as dr_act
from cardtable.games.indian_rummy import actions as ir_act
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from cardtable.melds.indian import card_value, show_discards, surely_no_show

Choices = Callable[[Any, int, Sequence[Any]], Sequence[Any]]

_IR_DISCARD: Final = Phase.DISCARD
_DR_DROP: Final = dr_act.DROP
_DR_PROPOSE_TIE: Final = dr_act.PROPOSE_TIE


def valid_shows(state: IndianRummyState, hand: Sequence[int]) -> tuple[int, ...]:
    """Indian Rummy: the cards whose put-down leaves a valid show of ``hand``'s other 13 (a few
    bit tests first: most hands of a playout are far from a show)."""
    if surely_no_show(hand, state.wild_rank):
        return ()
    rules = state.rules
    return show_discards(
        hand,
        state.wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )


def _indian_rummy_choices(
    state: IndianRummyState, seat: int, legal: Sequence[Any]
) -> Sequence[Any]:
    if state.phase is not _IR_DISCARD:
        return [action for action in legal if action is not ir_act.DROP]
    valid = valid_shows(state, state.hands[seat])
    # legal lists the discards, then as many declarations; keep the declarations that show.
    half = len(legal) // 2
    if not valid:
        return legal[:half]
    return [*legal[:half], *(a for a in legal[half:] if a.card in valid)]


def _declaration_rummy_choices(state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    # The engine lists "propose tie" and "drop" last, in that order: cut them off the end.
    end = len(legal)
    if end and legal[end - 1] is _DR_DROP:
        end -= 1
    if end and legal[end - 1] is _DR_PROPOSE_TIE:
        end -= 1
    return legal[:end]


def _every_action(state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    return legal


_CHOICES: Final[dict[str, Choices]] = {
    "indian-rummy": _indian_rummy_choices,
    "declaration-rummy": _declaration_rummy_choices,
}


def playing_actions(engine: AnyEngine) -> Choices:
    """The filter ``(state, seat, legal) -> actions`` a playout seat of ``engine`` picks from."""
    return _CHOICES.get(engine.name, _every_action)


# --- The improving seat (search rollouts) ---------------------------------------------------

_IR_DRAW: Final = Phase.DRAW
_IR_VALUES: Final = (*(card_value(c, None) for c in range(PRINTED_JOKER)), 0)
_IR_RANK: Final = (*(c % 13 for c in range(PRINTED_JOKER)), -1)
_IR_SUIT: Final = (*(c // 13 for c in range(PRINTED_JOKER)), 4)
_IR_NEAR: Final = tuple(
    sum(1 << r for r in range(13) if 0 < min(abs(rank - r), 13 - abs(rank - r)) <= 2)
    for rank in range(13)
)
"""``_IR_NEAR[rank]``: the ranks at most two places from ``rank``, round the corner too (the
link test only has to let through every card that could share a sequence)."""
_ALL_RANKS: Final = (1 << 13) - 1


def _melded(cards: Sequence[int], wild: int | None) -> int:
    """The natural cards of ``cards`` (by card id, as bits) that lie in a pure sequence of
    three or more (ace low or high) or in a set of three or four suits."""
    suits = [0, 0, 0, 0]
    suits_of_rank = [0] * 13
    for c in cards:
        rank = _IR_RANK[c]
        if rank < 0 or rank == wild:
            continue
        suits[_IR_SUIT[c]] |= 1 << rank
        suits_of_rank[rank] |= 1 << _IR_SUIT[c]
    out = 0
    for suit, m in enumerate(suits):
        m |= (m & 1) << 13  # the ace played high, above the king
        starts = m & (m >> 1) & (m >> 2)
        if starts:
            covered = starts | (starts << 1) | (starts << 2)
            out |= ((covered | covered >> 13) & _ALL_RANKS) << (13 * suit)
    for rank, held in enumerate(suits_of_rank):
        if held.bit_count() >= 3:
            for suit in range(4):
                if held >> suit & 1:
                    out |= 1 << (13 * suit + rank)
    return out


def _links(card: int, hand: Sequence[int]) -> int:
    """How many natural cards of ``hand`` could share a group with ``card`` (its rank in
    another suit, or its suit at most two ranks away), counted up to 2."""
    rank, suit, near = _IR_RANK[card], _IR_SUIT[card], _IR_NEAR[_IR_RANK[card]]
    links = 0
    for c in hand:
        if c != PRINTED_JOKER and (
            (_IR_RANK[c] == rank and _IR_SUIT[c] != suit)
            or (_IR_SUIT[c] == suit and near >> _IR_RANK[c] & 1)
        ):
            links += 1
            if links == 2:
                break
    return links


def _indian_rummy_improving(
    state: IndianRummyState, seat: int, legal: Sequence[Any]
) -> Sequence[Any]:
    """The improving seat's choices (see the module docstring): one draw, the valid shows, or
    the tied best discards."""
    hand = state.hands[seat]
    wild = state.wild_rank
    if state.phase is not _IR_DRAW and state.phase is not _IR_DISCARD:
        return legal  # Pool's answers between deals (a rejoin offer, the agreed finish)
    if state.phase is _IR_DRAW:
        if ir_act.DRAW_PILE in legal:
            top = state.pile[-1]
            # Take the pile's card only when it completes a pure sequence or a set (a twin of
            # a card already in one completes nothing).
            if _melded((*hand, top), wild) >> top & 1 and not _melded(hand, wild) >> top & 1:
                return (ir_act.DRAW_PILE,)
        return (ir_act.DRAW_STOCK,)
    valid = valid_shows(state, hand)
    if valid:
        shows = [a for a in legal[len(legal) // 2 :] if a.card in valid]
        if shows:
            return shows
    kept = state.drawn if state.drawn_from_pile else None
    melded = _melded(hand, wild)
    best: tuple[int, int, int] | None = None
    out: list[Any] = []
    for c in dict.fromkeys(hand):
        rank = _IR_RANK[c]
        if c == kept or rank < 0 or rank == wild:
            continue
        key = (melded >> c & 1, _links(c, hand), -_IR_VALUES[c])
        if best is None or key < best:
            best, out = key, [ir_act.DISCARDS[c]]
        elif key == best:
            out.append(ir_act.DISCARDS[c])
    return out or legal[: len(legal) // 2]


_IMPROVING: Final[dict[str, Choices]] = {"indian-rummy": _indian_rummy_improving}


def improving_actions(engine: AnyEngine) -> Choices:
    """The filter ``(state, seat, legal) -> actions`` of a search's rollout seat: in Indian
    Rummy the seat that improves its hand (see the module docstring), in the other games the
    playing seat of :func:`playing_actions`."""
    return _IMPROVING.get(engine.name) or playing_actions(engine)


def ending(engine: AnyEngine, state: Any) -> str:
    """How a finished game ended, in the words of its result; for Indian Rummy, whose games
    all end with "deals-played", how its last deal ended (``valid-show``, ``abandoned`` at the
    turn cap, ...), which says whether the random seats ever reached a show."""
    last_deal = getattr(state, "last_deal", None) if engine.name == "indian-rummy" else None
    if last_deal is not None:
        return f"last deal {last_deal.outcome}"
    result = engine.result(state)
    return result.reason if result is not None else "unfinished"


@dataclass
class PlayoutTotals:
    """What a batch of playouts did and how long it took."""

    games: int = 0
    decisions: int = 0
    chance_steps: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """The process's CPU time over the same stretch: on a shared machine it leaves out the
    time other processes had the processor, which wall-clock seconds include."""
    endings: Counter[str] = field(default_factory=Counter)

    @property
    def microseconds_per_decision(self) -> float:
        """All the work divided by the seat decisions."""
        return self.seconds / self.decisions * 1e6 if self.decisions else 0.0

    @property
    def cpu_microseconds_per_decision(self) -> float:
        """The same in CPU time."""
        return self.cpu_seconds / self.decisions * 1e6 if self.decisions else 0.0


def random_playouts(
    engine: AnyEngine,
    rules: Any,
    seed: int,
    *,
    games: int | None = None,
    seconds: float | None = None,
    rng: random.Random | None = None,
) -> PlayoutTotals:
    """Play ``games`` games (or as many as fit in ``seconds``), game ``g`` dealt from
    ``seed + g``, every seat picking uniformly among :func:`playing_actions`; the choices are
    drawn from ``rng`` (by default ``random.Random(seed)``)."""
    if (games is None) == (seconds is None):
        raise ValueError("give either a number of games or a number of seconds")
    rng = rng or random.Random(seed)
    choices = playing_actions(engine)
    current = engine.current_player
    chance = engine.chance_step
    legal_of = engine.legal_actions
    apply = engine.apply_unchecked
    totals = PlayoutTotals()
    decisions = chance_steps = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + (seconds or 0.0)
    while True:
        state = engine.new_game(rules, seed + totals.games)
        while True:
            seat = current(state)
            if seat == CHANCE:
                state = chance(state)
                chance_steps += 1
            elif seat == TERMINAL:
                break
            else:
                playing = choices(state, seat, legal_of(state, seat))
                state = apply(state, playing[random_below(rng, len(playing))], seat)
                decisions += 1
        totals.games += 1
        totals.endings[ending(engine, state)] += 1
        if totals.games == games or (seconds is not None and time.perf_counter() > deadline):
            break
    totals.seconds = time.perf_counter() - start
    totals.cpu_seconds = time.process_time() - cpu_start
    totals.decisions = decisions
    totals.chance_steps = chance_steps
    return totals


def gin_rummy_playouts(
    seed: int,
    *,
    games: int | None = None,
    seconds: float | None = None,
    cpu_seconds: float | None = None,
) -> PlayoutTotals:
    """Random OpenSpiel ``gin_rummy`` games (every legal action allowed) for ``games`` games,
    ``seconds`` of wall-clock time or ``cpu_seconds`` of the process's CPU time (whole games,
    at least one), driven through ``pyspiel`` as :func:`random_playouts` drives our engines.

    Raises :class:`ImportError` when ``pyspiel`` is not installed.
    """
    if (games is not None) + (seconds is not None) + (cpu_seconds is not None) != 1:
        raise ValueError("give one of a number of games, seconds or CPU seconds")
    pyspiel: Any = importlib.import_module("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    totals = PlayoutTotals()
    decisions = chance_steps = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + (seconds or 0.0)
    cpu_deadline = cpu_start + (cpu_seconds or 0.0)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[random_below(rng, len(outcomes))][0])
                chance_steps += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[random_below(rng, len(legal))])
                decisions += 1
        totals.games += 1
        totals.endings["game-over"] += 1
        if (
            totals.games == games
            or (seconds is not None and time.perf_counter() > deadline)
            or (cpu_seconds is not None and time.process_time() > cpu_deadline)
        ):
            break
    totals.seconds = time.perf_counter() - start
    totals.cpu_seconds = time.process_time() - cpu_start
    totals.decisions = decisions
    totals.chance_steps = chance_steps
    return totals
