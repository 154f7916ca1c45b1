"""A people's table's dedup memory (:class:`~cardtable.server.people.room.Room`): each seat
remembers the client ids of its last 256 applied actions, apart from the other seats', and a
room stored and loaded again remembers the same ones."""

from __future__ import annotations

from cardtable.server.people.room import CLIENT_IDS_KEPT, Room, RoomSettings


def _room() -> Room:
    return Room(RoomSettings(), invite="token", host=1)


def test_a_seat_remembers_its_last_client_ids_only() -> None:
    room = _room()
    assert not room.seen(0, "a-0")
    extra = 40
    for number in range(CLIENT_IDS_KEPT + extra):
        assert not room.seen(0, f"a-{number}")
        room.remember(0, f"a-{number}")
        assert room.seen(0, f"a-{number}")
    forgotten = [n for n in range(CLIENT_IDS_KEPT + extra) if not room.seen(0, f"a-{n}")]
    assert forgotten == list(range(extra))
    assert not room.seen(1, f"a-{extra}")  # another seat's memory is its own


def test_a_stored_room_remembers_the_same_client_ids() -> None:
    room = _room()
    for number in range(CLIENT_IDS_KEPT + 3):
        room.remember(2, f"b-{number}")
    loaded = Room.from_json(room.to_json())
    for number in range(CLIENT_IDS_KEPT + 3):
        assert loaded.seen(2, f"b-{number}") is room.seen(2, f"b-{number}")
    loaded.remember(2, "b-new")
    assert loaded.seen(2, "b-new") and not loaded.seen(2, "b-3")
