"""Indian Rummy as the research environments see it: its action table, observation, the rules
an environment plays and its OpenSpiel facts (the ``research`` part of the game's spec).

Actions (109): ``0`` draw stock, ``1`` draw pile, ``2`` drop, ``3 + c`` discard card ``c``,
``56 + c`` declare (show) putting ``c`` down, ``c`` in 0..52 (the printed joker is 52).

Free play (``deals=None``) has no end, so an environment plays one deal unless ``deals`` is
given. Rewards can be each finished deal's points (``shaped_rewards``). A search's rollout stops
early at a draw and guesses the show (:func:`rollout_values`).
"""

from __future__ import annotations

import dataclasses
from typing import Final

from cardtable.games.indian_rummy import actions as ir
from cardtable.games.indian_rummy.engine import hand_points
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase

from .actions import ActionIndex
from .encoding import encode_indian_rummy, indian_rummy_layout
from .spec import GameSpec, RolloutCut

ACTIONS: Final = ActionIndex(
    "indian-rummy", (ir.DRAW_STOCK, ir.DRAW_PILE, ir.DROP, *ir.DISCARDS, *ir.DECLARES)
)


def one_deal_at_least(rules: Rules) -> Rules:
    """Free play becomes one deal: an environment's game must end."""
    return dataclasses.replace(rules, deals=1) if rules.deals is None else rules


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """Utilities are minus the average points per deal: at worst a capped hand, a wrong show
    or a drop, every deal."""
    worst = max(
        rules.max_points if rules.max_points is not None else 140,
        rules.wrong_show_penalty,
        rules.first_drop,
        rules.middle_drop,
    )
    return -float(worst), 0.0


def max_game_length(rules: Rules) -> int:
    """Each deal: two actions a turn up to the turn cap, the deal and a reshuffle or two."""
    return int(rules.deals or 1) * (2 * int(rules.deal_turn_cap) + 2) + 1


ROLLOUT_HORIZON: Final = 40
"""Seat decisions of a search's rollout before it is valued by hand points."""


def at_a_draw(state: IndianRummyState) -> bool:
    """A rollout stops at the start of a turn, every hand at 13 cards."""
    return state.phase is Phase.DRAW


def rollout_values(state: IndianRummyState) -> list[float]:
    """Each seat's guessed value of a deal in progress at a draw, where a search's rollout
    stops: two playing seats seldom reach a valid show (most deals would be abandoned at the
    turn cap, worth 0 to both), so the live seat whose hand has the fewest points (its best
    arrangement, capped) is taken to show first and gets 0 (every such seat, on a tie), each
    other live seat minus its hand's points, a dropped seat minus its drop penalty. Valuing
    every seat at minus its own points instead would make a first drop (20) look better than
    playing nearly any hand."""
    rules, wild = state.rules, state.wild_rank
    points = [
        None if drop is not None else hand_points(hand, wild, rules)
        for hand, drop in zip(state.hands, state.drops, strict=True)
    ]
    best = min((p for p in points if p is not None), default=0)
    return [
        -float(drop or 0) if p is None else 0.0 if p == best else -float(p)
        for p, drop in zip(points, state.drops, strict=True)
    ]


RESEARCH: Final = GameSpec(
    name="indian-rummy",
    title="Indian Rummy",
    actions=ACTIONS,
    layout_for=indian_rummy_layout,
    encoder=encode_indian_rummy,
    default_players=2,
    max_game_length=max_game_length,
    adapt_rules=one_deal_at_least,
    utility_bounds=utility_bounds,
    shaped_rewards=True,
    rollout_cut=RolloutCut(ROLLOUT_HORIZON, at_a_draw, rollout_values),
)
"""Indian Rummy's research spec, named by its registry declaration."""
