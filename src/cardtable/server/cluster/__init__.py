"""Cluster mode: several server processes, on one machine or many, sharing PostgreSQL and Redis.

Each table has one owner process at a time: the holder of the table's lease in Redis
(:mod:`cardtable.server.cluster.lease`). Every lease carries a fencing token, a number that only
grows, and the database refuses a move carrying another token than the one the table was last
claimed with (:func:`cardtable.storage.tables.append_action`), so a process that lost its lease
without noticing (a long pause, a partition) cannot write. A lone server uses nothing here.
"""
