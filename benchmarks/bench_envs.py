"""Research environments' speed: PettingZoo steps per second beside RLCard's gin-rummy, and
OpenSpiel's random_sim_test on our registered games beside its C++ gin_rummy.

(a) **Environment steps.** For each game, our PettingZoo AEC environment (``env()``, wrapped as
PettingZoo's classic ones) is driven the usual way: ``agent_iter`` / ``last`` / ``step``, each
acting agent choosing uniformly among the entries its ``action_mask`` allows, ``reset`` between
episodes; a step is one agent action. Beside it, RLCard's ``gin-rummy`` environment (the backend
of PettingZoo's former ``gin_rummy_v4``) is driven by random legal actions (``reset`` /
``step`` / ``is_over``, the legal actions read from its state dict). The two sides alternate in
runs of ``--seconds`` each, in the same process, and each figure is the median over runs of steps
per second (resets and chance steps included in the time). The goal set for the environments is
at least 3x RLCard's rate. Beside them, each game's engine alone is driven by the same random
choice among its legal actions (``new_game``, chance steps, ``legal_actions``,
``apply_unchecked``; no observation, no mask): the most an environment on this engine could
reach. The other bound is PettingZoo's own loop: per game, a *null* AEC environment with the
game's spaces, in the same order-enforcing wrapper and driven by the same loop (the numpy masked
draw included), whose episodes replay the lengths the game's environment just produced in the
same run and which does nothing else (a constant observation, no engine): the most any
environment could reach through that loop with those episodes. The game's environment is shown
as a share of it. The ``raw_env`` rows drive the game's bare environment through the same loop:
the standard ``env()`` less PettingZoo's order-enforcing wrapper, which forwards every
attribute the loop reads (``agents``, ``agent_selection``, the reward, termination and info
dicts: about eight lookups a step) through its ``__getattr__``. The goal is set for ``env()``.

(d) **Playing seats** (``--part d``). Random masked actions end most Indian Rummy and
Declaration Rummy episodes within a few steps (a drop, a wrong show, a tie proposal), so part
(a) times mostly resets, while RLCard's random gin-rummy episodes run about 125 steps (its legal
list only offers a knock or gin that is valid). Part (d) drives the same environments (``env()``
and ``raw_env``) through the same loop with full-length episodes: each acting agent picks
uniformly among the actions :func:`cardtable.playouts.playing_actions` keeps of the engine's
legal list (never a drop, an Indian Rummy show only when it is valid, no Declaration Rummy tie
proposal; every action in Indecision), the policy that ``cardtable simulate`` and the
engine-cost comparison with OpenSpiel use. The policy reads the engine's state and legal list
itself, and that time counts against the environment. Beside it, the same loop alone (the null
environment replaying those episode lengths), the engine alone with the same policy
(:func:`cardtable.playouts.random_playouts`) and RLCard as in part (a).

(c) **Observations** (``--part c``). Per game, the views every seat sees along random games
(two players, random legal actions, as in part (a)); each run times, over the same views, the
engine's ``view``, the game's observation encoder, the game's ``observe`` (the vector straight
from the state, as the environments build it) and the reference encoder they must match (the
first, plain encoders, kept in ``tests/reference/observation_encoders.py``), alternated;
figures are medians over runs of microseconds per observation.

(e) **Where a step's time goes** (``--part e``). Per game, in CPU time (the process's, so that
other work on the machine counts less than in wall time), the step of part (a) taken apart by
removing one thing at a time, the variants alternated run by run: ``env()``; ``raw_env`` (the
difference is PettingZoo's order-enforcing wrapper); ``raw_env`` whose observation vector is
one constant array (the difference is the vectors; masks are still built, the loop needs them);
PettingZoo's loop alone without the wrapper (the null environment replaying the episode lengths
of the same run) and the engine alone (as in part (a)); what is left of ``env()`` is the
environment's masks, legality check and bookkeeping. The engine's episode starts (a new game
and its chance steps up to the first decision) are timed alone too and shown per step.

(b) **OpenSpiel.** ``pyspiel.random_sim_test`` (no serialisation, no logging) on each of our
registered games (two players; Declaration Rummy deals 10 cards to two) and on OpenSpiel's own
C++ ``gin_rummy``, timed per simulated game in alternation; a game's mean length (seat actions
and chance outcomes, from random games played through ``pyspiel`` beforehand) turns games per
second into state transitions per second, so the games can be compared despite their lengths.

    python -m benchmarks.bench_envs --runs 5 --seconds 2 --sims 5
    python -m benchmarks.bench_envs --part c --runs 7
    python -m benchmarks.bench_envs --part d --runs 5 --seconds 2
    python -m benchmarks.bench_envs --part e --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import cycle
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardtable.envs import game_spec
from cardtable.envs.pettingzoo import declaration_rummy_v0, indecision_v0, indian_rummy_v0
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.playouts import playing_actions, random_playouts

Chooser = Callable[[Any, np.random.Generator], int]
"""How an acting agent picks: ``(observation, generator) -> action number``."""

ENVS = {
    "indecision": indecision_v0,
    "indian-rummy": indian_rummy_v0,
    "declaration-rummy": declaration_rummy_v0,
}


def pettingzoo_steps(
    module: Any,
    seconds: float,
    seed: int,
    lengths: list[int] | None = None,
    *,
    playing: bool = False,
    raw: bool = False,
) -> tuple[int, float]:
    """Steps taken in about ``seconds`` of whole episodes, and the time they took; each
    episode's number of steps is appended to ``lengths`` when given. With ``playing``, agents
    pick among the playing actions (part (d)) instead of every masked entry; with ``raw``, the
    environment is ``raw_env``, without PettingZoo's order-enforcing wrapper."""
    env = module.raw_env(players=2) if raw else module.env(players=2)
    return _drive(env, seconds, seed, lengths, playing_chooser(env) if playing else None)


def playing_chooser(env: Any) -> Chooser:
    """Uniformly among the playing actions (:func:`cardtable.playouts.playing_actions`) of the
    agent on turn, read from the environment's engine state."""
    raw = env.unwrapped
    engine, table = raw.engine, raw.spec_.actions
    keep, legal_of, number = playing_actions(engine), engine.legal_actions, table.indices
    seat_of = raw.agent_name_mapping

    def choose(_observation: Any, rng: np.random.Generator) -> int:
        state, seat = raw.state, seat_of[raw.agent_selection]
        playing = keep(state, seat, legal_of(state, seat))
        return number([playing[int(rng.integers(len(playing)))]])[0]

    return choose


def _drive(
    env: Any,
    seconds: float,
    seed: int,
    lengths: list[int] | None,
    choose: Chooser | None = None,
) -> tuple[int, float]:
    """PettingZoo's usual loop (random masked actions unless ``choose`` is given), whole
    episodes for ``seconds``."""
    rng = np.random.default_rng(seed)
    steps = 0
    started = time.perf_counter()
    episode = seed
    while time.perf_counter() - started < seconds:
        env.reset(seed=episode)
        episode += 1
        before = steps
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            if choose is None:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            else:
                env.step(choose(obs, rng))
            steps += 1
        if lengths is not None:
            lengths.append(steps - before)
    return steps, time.perf_counter() - started


class NullAEC(AECEnv):  # type: ignore[misc]
    """An AEC environment that does nothing but take turns: ``template``'s agents and spaces,
    one constant observation (``template``'s first, its mask included), zero rewards, and
    episodes of the given lengths in turn (steps of the acting agents, as counted by
    :func:`_drive`). It prices PettingZoo's loop and wrapper alone."""

    metadata: ClassVar[dict[str, Any]] = {"name": "null_v0", "is_parallelizable": False}

    def __init__(self, template: Any, lengths: Sequence[int]) -> None:
        super().__init__()
        template.reset(seed=0)
        self.possible_agents = list(template.possible_agents)
        self.observation_spaces = {a: template.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: template.action_space(a) for a in self.possible_agents}
        first = template.observe(template.agent_selection)
        self._observation = {key: value.copy() for key, value in first.items()}
        self._lengths = cycle([length for length in lengths if length > 0] or [1])
        self._left = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._left = next(self._lengths)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        agents = self.possible_agents
        self.agent_selection = agents[(agents.index(agent) + 1) % len(agents)]
        self._left -= 1
        if self._left <= 0:
            self.terminations = dict.fromkeys(self.agents, True)


def null_steps(module: Any, lengths: Sequence[int], seconds: float, seed: int) -> tuple[int, float]:
    """:func:`pettingzoo_steps` through a :class:`NullAEC` shaped like ``module``'s env."""
    env = wrappers.OrderEnforcingWrapper(NullAEC(module.raw_env(players=2), lengths))
    return _drive(env, seconds, seed, None)


def engine_steps(game: str, seconds: float, seed: int) -> tuple[int, float]:
    """The engine alone: random legal actions, whole games, no observations or masks."""
    spec = game_spec(game)
    engine = spec.engine
    rules = spec.make_rules(players=2)
    rng = random.Random(seed)
    current, chance, legal_of = engine.current_player, engine.chance_step, engine.legal_actions
    apply = engine.apply_unchecked
    steps = 0
    episode = seed
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = engine.new_game(rules, episode)
        episode += 1
        while True:
            seat = current(state)
            if seat == CHANCE:
                state = chance(state)
            elif seat == TERMINAL:
                break
            else:
                legal = legal_of(state, seat)
                state = apply(state, legal[rng.randrange(len(legal))], seat)
                steps += 1
    return steps, time.perf_counter() - started


def rlcard_steps(seconds: float, seed: int) -> tuple[int, float]:
    """RLCard gin-rummy: steps of random legal actions in about ``seconds`` of episodes."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.perf_counter() - started


def mean_length(game: Any, games: int, seed: int) -> float:
    """Mean number of state transitions (seat actions and chance outcomes) of random games."""
    rng = np.random.default_rng(seed)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
            total += 1
    return total / games


def _median_rate(samples: list[tuple[int, float]]) -> float:
    return statistics.median(count / elapsed for count, elapsed in samples)


def _alternate(
    contenders: dict[str, Callable[[int], tuple[int, float]]], runs: int
) -> dict[str, float]:
    results: dict[str, list[tuple[int, float]]] = {name: [] for name in contenders}
    for run in range(runs):
        for name, measure in contenders.items():
            results[name].append(measure(run))
    return {name: _median_rate(samples) for name, samples in results.items()}


def environment_steps(runs: int, seconds: float) -> None:
    """Part (a): PettingZoo steps per second per game beside RLCard gin-rummy, the game's
    engine alone and PettingZoo's loop alone."""
    contenders: dict[str, Callable[[int], tuple[int, float]]] = {}
    for name, module in ENVS.items():
        # Each run's null environment replays the episode lengths of the same run's game env.
        lengths: list[int] = []

        def game_run(run: int, m: Any = module, seen: list[int] = lengths) -> tuple[int, float]:
            seen.clear()
            return pettingzoo_steps(m, seconds, 1000 * run, seen)

        def null_run(run: int, m: Any = module, seen: list[int] = lengths) -> tuple[int, float]:
            return null_steps(m, list(seen), seconds, 1000 * run)

        contenders[name] = game_run
        contenders[f"{name} raw_env"] = lambda run, m=module: pettingzoo_steps(
            m, seconds, 1000 * run, raw=True
        )
        contenders[f"{name} loop alone"] = null_run
        contenders[f"{name} engine"] = lambda run, g=name: engine_steps(g, seconds, 1000 * run)
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed (pip install -e '.[bench]'): RLCard comparison skipped")
    else:
        contenders["rlcard gin-rummy"] = lambda run: rlcard_steps(seconds, run)
    rates = _alternate(contenders, runs)
    baseline = rates.get("rlcard gin-rummy")
    print("(a) environment steps per second (median of runs; random masked/legal actions)")
    for name, rate in rates.items():
        shown = baseline and name != "rlcard gin-rummy"
        ratio = f"  {rate / baseline:5.2f}x RLCard" if shown else ""
        ceiling = rates.get(f"{name} loop alone")
        share = f"  {rate / ceiling:4.0%} of the loop alone" if ceiling else ""
        print(f"  {name:<30} {rate:9.0f} steps/s{ratio}{share}")


def engine_playing_steps(game: str, seconds: float, seed: int) -> tuple[int, float]:
    """The engine alone with the playing seats of part (d): decisions in about ``seconds``."""
    spec = game_spec(game)
    totals = random_playouts(spec.engine, spec.make_rules(players=2), seed, seconds=seconds)
    return totals.decisions, totals.seconds


def playing_steps(runs: int, seconds: float) -> None:
    """Part (d): steps per second with full-length episodes (playing seats) beside RLCard
    gin-rummy, the engine alone with the same seats and PettingZoo's loop alone."""
    contenders: dict[str, Callable[[int], tuple[int, float]]] = {}
    mean_lengths: dict[str, list[float]] = {}
    for name, module in ENVS.items():
        lengths: list[int] = []
        means = mean_lengths[name] = []

        def game_run(
            run: int, m: Any = module, seen: list[int] = lengths, means: list[float] = means
        ) -> tuple[int, float]:
            seen.clear()
            measured = pettingzoo_steps(m, seconds, 1000 * run, seen, playing=True)
            means.append(statistics.fmean(seen) if seen else 0.0)
            return measured

        def null_run(run: int, m: Any = module, seen: list[int] = lengths) -> tuple[int, float]:
            return null_steps(m, list(seen), seconds, 1000 * run)

        contenders[name] = game_run
        contenders[f"{name} raw_env"] = lambda run, m=module: pettingzoo_steps(
            m, seconds, 1000 * run, playing=True, raw=True
        )
        contenders[f"{name} loop alone"] = null_run
        contenders[f"{name} engine"] = lambda run, g=name: engine_playing_steps(
            g, seconds, 1000 * run
        )
    contenders["rlcard gin-rummy"] = lambda run: rlcard_steps(seconds, run)
    rates = _alternate(contenders, runs)
    baseline = rates["rlcard gin-rummy"]
    print("(d) environment steps per second, playing seats (full-length episodes; median of runs)")
    for name, rate in rates.items():
        ratio = f"  {rate / baseline:5.2f}x RLCard" if name != "rlcard gin-rummy" else ""
        ceiling = rates.get(f"{name} loop alone")
        share = f"  {rate / ceiling:4.0%} of the loop alone" if ceiling else ""
        steps = mean_lengths.get(name)
        length = f"  ({statistics.median(steps):.0f} steps an episode)" if steps else ""
        print(f"  {name:<30} {rate:9.0f} steps/s{ratio}{share}{length}")


def _cpu(measure: Callable[[], tuple[int, float]]) -> tuple[int, float]:
    """``measure``'s count with the process CPU time it took instead of its wall time."""
    started = time.process_time()
    count, _wall = measure()
    return count, time.process_time() - started


def episode_starts(game: str, seconds: float, seed: int) -> tuple[int, float]:
    """The engine's episode starts alone: new games and their chance steps (the deal) up to
    the first seat decision, in about ``seconds``."""
    spec = game_spec(game)
    engine = spec.engine
    rules = spec.make_rules(players=2)
    current, chance = engine.current_player, engine.chance_step
    starts = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = engine.new_game(rules, seed + starts)
        while current(state) == CHANCE:
            state = chance(state)
        starts += 1
    return starts, time.perf_counter() - started


def step_costs(runs: int, seconds: float) -> None:
    """Part (e): where a step's time goes, per game, in CPU microseconds per step (random
    masked actions, as in part (a)): ``env()``, ``raw_env``, ``raw_env`` with free observation
    vectors (one constant vector; masks still computed), PettingZoo's loop alone without the
    wrapper (a null environment replaying the lengths of the same run's episodes), the engine
    alone."""
    print("(e) CPU microseconds per step (median of runs; random masked actions)")
    for name, module in ENVS.items():
        lengths: list[int] = []

        def free_vectors(run: int, m: Any = module, seen: list[int] = lengths) -> tuple[int, float]:
            env = m.raw_env(players=2)
            constant = np.zeros(env.layout.size, dtype=np.float32)
            env._encode = lambda _state, _seat, _layout: constant
            seen.clear()
            return _drive(env, seconds, 1000 * run, seen)

        def bare_loop(run: int, m: Any = module, seen: list[int] = lengths) -> tuple[int, float]:
            return _drive(NullAEC(m.raw_env(players=2), list(seen)), seconds, 1000 * run, None)

        contenders: dict[str, Callable[[int], tuple[int, float]]] = {
            "env()": lambda run, m=module: pettingzoo_steps(m, seconds, 1000 * run),
            "raw_env": lambda run, m=module: pettingzoo_steps(m, seconds, 1000 * run, raw=True),
            "raw_env, free vectors": free_vectors,
            "loop alone, unwrapped": bare_loop,
            "engine alone": lambda run, g=name: engine_steps(g, seconds, 1000 * run),
            "episode start": lambda run, g=name: episode_starts(g, seconds, 1000 * run),
        }
        timed = {key: (lambda run, f=f: _cpu(lambda: f(run))) for key, f in contenders.items()}
        cost = {key: 1e6 / rate for key, rate in _alternate(timed, runs).items()}
        # Per step: an episode start's cost times the episodes a step (those of the last run).
        starts = cost.pop("episode start") * len(lengths) / max(1, sum(lengths))
        total = cost["env()"]
        parts = {
            "order-enforcing wrapper": total - cost["raw_env"],
            "observation vectors": cost["raw_env"] - cost["raw_env, free vectors"],
            "PettingZoo's loop (unwrapped)": cost["loop alone, unwrapped"],
            "engine": cost["engine alone"],
        }
        parts["masks, bookkeeping, the rest"] = total - sum(parts.values())
        print(f"  {name}: " + ", ".join(f"{key} {value:.1f}" for key, value in cost.items()))
        for key, value in parts.items():
            print(f"    {key:<32} {value:6.1f} us  {value / total:4.0%}")
            if key == "engine":
                mean = sum(lengths) / max(1, len(lengths))
                print(
                    f"      {'of which episode starts':<30} {starts:6.1f} us  {starts / total:4.0%}"
                    f"  (new game and deal; {mean:.1f} steps an episode)"
                )


def seen_views(game: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    """``count`` (state, seat) pairs: every seat at every position of random 2-seat games."""
    spec = game_spec(game)
    engine = spec.engine
    rules = spec.make_rules(players=2)
    rng = random.Random(seed)
    seen: list[tuple[Any, Any]] = []
    episode = seed
    while len(seen) < count:
        state = engine.new_game(rules, episode)
        episode += 1
        while len(seen) < count:
            seat = engine.current_player(state)
            if seat == CHANCE:
                state = engine.chance_step(state)
                continue
            seen.extend((state, observer) for observer in range(2))
            if seat == TERMINAL:
                break
            legal = engine.legal_actions(state, seat)
            state = engine.apply_unchecked(state, legal[rng.randrange(len(legal))], seat)
    return seen[:count]


def _observation_cost(
    game: str, reference: Callable[[Any, Any], Any], runs: int, count: int
) -> dict[str, float]:
    """Median microseconds per observation: the engine's view, the encoder, the game's
    ``observe`` (the two at once, from the state), the reference encoder."""
    spec = game_spec(game)
    engine, layout = spec.engine, spec.layout_for(2)
    seen = seen_views(game, count, 7)
    views = [engine.view(state, seat) for state, seat in seen]

    def all_views() -> None:
        for state, seat in seen:
            engine.view(state, seat)

    def encode_with(encoder: Callable[[Any, Any], Any]) -> Callable[[], None]:
        def run() -> None:
            for view in views:
                encoder(view, layout)

        return run

    def observe_all() -> None:
        observe = spec.observe
        for state, seat in seen:
            observe(state, seat, layout)

    parts = {"view": all_views, "encoder": encode_with(spec.encoder), "observe": observe_all}
    parts["reference"] = encode_with(reference)
    times: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(runs):
        for name, work in parts.items():
            started = time.perf_counter()
            work()
            times[name].append((time.perf_counter() - started) / count * 1e6)
    return {name: statistics.median(samples) for name, samples in times.items()}


def observation_costs(runs: int, count: int = 4000) -> None:
    """Part (c): microseconds per observation of the view, the encoder and the reference."""
    from tests.reference import observation_encoders as reference

    references = {
        "indecision": reference.encode_indecision,
        "indian-rummy": reference.encode_indian_rummy,
        "declaration-rummy": reference.encode_declaration_rummy,
    }
    print("(c) microseconds per observation (median of runs; the same views for each)")
    for game, first in references.items():
        cost = _observation_cost(game, first, runs, count)
        print(
            f"  {game:<18} view {cost['view']:6.2f}  encoder {cost['encoder']:6.2f}  "
            f"observe {cost['observe']:6.2f}  reference encoder {cost['reference']:6.2f} us  "
            f"(encoder {cost['reference'] / cost['encoder']:4.2f}x faster; observe "
            f"{(cost['view'] + cost['encoder']) / cost['observe']:4.2f}x view + encoder)"
        )


def openspiel_rates(runs: int, sims: int) -> None:
    """Part (b): random_sim_test games per second and transitions per second."""
    import pyspiel

    import cardtable.envs.openspiel as cardtable_spiel

    games = {
        name: pyspiel.load_game(cardtable_spiel.short_name(name) + "(players=2)") for name in ENVS
    }
    games["gin_rummy (C++)"] = pyspiel.load_game("gin_rummy")
    lengths = {name: mean_length(game, 20, 7) for name, game in games.items()}

    def measure(game: Any) -> Callable[[int], tuple[int, float]]:
        def run(_run: int) -> tuple[int, float]:
            started = time.perf_counter()
            pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
            return sims, time.perf_counter() - started

        return run

    rates = _alternate({name: measure(game) for name, game in games.items()}, runs)
    base = rates["gin_rummy (C++)"] * lengths["gin_rummy (C++)"]
    print("(b) pyspiel.random_sim_test (median of runs)")
    for name, rate in rates.items():
        transitions = rate * lengths[name]
        print(
            f"  {name:<20} {rate:8.2f} games/s  mean length {lengths[name]:6.1f}  "
            f"{transitions:9.0f} transitions/s  {transitions / base:6.3f}x gin_rummy"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one env run")
    parser.add_argument("--sims", type=int, default=5, help="random_sim_test games per run")
    parser.add_argument("--part", choices=("a", "b", "c", "d", "e", "both"), default="both")
    args = parser.parse_args(argv)
    if args.part in ("a", "both"):
        environment_steps(args.runs, args.seconds)
    if args.part in ("b", "both"):
        openspiel_rates(args.runs, args.sims)
    if args.part == "c":
        observation_costs(args.runs)
    if args.part == "d":
        playing_steps(args.runs, args.seconds)
    if args.part == "e":
        step_costs(args.runs, args.seconds)


if __name__ == "__main__":
    main()
