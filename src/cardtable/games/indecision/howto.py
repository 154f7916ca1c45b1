"""How to play Indecision: the page's sections and worked examples (RULES.md test vectors
E1-E4). The meld values are read from the default rules, so the page follows the settings' table.
"""

from __future__ import annotations

from html import escape
from typing import Any

from cardtable.cards import parse_cards
from cardtable.games.howto import cards_text, example, section
from cardtable.games.indecision.rules import BIKE_INSIDE_EXAMPLE, MeldValues
from cardtable.melds.indecision import scorer_for


def _indecision_values() -> str:
    values = MeldValues()

    def by_length(*points: int, first: int = 3) -> str:
        return ", ".join(f"{first + i} cards {p}" for i, p in enumerate(points))

    rows = [
        ("Pair", "two cards of one rank", str(values.pair)),
        ("Prile", "three or four cards of one rank", by_length(values.prile_3, values.prile_4)),
        (
            "Run",
            "three to five cards in rank order, not all of one suit",
            by_length(values.run_3, values.run_4, values.run_5),
        ),
        (
            "Run on a Bike",
            "three to five cards in rank order, all of one suit",
            by_length(values.bike_3, values.bike_4, values.bike_5),
        ),
        (
            "Flush",
            "three to five cards of one suit, any ranks",
            by_length(values.flush_3, values.flush_4, values.flush_5),
        ),
    ]
    body = "".join(
        f"<tr><th scope='row'>{escape(name)}</th><td>{escape(what)}</td>"
        f"<td>{escape(points)}</td></tr>"
        for name, what, points in rows
    )
    return (
        "<table><thead><tr><th scope='col'>Meld</th><th scope='col'>Cards</th>"
        "<th scope='col'>Points</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
        "<p>These are the standard values; the game settings can change them.</p>"
    )


def _bike_inside_a_run() -> str:
    """What the default counts for a Run on a Bike inside a longer mixed run, with the numbers
    and meld names the scorer itself gives (so the page cannot drift from the engine)."""
    usual, counted = scorer_for(MeldValues(), False), scorer_for(MeldValues(), True)
    mixed_hand, alone_hand = BIKE_INSIDE_EXAMPLE, parse_cards("AS 2S 3S 4S 9H")
    (run,) = usual.count(mixed_hand).melds
    (bike,) = usual.count(alone_hand).melds
    mixed, alone = cards_text("AS 2S 3S 4S 5H"), cards_text("AS 2S 3S 4S 9H")
    return (
        "<p>So a Run on a Bike inside a longer run that is not all one suit does not count "
        f"by itself either. {mixed} is a {run.name} and scores {run.points}; the "
        f"four spades inside it are not also a Run on a Bike. {alone} has no longer run, so "
        f"its four spades are a {bike.name} and score {bike.points}. The house rule "
        "to count a Run on a Bike inside a longer mixed run as well changes this: then "
        f"{mixed} scores {counted.count(mixed_hand).score}.</p>"
    )


def page() -> dict[str, Any]:
    """The game's How to play page: title, sections and worked examples."""
    return {
        "title": "Indecision",
        "sections": [
            section(
                "The aim",
                "<p>Two to four players, each on their own, play with one 52-card deck and "
                "hold five cards. Whenever a hand is stopped, every hand scores points for "
                "its melds. The first player to reach <strong>121</strong> wins.</p>",
            ),
            section(
                "Dealing",
                "<p>Everyone cuts the deck and the lowest card deals (the ace is lowest). Each "
                "player gets five cards; the player to the dealer's left, the "
                "<em>starter</em>, gets a sixth and opens the pile by laying one card face "
                "up. The next hand is dealt by this hand's starter, and totals carry on.</p>",
            ),
            section(
                "Your turn",
                "<p>Take the top card of the pile or of the deck, so that you hold six. Then "
                "either discard one card face up on the pile, or stop the hand. If the deck "
                "runs out, the pile under its top card is shuffled into a new deck.</p>",
            ),
            section(
                "Melds",
                "<p>Every meld your five cards form scores, and melds of different kinds may "
                "share cards: a pair, a run and a flush may all use the same card. Within one "
                "kind only the biggest counts, never the smaller melds inside it: three sevens "
                f"are one Prile of 3, not also three Pairs, and {cards_text('10C JD QC KC KH')} "
                "holds two Runs of 4 (one with each king) and no Run of 3. Runs go round the "
                "corner: Q-K-A and K-A-2 are both runs.</p>"
                + _indecision_values()
                + "<p>A Run on a Bike is not also counted as a Flush of the same cards; a "
                "fourth card of that suit makes a Flush beside it.</p>" + _bike_inside_a_run(),
            ),
            section(
                "Stopping",
                "<p>Holding six cards on your turn, you may stop: your spare card goes face "
                "down on the STOP area. The stop is valid only if every player has had a "
                "turn and each of your five cards is part of a scoring meld (with a Prile "
                "of four, the fifth card may be left out). After an invalid stop you score "
                "nothing for the hand, and everyone else is scored as usual.</p>",
            ),
            section(
                "Scoring and winning",
                "<p>Hands are scored from the stopper round to the left, and each score is "
                "added to that player's total straight away: the first to reach 121 while "
                "the hand is being counted wins at once.</p>",
            ),
        ],
        "examples": [
            example(
                "Prile of 3 (12), Run on a Bike of 3 (5) and two Runs of 3 (6)",
                "5H 6H 7H 7C 7S",
                23,
            ),
            example(
                "Two Runs of 4 (12), a Pair of kings (2) and a Flush of 3 ♣ (3)",
                "10C JD QC KC KH",
                17,
            ),
            example(
                "Run of 3 (3), Run on a Bike of 3 (5), a Pair of sevens (2) and a Flush of 4 ♣ (4)",
                "5C 6C 7C 7D 10C",
                14,
            ),
            example("Four Runs of 3 (12) and two Pairs (4)", "5S 5H 6D 6C 7S", 16),
            example(
                "Run of 5 (9): the Run on a Bike of four ♠ inside it does not count",
                "AS 2S 3S 4S 5H",
                9,
            ),
            example("Run on a Bike of 4 (10); the 9♥ is left over", "AS 2S 3S 4S 9H", 10),
        ],
    }
