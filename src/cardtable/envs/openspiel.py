"""OpenSpiel games for every game with a research spec, registered with ``pyspiel`` on import.

After ``import cardtable.envs.openspiel``, ``pyspiel.load_game`` knows
``python_cardtable_<game>`` (``python_cardtable_indecision``, ``python_cardtable_indian_rummy``
and ``python_cardtable_declaration_rummy``), with the parameters ``players`` and ``preset`` (a named
rule set), e.g. ``python_cardtable_indian_rummy(players=3,preset=no-cap)``. Indian Rummy also
takes ``wrong_shows`` (default true): with ``wrong_shows=false`` a seat is offered a show only
when it is valid (the research spec's ``without_wrong_shows``), which is what lets OpenSpiel's
information-set MCTS, trying every action of a node once, search the game at all.

Chance is card by card (:mod:`cardtable.envs.chance`): a shuffle is one chance node per card,
in the order the engine deals them, each outcome a card id with its true probability (the share
of the unplaced cards that are copies of it); a first dealer or a cut depth is one node of
equally likely numbers. The whole pack is dealt up front this way, the stock's order included,
so the stock is part of the hidden state like the other hands: ``resample_from_infostate``
redeals it with them, and search sees the true probability of every card. A game is fixed by
its history of chance outcomes and actions (which is how OpenSpiel serialises states, and why
deserialising replays them exactly). Player actions are the game's fixed action table (its
research spec's :class:`~cardtable.envs.actions.ActionIndex`); out-of-turn actions (a
Declaration Rummy drop while another seat is on turn) are not offered.

Information: the information-state string of a seat is its whole view (own hand and the public
history since the deal, as JSON), the observation string the same view without its log of
events; both tensors are the observation vector of :mod:`cardtable.envs.encoding`.
``resample_from_infostate`` deals the cards a seat cannot see at random consistent with its
view (the engine's ``determinize``), which is what information-set MCTS needs. Returns are the
game's utilities. :class:`CardtableBot` lets cardtable's computer players play through
OpenSpiel's tools; :class:`SeededResampler` makes an information-set search replayable (OpenSpiel
otherwise draws its redeals from an unseeded sampler).
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import numpy as np
import pyspiel

from cardtable.bots import Bot, make_bot
from cardtable.cards import format_card
from cardtable.games.contract import CHANCE, TERMINAL

from .chance import CARD, MAX_CHANCE_OUTCOMES, ChanceNode, NeedOutcome, ScriptedRandom
from .spec import ResearchSpec, research_games


def short_name(game: str) -> str:
    """The OpenSpiel name of a cardtable game, e.g. ``python_cardtable_indian_rummy``."""
    return "python_cardtable_" + game.replace("-", "_")


def _game_type(spec: ResearchSpec) -> Any:
    return pyspiel.GameType(
        short_name=short_name(spec.name),
        long_name=f"cardtable {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.engine.max_players,
        min_num_players=spec.engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(spec),
    )


def _parameters(spec: ResearchSpec) -> dict[str, Any]:
    """The game's OpenSpiel parameters and their defaults."""
    parameters: dict[str, Any] = {"players": spec.default_players, "preset": "default"}
    if spec.without_wrong_shows is not None:
        parameters["wrong_shows"] = True
    return parameters


class _Shared:
    """Holds an immutable value that copies of a state share: OpenSpiel clones a Python state
    with ``copy.deepcopy``, and an engine state or a game's context never changes in place."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Context:
    """What every state of one loaded game needs: the spec, rules, engine and layout."""

    def __init__(self, spec: ResearchSpec, rules: Any, layout: Any, wrong_shows: bool) -> None:
        self.spec = spec
        self.rules = rules
        self.engine = spec.engine
        self.layout = layout
        self.keep = None if wrong_shows else spec.without_wrong_shows
        """The filter of the legal actions (``wrong_shows=false``), or ``None``."""


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """One cardtable game as an OpenSpiel game (see the module docstring)."""

    spec: ResearchSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = self.spec
        self.rules = spec.make_rules(
            players=int(params.get("players", spec.default_players)),
            preset=str(params.get("preset", "default")),
        )
        self.engine = spec.engine
        self.layout = spec.layout_for(self.rules.players)
        self.wrong_shows = bool(params.get("wrong_shows", True))
        if not self.wrong_shows and spec.without_wrong_shows is None:
            raise ValueError(f"{spec.title} has no wrong shows to leave out")
        low, high = spec.utility_bounds(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.actions),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            max_game_length=spec.max_game_length(self.rules),
        )
        super().__init__(_game_type(spec), info, params)

    def new_initial_state(self) -> CardtableState:
        """The game before its first chance step."""
        context = _Context(self.spec, self.rules, self.layout, self.wrong_shows)
        return CardtableState(self, _Shared(context), self.engine.new_game(self.rules, 0))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CardtableObserver:
        """The observer for information states (perfect recall) or observations."""
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CardtableObserver(self, perfect_recall)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's immutable state inside OpenSpiel's state object."""

    def __init__(self, game: Any, context: _Shared, engine_state: Any) -> None:
        super().__init__(game)
        self._context = context
        self._held = _Shared(engine_state)
        self._views: dict[int, Any] = {}
        self._strings: dict[tuple[int, bool], str] = {}
        # The outcomes chosen so far for the engine's chance step in progress, and the next
        # chance node (shared by copies: never changed in place).
        self._script: tuple[int, ...] = ()
        self._pending = _Shared(None)
        self._settle()

    @property
    def _game(self) -> _Context:
        context: _Context = self._context.value
        return context

    @property
    def engine_state(self) -> Any:
        """The engine's (immutable) state."""
        return self._held.value

    @engine_state.setter
    def engine_state(self, value: Any) -> None:
        self._held = _Shared(value)
        self._views = {}
        self._strings = {}

    def current_player(self) -> int:
        seat: int = self._game.engine.current_player(self.engine_state)
        if seat == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if seat == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        game = self._game
        engine, state = game.engine, self.engine_state
        if engine.current_player(state) != player:
            return []
        legal = engine.legal_actions(state, player)
        if game.keep is not None:
            legal = game.keep(state, player, legal)
        return sorted(game.spec.actions.indices(legal))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending: ChanceNode | None = self._pending.value
        return [] if pending is None else list(pending.outcomes)

    def _settle(self) -> None:
        """Run the engine's chance steps as far as the chosen outcomes go; leave the next
        chance node's outcomes in ``_pending`` (``None`` when a seat acts or the game is over)."""
        engine = self._game.engine
        while engine.current_player(self.engine_state) == CHANCE:
            try:
                after = engine.chance_step(self.engine_state, ScriptedRandom(self._script))
            except NeedOutcome as need:
                self._pending = _Shared(need.node)
                return
            self._script = ()
            self.engine_state = after
        self._pending = _Shared(None)

    def _apply_action(self, action: int) -> None:
        game = self._game
        engine = game.engine
        seat = engine.current_player(self.engine_state)
        if seat == CHANCE:
            pending: ChanceNode | None = self._pending.value
            if pending is None or all(action != outcome for outcome, _ in pending.outcomes):
                raise ValueError(f"{action} is not an outcome of this chance node")
            self._script = (*self._script, int(action))
            # Within one draw the next node is known without running the step again.
            following = pending.then(int(action))
            if following is None:
                self._settle()
            else:
                self._pending = _Shared(following)
            return
        chosen = game.spec.actions.action(int(action))
        if game.keep is not None and not game.keep(self.engine_state, seat, [chosen]):
            raise ValueError(
                f"{chosen} is a wrong show, which this game (wrong_shows=false) refuses"
            )
        self.engine_state = engine.apply(self.engine_state, chosen, seat)
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            pending: ChanceNode | None = self._pending.value
            if pending is not None and pending.kind == CARD:
                return f"deal {format_card(int(action))}"
            return f"draw {action}"
        return str(self._game.spec.actions.action(int(action)))

    def is_terminal(self) -> bool:
        return bool(self._game.engine.current_player(self.engine_state) == TERMINAL)

    def returns(self) -> list[float]:
        result = self._game.engine.result(self.engine_state)
        if result is None:
            return [0.0] * self._game.rules.players
        return [float(u) for u in result.utilities]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableState:
        """A state ``player_id`` cannot tell from this one: its unseen cards dealt at random."""
        engine = self._game.engine
        view = engine.view(self.engine_state, player_id)
        rng = random.Random(int(probability_sampler() * 2**53))
        return CardtableState(self.get_game(), self._context, engine.determinize(view, rng))

    def view_of(self, player: int) -> Any:
        """The engine view of ``player`` (kept until the state changes: OpenSpiel asks for
        strings and tensors of the same seat several times per state)."""
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self._game.engine.view(self.engine_state, player)
        return view

    def view_string(self, player: int, perfect_recall: bool) -> str:
        """The seat's whole view as JSON (information state), or the view without its log of
        events (observation); kept until the state changes, as a search asks for the same
        seat's string several times per state."""
        key = (player, perfect_recall)
        text = self._strings.get(key)
        if text is None:
            data = self.view_of(player).to_json()
            if not perfect_recall:
                data.pop("events", None)
            text = self._strings[key] = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return text

    def __str__(self) -> str:
        return repr(self.engine_state)


class CardtableObserver:
    """OpenSpiel's observer interface: a tensor and a string of one seat's view."""

    def __init__(self, game: CardtableGame, perfect_recall: bool) -> None:
        self._game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict: dict[str, Any] = {}
        for name, size in game.layout.segments:
            start = game.layout.offsets[name]
            self.dict[name] = self.tensor[start : start + size]

    def set_from(self, state: CardtableState, player: int) -> None:
        """Fill the tensor with ``player``'s observation vector of ``state``."""
        view = state.view_of(player)
        self.tensor[:] = self._game.spec.encoder(view, self._game.layout)

    def string_from(self, state: CardtableState, player: int) -> str:
        """The seat's whole view as JSON (information state), or the view without its log of
        events (observation)."""
        return state.view_string(player, self.perfect_recall)


class CardtableBot(pyspiel.Bot):  # type: ignore[misc]
    """A cardtable computer player (``make_bot(game, level)``) as an OpenSpiel bot."""

    def __init__(self, game: CardtableGame, player: int, level: str, seed: int = 0) -> None:
        super().__init__()
        self._game = game
        self._player = player
        self._bot: Bot = make_bot(game.spec.name, level)
        self._rng = random.Random(seed)

    def step(self, state: CardtableState) -> int:
        engine = self._game.engine
        legal = engine.legal_actions(state.engine_state, self._player)
        action = self._bot.choose(state.view_of(self._player), legal, self._rng)
        return self._game.spec.actions.index(action)

    def restart_at(self, state: CardtableState) -> None:
        pass

    def inform_action(self, state: CardtableState, player_id: int, action: int) -> None:
        pass


class SeededResampler:
    """Redeals a seat's unseen cards from ``seed``'s own stream, for
    ``ISMCTSBot.set_resampler``.

    OpenSpiel's information-set MCTS, left to itself, resamples through a
    ``UniformProbabilitySampler`` seeded by the operating system, so a search given a seeded
    ``random_state`` and a seeded evaluator still redeals differently, and so plays
    differently, in every process. With this resampler the whole search is fixed by its seeds.
    """

    def __init__(self, seed: int) -> None:
        self._draw = random.Random(seed).random

    def __call__(self, state: CardtableState, player: int) -> CardtableState:
        return state.resample_from_infostate(player, self._draw)


def _register(spec: ResearchSpec) -> type[CardtableGame]:
    """Register ``spec``'s game with OpenSpiel under :func:`short_name`; its game class."""
    cls = type(f"{spec.title.replace(' ', '')}Game", (CardtableGame,), {"spec": spec})
    pyspiel.register_game(_game_type(spec), cls)
    return cls


GAMES: Final = {spec.name: _register(spec) for spec in research_games()}
"""Every research game's OpenSpiel game class, by registry name, registered on import."""
