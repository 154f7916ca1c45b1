"""What one seat of a table is sent: the protocol's state message (the seat's view, its legal
moves, the last move and the announcements as that seat hears them; for the spectators the
public view, no legal actions, and the announcements as an onlooker hears them), and the table
as ``GET /api/tables/{id}`` describes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from cardtable.games.contract import GameResult
from cardtable.registry import format_fields
from cardtable.server.narration import Outcome, merge_summaries, own_facts
from cardtable.server.narration.announce import announcement, public_notation
from cardtable.server.narration.moves import last_move, legal_moves, move_phrase
from cardtable.server.narration.naming import name_seats
from cardtable.server.protocol.messages import (
    GameResultJson,
    LastAction,
    MoveJson,
    OwnFactsJson,
    RoomJson,
    StateMessage,
    state_message,
)
from cardtable.server.protocol.state_frames import Public
from cardtable.server.table.audience import SPECTATORS
from cardtable.server.table.seating import Seat, public_seats
from cardtable.server.table.setup import TableSetup
from cardtable.server.table.spectate import onlooker_seat, spectator_view


class ViewedTable(Protocol):
    """What a seat's message is built from (the table owner)."""

    @property
    def setup(self) -> TableSetup: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def seated(self) -> dict[int, int]: ...
    @property
    def state(self) -> Any: ...
    @property
    def log(self) -> list[tuple[int, str]]: ...
    @property
    def status(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def last_outcomes(self) -> tuple[int, tuple[Outcome, ...]]: ...

    def names_for(self, viewer: int) -> list[str]: ...


class SharedParts:
    """What every seat's state message of one table version shares, worked out for the first
    seat that needs it and reused by the others: the public part of the view's JSON (a view's
    ``to_json`` but for its ``OWN_JSON`` entries, which differ between seats), the seat to
    move, the result, and the last move's phrase (each reader's sentence only names the mover
    its own way). One broadcast makes one for all its seats; it starts over by itself when
    the table has moved on."""

    __slots__ = (
        "_made",
        "_notations",
        "_phrases",
        "_public",
        "_state",
        "_version",
        "result",
        "to_move",
    )

    def __init__(self) -> None:
        self._state: Any = None
        self._version = -1
        self._public: Public | None = None
        self._made: dict[int, tuple[dict[str, Any], Public]] = {}
        """The views made of the public part, by id (kept alive, so that the ids hold)."""
        self.to_move = 0
        self.result: GameResult | None = None
        self._phrases: dict[str, str] = {}
        self._notations: dict[bool, str] = {}

    def of(self, table: ViewedTable) -> SharedParts:
        """These parts, for the table as it is now (forgotten if it moved on)."""
        state = table.state
        if state is not self._state or table.version != self._version:
            engine = table.setup.engine
            self._state, self._version = state, table.version
            self._public = None
            self._made = {}
            self.to_move = engine.current_player(state)
            self.result = engine.result(state)
            self._phrases = {}
            self._notations = {}
        return self

    def view_json(self, heard: Any, *, sent: bool = True) -> dict[str, Any]:
        """``heard.to_json()``: the public entries as the first seat's view gave them, the
        seat's own entries from its own view (a view without ``own_json`` builds it all);
        ``sent``: the view goes out as it is (:meth:`public_of` knows it), not changed."""
        own_json: Callable[[], dict[str, Any]] | None = getattr(heard, "own_json", None)
        if own_json is None:
            whole: dict[str, Any] = heard.to_json()
            return whole
        public = self._public
        if public is None:
            # The first seat's whole view; the next ones' own entries replace its own, in
            # place (so that the keys keep their order, and the bytes sent stay the same).
            first: dict[str, Any] = heard.to_json()
            public = self._public = first, frozenset(heard.OWN_JSON)
            view = first.copy()
        else:
            view = dict(public[0])
            view.update(own_json())
        if sent and len(view) == len(public[0]):  # its own entries all in their places
            self._made[id(view)] = view, public
        return view

    def public_of(self, view: object) -> Public | None:
        """The public part ``view`` was made of, when :meth:`view_json` made it to be sent:
        every entry of ``view`` but its own is that part's very object."""
        made = self._made.get(id(view))
        return made[1] if made is not None and made[0] is view else None

    def public_notation(self, game: str, notation: str, actor: int, viewer: int) -> str:
        """:func:`public_notation` (the mover's own, or every other reader's)."""
        mine = actor == viewer
        shown = self._notations.get(mine)
        if shown is None:
            shown = self._notations[mine] = public_notation(game, notation, actor, viewer)
        return shown

    def phrase(self, game: str, public: str, actor: int, heard: Any) -> str:
        """The last move's phrase as ``public`` shows it (:func:`last_move`'s)."""
        phrase = self._phrases.get(public)
        if phrase is None:
            phrase = self._phrases[public] = move_phrase(game, public, actor, heard)
        return phrase


def seat_state(
    table: ViewedTable,
    seat: int,
    *,
    room: RoomJson | None,
    note_auto: Callable[[LastAction], str],
    shared: SharedParts | None = None,
) -> StateMessage:
    """The state message for ``seat`` (or :data:`SPECTATORS`); ``room``: a people's table's
    room as that seat is sent it; ``note_auto`` marks the last action with why a computer
    player made it for a person, and gives the sentence saying so (or ""); ``shared``: the
    parts the other seats' messages of this version share (one broadcast's)."""
    game, engine, state = table.setup.game, table.setup.engine, table.state
    parts = (SharedParts() if shared is None else shared).of(table)
    shown: int | None = seat
    own: OwnFactsJson = {}
    legal: list[str] = []
    moves: list[MoveJson] = []
    if seat == SPECTATORS:
        shown = None
        heard = engine.view(state, onlooker_seat(engine, state))
        view = spectator_view(engine, state, heard, parts.view_json(heard, sent=False))
    else:
        heard = engine.view(state, seat)
        view = parts.view_json(heard)
        own = own_facts(game, heard)
        if table.status == "playing":
            actions = engine.legal_actions(state, seat)
            # Each move's notation is its action's (worked out once per action, not per
            # message).
            moves = legal_moves(game, heard, actions)
            legal = [move["notation"] for move in moves]
    to_move, result = parts.to_move, parts.result
    names = table.names_for(seat)
    last = table.log[-1] if table.log else None
    summary = None
    outcome_version, outcomes = table.last_outcomes
    if outcomes and outcome_version == table.version:
        summary = merge_summaries(outcomes, names)
    last_action: LastAction | None = None
    said = ""
    if last is not None:
        actor, notation = last
        public = parts.public_notation(game, notation, actor, seat)
        last_action = last_move(
            game,
            engine,
            actor=actor,
            public=public,
            names=names,
            view=heard,
            phrase=parts.phrase(game, public, actor, heard),
        )
        said = note_auto(last_action)
    return state_message(
        version=table.version,
        seat=shown,
        view=view,
        own=own,
        legal=legal,
        moves=moves,
        to_move=to_move,
        # ``said``: the result's sentence in this reader's words ("You win…").
        result=None if result is None else _result_json(result, names),
        last_action=last_action,
        summary=summary,
        announce=said
        + announcement(
            game=game,
            names=names,
            viewer=seat,
            last_action=last,
            view=heard,
            headline=None if summary is None else summary["headline"],
            to_move=to_move,
            finished=table.finished,
            # The last move's sentence, as ``last_action`` says it to this reader.
            said=None if last_action is None else last_action["said"],
        ),
        room=room,
    )


def table_info(table: ViewedTable, viewer_profile: int | None) -> dict[str, Any]:
    """The table as GET /api/tables/{id} describes it (without a people's table's room)."""
    setup = table.setup
    your_seat = next(
        (seat for seat, profile in table.seated.items() if profile == viewer_profile), None
    )
    return {
        "table_id": setup.table_id,
        "game": setup.game,
        "title": setup.engine.title,
        **format_fields(setup.game, setup.rules, len(table.seats)),
        "rules": setup.engine.rules_to_json(setup.rules),
        "seats": public_seats(table.seats, table.seated),
        "version": table.version,
        "your_seat": your_seat,
        "finished": table.finished,
        "status": table.status,
    }


def _result_json(result: GameResult, names: list[str]) -> GameResultJson:
    """The game's result as a reader is sent it: ``said`` is its summary in the reader's
    words ("You win…")."""
    # The engine's own JSON, whatever fields its result has: the protocol declares the ones
    # every game's result has (the frame tests check them against the declaration).
    said = {"said": name_seats(result.summary, names)}
    return cast(GameResultJson, result.to_json() | said)
