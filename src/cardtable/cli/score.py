"""``cardtable score GAME CARDS...``: a hand's score explained in the game's own terms.

One scorer per game (and the gin rummy preset used to cross-check the solver against other
engines) behind one function, :func:`score_cards`, which returns the readable explanation and
the JSON object. ``--batch`` scores one JSON object per stdin line in one process; a bad line
yields an ``{"error": ...}`` line and the rest of the batch is still scored.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from cardtable.cards import ONE_DECK, parse_cards
from cardtable.cli.rule_flags import apply_rule_options
from cardtable.errors import CardtableError, RulesError
from cardtable.registry import game_names, get_engine, get_spec, load

EXTRA_SCORERS = ("gin",)
"""Scorers that are not registered games: the standard gin rummy deadwood count."""


def score_games() -> tuple[str, ...]:
    """What ``cardtable score`` accepts: every registered game, then the extra scorers."""
    return (*game_names(), *EXTRA_SCORERS)


def _score_gin(tokens: Sequence[str]) -> tuple[str, dict[str, Any]]:
    from cardtable.melds.gin import gin_arrangement

    arrangement = gin_arrangement(parse_cards(tokens, deck=ONE_DECK))
    return arrangement.explain(), arrangement.to_json()


def score_cards(
    game: str, tokens: Sequence[str], *, wild: str | None = None, rules: Sequence[str] = ()
) -> tuple[str, dict[str, Any]]:
    """Score ``tokens`` (card labels) for ``game``: the explanation and the JSON object.

    Raises a :class:`~cardtable.errors.CardtableError` naming the problem on bad input.
    """
    if game.strip().lower() == "gin":
        return _score_gin(tokens)
    try:
        spec = get_spec(game)
    except RulesError:
        raise RulesError(
            f"unknown game {game!r}: choose one of {', '.join(score_games())}"
        ) from None
    options = apply_rule_options(get_engine(spec.name).rules_type(), rules)
    result: tuple[str, dict[str, Any]] = load(spec.score)(tokens, options, wild)
    return result


def _batch_line(game: str, line: str, wild: str | None, rules: Sequence[str]) -> dict[str, Any]:
    """Score one ``--batch`` line; errors become ``{"error": ...}``."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"line is not valid JSON: {exc.msg}"}
    if not isinstance(item, dict):
        return {"error": "each line must be a JSON object with a 'cards' list"}
    cards = item.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return {"error": "'cards' must be a list of card labels such as \"10H\""}
    line_wild = item.get("wild", wild)
    if line_wild is not None and not isinstance(line_wild, str | int):
        return {"error": '\'wild\' must be a rank such as "7" or "Q"'}
    try:
        _, data = score_cards(
            game, cards, wild=None if line_wild is None else str(line_wild), rules=rules
        )
    except CardtableError as exc:
        return {"error": str(exc)}
    return data


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to ``app``."""

    @app.command("score")
    def score(
        game: Annotated[str, typer.Argument(help=", ".join(score_games()))],
        cards: Annotated[
            list[str] | None, typer.Argument(help="cards such as 10H TH 10♥ qs PJ W C7")
        ] = None,
        wild: Annotated[
            str | None, typer.Option(help="Indian Rummy wild rank (7, Q, PJ, none)")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
        batch: Annotated[bool, typer.Option(help="score one JSON object per stdin line")] = False,
        rule: Annotated[
            list[str] | None, typer.Option(help="rule option KEY=VALUE (repeatable)")
        ] = None,
    ) -> None:
        """Explain a hand's score in the game's own terms."""
        rules = tuple(rule or ())
        if batch:
            for line in sys.stdin:
                if line.strip():
                    sys.stdout.write(json.dumps(_batch_line(game, line, wild, rules)) + "\n")
            return
        try:
            text, data = score_cards(game, list(cards or ()), wild=wild, rules=rules)
        except CardtableError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(json.dumps(data) if as_json else text)
