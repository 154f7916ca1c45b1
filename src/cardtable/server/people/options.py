"""Profile options: defaults, validation, and opponent-speed pacing (display names are
:mod:`cardtable.server.people.names`).

Options are stored as a plain object; :func:`merge_options` checks every key and value and
fills in defaults, so a stored or imported profile can never carry an unknown setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardtable.bots import LEVELS, Level
from cardtable.errors import CardtableError

BOOLEAN_OPTIONS: Final = ("coach", "four_colour", "large_cards", "reduce_motion", "sounds")
OPPONENT_SPEEDS: Final = ("slow", "normal", "fast", "instant")
CARD_BACKS: Final = ("red", "blue", "green")
DIFFICULTIES: Final = (Level.EASY.value, Level.NORMAL.value, Level.HARD.value, Level.RANDOM.value)
"""The bot levels as the profile's default opponent offers them (the page's order)."""
BOT_LEVELS: Final = LEVELS

DEFAULT_OPTIONS: Final[dict[str, Any]] = {
    "coach": False,
    "four_colour": False,
    "large_cards": False,
    "reduce_motion": False,
    "sounds": False,
    "card_back": "red",
    "opponent_speed": "normal",
    "difficulty": "normal",
}

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
    cardtable.server.people.options.OptionsError: opponent_speed must be one of slow, normal, \
fast, instant, not 'warp'
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
        if key in BOOLEAN_OPTIONS and not isinstance(value, bool):
            raise OptionsError(f"{key} must be true or false, not {value!r}")
        if key == "opponent_speed" and value not in OPPONENT_SPEEDS:
            raise OptionsError(
                f"opponent_speed must be one of {', '.join(OPPONENT_SPEEDS)}, not {value!r}"
            )
        if key == "card_back" and value not in CARD_BACKS:
            raise OptionsError(f"card_back must be one of {', '.join(CARD_BACKS)}, not {value!r}")
        if key == "difficulty" and value not in DIFFICULTIES:
            raise OptionsError(
                f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {value!r}"
            )
        merged[key] = value
    return merged


def bot_move_seconds(options: Mapping[str, Any], scale: float) -> float:
    """Seconds a computer player waits before moving, for a profile's opponent speed.

    >>> bot_move_seconds({"opponent_speed": "fast"}, 2.0)
    0.6
    """
    speed = options.get("opponent_speed", DEFAULT_OPTIONS["opponent_speed"])
    return SECONDS_PER_BOT_MOVE.get(speed, SECONDS_PER_BOT_MOVE["normal"]) * scale
