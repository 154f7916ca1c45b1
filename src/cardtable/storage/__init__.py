"""Storage: profiles, options, record events and game tables kept as action logs.

SQLAlchemy 2 over SQLite in the per-user data directory by default, or any database named by
``CARDTABLE_DATABASE_URL`` (such as PostgreSQL). Every function takes a :class:`Database` and
opens its own short transaction, so callers may run them in worker threads. The server reaches
its tables through the :class:`LogStore` interface; the schema is kept up to date by the Alembic
revisions in ``storage/migrations`` (:mod:`cardtable.storage.migrate`), run at every start-up.
"""

from cardtable.storage.database import Database, StorageError
from cardtable.storage.location import data_dir, default_database_url, sqlite_url
from cardtable.storage.logstore import (
    DatabaseLogStore,
    LogStore,
    MoveLog,
    RecordStore,
    RoomStore,
    TableListings,
)
from cardtable.storage.portable import (
    ProfileImportError,
    export_profile,
    import_profile,
    parse_document,
    parse_time,
)
from cardtable.storage.profiles import (
    Profile,
    create_profile,
    get_profile,
    profile_by_token,
    update_profile,
)
from cardtable.storage.records import RecordEvent, add_events, events_of, totals_of_profile
from cardtable.storage.tables import (
    ABANDONED,
    FINISHED,
    PLAYING,
    FencedOutError,
    ListedTable,
    StoredTable,
    TableSummary,
    append_action,
    claim_table,
    count_created,
    create_table,
    list_tables,
    load_table,
    set_status,
    set_summary,
    sit,
    tables_of,
)

__all__ = [
    "ABANDONED",
    "FINISHED",
    "PLAYING",
    "Database",
    "DatabaseLogStore",
    "FencedOutError",
    "ListedTable",
    "LogStore",
    "MoveLog",
    "Profile",
    "ProfileImportError",
    "RecordEvent",
    "RecordStore",
    "RoomStore",
    "StorageError",
    "StoredTable",
    "TableListings",
    "TableSummary",
    "add_events",
    "append_action",
    "claim_table",
    "count_created",
    "create_profile",
    "create_table",
    "data_dir",
    "default_database_url",
    "events_of",
    "export_profile",
    "get_profile",
    "import_profile",
    "list_tables",
    "load_table",
    "parse_document",
    "parse_time",
    "profile_by_token",
    "set_status",
    "set_summary",
    "sit",
    "sqlite_url",
    "tables_of",
    "totals_of_profile",
    "update_profile",
]
