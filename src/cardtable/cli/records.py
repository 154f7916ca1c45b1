"""Game record files for the CLI: ``play --save FILE`` writes one, ``replay FILE`` reads it."""

from __future__ import annotations

from pathlib import Path

from cardtable.errors import RecordError
from cardtable.replay import GameRecord


def load_record(path: str | Path) -> GameRecord:
    """Read a record file; ``RecordError`` names an unreadable or malformed file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"record {path} is not a text file") from None
    return GameRecord.loads(text)


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write a record file."""
    Path(path).write_text(record.dumps() + "\n", encoding="utf-8")
