"""The one declaration every game makes about itself: :class:`GameSpec`.

Each game package holds a ``spec.py`` with one ``SPEC`` (as OpenSpiel's games carry their
``_GAME_TYPE`` and python-chess's variants their class attributes): its names, the words its
table speaks (what one deal is called, whether points are good, which moves put a card face
down, how its record reads) and where its parts live. The registry (:mod:`cardtable.registry`)
reads the specs and is the only place that turns a game's name into the game; everything that
differs by game (bots, coach, narration, terminal text, the score command, command-line rule
options, the browser's catalogue) asks it instead of keeping a map of its own.

Parts are named by import path (``"package.module"`` or ``"package.module:attribute"``), not
imported here, so a spec stays light, asking for one game loads nothing of the others, and a
spec (layer 3) can name the bots, coach and narration that live in the layers below it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class RecordExtra:
    """One of a game's own lines in Your Record: ``label`` counts the ``kind`` events (``deal``,
    ``game``, ``match``) whose details set ``flag`` (``"won"`` counts the won ones)."""

    key: str
    label: str
    kind: str
    flag: str


@dataclass(frozen=True, slots=True)
class TableFormat:
    """The named format a table's rules make, as listings and Your Record name it: ``key`` is
    stable (records are kept under it: ``pool-101``), ``title`` is what a person reads
    (``Pool 101``)."""

    key: str
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec:
    """Everything outside a game's package needs to know about the game (see the module)."""

    name: str
    """Registry name, as in URLs, records and the command line: ``indian-rummy``."""
    title: str
    """Display name: ``Indian Rummy``."""
    aliases: tuple[str, ...] = ()
    """Other names accepted wherever a game is named (``ir``, ``indian_rummy``)."""
    deal_word: str = "deal"
    """What one deal is called at this table: ``hand``, ``deal`` or ``game``."""
    deal_kind: str = "deal"
    """The record event kind that counts as one deal (``game`` where one deal is a game)."""
    points_word: str = "points"
    """What the rules call a deal's score in Your Record: ``points``, or ``count`` where the
    rules speak of a hand's count (Declaration Rummy)."""
    points_good: bool = True
    """Whether more points are better (Indecision) or worse (penalties, counts)."""
    deals_compared_by_points: bool = False
    """Whether the arena compares two seats' deals by their points (lower is better) rather
    than by the game's utilities."""
    arena_rules: tuple[tuple[str, int | str | bool], ...] = ()
    """Rule options the arena plays with on top of the chosen preset (Indian Rummy: one deal
    per game, so that each game is one comparable deal), unless :attr:`arena_rules_unless`."""
    arena_rules_unless: tuple[str, ...] = ()
    """Rule options that, away from their defaults, give a preset an end of its own: the arena
    then plays it as it is, without :attr:`arena_rules` (Indian Rummy's ``format``: a Pool or
    Deals game is played whole and judged by its final standing)."""
    face_down_verbs: frozenset[str] = frozenset()
    """Verbs whose card argument is placed face down: other seats see only the verb."""
    move_phrases: tuple[tuple[str, str], ...] = ()
    """Past-tense phrases for this game's verbs where they differ from the common ones
    (``("declare", "announced {arg} points")``); ``{arg}`` is the move's argument."""
    action_words: tuple[tuple[str, str], ...] = ()
    """Imperative words for this game's moves where they differ from the common ones, as a
    button or a hint shows them (``("drop", "Drop out of this deal")``); ``{card}`` is the
    move's card by its full name, ``{number}`` its number."""
    record_extras: tuple[RecordExtra, ...] = ()
    """The game's own lines in Your Record, in order."""
    engine: str
    """The engine object: ``"cardtable.games.<game>.engine:ENGINE"``."""
    text: str
    """Terminal text module: ``render_view(view)``, ``render_hand_summary(view)`` and, if the
    game warns before some moves, ``move_warning(view, action) -> str | None``; if some moves
    score points for their mover, ``move_cost(view, action) -> (points, sentence) | None``."""
    score: str
    """``score_cards(tokens, rules, wild) -> (explanation, json)`` for ``cardtable score``."""
    bots: str
    """Module with ``make_bot(level)`` for the levels above ``random``."""
    coach: str
    """Module with ``hint(view, legal)`` and ``coach(view, legal)``."""
    narrator: str
    """Class whose instances say which deals, games and matches a move finished."""
    howto: str
    """``page() -> {title, sections, examples}``: the How to play page (its own sections and
    worked examples, built with :mod:`cardtable.games.howto`)."""
    lens: str
    """``() -> Lens``: what the move-by-move analysis must know of the game
    (:class:`cardtable.review.lenses.Lens`)."""
    research: str | None = None
    """``cardtable.envs.<game>:RESEARCH``, the game as the research environments see it (its
    fixed action table, observation encoder and OpenSpiel facts); ``None`` when the game is not
    offered there."""
    playouts: str | None = None
    """Module with the playout seats' ``playing`` and ``improving`` filters and ``ending``
    (:class:`cardtable.playouts.GamePlayouts`); ``None`` when every legal action is a playing
    one and the result says how a game ended."""
    explain: str | None = None
    """Module with the game's own words in the explanations of costly moves
    (:class:`cardtable.review.explain.GameWords`); ``None`` for the common words."""
    table_format: str | None = None
    """An object with ``of(rules) -> TableFormat`` and ``title(key) -> str``: the format a
    table's rules make (Indian Rummy's free play,
    Pool 101, Deals best of 3), shown wherever a table is listed and keeping Your Record by
    format; ``None`` when the game is played in one format only."""
    cli_rules: str | None = None
    """``rules_from_cli(players=, cards=, optional=, variation=, preset=)`` when the game takes
    the command line's ``--cards``, ``--optional`` and ``--variation``; ``None`` if it does not."""


def arena_changes(spec: GameSpec, rules: Any) -> dict[str, Any]:
    """The rule changes the arena makes to ``rules`` (:attr:`GameSpec.arena_rules`, unless one
    of :attr:`GameSpec.arena_rules_unless` is away from its default in ``rules``)."""
    defaults = type(rules)()
    if any(getattr(rules, name) != getattr(defaults, name) for name in spec.arena_rules_unless):
        return {}
    return dict(spec.arena_rules)


def arena_rules_of(spec: GameSpec, rules: Any) -> Any:
    """``rules`` as the arena plays them (see :func:`arena_changes`)."""
    return dataclasses.replace(rules, **arena_changes(spec, rules))
