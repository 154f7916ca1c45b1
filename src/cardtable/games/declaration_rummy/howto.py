"""How to play Declaration Rummy: the page's sections and worked example (RULES.md test vector
DR1).
"""

from __future__ import annotations

from typing import Any

from cardtable.games.howto import example, section


def page() -> dict[str, Any]:
    """The game's How to play page: title, sections and worked examples."""
    return {
        "title": "Declaration Rummy",
        "sections": [
            section(
                "The aim",
                "<p>For 2 to 10 players, one deal is a whole game. Win by going out, or by "
                "holding the lowest count of unmelded cards when someone declares.</p>",
            ),
            section(
                "The cards",
                "<p>52 regular cards, plus any of twelve optional cards the table chooses: "
                "COUNT 1, 2, 3, 4, 7 and 12 (meld only with each other and wildcards), NO "
                "MELD 0, NO MELD 2 (which can never be discarded), CAN'T DECLARE 0 (you may "
                "not declare while holding it) and up to three WILDCARDs.</p>",
            ),
            section(
                "Dealing",
                "<p>The highest card dealt face up chooses the first dealer. Each player gets "
                "the same number of cards: 2-10 with two or three players, 2-7 with four, "
                "2-5 with five or six, 2-3 with seven, and 2 with eight or more. The player "
                "to the dealer's left begins by drawing from the stock.</p>",
            ),
            section(
                "A turn",
                "<p>Draw the top card of the stock or of the discard pile. Then declare, go "
                "out, or discard one card. Only the top discard can be seen, and the piles "
                "may not be counted: the table shows only roughly how high they are.</p>",
            ),
            section(
                "Melds and the count",
                "<p>A meld is a group of three or more cards of one rank, or a sequence of "
                "three or more in one suit (A-2-3 and Q-K-A, never K-A-2). Wildcards stand "
                "for any card, any number of times. Your <strong>count</strong> is the "
                "smallest total of the cards you cannot meld: ace 1, 2-10 their value, J 11, "
                "Q 12, K 13, COUNT cards their number, a loose wildcard 20.</p>",
            ),
            section(
                "Declaring and going out",
                "<p>After drawing, declare if you think your count is lowest: everyone shows "
                "and the lowest count wins; on a tie, the tied player furthest round to the "
                "left of the first player wins. Going out means melding every card, or all "
                "but one, and wins at once.</p>",
            ),
            section(
                "Other endings",
                "<p>Once the stock is gone, players may only take the top discard; declining "
                "it ends the game on counts. Any player may propose a tie game at any time, even "
                "out of turn (once a turn each); it ends the game if everyone still in accepts. "
                "A player may drop out at any time; the last player left wins.</p>",
            ),
            section(
                "Variations",
                "<p>The settings offer the gin variation (declare only with a count of 7 or "
                "less), the declare bonus, going out with a single meld, declare or go out, "
                "the three-card draw, four sevens, a spread-out discard pile, missing cards, "
                "seating, the seven-pile shuffle, and matches.</p>",
            ),
        ],
        "examples": [
            example(
                "Meld the three fours and only the 2♥ and 3♥ count: 5, not 8",
                "2H 3H 4H 4S 4C",
                5,
            ),
        ],
    }
