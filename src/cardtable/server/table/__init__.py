"""The table core: one authority over a game's state, its action log and its connections.

:mod:`~cardtable.server.table.owner` holds a table; around it sit what a spectator sees
(:mod:`~cardtable.server.table.spectate`), a table's summary for listings
(:mod:`~cardtable.server.table.summary`), who sits where
(:mod:`~cardtable.server.table.seating`), the computer players and the coach
(:mod:`~cardtable.server.table.advisors`) and provably fair seeds
(:mod:`~cardtable.server.table.fair_deals`). Nothing here knows HTTP, the websocket's edge or the
cluster.
"""
