"""Every setting of Declaration Rummy (RULES.md 3.2, 3.9-3.11): deal size, the twelve optional
cards and the ten variations, as one frozen, keyword-only dataclass, plus named presets.

Optional cards are named by their labels (``C1 C2 C3 C4 C7 C12 NM0 NM2 CD0 W``); ``W`` may be
listed up to three times, once for each WILDCARD in play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from cardtable.errors import RulesError
from cardtable.rule_options import RuleGroup, check_options, option

OPTIONAL_LABELS: Final = ("C1", "C2", "C3", "C4", "C7", "C12", "NM0", "NM2", "CD0", "W")
ALL_OPTIONAL: Final = ("C1", "C2", "C3", "C4", "C7", "C12", "NM0", "NM2", "CD0", "W", "W", "W")

DEAL_SIZES: Final = {
    2: (2, 10),
    3: (2, 10),
    4: (2, 7),
    5: (2, 5),
    6: (2, 5),
    7: (2, 3),
    8: (2, 2),
    9: (2, 2),
    10: (2, 2),
}
"""Players -> (fewest, most) cards dealt to each (RULES.md 3.2)."""


def canonical_optional(labels: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Optional card labels validated and in table order (``W`` repeated per wildcard)."""
    normalised = [label.strip().upper() for label in labels]
    counts = Counter(normalised)
    for label, n in counts.items():
        if label not in OPTIONAL_LABELS:
            raise RulesError(
                f"unknown optional card {label!r}: choose from {' '.join(OPTIONAL_LABELS)}"
            )
        limit = 3 if label == "W" else 1
        if n > limit:
            raise RulesError(f"optional card {label} can be chosen at most {limit} time(s)")
    return tuple(sorted(normalised, key=OPTIONAL_LABELS.index))


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Declaration Rummy rules: each field is declared with its words and bounds
    (:func:`option`); the validation and the house-rules form are generated from them."""

    players: int = option(
        4,
        group=RuleGroup.PLAYERS,
        label="Players",
        help="How many play: 2 to 10.",
        low=2,
        high=10,
        message="Declaration Rummy is for {low} to {high} players, not {value!r}",
    )
    cards_dealt: int | None = option(
        None,
        group=RuleGroup.PLAYERS,
        label="Cards dealt to each player",
        help=(
            "How many cards each player is dealt: up to 10 with 2 or 3 players, 7 with 4, "
            "5 with 5 or 6, 3 with 7 and 2 with 8 or more; empty for the most the table allows."
        ),
        bounds_by=("players", DEAL_SIZES),
        message="with {players} players each is dealt {low} to {high} cards, not {value!r}",
    )
    optional_cards: tuple[str, ...] = option(
        (),
        group=RuleGroup.PLAYERS,
        label="Optional cards",
        help=(
            "The special cards shuffled in: COUNT cards (1, 2, 3, 4, 7, 12) meld only with each "
            "other, NO MELD cards never meld (NO MELD 2 can never be discarded), CAN'T DECLARE 0 "
            "stops its holder declaring, and up to three WILDCARDs stand in for any card."
        ),
        choices=OPTIONAL_LABELS,
        repeats={"W": 3},
    )
    offer_cut: bool = option(
        True,
        group=RuleGroup.PLAYERS,
        label="Offer the cut",
        help="The player on the dealer's right may cut the shuffled pack before the deal.",
    )
    gin_rummy: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Gin Rummy variation",
        help=(
            "You may declare only with a count of at most the gin limit (7 unless changed), "
            "counting the card you drew."
        ),
    )
    gin_threshold: int = option(
        7,
        group=RuleGroup.VARIATIONS,
        label="Gin limit",
        help="With the Gin Rummy variation, the highest count you may declare with.",
        low=0,
        high=200,
    )
    declare_bonus: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Declare Bonus",
        help="The declarer's count is compared as one less, so a declarer with 8 ties a 7.",
    )
    going_out_single_meld: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Going Out Major or Minor",
        help=(
            "To go out, your cards must form one single meld: all of them (Major) or all but "
            "one (Minor); two separate melds do not go out."
        ),
    )
    declare_or_go_out: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Declare or Go Out",
        help=(
            "The game never ends because the stock is used up: the discard pile, all but its "
            "top card, is shuffled into a new stock until someone declares or goes out."
        ),
    )
    three_card_draw: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Three-Card Draw",
        help=(
            "A player who takes the top discard may also take the next discard and the top "
            "stock card (both or neither), then discards one card as usual."
        ),
    )
    four_sevens: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Four 7's",
        help="Laying down all four natural sevens during your turn wins the game at once.",
    )
    spread_out_discard: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Spread-Out Discard-Pile",
        help=(
            "The discard pile is fanned out so every card shows; you may take any card of it "
            "together with all the cards above it."
        ),
    )
    missing_cards: bool = option(
        False,
        group=RuleGroup.VARIATIONS,
        label="Missing Cards",
        help=(
            "Before the deal some optional cards, then some cards of the whole pack, are "
            "removed unseen, so nobody knows exactly which cards are in play."
        ),
    )
    missing_optional: int = option(
        0,
        group=RuleGroup.VARIATIONS,
        label="Optional cards removed unseen",
        help="With Missing Cards, how many of the chosen optional cards are removed (0 to 12).",
        low=0,
        high=12,
    )
    missing_regular: int = option(
        0,
        group=RuleGroup.VARIATIONS,
        label="Pack cards removed unseen",
        help="With Missing Cards, how many cards of the shuffled pack are then removed (0 to 7).",
        low=0,
        high=7,
    )
    seating: bool = option(
        False,
        group=RuleGroup.PLAYERS,
        label="Seating",
        help=(
            "The first deal also sets the seats: the lowest card picks a place, the first dealer "
            "sits on its right, and the next-lowest cards choose the free places in turn."
        ),
    )
    shuffle_option: bool = option(
        False,
        group=RuleGroup.PLAYERS,
        label="Shuffle Option",
        help=(
            "After the shuffle the dealer also deals the pack into seven piles and stacks them "
            "again."
        ),
    )
    match: bool = option(
        False,
        group=RuleGroup.SCORING,
        label="Play a match",
        help="Play several games: the winner of each draws first in the next.",
    )
    match_wins: int = option(
        2,
        group=RuleGroup.SCORING,
        label="Games to win the match",
        help="In a match, the first player to win this many games wins the match.",
        low=1,
        high=25,
    )
    match_game_cap: int = option(
        25,
        group=RuleGroup.SAFEGUARDS,
        label="Most games in a match",
        help=(
            "A match ends after this many games even with no winner yet; the most games won "
            "then takes it."
        ),
        low=1,
        high=1000,
    )
    exhaustion_circuits: int = option(
        2,
        group=RuleGroup.SAFEGUARDS,
        label="Rounds after the stock runs out",
        help=(
            "Once the stock is used up, after this many full rounds of turns the game ends on "
            "the counts, as if a player had declined the discard pile."
        ),
        low=1,
        high=100,
    )
    turn_cap: int = option(
        600,
        group=RuleGroup.SAFEGUARDS,
        label="Most turns in a game",
        help=(
            "A game that lasts this many turns ends on the counts, as if a player had declined "
            "the discard pile; the lowest count wins."
        ),
        low=1,
        high=10_000,
    )

    def __post_init__(self) -> None:
        labels = self.optional_cards
        if isinstance(labels, list | tuple) and all(isinstance(label, str) for label in labels):
            object.__setattr__(self, "optional_cards", canonical_optional(list(labels)))
        check_options(self)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (the chosen number, or the most the table allows)."""
        return self.cards_dealt if self.cards_dealt is not None else DEAL_SIZES[self.players][1]


PRESETS: Final[dict[str, Rules]] = {
    "default": Rules(),
    "gin": Rules(gin_rummy=True),
    "all-optional": Rules(optional_cards=ALL_OPTIONAL),
    "gin-all-optional": Rules(gin_rummy=True, optional_cards=ALL_OPTIONAL),
    "match": Rules(match=True),
    "spread-out": Rules(spread_out_discard=True, three_card_draw=True),
    "declare-or-go-out": Rules(declare_or_go_out=True),
    "missing-cards": Rules(
        missing_cards=True, optional_cards=ALL_OPTIONAL, missing_optional=4, missing_regular=3
    ),
}
