"""What the routes share: the database, the lobby of tables, the settings, the rate limits and
the relay to other processes' tables, kept on the app's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.server.cluster.relay import Relay
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.rate_limits import RateLimits
from cardtable.server.settings import Settings
from cardtable.storage import Database


@dataclass(frozen=True, slots=True)
class AppContext:
    """The database, the tables, the settings, the rate limits and the relay of one app."""

    db: Database
    lobby: Lobby
    settings: Settings
    limits: RateLimits
    relay: Relay


def context_of(app: Any) -> AppContext:
    """The context stored on a FastAPI/Starlette app by ``create_app``."""
    context: AppContext = app.state.cardtable
    return context
