"""Every option of Indecision (RULES.md 1.7 and 1.8), as one frozen, keyword-only dataclass.

The defaults reproduce the rule book; each [GUESS] meld value (the :class:`MeldValues` table,
defined beside the scorer) and each [DEC] resolution is a setting.
Named presets live in :data:`PRESETS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from cardtable.errors import RulesError
from cardtable.melds.indecision import MeldValues

__all__ = ["PRESETS", "DeckExhaustion", "MeldValues", "Rules", "WinCheck"]

WinCheck = Literal["counting-order", "end-of-round"]
DeckExhaustion = Literal["reshuffle", "score-hand"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Indecision rules.

    * ``players``: 2-4.
    * ``meld_values``: the meld value table.
    * ``bike_inside_longer_run_counts``: also count a Run on a Bike inside a longer mixed run
      (RULES.md 1.6 alternative; default off).
    * ``strict_stop_turns``: stop requirement 1 needs every player to have *completed* a turn
      before the current one (default: the current turn and the opening discard count).
    * ``win_check``: ``counting-order`` (first to reach the target while hands are scored from
      the stopper clockwise wins at once) or ``end-of-round`` (score the whole round, then the
      highest total at or over the target wins).
    * ``manual_declaration``: players announce their own score (RULES.md 1.5).
    * ``warn_invalid_stop``: interfaces ask before a stop that would forfeit.
    * ``target_score``: 121.
    * ``may_discard_taken_card``: a card just taken from the pile may be discarded straight back.
    * ``deck_exhaustion``: ``reshuffle`` the pile under its top card into a new deck, or
      ``score-hand``: the hand ends with no stopper and everyone is scored.
    * ``hand_turn_cap``: turns after which a hand ends (safeguard): abandoned with no score in
      computer-only play; with people seated, every hand is counted as when the deck runs out.
    * ``hand_cap``: hands after which the game ends (safeguard): abandoned with no winner in
      computer-only play; with people seated, the highest total wins.
    * ``people_seated``: set by the table, not chosen: a person plays at this table.
    """

    players: int = 2
    meld_values: MeldValues = field(default_factory=MeldValues)
    bike_inside_longer_run_counts: bool = False
    strict_stop_turns: bool = False
    win_check: WinCheck = "counting-order"
    manual_declaration: bool = False
    warn_invalid_stop: bool = True
    target_score: int = 121
    may_discard_taken_card: bool = True
    deck_exhaustion: DeckExhaustion = "reshuffle"
    hand_turn_cap: int = 200
    hand_cap: int = 200
    people_seated: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise RulesError(f"Indecision is for 2 to 4 players, not {self.players!r}")
        if not isinstance(self.meld_values, MeldValues):
            raise RulesError("meld_values must be a MeldValues table")
        if self.win_check not in ("counting-order", "end-of-round"):
            raise RulesError(
                f"win_check must be 'counting-order' or 'end-of-round', not {self.win_check!r}"
            )
        if self.deck_exhaustion not in ("reshuffle", "score-hand"):
            raise RulesError(
                f"deck_exhaustion must be 'reshuffle' or 'score-hand', not {self.deck_exhaustion!r}"
            )
        for name in ("target_score", "hand_turn_cap", "hand_cap"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RulesError(f"{name} must be a positive whole number, not {value!r}")
        for name in (
            "bike_inside_longer_run_counts",
            "strict_stop_turns",
            "manual_declaration",
            "warn_invalid_stop",
            "may_discard_taken_card",
            "people_seated",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false")


PRESETS: Final[dict[str, Rules]] = {
    "default": Rules(),
    "manual-declaration": Rules(manual_declaration=True),
    "strict": Rules(strict_stop_turns=True, may_discard_taken_card=False),
    "short": Rules(target_score=61),
}
