"""The table core: one authority over a game's state and its action log.

:mod:`~cardtable.server.table.owner` holds a table, handed its game setup
(:mod:`~cardtable.server.table.setup`), its services (:mod:`~cardtable.server.table.services`:
the log store, the clock, the worker processes, the lobby's callbacks), its connections
(:mod:`~cardtable.server.table.audience`) and its computer players
(:mod:`~cardtable.server.table.computer_players`); around it sit the end of deals and games
(:mod:`~cardtable.server.table.ending`), what a seat sees (:mod:`~cardtable.server.table.seat_view`)
and what a spectator sees (:mod:`~cardtable.server.table.spectate`), a table's summary for
listings (:mod:`~cardtable.server.table.summary`), who sits where
(:mod:`~cardtable.server.table.seating`), the computer players' levels and the coach
(:mod:`~cardtable.server.table.advisors`) and provably fair seeds
(:mod:`~cardtable.server.table.fair_deals`). Nothing here knows HTTP, the websocket's edge or the
cluster, nor a people's table's room, which it reaches through its people hooks.
"""
