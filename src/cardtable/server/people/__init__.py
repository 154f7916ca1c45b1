"""People's tables: the room around a table that people share, kept apart from the table core.

The room itself (:mod:`~cardtable.server.people.room`), the part the table core calls (the
room, who is connected, the grace period and the turn timer:
:mod:`~cardtable.server.people.presence`), the room's messages
(:mod:`~cardtable.server.people.room_control`), opening, finding and joining such tables and the
rematch (:mod:`~cardtable.server.people.tables`), and a person's display name and options
(:mod:`~cardtable.server.people.names`, :mod:`~cardtable.server.people.player_options`).
"""
