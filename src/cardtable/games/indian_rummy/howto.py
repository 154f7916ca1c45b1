"""How to play Indian Rummy: the page's sections and worked examples (RULES.md test vectors IR1
and IR2).
"""

from __future__ import annotations

from typing import Any

from cardtable.games.howto import example, section


def page() -> dict[str, Any]:
    """The game's How to play page: title, sections and worked examples."""
    return {
        "title": "Indian Rummy",
        "sections": [
            section(
                "The aim",
                "<p>Two to four players use two decks and two printed jokers, 106 cards, and "
                "get 13 cards each. Arrange all of them into sequences and sets and "
                "<strong>declare</strong>. Points are bad: each deal is scored on its own and "
                "the points add up deal after deal.</p>",
            ),
            section(
                "The table",
                "<p>After the deal the next card is turned up to start the discard pile, and "
                "one card is cut from the stock and laid face up: the <em>wild joker</em>. "
                "Every card of its rank is a joker, and so are the printed jokers. If a "
                "printed joker is cut, the aces are wild.</p>",
            ),
            section(
                "A turn",
                "<p>Take the top card of the stock or of the discard pile, then discard one "
                "card. You may not throw back the card you just took from the pile (nor the "
                "other copy of it, if you hold both), and a "
                "joker lying on the pile can never be taken. When the stock runs out, the "
                "pile under its top card is shuffled into a new stock.</p>",
            ),
            section(
                "Dropping",
                "<p>At the start of your turn you may drop out of the deal: 20 points if you "
                "have not drawn yet in this deal, 40 later. If everyone else drops, the last "
                "player wins the deal and scores nothing.</p>",
            ),
            section(
                "Sequences and sets",
                "<p>A <strong>sequence</strong> is three or more cards of one suit in order; "
                "the ace may be low (A-2-3) or high (Q-K-A) but K-A-2 is no sequence. It is "
                "<em>pure</em> when no joker stands in for a card (a wild-rank card in its "
                "own place keeps it pure). A <strong>set</strong> is three or four cards of "
                "one rank, all of different suits. Jokers may fill gaps in both.</p>",
            ),
            section(
                "Declaring",
                "<p>After drawing, put one card down and show the other 13. Every card must "
                "be in a group, with at least two sequences, at least one of them pure. If "
                "not, it is a <strong>wrong show</strong>: 80 points, and the deal is over. "
                "The table finds the best arrangement of your cards for you.</p>",
            ),
            section(
                "Counting points",
                "<p>A valid declarer scores 0. Everyone else counts the cards left out of "
                "groups: picture cards and aces 10, number cards their number, jokers 0. "
                "Without a pure sequence all 13 cards count; with a pure sequence but no "
                "second sequence, everything except that pure sequence counts. Nobody scores "
                "more than 80 in a deal.</p>",
            ),
            section(
                "Free play",
                "<p>There is no target: play deal after deal and watch the totals, or set a "
                "number of deals in the house rules. Start a new game whenever you like.</p>",
            ),
            section(
                "Pool 101 and Pool 201",
                "<p>Two to six players. The totals add up as in free play; whoever reaches "
                "101 (or 201) is out at the end of that deal, and the last player left wins. "
                "Drops cost 20 and 40 in Pool 101, 25 and 50 in Pool 201. Once in a game, a "
                "player just knocked out may <strong>rejoin</strong> before the next deal, "
                "while the highest total still in is at most 79 (174 in Pool 201): they come "
                "back with that total plus one. The deal passes only among the players still "
                "in.</p>",
            ),
            section(
                "Deals",
                "<p>Best of 2, 3 or 6 deals. Everyone starts with 80 chips per player at the "
                "table. The winner of each deal takes from every other player as many chips "
                "as that player's points (after a wrong show, the player with the fewest "
                "points takes them). After the last deal the most chips win; players tied at "
                "the top play one more deal among themselves, until one is ahead.</p>",
            ),
        ],
        "examples": [
            example(
                "Twos are wild. A pure run 3♥-9♥ split in two sequences and a set of queens; "
                "the loose K♠, 9♦ and 4♣ count 10 + 9 + 4",
                "3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C",
                23,
            ),
            example(
                "No pure sequence, so all 13 cards count: 96, but a deal scores at most 80",
                "AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S",
                80,
            ),
        ],
    }
