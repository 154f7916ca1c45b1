"""Moves as the page is told them, so that it renders them without knowing the rules.

Each legal action goes out as a structured move beside its notation (``legal`` keeps the
notation strings): its ``kind`` (the verb, ``discard``, ``draw stock``, ``next game``), the
``cards`` it names (labels), the ``number`` it carries (an announcement, how many discards
to take), the ``words`` to show for it ("Discard the seven of hearts") and the ``warning`` to
give before it (Indecision's stop that would score 0, from the game's text module, which
reads the table's own rules: the meld values and Bike options included) and, for a move that
scores points for its mover (Indian Rummy's drop), its ``cost`` and ``cost_words``, from the
game's ``move_cost`` with the table's own rules. The last move goes
out in the same shape, with ``said``: its past-tense sentence in the reader's words ("Ruby
laid down four 7s.", the sentence the live region speaks).

The shapes are the protocol's, declared there once
(:class:`~cardtable.server.protocol.messages.MoveJson` and
:class:`~cardtable.server.protocol.messages.LastAction`, both a
:class:`~cardtable.server.protocol.messages.MovePartsJson` with more fields). The structure is
read from the action objects, never from their text: a card action has a ``card`` field, a
numbered one an ``int`` field, a match's next game its ``changes``. A move without cards
leaves ``cards`` out, one without a number ``number``: the seat to move gets every legal move
in every state message, so each key it does not need is left unsent.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any, Final

from cardtable.cards import card_name, format_card, parse_card
from cardtable.errors import CardtableError
from cardtable.games.contract import AnyEngine, View
from cardtable.registry import get_spec, load
from cardtable.server.narration.announce import describe_move, taken_card
from cardtable.server.protocol.messages import LastAction, MoveJson, MovePartsJson

_WORDS: Final = {
    "draw stock": "Draw from the stock",
    "draw deck": "Draw from the deck",
    "draw pile": "Take the top card of the pile",
    "take discard": "Take the top discard",
    "take extra": "Also take the next discard and the top stock card",
    "decline": "Decline the discard pile",
    "discard": "Discard the {card}",
    "stop": "Stop, with the {card} face down",
    "declare": "Declare",
    "go out": "Go out",
    "four sevens": "Lay down the four 7s",
    "propose tie": "Propose a tie game",
    "accept tie": "Accept the tie",
    "reject tie": "Reject the tie",
    "drop": "Drop out",
    "next game": "Start the next game",
    "confirm": "Confirm the announced score",
    "correct": "Correct to {number}",
    "rejoin": "Rejoin the game",
    "stay out": "Stay out of the game",
    "finish": "Finish and share the win",
    "play on": "Play on",
}
"""Imperative words for the common verbs; ``{card}`` is the card's full name, ``{number}``
the move's number."""
_NUMBERED_WORDS: Final = {
    "declare": "Announce {number}",
    "take discard": "Take the top {number} discards",
}
_CARD_WORDS: Final = {"declare": "Declare, putting down the {card}"}

Warn = Callable[[Any, object], "str | None"]
Cost = Callable[[Any, object], "tuple[int, str] | None"]


def _add_parts(shape: MovePartsJson, cards: list[str], number: int | None) -> None:
    """Give ``shape`` (a move, a last move) ``cards`` and ``number`` when the move has them."""
    if cards:
        shape["cards"] = cards
    if number is not None:
        shape["number"] = number


def move_parts(action: object) -> tuple[str, list[str], int | None]:
    """``(kind, cards, number)`` of an action object.

    >>> from cardtable.games.indecision.actions import Declare, Stop
    >>> move_parts(Stop(parse_card("9S"))), move_parts(Declare(15))
    (('stop', ['9S'], None), ('declare', [], 15))
    """
    notation = str(action)
    cards: list[str] = []
    number: int | None = None
    arguments: set[str] = set()
    if dataclasses.is_dataclass(action):
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if field.name == "card" and isinstance(value, int):
                cards.append(format_card(value))
            elif field.name == "cards" and isinstance(value, tuple):
                cards.extend(format_card(card) for card in value)
            elif isinstance(value, int) and not isinstance(value, bool):
                number = value
        arguments = set(cards) | ({str(number)} if number is not None else set())
    words = [word for word in notation.split() if word not in arguments and "=" not in word]
    if number is not None and str(number) not in notation.split():
        number = None  # a default left out of the notation (``take discard`` is one card)
    return " ".join(words), cards, number


def move_words(game: str, kind: str, cards: Sequence[str], number: int | None) -> str:
    """The words a button or a hint shows for a move (the game's own from its spec first).

    >>> move_words("indian-rummy", "declare", ["7H"], None)
    'Declare, putting down the seven of hearts'
    >>> move_words("indecision", "declare", [], 15)
    'Announce 15'
    """
    own = dict(get_spec(game).action_words)
    if kind in own:
        template = own[kind]
    elif cards and kind in _CARD_WORDS:
        template = _CARD_WORDS[kind]
    elif number is not None and kind in _NUMBERED_WORDS:
        template = _NUMBERED_WORDS[kind]
    else:
        template = _WORDS.get(kind, kind[:1].upper() + kind[1:])
    named = " and the ".join(_card_name(card) for card in cards)
    return template.format(card=named, number="" if number is None else number)


def _card_name(label: str) -> str:
    try:
        return card_name(parse_card(label))
    except CardtableError:
        return label


@functools.cache
def _warner(game: str) -> Warn | None:
    text = load(get_spec(game).text)
    warn: Warn | None = getattr(text, "move_warning", None)
    return warn


def _move(game: str, notation: str, kind: str, cards: list[str], number: int | None) -> MoveJson:
    """A structured move without its warning (the same for a legal action and a hint); a
    field a move has only sometimes is added after, like ``warning``."""
    move = MoveJson(notation=notation, kind=kind, words=move_words(game, kind, cards, number))
    _add_parts(move, cards, number)
    return move


_KEPT_MOVES: Final = 20_000
"""At most this many actions' structured moves are remembered (a game has a few hundred
distinct actions; the bound only keeps a long-running server's memory flat)."""
_MOVES: dict[tuple[str, object], MoveJson] = {}
"""Each action's structured move without its warning, by game and action: it depends on
nothing else, and the seat to move is sent every legal move after every move."""


def _move_of(game: str, action: object) -> MoveJson:
    """``action``'s structured move without a warning (shared: never to be changed)."""
    key = (game, action)
    move = _MOVES.get(key)
    if move is None:
        move = _move(game, str(action), *move_parts(action))
        if len(_MOVES) >= _KEPT_MOVES:
            _MOVES.clear()
        _MOVES[key] = move
    return move


@functools.cache
def _coster(game: str) -> Cost | None:
    cost: Cost | None = getattr(load(get_spec(game).text), "move_cost", None)
    return cost


def legal_moves(game: str, view: View, actions: Sequence[object]) -> list[MoveJson]:
    """The state message's ``moves``: one structured move per legal action, in order (a
    move without a warning is shared between messages: never to be changed)."""
    warn = _warner(game)
    coster = _coster(game)
    if warn is None and coster is None:
        return [_move_of(game, action) for action in actions]
    moves: list[MoveJson] = []
    for action in actions:
        move = _move_of(game, action)
        warning = None if warn is None else warn(view, action)
        cost = None if coster is None else coster(view, action)
        if warning is not None or cost is not None:
            move = move.copy()
        if warning is not None:
            move["warning"] = warning
        if cost is not None:
            move["cost"], move["cost_words"] = cost
        moves.append(move)
    return moves


_SHOWN: dict[tuple[str, str], tuple[str, list[str], int | None]] = {}
"""Each public notation's ``(kind, cards, number)``, by game (see :data:`_MOVES`)."""


def shown_move(
    engine: AnyEngine, notation: str, *, public: str | None = None
) -> tuple[str, list[str], int | None]:
    """``(kind, cards, number)`` of a move made, as ``public`` (what the reader may see of
    it, when it differs from ``notation``): a face-down card is not named. The ``cards``
    list is shared between calls: never to be changed."""
    text = notation if public is None else public
    key = (engine.name, text)
    shown = _SHOWN.get(key)
    if shown is None:
        try:
            shown = move_parts(engine.parse_action(text))
        except CardtableError:
            # The public form of a face-down move (``stop``) is only its verb.
            shown = text, [], None
        if len(_SHOWN) >= _KEPT_MOVES:
            _SHOWN.clear()
        _SHOWN[key] = shown
    return shown


def last_move(
    game: str,
    engine: AnyEngine,
    *,
    actor: int,
    public: str,
    names: Sequence[str],
    view: View | None,
    phrase: str | None = None,
) -> LastAction:
    """The state message's ``last_action`` for a reader: whose move, its public notation, its
    structure and ``said``, the sentence in the reader's words; ``phrase``: the move's
    :func:`move_phrase`, when the caller has it already (it is every reader's who sees
    ``public``)."""
    kind, cards, number = shown_move(engine, public)
    if phrase is None:
        phrase = move_phrase(game, public, actor, view)
    said = f"{names[actor]} {phrase}."
    shown = LastAction(seat=actor, action=public, kind=kind, said=said)
    _add_parts(shown, cards, number)
    return shown


def move_phrase(game: str, public: str, actor: int, view: View | None) -> str:
    """The past-tense phrase of the move ``public`` by ``actor`` ("discarded 7H"), reading the
    card it took from the pile in ``view``'s public events."""
    return describe_move(game, public, taken_card(view, actor))


def hint_move(game: str, engine: AnyEngine, notation: str | None) -> MoveJson | None:
    """A hint's action as a structured move (``None`` with nothing to do)."""
    if notation is None:
        return None
    return _move(game, notation, *shown_move(engine, notation))
