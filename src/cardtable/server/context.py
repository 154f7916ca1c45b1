"""What the routes share: the database, the lobby of tables and the settings, kept on the
app's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.server.lobby import Lobby
from cardtable.server.settings import Settings
from cardtable.storage import Database


@dataclass(frozen=True, slots=True)
class AppContext:
    """The database, the tables and the settings of one app."""

    db: Database
    lobby: Lobby
    settings: Settings


def context_of(app: Any) -> AppContext:
    """The context stored on a FastAPI/Starlette app by ``create_app``."""
    context: AppContext = app.state.cardtable
    return context
