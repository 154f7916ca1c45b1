"""Every option and house rule of Indian Rummy (RULES.md 2.11, 2.12), as one frozen dataclass.

The defaults reproduce the seed exactly; every row of the house-rules panel is a field here.
Named presets live in :data:`PRESETS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from cardtable.errors import RulesError

JokerFromDiscard = Literal["never", "opening-card"]
WrongShowOthers = Literal["zero", "counted"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Indian Rummy rules.

    * ``players``: 2-4 (up to 6 with ``allow_six_players``, as Pagat's Paplu).
    * ``drops_allowed``, ``first_drop``, ``middle_drop``: dropping and its penalties (20/40).
    * ``max_points``: the cap on a deal's points (80); ``None`` for no cap.
    * ``wrong_show_penalty``: 80. ``wrong_show_others``: after a wrong show the others score
      ``zero`` (default) or are ``counted`` as after a valid show.
    * ``printed_jokers``: 2 or 0 printed jokers in the pack.
    * ``wild_joker_cut``: cut a wild joker (else only printed jokers are jokers).
    * ``joker_from_discard``: a joker on the discard pile may ``never`` be taken, or only when it
      is the ``opening-card`` of the pile.
    * ``jokers_per_sequence``: ``None`` for no limit, or the most jokers standing in per sequence.
    * ``all_joker_groups``: groups made only of jokers are allowed.
    * ``deals``: deals in one game; ``None`` is free play (deal after deal until a new game).
    * ``deal_turn_cap``: turns after which a deal ends (safeguard): in computer-only play it is
      abandoned and nobody scores; with people seated drop penalties stand and the others score 0.
    * ``people_seated``: set by the table, not chosen: a person plays at this table.
    """

    players: int = 2
    allow_six_players: bool = False
    drops_allowed: bool = True
    first_drop: int = 20
    middle_drop: int = 40
    max_points: int | None = 80
    wrong_show_penalty: int = 80
    wrong_show_others: WrongShowOthers = "zero"
    printed_jokers: int = 2
    wild_joker_cut: bool = True
    joker_from_discard: JokerFromDiscard = "never"
    jokers_per_sequence: int | None = None
    all_joker_groups: bool = False
    deals: int | None = None
    deal_turn_cap: int = 400
    people_seated: bool = False

    def __post_init__(self) -> None:
        top = 6 if self.allow_six_players else 4
        if not isinstance(self.players, int) or not 2 <= self.players <= top:
            raise RulesError(f"Indian Rummy is for 2 to {top} players, not {self.players!r}")
        for name in ("first_drop", "middle_drop", "wrong_show_penalty"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
                raise RulesError(f"{name} must be a whole number 0-1000, not {value!r}")
        if self.max_points is not None and (
            not isinstance(self.max_points, int) or self.max_points < 1
        ):
            raise RulesError(
                f"max_points must be a positive number or none, not {self.max_points!r}"
            )
        if self.printed_jokers not in (0, 2):
            raise RulesError(f"printed_jokers must be 0 or 2, not {self.printed_jokers!r}")
        if self.joker_from_discard not in ("never", "opening-card"):
            raise RulesError(
                "joker_from_discard must be 'never' or 'opening-card', "
                f"not {self.joker_from_discard!r}"
            )
        if self.wrong_show_others not in ("zero", "counted"):
            raise RulesError(
                f"wrong_show_others must be 'zero' or 'counted', not {self.wrong_show_others!r}"
            )
        if self.jokers_per_sequence is not None and (
            not isinstance(self.jokers_per_sequence, int) or self.jokers_per_sequence < 0
        ):
            raise RulesError("jokers_per_sequence must be a whole number or none")
        if self.deals is not None and (not isinstance(self.deals, int) or self.deals < 1):
            raise RulesError(f"deals must be a positive number or none, not {self.deals!r}")
        if not isinstance(self.deal_turn_cap, int) or self.deal_turn_cap < 1:
            raise RulesError("deal_turn_cap must be a positive whole number")
        if not self.wild_joker_cut and self.printed_jokers == 0:
            raise RulesError("a game with no printed jokers needs the wild joker cut")


PRESETS: Final[dict[str, Rules]] = {
    "default": Rules(),
    "single-deal": Rules(deals=1),
    "gentle-drops": Rules(first_drop=10, middle_drop=30),
    "no-cap": Rules(max_points=None),
    "printed-jokers-only": Rules(wild_joker_cut=False),
    "one-joker-per-sequence": Rules(jokers_per_sequence=1),
    "paplu-six": Rules(allow_six_players=True, players=6),
}
