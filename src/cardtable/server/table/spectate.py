"""What a spectator sees: the table as every player sees it, and nothing more.

No game has a separate public view, but each seat's view holds only two kinds of private
things: the seat's own cards (``hand``), and cards that seat alone may see because of its
place in the turn (``drawn``: a card just drawn from the stock by the seat to act;
``stop_card``: Indecision's stop card, face down, seen by its stopper only). A spectator's view
is therefore a seat's view with the hand emptied, taken from a seat that is not the one to act
(so ``drawn`` is what every other seat sees), and with the stop card hidden. The websocket
tests check every spectator frame of whole games against the views of all seats: a spectator
never sees a card that some seat cannot see.
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.games.contract import AnyEngine

HIDDEN_TO_OTHERS: Final = ("stop_card",)
"""Fields a seat sees only about itself, besides its hand."""
OWN_PER_SEAT: Final = ("discarded",)
"""Per-seat lists a view fills for its own seat alone (Declaration Rummy's own discards): a
spectator has no seat, so every entry is empty."""


def onlooker_seat(engine: AnyEngine, state: Any) -> int:
    """A seat whose view shows what any other seat sees of the seat to act: not the seat to
    act (and so never seeing a card drawn face down from the stock)."""
    players = engine.players(state)
    to_move = engine.current_player(state)
    return next((seat for seat in range(players) if seat != to_move), 0)


def spectator_view(
    engine: AnyEngine,
    state: Any,
    onlooker: Any = None,
    onlooker_json: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The public view, in the same JSON shape as a seat's view (see the module docstring);
    ``onlooker``: the view of :func:`onlooker_seat`, when the caller has it already, and
    ``onlooker_json`` its JSON (a copy of its own, changed here)."""
    if onlooker is None:
        onlooker = engine.view(state, onlooker_seat(engine, state))
    view: dict[str, Any] = onlooker.to_json() if onlooker_json is None else onlooker_json
    view["seat"] = None
    view["hand"] = []
    if "drawn" in view and isinstance(view["drawn"], list):
        # Declaration Rummy lists the cards the seat to play drew; only that seat sees them.
        view["drawn"] = []
    for name in HIDDEN_TO_OTHERS:
        if name in view:
            view[name] = None
    for name in OWN_PER_SEAT:
        if isinstance(view.get(name), list):
            view[name] = [[] for _ in view[name]]
    return view
