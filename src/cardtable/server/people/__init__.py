"""People's tables: the room around a table that people share, kept apart from the table core.

The room itself (:mod:`~cardtable.server.people.room`), the part the table core calls
(:mod:`~cardtable.server.people.presence`), handing each hook to the module doing that job:
what the part keeps (:mod:`~cardtable.server.people.part`), the room as sent
(:mod:`~cardtable.server.people.room_view`), sockets opening and closing and the grace period
(:mod:`~cardtable.server.people.connections`), moves and the turn timer
(:mod:`~cardtable.server.people.turns`); the room's messages
(:mod:`~cardtable.server.people.room_control`), opening, finding and joining such tables and the
rematch (:mod:`~cardtable.server.people.tables`), and a person's display name and options
(:mod:`~cardtable.server.people.names`, :mod:`~cardtable.server.people.player_options`).
"""
