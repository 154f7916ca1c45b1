"""How to play each game (GET /api/rules/{game}): sections of short HTML and scoring examples
drawn as cards, in the project's own words, after the rule book.

The examples are the rule book's test vectors: Indecision E1-E4, Indian Rummy IR1 and IR2,
Declaration Rummy DR1 (the tests check each score against the games' scorers). The meld
values of Indecision are read from its default rules, so the page follows the settings' table.
"""

from __future__ import annotations

from html import escape
from typing import Any, Final

from cardtable.server.catalog import notice

PLAYING_HERE: Final = (
    "<p>Tap a card to lift it and tap it again to play it, or use the buttons under your hand. "
    "Press and hold a card (or drag it) to move it within your hand.</p>"
    "<ul><li><kbd>←</kbd> <kbd>→</kbd> move through your hand, <kbd>Shift</kbd>+<kbd>←</kbd> "
    "<kbd>→</kbd> move the card</li>"
    "<li><kbd>Enter</kbd> lifts the current card, or plays it once lifted</li>"
    "<li><kbd>S</kbd> draws from the stock, <kbd>D</kbd> takes the discard</li>"
    "<li><kbd>H</kbd> asks for a hint, <kbd>Escape</kbd> closes a panel</li></ul>"
)
"""How the table is handled, the same for every game (the page's one section on it)."""

_SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _cards(text: str) -> str:
    """Card labels written with suit symbols: "AS 2S 5H" reads "A♠ 2♠ 5♥"."""
    return " ".join(label[:-1] + _SUIT_SYMBOLS[label[-1]] for label in text.split())


def _section(heading: str, html: str) -> dict[str, str]:
    return {"heading": heading, "html": html}


def _example(caption: str, cards: str, score: int) -> dict[str, Any]:
    return {"caption": caption, "cards": cards.split(), "score": score}


def _indecision_values() -> str:
    from cardtable.games.indecision.rules import MeldValues

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
    """What the default counts for a Run on a Bike inside a longer mixed run, with the
    numbers the scorer gives (the tests check them)."""
    from cardtable.games.indecision.rules import MeldValues

    values = MeldValues()
    mixed, alone = _cards("AS 2S 3S 4S 5H"), _cards("AS 2S 3S 4S 9H")
    return (
        "<p>One exception: a Run on a Bike inside a longer run that is not all one suit "
        f"does not count by itself. {mixed} is a Run of 5 and scores {values.run_5}; the "
        f"four spades inside it are not also a Run on a Bike. {alone} has no longer run, so "
        f"its four spades are a Run on a Bike of 4 and score {values.bike_4}. The house rule "
        "to count a Run on a Bike inside a longer mixed run as well changes this: then "
        f"{mixed} scores {values.run_5 + values.bike_4}.</p>"
    )


def _indecision() -> dict[str, Any]:
    return {
        "title": "Indecision",
        "sections": [
            _section(
                "The aim",
                "<p>Two to four players, each on their own, play with one 52-card deck and "
                "hold five cards. Whenever a hand is stopped, every hand scores points for "
                "its melds. The first player to reach <strong>121</strong> wins.</p>",
            ),
            _section(
                "Dealing",
                "<p>Everyone cuts the deck and the lowest card deals (the ace is lowest). Each "
                "player gets five cards; the player to the dealer's left, the "
                "<em>starter</em>, gets a sixth and opens the pile by laying one card face "
                "up. The next hand is dealt by this hand's starter, and totals carry on.</p>",
            ),
            _section(
                "Your turn",
                "<p>Take the top card of the pile or of the deck, so that you hold six. Then "
                "either discard one card face up on the pile, or stop the hand. If the deck "
                "runs out, the pile under its top card is shuffled into a new deck.</p>",
            ),
            _section(
                "Melds",
                "<p>Every way your five cards form a meld counts, and one card may belong to "
                "several melds. Runs go round the corner: Q-K-A and K-A-2 are both runs.</p>"
                + _indecision_values()
                + "<p>A Run on a Bike is not also counted as a Flush of the same cards; a "
                "fourth card of that suit makes a Flush beside it.</p>" + _bike_inside_a_run(),
            ),
            _section(
                "Stopping",
                "<p>Holding six cards on your turn, you may stop: your spare card goes face "
                "down on the STOP area. The stop is valid only if every player has had a "
                "turn and each of your five cards is part of a scoring meld (with a Prile "
                "of four, the fifth card may be left out). After an invalid stop you score "
                "nothing for the hand, and everyone else is scored as usual.</p>",
            ),
            _section(
                "Scoring and winning",
                "<p>Hands are scored from the stopper round to the left, and each score is "
                "added to that player's total straight away: the first to reach 121 while "
                "the hand is being counted wins at once.</p>",
            ),
            _section("Playing here", PLAYING_HERE),
            _section("Please note", f"<p>{escape(notice('Indecision'))}</p>"),
        ],
        "examples": [
            _example(
                "Prile of 3 (12), Run on a Bike of 3 (5) and two Runs of 3 (6)",
                "5H 6H 7H 7C 7S",
                23,
            ),
            _example(
                "Two Runs of 4 (12), a Pair of kings (2) and a Flush of 3 ♣ (3)",
                "10C JD QC KC KH",
                17,
            ),
            _example(
                "Run of 3 (3), Run on a Bike of 3 (5), a Pair of sevens (2) and a Flush of 4 ♣ (4)",
                "5C 6C 7C 7D 10C",
                14,
            ),
            _example("Four Runs of 3 (12) and two Pairs (4)", "5S 5H 6D 6C 7S", 16),
            _example(
                "Run of 5 (9): the Run on a Bike of four ♠ inside it does not count",
                "AS 2S 3S 4S 5H",
                9,
            ),
            _example("Run on a Bike of 4 (10); the 9♥ is left over", "AS 2S 3S 4S 9H", 10),
        ],
    }


def _indian_rummy() -> dict[str, Any]:
    return {
        "title": "Indian Rummy",
        "sections": [
            _section(
                "The aim",
                "<p>Two to four players use two decks and two printed jokers, 106 cards, and "
                "get 13 cards each. Arrange all of them into sequences and sets and "
                "<strong>declare</strong>. Points are bad: each deal is scored on its own and "
                "the points add up deal after deal.</p>",
            ),
            _section(
                "The table",
                "<p>After the deal the next card is turned up to start the discard pile, and "
                "one card is cut from the stock and laid face up: the <em>wild joker</em>. "
                "Every card of its rank is a joker, and so are the printed jokers. If a "
                "printed joker is cut, the aces are wild.</p>",
            ),
            _section(
                "A turn",
                "<p>Take the top card of the stock or of the discard pile, then discard one "
                "card. You may not throw back the card you just took from the pile (nor the "
                "other copy of it, if you hold both), and a "
                "joker lying on the pile can never be taken. When the stock runs out, the "
                "pile under its top card is shuffled into a new stock.</p>",
            ),
            _section(
                "Dropping",
                "<p>At the start of your turn you may drop out of the deal: 20 points if you "
                "have not drawn yet in this deal, 40 later. If everyone else drops, the last "
                "player wins the deal and scores nothing.</p>",
            ),
            _section(
                "Sequences and sets",
                "<p>A <strong>sequence</strong> is three or more cards of one suit in order; "
                "the ace may be low (A-2-3) or high (Q-K-A) but K-A-2 is no sequence. It is "
                "<em>pure</em> when no joker stands in for a card (a wild-rank card in its "
                "own place keeps it pure). A <strong>set</strong> is three or four cards of "
                "one rank, all of different suits. Jokers may fill gaps in both.</p>",
            ),
            _section(
                "Declaring",
                "<p>After drawing, put one card down and show the other 13. Every card must "
                "be in a group, with at least two sequences, at least one of them pure. If "
                "not, it is a <strong>wrong show</strong>: 80 points, and the deal is over. "
                "The table finds the best arrangement of your cards for you.</p>",
            ),
            _section(
                "Counting points",
                "<p>A valid declarer scores 0. Everyone else counts the cards left out of "
                "groups: picture cards and aces 10, number cards their number, jokers 0. "
                "Without a pure sequence all 13 cards count; with a pure sequence but no "
                "second sequence, everything except that pure sequence counts. Nobody scores "
                "more than 80 in a deal.</p>",
            ),
            _section(
                "Free play",
                "<p>There is no target: play deal after deal and watch the totals, or set a "
                "number of deals in the house rules. Start a new game whenever you like.</p>",
            ),
            _section("Playing here", PLAYING_HERE),
            _section("Please note", f"<p>{escape(notice('Indian Rummy'))}</p>"),
        ],
        "examples": [
            _example(
                "Twos are wild. A pure run 3♥-9♥ split in two sequences and a set of queens; "
                "the loose K♠, 9♦ and 4♣ count 10 + 9 + 4",
                "3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C",
                23,
            ),
            _example(
                "No pure sequence, so all 13 cards count: 96, but a deal scores at most 80",
                "AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S",
                80,
            ),
        ],
    }


def _declaration_rummy() -> dict[str, Any]:
    return {
        "title": "Declaration Rummy",
        "sections": [
            _section(
                "The aim",
                "<p>For 2 to 10 players, one deal is a whole game. Win by going out, or by "
                "holding the lowest count of unmelded cards when someone declares.</p>",
            ),
            _section(
                "The cards",
                "<p>52 regular cards, plus any of twelve optional cards the table chooses: "
                "COUNT 1, 2, 3, 4, 7 and 12 (meld only with each other and wildcards), NO "
                "MELD 0, NO MELD 2 (which can never be discarded), CAN'T DECLARE 0 (you may "
                "not declare while holding it) and up to three WILDCARDs.</p>",
            ),
            _section(
                "Dealing",
                "<p>The highest card dealt face up chooses the first dealer. Each player gets "
                "the same number of cards: 2-10 with two or three players, 2-7 with four, "
                "2-5 with five or six, 2-3 with seven, and 2 with eight or more. The player "
                "to the dealer's left begins by drawing from the stock.</p>",
            ),
            _section(
                "A turn",
                "<p>Draw the top card of the stock or of the discard pile. Then declare, go "
                "out, or discard one card. Only the top discard can be seen, and the piles "
                "may not be counted: the table shows only roughly how high they are.</p>",
            ),
            _section(
                "Melds and the count",
                "<p>A meld is a group of three or more cards of one rank, or a sequence of "
                "three or more in one suit (A-2-3 and Q-K-A, never K-A-2). Wildcards stand "
                "for any card, any number of times. Your <strong>count</strong> is the "
                "smallest total of the cards you cannot meld: ace 1, 2-10 their value, J 11, "
                "Q 12, K 13, COUNT cards their number, a loose wildcard 20.</p>",
            ),
            _section(
                "Declaring and going out",
                "<p>After drawing, declare if you think your count is lowest: everyone shows "
                "and the lowest count wins; on a tie, the tied player furthest round to the "
                "left of the first player wins. Going out means melding every card, or all "
                "but one, and wins at once.</p>",
            ),
            _section(
                "Other endings",
                "<p>Once the stock is gone, players may only take the top discard; declining "
                "it ends the game on counts. Any player may propose a tie game at any time, even "
                "out of turn (once a turn each); it ends the game if everyone still in accepts. "
                "A player may drop out at any time; the last player left wins.</p>",
            ),
            _section(
                "Variations",
                "<p>The settings offer the gin variation (declare only with a count of 7 or "
                "less), the declare bonus, going out with a single meld, declare or go out, "
                "the three-card draw, four sevens, a spread-out discard pile, missing cards, "
                "seating, the seven-pile shuffle, and matches.</p>",
            ),
            _section("Playing here", PLAYING_HERE),
            _section("Please note", f"<p>{escape(notice('Declaration Rummy'))}</p>"),
        ],
        "examples": [
            _example(
                "Meld the three fours and only the 2♥ and 3♥ count: 5, not 8",
                "2H 3H 4H 4S 4C",
                5,
            ),
        ],
    }


_CONTENT: Final = {
    "indecision": _indecision,
    "indian-rummy": _indian_rummy,
    "declaration-rummy": _declaration_rummy,
}


def how_to_play(game: str) -> dict[str, Any]:
    """``{title, sections, examples, notice}`` for a registered game name (``KeyError`` if none).

    >>> page = how_to_play("indian-rummy")
    >>> [example["score"] for example in page["examples"]]
    [23, 80]
    """
    page = _CONTENT[game]()
    page["notice"] = notice(page["title"])
    return page
