"""The tables one server process holds: the lobby that creates, loads, lists and lets go of them
(:mod:`~cardtable.server.hosting.lobby`), the requests only a table's owner may answer wherever
they arrive (:mod:`~cardtable.server.hosting.owner_calls`) and the worker processes that end with
the server (:mod:`~cardtable.server.hosting.worker_processes`).
"""
