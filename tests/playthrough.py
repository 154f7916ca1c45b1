"""One playthrough transcript format for every registered game, the seat policies the
conformance suite plays with, and the one check every golden file goes through.

A playthrough (as OpenSpiel's golden playthroughs) is a seeded game told step by step through
the engine contract alone, so the same writer serves every game: the rules and seed, each chance
step with the hand every seat then sees, each seat action with how many actions were legal and a
short digest of the acting seat's view (any change in what a seat sees shows up as a diff), what
the game's narrator says of every deal, game or match the action finished (the same summary the
table shows), and the result.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from cardtable.cards import format_cards
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.registry import get_spec, load
from cardtable.server.narration import merge_summaries

PLAIN_VERBS = ("draw", "take", "discard")
"""The verbs every game shares that never end a deal: what a stalling player keeps playing."""


class Wanderer:
    """Plays a plain draw, take or discard with probability ``plain`` (when one is legal), else
    any legal action uniformly: long games that reach reshuffles and caps, with the occasional
    stop, show, drop or declaration. ``plain=1.0`` never ends a deal of its own accord."""

    name = "wanderer"
    version = "1"

    def __init__(self, plain: float = 0.9) -> None:
        self.plain = plain

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A legal action (see the class docstring)."""
        plain = [a for a in legal_actions if str(a).split(" ", 1)[0] in PLAIN_VERBS]
        pool = plain if plain and rng.random() < self.plain else list(legal_actions)
        return pool[rng.randrange(len(pool))]


def view_digest(view: Any) -> str:
    """Ten hex digits that change whenever anything in the view's JSON changes, except its
    rules: the transcript's header prints them once, so a new rule option changes one line."""
    data = {key: value for key, value in view.to_json().items() if key != "rules"}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def playthrough(
    engine: AnyEngine,
    rules: Any,
    seed: int,
    choose: Callable[[Any, int, Sequence[Any]], Any],
    *,
    max_actions: int = 5000,
) -> tuple[list[str], Any, list[tuple[int, Any]]]:
    """Play ``(engine, rules, seed)`` with ``choose(state, seat, legal)`` and tell it: the
    transcript lines, the last state and the seat actions."""
    spec = get_spec(engine.name)
    narrator = load(spec.narrator)()
    players = engine.rules_of(engine.new_game(rules, seed)).players
    names = [f"seat {seat}" for seat in range(players)]
    lines = [
        f"playthrough: {spec.name}",
        f"rules: {json.dumps(engine.rules_to_json(rules), sort_keys=True)}",
        f"seed: {seed}",
    ]
    state = engine.new_game(rules, seed)
    log: list[tuple[int, Any]] = []
    chance = 0
    while len(log) < max_actions:
        seat = engine.current_player(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state = engine.chance_step(state)
            chance += 1
            hands = [getattr(engine.view(state, s), "hand", ()) for s in range(players)]
            lines.append(f"chance {chance}: " + " | ".join(format_cards(h) for h in hands))
            continue
        legal = list(engine.legal_actions(state, seat))
        view = engine.view(state, seat)
        action = choose(state, seat, legal)
        before, state = state, engine.apply(state, action, seat)
        log.append((seat, action))
        digest = view_digest(view)
        lines.append(f"{len(log)}. seat {seat} ({len(legal)} legal, view {digest}): {action}")
        told = merge_summaries(narrator.finished(engine, before, state), names)
        if told is not None:
            lines.extend(f"   | {row}" for row in (told["headline"], *told["lines"]))
    result = engine.result(state)
    lines.append(
        "result: none (stopped after the last action above)"
        if result is None
        else f"result: {result.reason}: {result.summary}"
    )
    if result is not None:
        lines.append(f"scores {list(result.scores)}, winners {list(result.winners)}")
    return lines, state, log


def check_golden(path: Path, text: str) -> None:
    """Compare ``text`` with the golden file at ``path``, failing with a unified diff;
    ``CARDTABLE_REGEN_GOLDEN=1`` writes the file first (after an intended change: read the
    diff before committing it). Every golden test of the suite compares through here."""
    if os.environ.get("CARDTABLE_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"missing {path}: run with CARDTABLE_REGEN_GOLDEN=1 to create it")
    expected = path.read_text(encoding="utf-8")
    if text.splitlines() != expected.splitlines():
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=str(path),
                tofile="played now",
                n=2,
            )
        )
        pytest.fail(f"{path.name} changed (CARDTABLE_REGEN_GOLDEN=1 rewrites it):\n{diff}")
