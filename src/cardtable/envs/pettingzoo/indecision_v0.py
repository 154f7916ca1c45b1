"""Indecision as a PettingZoo AEC environment (``indecision_v0``).

``env(players=..., preset=..., rules={...}, render_mode=...)`` returns the environment in
PettingZoo's order-enforcing wrapper, ``raw_env`` the bare one. (PettingZoo's out-of-bounds
wrapper is left out: the environment itself refuses an action outside its table, or one its
mask forbids, with a ``ValueError`` naming it.)
See :mod:`cardtable.envs.pettingzoo.aec` for observations, rewards and seeding, and
:mod:`cardtable.envs.indecision` for the action index.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo.utils import wrappers

from .aec import CardtableAEC


class raw_env(CardtableAEC):
    """Indecision without PettingZoo's wrappers."""

    game: ClassVar[str] = "indecision"
    metadata: ClassVar[dict[str, Any]] = {**CardtableAEC.metadata, "name": "indecision_v0"}


def env(**kwargs: Any) -> Any:
    """Indecision, wrapped as PettingZoo's classic environments are."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
