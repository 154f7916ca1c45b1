"""The web app: FastAPI over the storage layer, with one authoritative owner per table.

:func:`cardtable.server.app.create_app` builds it; ``cardtable serve`` runs it with uvicorn.
The protocol is described in ``docs/protocol.md``.
"""
