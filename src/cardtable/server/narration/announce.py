"""Sentences for the live region, and the public form of the last move.

A move's notation is public except where the rules put a card face down (the spec's
``face_down_verbs``): Indecision's ``stop 9S`` places the spare card face down, so other seats
learn only ``stop``. The announcement names the mover as the receiving seat knows them ("You",
"Ruby") and reads the move's verb, in the game's own phrase where its spec gives one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtable.cards import format_card
from cardtable.games.contract import View
from cardtable.registry import get_spec

_PHRASES: Final = {
    "draw stock": "drew from the stock",
    "draw deck": "drew from the deck",
    "draw pile": "took {taken} from the discard pile",
    "take discard": "took {taken} from the discard pile",
    "take extra": "also took the next discard and the top stock card",
    "decline": "declined the discard pile",
    "drop": "dropped",
    "go out": "went out",
    "four sevens": "laid down the four sevens",
    "propose tie": "proposed a tie game",
    "accept tie": "accepted the tie",
    "reject tie": "rejected the tie",
    "next game": "started the next game",
    "confirm": "confirmed the announced score",
}
_CARD_PHRASES: Final = {
    "discard": "discarded {arg}",
    "stop": "stopped the hand",
    "correct": "corrected the announcement to {arg}",
}


def public_notation(game: str, notation: str, actor: int, viewer: int) -> str:
    """The move as ``viewer`` may see it.

    >>> public_notation("indecision", "stop 9S", actor=1, viewer=0)
    'stop'
    >>> public_notation("indecision", "stop 9S", actor=1, viewer=1)
    'stop 9S'
    """
    verb = notation.split(" ", 1)[0]
    if actor != viewer and verb in get_spec(game).face_down_verbs:
        return verb
    return notation


def describe_move(game: str, notation: str, taken: str | None = None) -> str:
    """A past-tense phrase for a move's (public) notation.

    >>> describe_move("indian-rummy", "discard 7H")
    'discarded 7H'
    >>> describe_move("indian-rummy", "declare 7H")
    'declared, putting down 7H'
    >>> describe_move("indecision", "declare 15")
    'announced 15 points'
    """
    words = notation.split()
    if not words:
        return "moved"
    for length in (2, 1):
        key = " ".join(words[:length])
        if key in _PHRASES:
            return _PHRASES[key].format(taken=taken or "a card")
    verb, argument = words[0], " ".join(words[1:])
    own = dict(get_spec(game).move_phrases).get(verb)
    if own is not None and (argument or "{arg}" not in own):
        return own.format(arg=argument)
    if verb == "declare":
        return f"declared, putting down {argument}" if argument else "declared"
    if verb in _CARD_PHRASES:
        return _CARD_PHRASES[verb].format(arg=argument)
    return f"played {notation}"


def taken_card(view: View | None, actor: int) -> str | None:
    """The card(s) ``actor`` visibly took from the pile in its last public event, as labels
    (``None`` without a view to read it from)."""
    if view is None:
        return None
    for event in reversed(view.events):
        if event.seat == actor and event.verb.startswith("take") and event.cards:
            return " ".join(format_card(card) for card in event.cards)
    return None


def announcement(
    *,
    game: str,
    names: Sequence[str],
    viewer: int,
    last_action: tuple[int, str] | None,
    view: View | None,
    headline: str | None,
    to_move: int,
    finished: bool,
    said: str | None = None,
) -> str:
    """The sentence(s) a screen reader should speak after a change, for ``viewer``;
    ``said``: the last move's sentence for this reader when the caller has it already (the
    state message's ``last_action`` says the same).

    >>> announcement(game="indian-rummy", names=["You", "Ruby"], viewer=0,
    ...              last_action=(1, "discard 7H"), view=None, headline=None, to_move=0,
    ...              finished=False)
    'Ruby discarded 7H. Your turn.'
    """
    parts: list[str] = []
    if headline:
        # The headline already tells how the move ended the deal or game.
        parts.append(headline)
    elif said is not None:
        parts.append(said)
    elif last_action is not None:
        actor, notation = last_action
        shown = public_notation(game, notation, actor, viewer)
        parts.append(f"{names[actor]} {describe_move(game, shown, taken_card(view, actor))}.")
    if finished:
        parts.append("The game is over.")
    elif to_move == viewer:
        parts.append("Your turn.")
    elif 0 <= to_move < len(names):
        parts.append(f"{names[to_move]} to play.")
    return " ".join(parts)
