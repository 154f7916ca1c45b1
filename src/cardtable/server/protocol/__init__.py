"""The websocket protocol (``docs/protocol.md``): its messages, read and built in one place
(:mod:`~cardtable.server.protocol.messages`), and the socket's edge that ties one connection to
its table (:mod:`~cardtable.server.protocol.websocket`).
"""
