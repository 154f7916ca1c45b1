"""Announcements, the public form of moves, and the record's arithmetic."""

from __future__ import annotations

from cardtable.server.narration.announce import announcement, describe_move, public_notation
from cardtable.server.record import aggregate
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
    assert {e["key"]: e["value"] for e in indecision["extras"]} == {"stops": 2, "forfeits": 1}
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
