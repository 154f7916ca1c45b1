"""What every research adapter needs to know about one game, in one :class:`ResearchSpec`.

A spec ties a registered engine to its fixed action table (:class:`~.actions.ActionIndex`), its
observation layout and encoder (built from :mod:`cardtable.envs.encoding`), the rules an
environment is built from (a named preset, a seat count and option overrides, then the game's
own adjustment), its OpenSpiel facts (default seats, utility bounds, the longest game) and a
plain-text rendering of a view (the game's ``text`` module).

Each game offered to the environments declares its spec in its own module
(``cardtable.envs.<game>``, as its bots live in ``cardtable.bots.<game>``), named by the
``research`` entry of the game's registry declaration; :func:`game_spec` and
:func:`research_games` find them through the registry, so no adapter keeps a list of games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from cardtable.errors import RulesError
from cardtable.games.contract import AnyEngine
from cardtable.registry import TEXT, get_engine, get_spec, load, specs

from .actions import ActionIndex
from .encoding import Layout, Vector


def _as_given(rules: Any) -> Any:
    return rules


def _win_or_lose(rules: Any) -> tuple[float, float]:
    return 0.0, 1.0


@dataclass(frozen=True, slots=True)
class RolloutCut:
    """Where a search's rollout of a game may stop before the end, and what each seat is then
    worth (:class:`cardtable.envs.rollouts.PlayoutEvaluator`): for games whose playing seats
    seldom finish (Indian Rummy's deals mostly run to the turn cap)."""

    horizon: int
    """Seat decisions of a rollout before it looks for a place to stop."""
    at_cut: Callable[[Any], bool]
    """Whether the rollout may stop at this state."""
    values: Callable[[Any], list[float]]
    """Each seat's guessed value of the state where the rollout stopped."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ResearchSpec:
    """One game as the research adapters see it (see the module docstring)."""

    name: str
    """The registry name."""
    title: str
    """The display name."""
    actions: ActionIndex
    """The fixed action table."""
    layout_for: Callable[[int], Layout]
    """The observation layout for a number of seats."""
    encoder: Callable[[Any, Layout], Vector]
    """A seat's view as its observation vector."""
    observe: Callable[[Any, int, Layout], Vector]
    """``(state, seat, layout)``: the same vector as ``encoder(engine.view(state, seat),
    layout)``, read from the state's fields that view shows the seat without building the view
    (the views carry display-ready parts the vector does not need); what the environments hand
    out at every step."""
    default_players: int
    """Seats when none are asked for (OpenSpiel's default parameter)."""
    max_game_length: Callable[[Any], int]
    """The most steps (chance steps and actions) a game under these rules can take."""
    adapt_rules: Callable[[Any], Any] = _as_given
    """The rules an environment plays from the rules asked for: the game's own change (Indian
    Rummy's free play becomes one deal) or refusal (``RulesError`` naming why)."""
    utility_bounds: Callable[[Any], tuple[float, float]] = _win_or_lose
    """The lowest and highest utility a seat can end with under these rules."""
    shaped_rewards: bool = False
    """Whether the environments can reward each finished deal by its points."""
    rollout_cut: RolloutCut | None = None
    """Where a search's rollout may stop early; ``None``: rollouts play to the end."""
    without_wrong_shows: Callable[[Any, int, Sequence[Any]], Sequence[Any]] | None = None
    """For a game where a seat may declare a show the rules then find wrong (Indian Rummy): the
    legal actions ``(state, seat, legal)`` keeps when such shows are left out. The OpenSpiel game
    then has the parameter ``wrong_shows`` (default true); with ``wrong_shows=false`` its seats
    are offered only valid shows. A search that tries every action once (OpenSpiel's
    information-set MCTS) otherwise spends its budget on a dozen certain 80-point penalties a
    turn and values playing on below dropping. ``None``: the game has no such actions."""

    @property
    def engine(self) -> AnyEngine:
        """The game's engine from the registry."""
        return get_engine(self.name)

    def make_rules(
        self,
        *,
        players: int | None = None,
        preset: str = "default",
        rules: Mapping[str, Any] | None = None,
    ) -> Any:
        """Rules from a named ``preset``, then ``players`` and the option overrides ``rules``,
        then the game's own change (:attr:`adapt_rules`).

        Raises ``RulesError`` naming the problem (an unknown preset or option, a bad value).
        """
        engine = self.engine
        presets = engine.presets()
        if preset not in presets:
            raise RulesError(
                f"unknown {self.title} preset {preset!r}: choose one of {', '.join(presets)}"
            )
        base = presets[preset]
        changes: dict[str, Any] = dict(engine.rules_to_json(base))
        changes.update(rules or {})
        if players is not None:
            changes["players"] = players
        return self.adapt_rules(engine.rules_from_json(changes))

    def check_shaped_rewards(self) -> None:
        """``ValueError`` naming the games that offer rewards per deal, unless this one does."""
        if not self.shaped_rewards:
            offered = " and ".join(spec.title for spec in research_games() if spec.shaped_rewards)
            raise ValueError(f"shaped_rewards (points per deal) applies to {offered} only")

    def render_markup(self, view: Any) -> str:
        """The table as ``view.seat`` sees it, in the game's terminal markup."""
        return TEXT.load(self.name).render_view(view)

    def render_text(self, view: Any) -> str:
        """The table as ``view.seat`` sees it, in plain text."""
        return Text.from_markup(self.render_markup(view)).plain


def game_spec(name: str) -> ResearchSpec:
    """The research spec of ``name`` (a registered game name or alias); ``RulesError`` when
    the game is not offered by the research environments."""
    declared = get_spec(name)
    if declared.research is None:
        raise RulesError(f"{declared.title} is not offered by the research environments")
    spec: ResearchSpec = load(declared.research)
    return spec


def research_games() -> tuple[ResearchSpec, ...]:
    """The research spec of every registered game that has one, in menu order."""
    return tuple(game_spec(declared.name) for declared in specs() if declared.research)
