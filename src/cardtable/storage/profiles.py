"""Profiles: a display name and options, found by the token of the player's cookie.

Only a SHA-256 hash of each token is stored, so the database alone cannot be used to sit at
somebody else's table.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from cardtable.errors import NotFoundError
from cardtable.storage.database import Database
from cardtable.storage.models import ProfileRow

DEFAULT_NAME = "Player"


@dataclass(frozen=True, slots=True)
class Profile:
    """A stored profile."""

    id: int
    name: str
    options: dict[str, Any] = field(default_factory=dict)


def hash_token(token: str) -> str:
    """The stored form of a cookie token.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh random cookie token."""
    return secrets.token_urlsafe(24)


def create_profile(
    db: Database, *, name: str = DEFAULT_NAME, options: dict[str, Any] | None = None
) -> tuple[Profile, str]:
    """A new profile and the token that names it.

    >>> db = Database("sqlite://")
    >>> profile, token = create_profile(db, name="Ruby")
    >>> profile_by_token(db, token) == profile
    True
    """
    token = new_token()
    with db.session() as session:
        row = ProfileRow(token_hash=hash_token(token), name=name, options=dict(options or {}))
        session.add(row)
        session.flush()
        return _profile(row), token


def profile_by_token(db: Database, token: str) -> Profile | None:
    """The profile a cookie token names, or ``None``."""
    with db.session() as session:
        row = session.scalars(
            select(ProfileRow).where(ProfileRow.token_hash == hash_token(token))
        ).first()
        return None if row is None else _profile(row)


def get_profile(db: Database, profile_id: int) -> Profile | None:
    """The profile with this id, or ``None``."""
    with db.session() as session:
        row = session.get(ProfileRow, profile_id)
        return None if row is None else _profile(row)


def update_profile(
    db: Database,
    profile_id: int,
    *,
    name: str | None = None,
    options: dict[str, Any] | None = None,
) -> Profile:
    """Change a profile's name and/or options (options replace the stored ones)."""
    with db.session() as session:
        row = session.get(ProfileRow, profile_id)
        if row is None:
            raise NotFoundError(f"no profile {profile_id}")
        if name is not None:
            row.name = name
        if options is not None:
            row.options = dict(options)
        session.flush()
        return _profile(row)


def _profile(row: ProfileRow) -> Profile:
    return Profile(id=row.id, name=row.name, options=dict(row.options or {}))
