"""Player options (the per-player settings kept in a profile): declared once, in
:class:`PlayerOptions`, with their words and choices (:func:`cardtable.rule_options.option`,
as the rule options are); the defaults, the check of a change, the API's models
(:mod:`cardtable.server.routes.models`) and the schema the page builds its Options panel and
its defaults from (``GET /api/options``, from
:func:`cardtable.server.routes.rules_schema.options_schema`) are all generated from that
declaration. Opponent-speed pacing lives here too; display names are
:mod:`cardtable.server.people.names`.

Options are stored as a plain object; :func:`merge_options` checks every key and value and
fills in defaults, so a stored or imported profile can never carry an unknown setting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from cardtable.bots import LEVELS, Level
from cardtable.errors import CardtableError
from cardtable.rule_options import Declared, option, options_of

Speed = Literal["slow", "normal", "fast", "instant"]
CardBack = Literal["red", "blue", "green"]
Difficulty = Literal["easy", "normal", "hard", "random"]
"""The bot levels as the profile's default opponent offers them (the page's order); the same
levels as :class:`cardtable.bots.Level` (tests/test_registry.py keeps them so)."""


@dataclass(frozen=True, kw_only=True)
class PlayerOptions:
    """Every player option with its default, words and choices: the one declaration."""

    coach: bool = option(
        False, label="Coach", help="Tips, near-melds, what each discard leaves, warnings"
    )
    four_colour: bool = option(False, label="Four-colour deck", help="Diamonds blue, clubs green")
    large_cards: bool = option(
        False, label="Large cards", help="Bigger ranks and suits in your hand"
    )
    reduce_motion: bool = option(
        False,
        label="Reduce motion",
        help="Cards move almost instantly; no dealing or winning effects",
    )
    sounds: bool = option(
        False,
        label="Sounds",
        help="Soft sounds when cards are dealt, drawn and played, and when a game is won",
    )
    opponent_speed: Speed = option(
        "normal",
        label="Opponent speed",
        help="How quickly the computer players play",
        choice_labels={"slow": "Slow", "normal": "Normal", "fast": "Fast", "instant": "Instant"},
    )
    card_back: CardBack = option(
        "red",
        label="Card back",
        help="The pattern on the back of the cards",
        choice_labels={"red": "Red", "blue": "Blue", "green": "Green"},
    )
    difficulty: Difficulty = option(
        Level.NORMAL.value,
        label="Computer players",
        help="Easy players make simpler choices",
        choice_labels={"easy": "Easy", "normal": "Normal", "hard": "Hard", "random": "Random"},
    )


PLAYER_OPTIONS: Final[tuple[Declared, ...]] = options_of(PlayerOptions)
"""The declarations, in the order the Options panel shows them."""
DEFAULT_OPTIONS: Final[dict[str, Any]] = dataclasses.asdict(PlayerOptions())
_DECLARED: Final = {declared.name: declared for declared in PLAYER_OPTIONS}


def _choices(name: str) -> tuple[str, ...]:
    return tuple(_DECLARED[name].option.choices)


BOOLEAN_OPTIONS: Final = tuple(d.name for d in PLAYER_OPTIONS if d.kind == "bool")
OPPONENT_SPEEDS: Final = _choices("opponent_speed")
CARD_BACKS: Final = _choices("card_back")
DIFFICULTIES: Final = _choices("difficulty")
BOT_LEVELS: Final = LEVELS

SECONDS_PER_BOT_MOVE: Final = {"slow": 1.6, "normal": 0.8, "fast": 0.3, "instant": 0.0}
"""How long a computer player seems to think at each opponent speed (before scaling)."""
PAUSE_AFTER_DEAL: Final = 2.5
"""A finished deal or hand stays on the table this many move-delays, for the summary to be read."""


class OptionsError(CardtableError, ValueError):
    """A profile option or name is unknown or out of range."""


def merge_options(current: Mapping[str, Any], changes: Any) -> dict[str, Any]:
    """``current`` options (defaults filled in) with ``changes`` applied after validation.

    >>> merge_options({}, {"coach": True})["coach"]
    True
    >>> merge_options({}, {"opponent_speed": "warp"})
    Traceback (most recent call last):
    ...
    cardtable.server.people.player_options.OptionsError: opponent_speed must be one of slow, \
normal, fast, instant, not 'warp'
    """
    if not isinstance(changes, Mapping):
        raise OptionsError("options must be an object")
    merged = dict(DEFAULT_OPTIONS)
    merged.update({k: v for k, v in current.items() if k in DEFAULT_OPTIONS})
    unknown = sorted(set(changes) - set(DEFAULT_OPTIONS))
    if unknown:
        raise OptionsError(
            f"unknown option(s) {', '.join(unknown)}: the options are {', '.join(DEFAULT_OPTIONS)}"
        )
    for key, value in changes.items():
        declared = _DECLARED[key]
        if declared.kind == "bool" and not isinstance(value, bool):
            raise OptionsError(f"{key} must be true or false, not {value!r}")
        choices = declared.option.choices
        if declared.kind == "choice" and not any(
            type(value) is type(c) and value == c for c in choices
        ):
            raise OptionsError(f"{key} must be one of {', '.join(choices)}, not {value!r}")
        merged[key] = value
    return merged


def bot_move_seconds(options: Mapping[str, Any], scale: float) -> float:
    """Seconds a computer player waits before moving, for a profile's opponent speed.

    >>> bot_move_seconds({"opponent_speed": "fast"}, 2.0)
    0.6
    """
    speed = options.get("opponent_speed", DEFAULT_OPTIONS["opponent_speed"])
    return SECONDS_PER_BOT_MOVE.get(speed, SECONDS_PER_BOT_MOVE["normal"]) * scale
