"""Typed errors shared by every layer of cardtable.

Every error a caller can provoke with bad input is a ``ValueError`` subclass with a message that
names the problem, so the CLI and the server can answer it in one line without a traceback.
"""

from __future__ import annotations

from enum import StrEnum


class CardtableError(Exception):
    """Base of every error raised on purpose by cardtable."""


class NotFoundError(CardtableError, LookupError):
    """The thing asked for does not exist: no such table, no such profile."""


class CardError(CardtableError, ValueError):
    """A card or a hand is malformed: unknown spelling, a duplicate, a card foreign to the deck."""


class HandSizeError(CardError):
    """A hand has a number of cards the operation does not accept."""


class RulesError(CardtableError, ValueError):
    """A rules setting or a game setup is out of range (player count, deal size, option value)."""


class RuleKey(StrEnum):
    """The short names of the rules an illegal action breaks, shared by the three games and sent
    to clients with the error (the value is the key on the wire). One rule has one key in every
    game: drawing twice is ``already-drew`` whichever game forbids it."""

    # Who may act, and when.
    UNKNOWN_ACTION = "unknown-action"
    NO_SUCH_SEAT = "no-such-seat"
    NOT_YOUR_TURN = "not-your-turn"
    GAME_OVER = "game-over"
    CHANCE_PENDING = "chance-pending"
    NO_CHANCE_STEP = "no-chance-step"
    DROPPED = "dropped"
    NO_MOVE = "no-move"
    ILLEGAL = "illegal"
    # Drawing.
    DRAW_FIRST = "draw-first"
    ALREADY_DREW = "already-drew"
    EMPTY_PILE = "empty-pile"
    MUST_DRAW_PILE = "must-draw-pile"
    JOKER_ON_PILE = "joker-on-pile"
    STOCK_EXHAUSTED = "stock-exhausted"
    SQUARED_PILE = "squared-pile"
    EXHAUSTED_TOP_ONLY = "exhausted-top-only"
    PILE_TOO_SHORT = "pile-too-short"
    NOT_EXHAUSTED = "not-exhausted"
    NO_EXTRA = "no-extra"
    OPENING_DISCARD = "opening-discard"
    # Discarding, declaring, going out.
    NOT_IN_HAND = "not-in-hand"
    CARD_TAKEN_FROM_PILE = "card-taken-from-pile"
    NO_MELD_2_DISCARD = "no-meld-2-discard"
    CANT_DECLARE = "cant-declare"
    GIN_THRESHOLD = "gin-threshold"
    CANNOT_GO_OUT = "cannot-go-out"
    NO_FOUR_SEVENS = "no-four-sevens"
    # Dropping.
    DROPS_OFF = "drops-off"
    DROP_AT_START_OF_TURN = "drop-at-start-of-turn"
    # Tie games.
    ONE_TIE_PROPOSAL = "one-tie-proposal"
    TIE_VOTE = "tie-vote"
    NO_TIE_VOTE = "no-tie-vote"
    # Counting a hand by declaration (Indecision).
    NOT_COUNTING = "not-counting"
    DECLARE_FIRST = "declare-first"
    CONFIRM_OR_CORRECT = "confirm-or-correct"
    DECLARATION_RANGE = "declaration-range"
    # Matches (Declaration Rummy).
    BETWEEN_GAMES = "between-games"
    NOT_BETWEEN = "not-between"
    MATCH_FIXED = "match-fixed"
    BAD_RULES = "bad-rules"
    # Pool and Deals (Indian Rummy's formats).
    ELIMINATED = "eliminated"
    REJOIN_OFFER = "rejoin-offer"
    NO_REJOIN_OFFER = "no-rejoin-offer"
    FINISH_VOTE = "finish-vote"
    NO_FINISH_VOTE = "no-finish-vote"


class IllegalActionError(CardtableError, ValueError):
    """An action is not allowed in the current state.

    ``rule`` names the rule that forbids it (:class:`RuleKey`, sent to clients); the message is
    a sentence a player can read.
    """

    def __init__(self, message: str, *, rule: RuleKey = RuleKey.ILLEGAL) -> None:
        super().__init__(message)
        self.rule = rule


class ActionSyntaxError(CardtableError, ValueError):
    """An action's text notation could not be read."""


class RecordError(CardtableError, ValueError):
    """A game record is malformed, of an unknown version, or does not replay."""
