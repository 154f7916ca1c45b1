"""Provably fair deals at the server's tables (the formula is :mod:`cardtable.fairness`).

A page asks for a commitment (``POST /api/commitments``) before it starts a table: the server
draws a secret server seed, keeps it here for a few minutes, and answers only its SHA-256. The
page then starts the table with that commitment and its own random contribution; the game's
seed is derived from both, so the deal was fixed by neither alone. A table started without a
commitment (an older page, a script) gets a fresh server seed and no contribution: its record
still verifies, but the person did not take part in the deal.

The pending seeds are per profile and few (:data:`MAX_PENDING`), so no client can make the
server hold many; a commitment is used once. Designed for several people: each seated person's
contribution is added with :meth:`FairDeal.with_contribution` before the deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Final

from cardtable.errors import RulesError
from cardtable.fairness import FairDeal, check_contribution, new_server_seed

MAX_PENDING: Final = 4
"""Commitments a profile may hold unused; asking for more forgets the oldest."""
PENDING_SECONDS: Final = 15 * 60
"""How long an unused commitment stays valid."""


@dataclass
class Commitments:
    """Server seeds committed to but not yet used, by profile."""

    pending: dict[int, list[tuple[float, str]]] = field(default_factory=dict)

    def commit(self, profile_id: int) -> str:
        """A new commitment for ``profile_id`` (its server seed stays here)."""
        seed = new_server_seed()
        now = time.monotonic()
        kept = [(t, s) for t, s in self.pending.get(profile_id, []) if now - t < PENDING_SECONDS]
        self.pending[profile_id] = [*kept[-(MAX_PENDING - 1) :], (now, seed)]
        return FairDeal.start(seed).commitment

    def deal_for_seat(
        self, profile_id: int, commitment: object, contribution: object, *, seat: int
    ) -> FairDeal:
        """The fair deal (server seed included) for a table whose person at ``seat`` sent
        ``contribution`` against ``commitment``; with neither, a fresh server seed and no
        contribution. ``RulesError`` naming a bad or unknown value."""
        if commitment is None and contribution is None:
            return FairDeal.start(seed := new_server_seed()).revealed(seed)
        if commitment is None or contribution is None:
            raise RulesError("a fair deal needs both the commitment and your contribution")
        value = check_contribution(contribution)
        now = time.monotonic()
        for index, (made, seed) in enumerate(self.pending.get(profile_id, [])):
            if now - made < PENDING_SECONDS and FairDeal.start(seed).commitment == commitment:
                del self.pending[profile_id][index]
                return FairDeal.start(seed).with_contribution(seat, value).revealed(seed)
        raise RulesError("unknown or expired commitment: ask for a new one (POST /api/commitments)")
