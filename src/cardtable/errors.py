"""Typed errors shared by every layer of cardtable.

Every error a caller can provoke with bad input is a ``ValueError`` subclass with a message that
names the problem, so the CLI and the server can answer it in one line without a traceback.
"""

from __future__ import annotations


class CardtableError(Exception):
    """Base of every error raised on purpose by cardtable."""


class CardError(CardtableError, ValueError):
    """A card or a hand is malformed: unknown spelling, a duplicate, a card foreign to the deck."""


class HandSizeError(CardError):
    """A hand has a number of cards the operation does not accept."""


class RulesError(CardtableError, ValueError):
    """A rules setting or a game setup is out of range (player count, deal size, option value)."""


class IllegalActionError(CardtableError, ValueError):
    """An action is not allowed in the current state.

    ``rule`` is a short name of the rule that forbids it (for logs and tests); the message is a
    sentence a player can read.
    """

    def __init__(self, message: str, *, rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


class ActionSyntaxError(CardtableError, ValueError):
    """An action's text notation could not be read."""


class RecordError(CardtableError, ValueError):
    """A game record is malformed, of an unknown version, or does not replay."""
