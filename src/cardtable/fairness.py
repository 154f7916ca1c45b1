"""Provably fair deals: the server's commitment, the players' contributions, the derived seed.

Before a game's first deal the server draws a secret **server seed** (32 random bytes, written as
64 lowercase hex digits) and publishes only its **commitment**, the SHA-256 of those 32 bytes.
Each person at the table then sends a **contribution** (8 to 64 hex digits their page drew at
random). The game's seed, from which every shuffle and cut is drawn, is::

    material  = "cardtable-fair-v1" + "\\n" + server_seed
                + for each contribution in seat order: "\\n" + seat + ":" + value
    game_seed = first 8 bytes of SHA-256(UTF-8 of material), big-endian, shifted right by 1

(``seat`` in decimal, ``value`` in lowercase hex; the shift keeps the seed below 2**63). The
server cannot choose the deal, because its seed is fixed by the commitment before it sees the
contributions; no person can, because they do not know the server seed. After the game the server
reveals its seed; :func:`cardtable.replay.verify_record` (``cardtable verify FILE``, the page's
Verify button) recomputes the commitment and the game seed and replays the record from it, deal
by deal.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from cardtable.errors import RecordError

FORMULA_TAG: Final = "cardtable-fair-v1"
"""The first line of the hashed material; a new formula gets a new tag."""
SERVER_SEED_HEX: Final = 64
_SERVER_SEED = re.compile(r"[0-9a-f]{64}")
_CONTRIBUTION = re.compile(r"[0-9a-f]{8,64}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class FairnessError(RecordError):
    """A server seed, a contribution or a commitment is malformed, or a record fails to verify."""


def new_server_seed() -> str:
    """A fresh secret server seed: 32 bytes from the operating system, as 64 hex digits."""
    return secrets.token_hex(32)


def check_server_seed(value: Any) -> str:
    """``value`` as a server seed, or :class:`FairnessError` naming the problem."""
    if not isinstance(value, str) or not _SERVER_SEED.fullmatch(value.lower()):
        raise FairnessError("the server seed must be 64 hex digits (32 bytes)")
    return value.lower()


def check_contribution(value: Any) -> str:
    """``value`` as a player's contribution (8 to 64 hex digits, lowercased), or
    :class:`FairnessError` naming the problem."""
    if not isinstance(value, str) or not _CONTRIBUTION.fullmatch(value.lower()):
        raise FairnessError("a contribution must be 8 to 64 hex digits (0-9, a-f)")
    return value.lower()


def commitment_of(server_seed: str) -> str:
    """The published commitment: SHA-256 of the server seed's 32 bytes, as 64 hex digits.

    >>> commitment_of("00" * 32)[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(bytes.fromhex(check_server_seed(server_seed))).hexdigest()


def derive_seed(server_seed: str, contributions: Iterable[tuple[int, str]]) -> int:
    """The game seed from the server seed and the ``(seat, value)`` contributions (see the
    module docstring for the formula; contributions are taken in seat order).

    >>> derive_seed("00" * 32, [(0, "0123456789abcdef")])
    8089041881655187831
    """
    material = FORMULA_TAG + "\n" + check_server_seed(server_seed)
    for seat, value in sorted(contributions):
        material += f"\n{seat}:{check_contribution(value)}"
    digest = hashlib.sha256(material.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class FairDeal:
    """The fairness data of one game: the ``commitment`` published before the first deal, the
    players' ``contributions`` as ``(seat, value)`` pairs, and the ``server_seed`` once revealed
    (``None`` while the game is on)."""

    commitment: str
    contributions: tuple[tuple[int, str], ...] = field(default=())
    server_seed: str | None = None

    @classmethod
    def start(cls, server_seed: str) -> FairDeal:
        """The published part for a new server seed (the seed itself stays with the caller)."""
        return cls(commitment=commitment_of(server_seed))

    def with_contribution(self, seat: int, value: str) -> FairDeal:
        """Add ``seat``'s contribution; a seat contributes once."""
        if any(existing == seat for existing, _ in self.contributions):
            raise FairnessError(f"seat {seat} has already contributed to this deal")
        pairs = (*self.contributions, (seat, check_contribution(value)))
        return replace(self, contributions=tuple(sorted(pairs)))

    def revealed(self, server_seed: str) -> FairDeal:
        """The same data with the server seed revealed (it must match the commitment)."""
        if commitment_of(server_seed) != self.commitment:
            raise FairnessError("the revealed server seed does not match the commitment")
        return replace(self, server_seed=check_server_seed(server_seed))

    def public(self) -> FairDeal:
        """What may be shown while the game is on: everything but the server seed."""
        return replace(self, server_seed=None)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (``server_seed`` is ``null`` until revealed)."""
        return {
            "formula": FORMULA_TAG,
            "commitment": self.commitment,
            "contributions": [{"seat": seat, "value": value} for seat, value in self.contributions],
            "server_seed": self.server_seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> FairDeal:
        """Read fairness data, checking every field's shape (not whether it verifies)."""
        if not isinstance(data, dict):
            raise FairnessError("record 'fairness' must be an object")
        if data.get("formula", FORMULA_TAG) != FORMULA_TAG:
            raise FairnessError(f"unknown fairness formula {data.get('formula')!r}")
        commitment = data.get("commitment")
        if not isinstance(commitment, str) or not _DIGEST.fullmatch(commitment.lower()):
            raise FairnessError("the commitment must be 64 hex digits (a SHA-256 digest)")
        raw = data.get("contributions", [])
        if not isinstance(raw, list):
            raise FairnessError("'contributions' must be a list of {seat, value} objects")
        pairs: list[tuple[int, str]] = []
        for entry in raw:
            seat = entry.get("seat") if isinstance(entry, dict) else None
            if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
                raise FairnessError(f"a contribution needs a seat number, not {entry!r}")
            pairs.append((seat, check_contribution(entry.get("value"))))
        seed = data.get("server_seed")
        return cls(
            commitment=commitment.lower(),
            contributions=tuple(sorted(pairs)),
            server_seed=None if seed is None else check_server_seed(seed),
        )
