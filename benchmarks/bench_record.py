"""A profile's record read at any size: `GET /api/record`'s work (running totals read and
made into the record) after 100, 5,000 and 50,000 stored deals, beside aggregating every kept
event as the record was made before totals were kept.

The events are stored through `cardtable.storage.add_events` in batches, as tables store them
(pruned past the cap of kept events), on an SQLite file in a temporary folder. Each figure is
the median of repeated reads in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from cardtable import storage
from cardtable.server.review.record import aggregate, record_of


def _events(start: int, count: int) -> list[storage.RecordEvent]:
    return [
        storage.RecordEvent(
            key=f"t{n // 40}:deal:{n % 40}",
            game="indian-rummy",
            kind="deal",
            won=n % 4 == 0,
            points=n % 80,
            details={"dropped": n % 10 == 0},
        )
        for n in range(start, start + count)
    ]


def _median_ms(read: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        read()  # type: ignore[operator]
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print the medians (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = storage.Database(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        profile, _ = storage.create_profile(db)
        stored = 0
        print("deals stored | kept events | totals read (ms) | every kept event aggregated (ms)")
        for target in (100, 5_000, 50_000):
            while stored < target:
                batch = min(1_000, target - stored)
                storage.add_events(db, profile.id, _events(stored, batch))
                stored += batch
            kept = len(storage.events_of(db, profile.id))

            def by_totals() -> None:
                record_of(storage.totals_of_profile(db, profile.id))

            def by_events() -> None:
                aggregate(storage.events_of(db, profile.id))

            totals_ms = _median_ms(by_totals, options.repeats)
            events_ms = _median_ms(by_events, max(3, options.repeats // 4))
            print(f"{stored:12,} | {kept:11,} | {totals_ms:16.2f} | {events_ms:32.1f}")
        db.close()


if __name__ == "__main__":
    main()
