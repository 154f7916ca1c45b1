"""Test-suite settings: property tests are judged on results, never on the time an example takes
(timing belongs to the benchmarks, and CI machines vary in load); apps made by the tests analyse
finished hands only when asked (the tests of the background analysis turn it on), so that the
many games played by the other tests do not queue analyses that would compete for the cores."""

import os

from hypothesis import settings

os.environ.setdefault("CARDTABLE_ANALYSE_FINISHED_HANDS", "false")

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")
