"""Test-suite settings: property tests are judged on results, never on the time an example takes
(timing belongs to the benchmarks, and CI machines vary in load)."""

from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")
