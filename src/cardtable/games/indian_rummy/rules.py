"""Every option and house rule of Indian Rummy (RULES.md 2.11-2.13), as one frozen dataclass.

The defaults reproduce the seed exactly (free play, points only); every row of the house-rules
panel is a field here, declared with its words, bounds and house-rules group through
:func:`cardtable.rule_options.option`, and so is every number of the Pool and Deals formats
(2.13).
Named presets live in :data:`PRESETS` (``pool-101``, ``pool-201``, ``deals-2``, ``deals-3``,
``deals-6`` for the formats).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from cardtable.errors import RulesError
from cardtable.rule_options import RuleGroup, check_options, option

JokerFromDiscard = Literal["never", "opening-card"]
WrongShowOthers = Literal["zero", "counted"]
GameFormat = Literal["free-play", "pool", "deals"]
PrintedJokers = Literal[2, 0]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Indian Rummy rules: each field is declared with its words and bounds (:func:`option`);
    the validation and the house-rules form are generated from them."""

    players: int = option(
        2,
        group=RuleGroup.PLAYERS,
        label="Players",
        help="How many play: 2 to 4, or up to 6 when six players are allowed.",
        bounds_by=("allow_six_players", {False: (2, 4), True: (2, 6)}),
        message="Indian Rummy is for {low} to {high} players, not {value!r}",
    )
    allow_six_players: bool = option(
        False,
        group=RuleGroup.PLAYERS,
        label="Up to six players",
        help="Allow five or six players, as in Paplu.",
    )
    drops_allowed: bool = option(
        True,
        group=RuleGroup.DROPPING,
        label="Dropping allowed",
        help="A player may drop out of a deal at the start of a turn, for a penalty.",
    )
    first_drop: int = option(
        20,
        group=RuleGroup.DROPPING,
        label="Penalty for dropping before drawing",
        help="Points for dropping at the start of your first turn, before you have drawn.",
        low=0,
        high=1000,
    )
    middle_drop: int = option(
        40,
        group=RuleGroup.DROPPING,
        label="Penalty for dropping later",
        help="Points for dropping at the start of any later turn.",
        low=0,
        high=1000,
    )
    max_points: int | None = option(
        80,
        group=RuleGroup.SCORING,
        label="Most points in a deal",
        help="No player scores more than this in one deal; empty for no limit.",
        low=1,
        high=1000,
    )
    wrong_show_penalty: int = option(
        80,
        group=RuleGroup.DROPPING,
        label="Penalty for a wrong show",
        help="Points for declaring a hand that cannot be laid out in valid groups.",
        low=0,
        high=1000,
    )
    wrong_show_others: WrongShowOthers = option(
        "zero",
        group=RuleGroup.DROPPING,
        label="The others after a wrong show",
        help="What the other players score when someone makes a wrong show.",
        choice_labels={
            "zero": "Nothing",
            "counted": "Their cards are counted, as after a valid show",
        },
    )
    printed_jokers: PrintedJokers = option(
        2,
        group=RuleGroup.PLAYERS,
        label="Printed jokers in the pack",
        help="How many printed jokers are shuffled in with the two decks.",
        choice_labels={2: "Two printed jokers", 0: "No printed jokers"},
    )
    wild_joker_cut: bool = option(
        True,
        group=RuleGroup.PLAYERS,
        label="Cut a wild joker",
        help="Turn up a card at the deal: every card of its rank is a joker for that deal.",
    )
    joker_from_discard: JokerFromDiscard = option(
        "never",
        group=RuleGroup.PLAY,
        label="Taking a joker from the pile",
        help="Whether a joker lying on the discard pile may be taken.",
        choice_labels={
            "never": "Never",
            "opening-card": "Only the card turned up to start the pile",
        },
    )
    jokers_per_sequence: int | None = option(
        None,
        group=RuleGroup.PLAY,
        label="Most jokers in a sequence",
        help="How many jokers may stand in for cards in one sequence; empty for no limit.",
        low=0,
        high=13,
    )
    all_joker_groups: bool = option(
        False,
        group=RuleGroup.PLAY,
        label="Groups of jokers only",
        help="Allow a group made of jokers alone.",
    )
    deals: int | None = option(
        None,
        group=RuleGroup.SCORING,
        label="Deals in a game",
        help=(
            "How many deals make a game (in Deals, before any tie-break deal, 2 when empty; in "
            "Pool, the standing decides after this many); empty to play deal after deal."
        ),
        low=1,
        high=1000,
    )
    format: GameFormat = option(
        "free-play",
        label="Format",
        help=(
            "Free play adds up points deal after deal; Pool eliminates a player whose total "
            "reaches the pool limit until one is left; Deals plays a fixed number of deals for "
            "chips."
        ),
        choice_labels={
            "free-play": "Free play (points only)",
            "pool": "Pool (the last player left wins)",
            "deals": "Deals (the most chips after the last deal wins)",
        },
    )
    pool_limit: int = option(
        101,
        label="Pool limit",
        help="Pool: a player whose total reaches this is eliminated at the end of the deal.",
        low=2,
        high=10_000,
    )
    rejoins: int = option(
        1,
        label="Rejoins per player",
        help="Pool: how many times an eliminated player may come back in one game; 0 for never.",
        low=0,
        high=100,
    )
    rejoin_limit: int = option(
        79,
        label="Rejoin while the highest total is at most",
        help=(
            "Pool: an eliminated player may come back only while the highest total among the "
            "players still in is at most this; they come back with that total plus one."
        ),
        low=0,
        high=10_000,
    )
    agreed_finish: bool = option(
        False,
        label="Agreed finish",
        help="Pool: when few players are left and all agree, the game ends and they share the win.",
    )
    agreed_finish_players: int = option(
        3,
        label="Agreed finish with at most",
        help="Pool: the agreed finish is offered when this many players or fewer are left.",
        low=2,
        high=6,
    )
    chips_per_player: int = option(
        80,
        label="Chips for each player",
        help="Deals: each player starts with this many chips times the number of players.",
        low=1,
        high=10_000,
    )
    game_deal_cap: int = option(
        1000,
        group=RuleGroup.SAFEGUARDS,
        label="Most deals in a pool or deals game",
        help=(
            "A Pool game, or a Deals game with its tie-break deals, that lasts this many deals "
            "ends on the standing: the lowest total in Pool, the most chips in Deals."
        ),
        low=1,
        high=10_000,
    )
    deal_turn_cap: int = option(
        400,
        group=RuleGroup.SAFEGUARDS,
        label="Most turns in a deal",
        help=(
            "A deal that lasts this many turns ends with no show: with people at the table the "
            "drop penalties stand and the others score nothing; games between computer players "
            "only are abandoned and nobody scores."
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
        if not self.wild_joker_cut and self.printed_jokers == 0:
            raise RulesError("a game with no printed jokers needs the wild joker cut")
        if self.format == "pool" and self.rejoin_limit >= self.pool_limit:
            raise RulesError(
                f"rejoin_limit ({self.rejoin_limit}) must be below the pool limit "
                f"({self.pool_limit})"
            )


PRESETS: Final[dict[str, Rules]] = {
    "default": Rules(),
    "single-deal": Rules(deals=1),
    "gentle-drops": Rules(first_drop=10, middle_drop=30),
    "no-cap": Rules(max_points=None),
    "printed-jokers-only": Rules(wild_joker_cut=False),
    "one-joker-per-sequence": Rules(jokers_per_sequence=1),
    "paplu-six": Rules(allow_six_players=True, players=6),
    # RULES.md 2.13: Pool 101 / 201 (drops 20/40 and 25/50, full count 80, rejoin while the
    # highest total is at most 79 / 174) and Deals, best of 2, 3 or 6 deals for chips; 2 to 6
    # players with the two decks and two printed jokers of 2.1.
    "pool-101": Rules(
        format="pool",
        allow_six_players=True,
        pool_limit=101,
        first_drop=20,
        middle_drop=40,
        rejoin_limit=79,
    ),
    "pool-201": Rules(
        format="pool",
        allow_six_players=True,
        pool_limit=201,
        first_drop=25,
        middle_drop=50,
        rejoin_limit=174,
    ),
    "deals-2": Rules(format="deals", allow_six_players=True, deals=2),
    "deals-3": Rules(format="deals", allow_six_players=True, deals=3),
    "deals-6": Rules(format="deals", allow_six_players=True, deals=6),
}
