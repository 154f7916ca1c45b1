"""The HTTP routes and their edge: the request and answer models
(:mod:`~cardtable.server.routes.models`), every body read and refused in one place
(:mod:`~cardtable.server.routes.boundary`), the profile cookie, origins and headers
(:mod:`~cardtable.server.routes.identity`, :mod:`~cardtable.server.routes.security`), the typed
dependencies, and the routers: the API, people's tables, review, the catalog of games and rules,
and the operator's routes.
"""
