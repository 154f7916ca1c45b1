"""Coordinating server processes: which one owns each table, and how the others reach it.

Each table has one owner process at a time: the holder of the table's lease
(:mod:`cardtable.server.cluster.lease`). Every lease carries a fencing token, a number that only
grows, and the database refuses a move carrying another token than the one the table was last
claimed with (:func:`cardtable.storage.tables.append_action`), so a process that lost its lease
without noticing (a long pause, a partition) cannot write. A socket or request that reaches a
process not owning its table goes through the relay (:mod:`cardtable.server.cluster.relay`) over
a message bus (:mod:`cardtable.server.cluster.bus`).

The relay and the leases speak to two small interfaces, :class:`~.bus.Bus` and
:class:`~.lease.LeaseTable`, each with an in-process implementation (a lone server: one process,
SQLite, ``make serve``; and tests playing several processes in one) and a Redis adapter (a
cluster: PostgreSQL and Redis, ``cardtable serve --workers N``; :mod:`.redis_bus`,
:mod:`.redis_leases`). Both run the same relay, owner-call and takeover code
(:mod:`cardtable.server.cluster.wiring`).
"""
