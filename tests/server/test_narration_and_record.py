"""Announcements, the public form of moves, and the record's arithmetic."""

from __future__ import annotations

from cardtable.cards import parse_card
from cardtable.games.indecision import Rules
from cardtable.games.indecision.state import HandSummary, SeatResult
from cardtable.server.narration.announce import announcement, describe_move, public_notation
from cardtable.server.narration.indecision import _hand_outcome
from cardtable.server.review.record import aggregate
from cardtable.storage import RecordEvent


def test_indecision_stop_card_is_hidden_from_other_seats_only() -> None:
    assert public_notation("indecision", "stop 9S", actor=1, viewer=0) == "stop"
    assert public_notation("indecision", "stop 9S", actor=0, viewer=0) == "stop 9S"
    assert public_notation("indian-rummy", "discard 9S", actor=1, viewer=0) == "discard 9S"


def test_moves_read_as_sentences_in_every_game() -> None:
    assert describe_move("indian-rummy", "draw pile", taken="7H") == (
        "took 7H from the discard pile"
    )
    assert describe_move("declaration-rummy", "take discard 3", taken="5C 6C 7C") == (
        "took 5C 6C 7C from the discard pile"
    )
    assert describe_move("declaration-rummy", "declare") == "declared"
    assert describe_move("declaration-rummy", "go out") == "went out"
    assert describe_move("indecision", "stop") == "stopped the hand"
    assert describe_move("indecision", "correct 12") == "corrected the announcement to 12"


def test_announcement_leads_with_the_deal_headline_and_ends_with_whose_turn() -> None:
    text = announcement(
        game="indian-rummy",
        names=["You", "Ruby", "Max"],
        viewer=0,
        last_action=(1, "declare 7H"),
        view=None,
        headline="Deal 2: Ruby declared a valid show.",
        to_move=2,
        finished=False,
    )
    assert text == "Deal 2: Ruby declared a valid show. Max to play."
    over = announcement(
        game="indecision",
        names=["You", "Ruby"],
        viewer=1,
        last_action=(0, "discard 2C"),
        view=None,
        headline=None,
        to_move=-2,
        finished=True,
    )
    assert over == "You discarded 2C. The game is over."


def test_record_counts_games_deals_and_each_games_own_facts() -> None:
    events = [
        RecordEvent("a", "indecision", "deal", won=True, points=14, details={"stopped": True}),
        RecordEvent(
            "b", "indecision", "deal", False, 0, details={"stopped": True, "forfeit": True}
        ),
        RecordEvent("c", "indecision", "deal", False, 6),
        RecordEvent("d", "indecision", "game", won=True, points=121),
        RecordEvent("e", "declaration-rummy", "game", won=True, points=3),
        RecordEvent("f", "declaration-rummy", "game", False, None, details={"dropped": True}),
        RecordEvent("g", "declaration-rummy", "match", won=True),
        RecordEvent("h", "indian-rummy", "deal", False, 0, details={"abandoned": True}),
    ]
    record = aggregate(events)
    indecision = record["indecision"]
    assert (indecision["deals_played"], indecision["deals_won"]) == (3, 1)
    assert (indecision["best"], indecision["worst"]) == (14, 0)
    assert indecision["points_per_deal"] == round(20 / 3, 2)
    assert {e["key"]: e["value"] for e in indecision["extras"]} == {
        "ties": 0,
        "stops": 2,
        "forfeits": 1,
    }
    assert (indecision["games_played"], indecision["games_won"]) == (1, 1)
    declaration = record["declaration-rummy"]
    assert (declaration["games_played"], declaration["games_won"]) == (2, 1)
    assert (declaration["deals_played"], declaration["best"]) == (2, 3)
    assert (declaration["matches_played"], declaration["matches_won"]) == (1, 1)
    extras = {e["key"]: e["value"] for e in declaration["extras"]}
    assert extras["drops"] == 1 and extras["matches_won"] == 1
    indian = record["indian-rummy"]
    assert indian["deals_played"] == 1 and indian["points_per_deal"] is None
    assert indian["points_are"] == "bad" and indecision["points_are"] == "good"


class _Totals:
    """The part of an Indecision view a hand's outcome reads."""

    def __init__(self, totals: tuple[int, ...]) -> None:
        self.totals = totals


def _indecision_hand(points: tuple[int, ...]) -> HandSummary:
    cards = tuple(parse_card(c) for c in ("5H", "6H", "7H", "7C", "7S"))
    results = tuple(
        SeatResult(seat=s, cards=cards, score=p, all_cards_used=True, points=p, total=p)
        for s, p in enumerate(points)
    )
    return HandSummary(
        hand_number=3,
        dealer=0,
        starter=1,
        ending="deck-exhausted",
        stopper=None,
        stop_problems=(),
        results=results,
        winners=(),
        rules=Rules(),
    )


def test_indecision_hand_tied_on_points_is_not_a_win_in_the_record() -> None:
    # You and Ruby both score 23 from an empty deck: the hand is tied, nobody won it.
    tied = _hand_outcome(_indecision_hand((23, 23, 9)), _Totals((23, 23, 9)))
    assert [seat.won for seat in tied.seats] == [False, False, False]
    assert [seat.details["tied"] for seat in tied.seats] == [True, True, False]
    clear = _hand_outcome(_indecision_hand((23, 12, 9)), _Totals((23, 12, 9)))
    assert [seat.won for seat in clear.seats] == [True, False, False]
    record = aggregate(
        RecordEvent(f"t{n}", "indecision", "deal", seat.won, seat.points, details=seat.details)
        for n, seat in enumerate((tied.seats[0], clear.seats[0]))
    )["indecision"]
    assert (record["deals_played"], record["deals_won"]) == (2, 1)
    assert {e["key"]: e["value"] for e in record["extras"]}["ties"] == 1


def test_record_never_counts_a_stored_tie_as_a_win() -> None:
    # An event marked tied counts as a tie even if it was stored as won.
    record = aggregate(
        [RecordEvent("a", "indecision", "deal", won=True, points=20, details={"tied": True})]
    )["indecision"]
    assert record["deals_won"] == 0


def test_declaration_rummy_view_in_the_state_message_carries_the_own_hand_count() -> None:
    # Holding 2H 3H 4H 4S 4C the count is 5 (the three fours meld): the Declare question
    # says "Declare with a count of 5?".
    from bots.positions import declaration
    from cardtable.games.declaration_rummy.engine import ENGINE
    from cardtable.server.narration import own_facts

    state = declaration(["2H 3H 4H 4S 4C", "5C 6D 7S 8H 10C"])
    assert own_facts("declaration-rummy", ENGINE.view(state, 0)) == {"count": 5}
    assert own_facts("indecision", object()) == {}


def test_a_challenged_announcement_states_its_penalty() -> None:
    # Manual declaration: Ruby announced 15 on a hand worth 12, 3 over: 6 off her total of 20;
    # Max announced 30 on 12 with 10 in hand: the penalty stops at his total.
    cards = tuple(parse_card(c) for c in ("5H", "6H", "7H", "7C", "7S"))
    results = (
        SeatResult(
            seat=0, cards=cards, score=12, all_cards_used=True, declared=12, points=12, total=30
        ),
        SeatResult(
            seat=1,
            cards=cards,
            score=12,
            all_cards_used=True,
            declared=15,
            penalty=6,
            points=0,
            total=14,
        ),
        SeatResult(
            seat=2,
            cards=cards,
            score=12,
            all_cards_used=True,
            declared=30,
            penalty=10,
            points=0,
            total=0,
        ),
    )
    hand = HandSummary(
        hand_number=2,
        dealer=0,
        starter=1,
        ending="deck-exhausted",
        stopper=None,
        stop_problems=(),
        results=results,
        winners=(),
        rules=Rules(manual_declaration=True),
    )
    lines = _hand_outcome(hand, _Totals((30, 14, 0))).describe(["You", "Ruby", "Max"])["lines"]
    assert lines == [
        "You: 12 points, total 30.",
        "Ruby: 0 points (announced 15, 3 over the hand's 12: challenged, 6 off the total, "
        "twice the 3), total 14.",
        "Max: 0 points (announced 30, 18 over the hand's 12: challenged, 10 off the total, "
        "twice the 18, capped at the total), total 0.",
    ]
