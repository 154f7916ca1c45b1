"""Seats are frozen values: a table's seats change only by being replaced (a person sitting
down renames a human seat), and they are stored and read back as the same JSON."""

from __future__ import annotations

import dataclasses

import pytest

from cardtable.server.table.seating import (
    Seat,
    SeatRequest,
    check_seats,
    public_seats,
    seats_from_json,
)


def test_a_seat_cannot_be_changed_in_place() -> None:
    seat = Seat("human", "Player")
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.name = "Mallory"  # type: ignore[misc]
    assert seat.named("Ann") == Seat("human", "Ann") and seat.name == "Player"


def test_checked_seats_round_trip_through_their_stored_form() -> None:
    choices = [
        SeatRequest(kind="human"),
        SeatRequest(kind="bot", level="hard"),
        SeatRequest(kind="bot"),
    ]
    seats = check_seats(choices, 3, "easy")
    assert seats == [
        Seat("human", "Player"),
        Seat("bot", "Ruby", "hard"),
        Seat("bot", "Max", "easy"),
    ]
    assert seats_from_json([seat.to_json() for seat in seats]) == seats


def test_public_seats_show_levels_for_bots_and_taken_for_people() -> None:
    seats = [Seat("human", "Ann"), Seat("bot", "Ruby", "easy"), Seat("human", "Player")]
    assert public_seats(seats, {0: 11}) == [
        {"seat": 0, "kind": "human", "name": "Ann", "taken": True},
        {"seat": 1, "kind": "bot", "name": "Ruby", "level": "easy"},
        {"seat": 2, "kind": "human", "name": "Player", "taken": False},
    ]
