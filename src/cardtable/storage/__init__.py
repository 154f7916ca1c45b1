"""Storage: profiles, options, record events and game tables kept as action logs.

SQLAlchemy 2 over SQLite in the per-user data directory by default, or any database named by
``CARDTABLE_DATABASE_URL`` (such as PostgreSQL). Every function takes a :class:`Database` and
opens its own short transaction, so callers may run them in worker threads.
"""

from cardtable.storage.database import Database
from cardtable.storage.location import data_dir, default_database_url, sqlite_url
from cardtable.storage.portable import (
    ProfileImportError,
    export_profile,
    import_profile,
    parse_document,
)
from cardtable.storage.profiles import (
    Profile,
    create_profile,
    get_profile,
    profile_by_token,
    update_profile,
)
from cardtable.storage.records import RecordEvent, add_events, events_of
from cardtable.storage.tables import (
    ABANDONED,
    FINISHED,
    PLAYING,
    StoredTable,
    append_action,
    create_table,
    load_table,
    set_status,
    sit,
    tables_of,
)

__all__ = [
    "ABANDONED",
    "FINISHED",
    "PLAYING",
    "Database",
    "Profile",
    "ProfileImportError",
    "RecordEvent",
    "StoredTable",
    "add_events",
    "append_action",
    "create_profile",
    "create_table",
    "data_dir",
    "default_database_url",
    "events_of",
    "export_profile",
    "get_profile",
    "import_profile",
    "load_table",
    "parse_document",
    "profile_by_token",
    "set_status",
    "sit",
    "sqlite_url",
    "tables_of",
    "update_profile",
]
