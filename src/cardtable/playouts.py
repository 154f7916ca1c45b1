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

Each game's seats live in its package (``cardtable.games.<game>.playouts``, named by its
spec's ``playouts``; :class:`GamePlayouts`); a game without one plays every legal action.

A search's rollouts need more than that in Indian Rummy: two playing seats throw cards at random
and seldom reach a show, so a hand kept looks no better than a drop. :func:`improving_actions`
gives the seat that the rollouts of :class:`cardtable.envs.rollouts.PlayoutEvaluator` use
instead, which improves its hand at the cost of a few bit operations per decision: it draws the
pile's top card only when that card completes a pure sequence or a set, shows whenever the show
is valid (the same check as the playing seat), otherwise keeps every card in a pure sequence or
a set and throws the card with the fewest links to the others (another suit of its rank, its
suit within two ranks), the highest of those (ties: the caller's random pick), never a joker,
never drops. Two such seats reach a valid show within 40 decisions in most deals and the playing
seats almost never, at several times the playing seat's cost a decision (the figures:
benchmarks/README.md, "Indian Rummy with rollouts that improve the hand", from
``benchmarks/bench_rollout_seats.py``). It does not count points with the solver: throwing the
card that leaves the best arrangement's fewest points cost several times this seat a decision in
trials, and reached shows later. The other games' improving seat is their playing seat.

:func:`random_playouts` drives ``current_player`` / ``chance_step`` / ``legal_actions`` /
``apply_unchecked`` the way a search bot does, and times everything: chance steps, the legal
lists, the playing-action filter, the random choice and applying it. Its figure is
microseconds per seat decision, the engine's cost that the benchmarks set beside OpenSpiel's
``gin_rummy`` and that ``cardtable simulate`` reports. :func:`gin_rummy_playouts` plays
OpenSpiel's ``gin_rummy`` by the same loop from Python (when ``pyspiel`` is installed, as the
``research`` extra does), chance outcomes drawn uniformly, which is its own distribution for
the deal and the draws. Both loops choose with :func:`~cardtable.cards.random_below`, the
number ``randrange`` would give from the same draws, more cheaply (benchmarks/README.md).
"""

from __future__ import annotations

import importlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, runtime_checkable

from cardtable.cards import random_below
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.registry import Part, get_spec

Choices = Callable[[Any, int, Sequence[Any]], Sequence[Any]]


@runtime_checkable
class GamePlayouts(Protocol):
    """A game's playout seats (its spec's ``playouts``, in the game's package): the playing
    seat's filter, the improving seat's filter, and what a finished game's ending says beyond
    its result (``None``: nothing)."""

    def playing(self, state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
        """The actions a playing seat picks from."""
        ...

    def improving(self, state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
        """The actions a search rollout's seat picks from."""
        ...

    def ending(self, state: Any) -> str | None:
        """How the finished game ended, when its result's reason does not say."""
        ...


PLAYOUTS: Final[Part[GamePlayouts]] = Part("playouts", GamePlayouts)


def _seats(engine: AnyEngine) -> GamePlayouts | None:
    """The game's playout seats; ``None`` where every legal action is a playing one."""
    spec = get_spec(engine.name)
    return None if spec.playouts is None else PLAYOUTS.load(spec)


def _every_action(state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    return legal


def playing_actions(engine: AnyEngine) -> Choices:
    """The filter ``(state, seat, legal) -> actions`` a playout seat of ``engine`` picks from."""
    seats = _seats(engine)
    return _every_action if seats is None else seats.playing


def improving_actions(engine: AnyEngine) -> Choices:
    """The filter ``(state, seat, legal) -> actions`` of a search's rollout seat: in Indian
    Rummy the seat that improves its hand (see the module docstring), in the other games the
    playing seat of :func:`playing_actions`."""
    seats = _seats(engine)
    return _every_action if seats is None else seats.improving


def ending(engine: AnyEngine, state: Any) -> str:
    """How a finished game ended, in the words of its result; for Indian Rummy, whose games
    all end with "deals-played", how its last deal ended (``valid-show``, ``abandoned`` at the
    turn cap, ...), which says whether the random seats ever reached a show."""
    seats = _seats(engine)
    told = None if seats is None else seats.ending(state)
    if told is not None:
        return told
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
