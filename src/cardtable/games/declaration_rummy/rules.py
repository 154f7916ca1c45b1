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
    """Declaration Rummy rules.

    * ``players`` 2-10; ``cards_dealt`` within :data:`DEAL_SIZES` (``None``: the most allowed).
    * ``optional_cards``: labels of the optional cards in play.
    * ``offer_cut``: the player to the dealer's right cuts (a chance step in software).
    * Variations: ``gin_rummy`` (declare only with a count of at most ``gin_threshold``),
      ``declare_bonus``, ``going_out_single_meld`` (Going Out Major or Minor),
      ``declare_or_go_out``, ``three_card_draw``, ``four_sevens``, ``spread_out_discard``,
      ``missing_cards`` with ``missing_optional`` (0-12) and ``missing_regular`` (0-7),
      ``seating``, ``shuffle_option``.
    * ``match``: play a match, first to ``match_wins`` game wins; ``match_game_cap`` games at
      most (safeguard against endless tie games: then the most game wins take the match).
    * ``exhaustion_circuits``: full circuits of turns allowed after the stock is exhausted
      before the game ends as if declined (safeguard); ``turn_cap``: turns after which any game
      ends that way (safeguard for Declare or Go Out).
    """

    players: int = 4
    cards_dealt: int | None = None
    optional_cards: tuple[str, ...] = ()
    offer_cut: bool = True
    gin_rummy: bool = False
    gin_threshold: int = 7
    declare_bonus: bool = False
    going_out_single_meld: bool = False
    declare_or_go_out: bool = False
    three_card_draw: bool = False
    four_sevens: bool = False
    spread_out_discard: bool = False
    missing_cards: bool = False
    missing_optional: int = 0
    missing_regular: int = 0
    seating: bool = False
    shuffle_option: bool = False
    match: bool = False
    match_wins: int = 2
    match_game_cap: int = 25
    exhaustion_circuits: int = 2
    turn_cap: int = 600

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 10:
            raise RulesError(f"Declaration Rummy is for 2 to 10 players, not {self.players!r}")
        low, high = DEAL_SIZES[self.players]
        if self.cards_dealt is not None and (
            not isinstance(self.cards_dealt, int) or not low <= self.cards_dealt <= high
        ):
            raise RulesError(
                f"with {self.players} players each is dealt {low} to {high} cards, "
                f"not {self.cards_dealt!r}"
            )
        object.__setattr__(self, "optional_cards", canonical_optional(list(self.optional_cards)))
        if not 0 <= self.missing_optional <= 12:
            raise RulesError(f"missing_optional must be 0-12, not {self.missing_optional!r}")
        if not 0 <= self.missing_regular <= 7:
            raise RulesError(f"missing_regular must be 0-7, not {self.missing_regular!r}")
        if not isinstance(self.gin_threshold, int) or self.gin_threshold < 0:
            raise RulesError("gin_threshold must be a whole number of at least 0")
        if not isinstance(self.match_wins, int) or self.match_wins < 1:
            raise RulesError("match_wins must be a positive whole number")
        if not isinstance(self.match_game_cap, int) or self.match_game_cap < 1:
            raise RulesError("match_game_cap must be a positive whole number")
        if self.exhaustion_circuits < 1 or self.turn_cap < 1:
            raise RulesError("exhaustion_circuits and turn_cap must be positive")

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
