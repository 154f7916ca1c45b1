"""The web app: FastAPI over the storage layer, with one authoritative owner per table.

:func:`cardtable.server.app.create_app` builds it; ``cardtable serve`` runs it with uvicorn.
The protocol is described in ``docs/protocol.md``.

The folders are its layers, each importing only those listed before it (and the storage and
game layers below the server):

- :mod:`~cardtable.server.narration`: moves and results in words, one module per game;
- :mod:`~cardtable.server.table`: the table core, one authority over a game's state, its log
  and its connections, and what a seat or a spectator sees of it;
- :mod:`~cardtable.server.people`: people's tables, the room around a table (seats, presence,
  grace, timers, rematch, spectators) and the people's own names and options;
- :mod:`~cardtable.server.hosting`: the tables one process holds (the lobby), the requests only a
  table's owner answers, and the worker processes;
- :mod:`~cardtable.server.review`: finished games' replays, records and hand analyses;
- :mod:`~cardtable.server.protocol`: the websocket's messages and the socket's edge;
- :mod:`~cardtable.server.routes`: the HTTP routes and their edge (bodies, cookies, origins);
- :mod:`~cardtable.server.cluster`: the adapters that let several processes share tables;
- ``static/``: the page's assets.

At the top sit what every layer may use (settings, logs, metrics, rate limits, the app's shared
context) and :mod:`~cardtable.server.app`, which assembles the rest.
"""
