"""What the routes share: the database, the lobby of tables, the settings and the rate limits,
kept on the app's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.server.hosting.lobby import Lobby
from cardtable.server.rate_limits import RateLimits
from cardtable.server.settings import Settings
from cardtable.storage import Database


@dataclass(frozen=True, slots=True)
class AppContext:
    """The database, the tables, the settings and the rate limits of one app."""

    db: Database
    lobby: Lobby
    settings: Settings
    limits: RateLimits


def context_of(app: Any) -> AppContext:
    """The context stored on a FastAPI/Starlette app by ``create_app``."""
    context: AppContext = app.state.cardtable
    return context
