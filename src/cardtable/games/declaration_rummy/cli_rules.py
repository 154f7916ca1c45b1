"""Declaration Rummy rules from command-line words: ``--players``, ``--cards``, ``--optional``,
``--variation`` and ``--preset``, mapped onto the game's
:class:`~cardtable.games.declaration_rummy.rules.Rules`.

``--optional`` lists optional cards separated by commas: ``C1 C2 C3 C4 C7 C12 NM0 NM2 CD0 W``.
A WILDCARD may be repeated (``W,W``) or counted (``3W``, ``Wx3``, ``W*3``); ``all`` is all twelve
cards and ``none`` none.

``--variation`` lists variations separated by commas (:data:`VARIATIONS` gives every name and its
aliases):

=========================  =====================================================
``gin`` / ``gin:N``        Gin Rummy: declare only with a count of 7 (or N) or less
``declare-bonus``          the declarer's count is compared less one
``going-out-single-meld``  Going Out Major or Minor (alias ``major-minor``)
``declare-or-go-out``      no stock-exhaustion ending: the discard pile is reshuffled
``three-card-draw``        take the next discard and the top stock card too
``four-sevens``            the four natural sevens win at once
``spread-out``             Spread-Out Discard-Pile
``missing-cards:A:B``      Missing Cards: A optional cards (0-12), then B cards (0-7)
                           of the pack removed unseen (``missing-cards`` alone: 0 and 0)
``seating``                Seating by the Preliminary cards
``shuffle-option``         the seven-pile deal after the shuffle
``match`` / ``match:N``    a match, first to 2 (or N) game wins
=========================  =====================================================

>>> r = rules_from_cli(players=3, cards=7, optional="3W,C7", variation="gin,missing-cards:1:2")
>>> r.optional_cards, r.gin_rummy, (r.missing_cards, r.missing_optional, r.missing_regular)
(('C7', 'W', 'W', 'W'), True, (True, 1, 2))
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final

from cardtable.errors import RulesError
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, PRESETS, Rules

VARIATIONS: Final = {
    "gin": "gin_rummy",
    "gin-rummy": "gin_rummy",
    "declare-bonus": "declare_bonus",
    "going-out-single-meld": "going_out_single_meld",
    "going-out-major-minor": "going_out_single_meld",
    "major-minor": "going_out_single_meld",
    "single-meld": "going_out_single_meld",
    "declare-or-go-out": "declare_or_go_out",
    "three-card-draw": "three_card_draw",
    "four-sevens": "four_sevens",
    "four-7s": "four_sevens",
    "spread-out": "spread_out_discard",
    "spread-out-discard-pile": "spread_out_discard",
    "missing-cards": "missing_cards",
    "seating": "seating",
    "shuffle-option": "shuffle_option",
    "match": "match",
}
"""Variation names (and aliases) accepted by ``--variation``, with the rule field each sets."""

_COUNTED_WILD: Final = re.compile(r"^(?:(\d+)\s*[X*]?\s*W|W\s*[X*]\s*(\d+))$")


def parse_optional(text: str) -> tuple[str, ...]:
    """Optional card labels from ``--optional`` words.

    >>> parse_optional("W,c7, Wx2")
    ('W', 'C7', 'W', 'W')
    >>> parse_optional("all") == ALL_OPTIONAL
    True
    """
    words = [w.strip().upper() for w in text.split(",") if w.strip()]
    if words == ["ALL"]:
        return ALL_OPTIONAL
    if words in ([], ["NONE"]):
        return ()
    labels: list[str] = []
    for word in words:
        if word in ("ALL", "NONE"):
            raise RulesError(f"--optional {word.lower()} cannot be combined with other cards")
        counted = _COUNTED_WILD.match(word)
        if counted:
            copies = int(counted.group(1) or counted.group(2))
            if not 0 <= copies <= 3:
                raise RulesError(f"there are three WILDCARDs, so {word} is not possible")
            labels.extend(["W"] * copies)
        else:
            labels.append(word)
    return tuple(labels)


def _variation_changes(text: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for word in (w.strip().lower() for w in text.split(",")):
        if not word or word == "none":
            continue
        name, *args = word.split(":")
        field = VARIATIONS.get(name)
        if field is None:
            raise RulesError(
                f"unknown variation {name!r}: choose from {', '.join(sorted(set(VARIATIONS)))}"
            )
        changes[field] = True
        numbers = _numbers(word, args)
        if field == "missing_cards":
            if len(numbers) not in (0, 2):
                raise RulesError(f"write missing-cards:A:B (two numbers), not {word!r}")
            if numbers:
                changes["missing_optional"], changes["missing_regular"] = numbers
        elif field in ("gin_rummy", "match"):
            if len(numbers) > 1:
                raise RulesError(f"{name} takes at most one number, not {word!r}")
            if numbers:
                changes["gin_threshold" if field == "gin_rummy" else "match_wins"] = numbers[0]
        elif numbers:
            raise RulesError(f"variation {name} takes no number, not {word!r}")
    return changes


def _numbers(word: str, args: list[str]) -> list[int]:
    out: list[int] = []
    for arg in args:
        if not arg.strip().isdigit():
            raise RulesError(f"expected whole numbers after ':' in {word!r}, not {arg!r}")
        out.append(int(arg))
    return out


def rules_from_cli(
    players: int | None = None,
    cards: int | None = None,
    optional: str | None = None,
    variation: str | None = None,
    preset: str | None = None,
) -> Rules:
    """Rules from the command-line words (each ``None`` when not given), on top of ``preset``.

    >>> rules_from_cli(None, 11, None, None, None)
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: with 4 players each is dealt 2 to 7 cards, not 11
    >>> rules_from_cli(None, None, None, "gni", None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: unknown variation 'gni': choose from ...
    """
    if preset is not None and preset not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}: choose from {', '.join(PRESETS)}")
    base = PRESETS[preset] if preset is not None else Rules()
    changes: dict[str, Any] = {}
    if players is not None:
        changes["players"] = players
        if cards is None and base.cards_dealt is not None:
            changes["cards_dealt"] = None
    if cards is not None:
        changes["cards_dealt"] = cards
    if optional is not None:
        changes["optional_cards"] = parse_optional(optional)
    if variation is not None:
        changes.update(_variation_changes(variation))
    try:
        return dataclasses.replace(base, **changes)
    except TypeError as exc:  # pragma: no cover - field names above are fixed
        raise RulesError(str(exc)) from None
