"""Every option of Indecision (RULES.md 1.7 and 1.8), as one frozen, keyword-only dataclass.

The defaults reproduce the rule book; each [GUESS] meld value (the :class:`MeldValues` table,
defined beside the scorer) and each [DEC] resolution is a setting, declared with its words and
bounds through :func:`cardtable.rule_options.option`.
Named presets live in :data:`PRESETS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from cardtable.cards import format_cards, parse_cards
from cardtable.melds.indecision import MeldValues, scorer_for
from cardtable.rule_options import RuleGroup, check_options, option

__all__ = ["PRESETS", "DeckExhaustion", "MeldValues", "Rules", "WinCheck"]

WinCheck = Literal["counting-order", "end-of-round"]
DeckExhaustion = Literal["reshuffle", "score-hand"]

BIKE_INSIDE_EXAMPLE: Final = parse_cards("AS 2S 3S 4S 5H")
"""The hand the house rule on Runs on a Bike inside longer runs is explained with."""


def _bike_inside_help() -> str:
    """The help of ``bike_inside_longer_run_counts``, its example counted by the scorer itself
    (standard values), so that the words cannot say other than the engine counts."""
    usual = scorer_for(MeldValues(), False).count(BIKE_INSIDE_EXAMPLE)
    counted = scorer_for(MeldValues(), True).count(BIKE_INSIDE_EXAMPLE)
    melds = " plus ".join(f"a {meld.name} for {meld.points}" for meld in counted.melds)
    hand = format_cards(BIKE_INSIDE_EXAMPLE, symbols=True)
    return (
        "Also count a Run on a Bike inside a longer run of mixed suits (its longest stretch of "
        f"one suit, three cards or more): with the standard values, {hand} then scores "
        f"{counted.score} instead of {usual.score}, {melds}."
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Indecision rules: each field is declared with its words and bounds (:func:`option`); the
    validation and the house-rules form are generated from them."""

    players: int = option(
        2,
        group=RuleGroup.PLAYERS,
        label="Players",
        help="How many play: 2, 3 or 4.",
        low=2,
        high=4,
        message="Indecision is for {low} to {high} players, not {value!r}",
    )
    meld_values: MeldValues = option(
        group=RuleGroup.SCORING,
        label="Meld values",
        help="How many points each kind of meld scores.",
        default_factory=MeldValues,
    )
    bike_inside_longer_run_counts: bool = option(
        False,
        group=RuleGroup.SCORING,
        label="Runs on a Bike inside longer runs",
        help=_bike_inside_help(),
    )
    strict_stop_turns: bool = option(
        False,
        group=RuleGroup.PLAY,
        label="Everyone must finish a turn before a stop",
        help=(
            "A player may stop only once every player has finished a whole turn before this "
            "one; otherwise the current turn and the opening discard count."
        ),
    )
    win_check: WinCheck = option(
        "counting-order",
        group=RuleGroup.SCORING,
        label="Who wins at the target",
        help="How the winner is found when totals reach the target score.",
        choice_labels={
            "counting-order": "The first to reach it while the hands are counted from the stopper",
            "end-of-round": "The highest total once every hand of the round is counted",
        },
    )
    manual_declaration: bool = option(
        False,
        group=RuleGroup.SCORING,
        label="Players announce their own scores",
        help=(
            "After a hand, each player announces a score and may correct it once; a claim "
            "above the true score is challenged and costs twice the excess."
        ),
    )
    warn_invalid_stop: bool = option(
        True,
        group=RuleGroup.PLAY,
        label="Warn before a stop that scores nothing",
        help="Ask for confirmation before a stop that would score 0.",
    )
    target_score: int = option(
        121,
        group=RuleGroup.SCORING,
        label="Points to win",
        help="The total a player must reach to win the game.",
        low=1,
        high=10_000,
    )
    may_discard_taken_card: bool = option(
        True,
        group=RuleGroup.PLAY,
        label="A card taken from the pile may go straight back",
        help="Allow discarding the card just taken from the pile in the same turn.",
    )
    deck_exhaustion: DeckExhaustion = option(
        "reshuffle",
        group=RuleGroup.PLAY,
        label="When the deck runs out",
        help=(
            "What happens once the deck is used up: either the pile under its top card is "
            "shuffled into a new deck when someone next draws from the deck, or the hand ends "
            "as soon as the deck is used up (once the turn that took its last card is over) "
            "and every player is scored."
        ),
        choice_labels={
            "reshuffle": "Shuffle the pile under its top card into a new deck",
            "score-hand": "End the hand at once and score every player",
        },
    )
    hand_turn_cap: int = option(
        200,
        group=RuleGroup.SAFEGUARDS,
        label="Most turns in a hand",
        help=(
            "A hand that lasts this many turns ends: with people at the table every hand is "
            "scored as when the deck runs out; games between computer players only are "
            "abandoned unscored."
        ),
        low=1,
        high=10_000,
    )
    hand_cap: int = option(
        200,
        group=RuleGroup.SAFEGUARDS,
        label="Most hands in a game",
        help=(
            "After this many hands the game ends: with people at the table the highest total "
            "wins; games between computer players only end without a winner."
        ),
        low=1,
        high=10_000,
    )
    people_seated: bool = option(
        False,
        label="People at the table",
        help="Set by the table when a person plays, so that the limits keep the points earned.",
        table_sets=True,
    )

    def __post_init__(self) -> None:
        check_options(self)


PRESETS: Final[dict[str, Rules]] = {
    "default": Rules(),
    "manual-declaration": Rules(manual_declaration=True),
    "strict": Rules(strict_stop_turns=True, may_discard_taken_card=False),
    "short": Rules(target_score=61),
}
