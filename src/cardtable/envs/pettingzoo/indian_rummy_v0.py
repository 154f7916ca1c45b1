"""Indian Rummy as a PettingZoo AEC environment (``indian_rummy_v0``).

``env(players=..., preset=..., rules={...}, render_mode=...)`` returns the environment in
PettingZoo's order-enforcing wrapper, ``raw_env`` the bare one. (PettingZoo's out-of-bounds
wrapper is left out: the environment itself refuses an action outside its table, or one its
mask forbids, with a ``ValueError`` naming it.)
See :mod:`cardtable.envs.pettingzoo.aec` for observations, rewards and seeding, and
:mod:`cardtable.envs.indian_rummy` for the action index.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo.utils import wrappers

from .aec import CardtableAEC


class raw_env(CardtableAEC):
    """Indian Rummy without PettingZoo's wrappers."""

    game: ClassVar[str] = "indian-rummy"
    metadata: ClassVar[dict[str, Any]] = {**CardtableAEC.metadata, "name": "indian_rummy_v0"}


def env(**kwargs: Any) -> Any:
    """Indian Rummy, wrapped as PettingZoo's classic environments are."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
