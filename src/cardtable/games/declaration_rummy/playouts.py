"""Declaration Rummy's playout seat (:mod:`cardtable.playouts`): it never drops and never
proposes a tie; its search rollouts use the same seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardtable.games.declaration_rummy import actions as dr_act

_DR_DROP: Final = dr_act.DROP
_DR_PROPOSE_TIE: Final = dr_act.PROPOSE_TIE


def playing(state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    # The engine lists "propose tie" and "drop" last, in that order: cut them off the end.
    end = len(legal)
    if end and legal[end - 1] is _DR_DROP:
        end -= 1
    if end and legal[end - 1] is _DR_PROPOSE_TIE:
        end -= 1
    return legal[:end]


improving = playing


def ending(state: Any) -> str | None:
    """Nothing beyond the game's result."""
    return None
