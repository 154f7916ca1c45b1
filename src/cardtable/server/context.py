"""What the routes share: the database and the lobby of tables, kept on the app's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.server.lobby import Lobby
from cardtable.storage import Database


@dataclass(frozen=True, slots=True)
class AppContext:
    """The database and the tables of one app."""

    db: Database
    lobby: Lobby


def context_of(app: Any) -> AppContext:
    """The context stored on a FastAPI/Starlette app by ``create_app``."""
    context: AppContext = app.state.cardtable
    return context
