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

from cardtable.cards import (
    DECLARATION_RUMMY_DECK,
    INDECISION_DECK,
    INDIAN_RUMMY_DECK,
    ONE_DECK,
    format_card,
    parse_cards,
)
from cardtable.errors import CardtableError, HandSizeError, RulesError

SCORE_GAMES = ("indecision", "indian-rummy", "declaration-rummy", "gin")


def _score_indecision(tokens: Sequence[str], rules: Sequence[str]) -> tuple[str, dict[str, Any]]:
    from cardtable.cli.options import apply_rule_options
    from cardtable.games.indecision.rules import Rules
    from cardtable.games.indecision.scoring import score_hand

    hand = score_hand(
        parse_cards(tokens, deck=INDECISION_DECK), rules=apply_rule_options(Rules(), rules)
    )
    return hand.explain(), hand.to_json()


def _score_indian_rummy(
    tokens: Sequence[str], wild: str | None, rules: Sequence[str]
) -> tuple[str, dict[str, Any]]:
    from cardtable.cli.options import apply_rule_options
    from cardtable.games.indian_rummy.rules import Rules
    from cardtable.games.indian_rummy.scoring import arrange, parse_wild_rank, show_discards

    if wild is None:
        raise RulesError(
            "Indian Rummy needs the wild rank: --wild RANK (A, 2-10, J, Q, K, PJ or none)"
        )
    wild_rank = parse_wild_rank(wild)
    cards = parse_cards(tokens, deck=INDIAN_RUMMY_DECK)
    options = apply_rule_options(Rules(), rules)
    if len(cards) == 13:
        arrangement = arrange(cards, wild_rank, rules=options)
        return arrangement.explain(), arrangement.to_json()
    if len(cards) == 14:
        discards = show_discards(cards, wild_rank, rules=options)
        # With a valid show, explain the show; otherwise the put-down that leaves fewest points.
        candidates = discards or tuple(dict.fromkeys(cards))
        best_card, best = None, None
        for card in candidates:
            rest = list(cards)
            rest.remove(card)
            arrangement = arrange(rest, wild_rank, rules=options)
            if best is None or arrangement.points < best.points:
                best_card, best = card, arrangement
        assert best is not None and best_card is not None
        data = best.to_json()
        data["show_discards"] = [format_card(c) for c in discards]
        data["put_down"] = format_card(best_card)
        verdict = (
            f"valid show after putting down {', '.join(format_card(c) for c in discards)}"
            if discards
            else "no valid show with any put-down"
        )
        return f"{verdict}; putting down {format_card(best_card)}: {best.explain()}", data
    raise HandSizeError(f"Indian Rummy scores 13 cards (or 14 after drawing), not {len(cards)}")


def _score_declaration_rummy(
    tokens: Sequence[str], rules: Sequence[str]
) -> tuple[str, dict[str, Any]]:
    from cardtable.cli.options import apply_rule_options
    from cardtable.games.declaration_rummy.rules import Rules
    from cardtable.games.declaration_rummy.scoring import count_hand

    hand = count_hand(
        parse_cards(tokens, deck=DECLARATION_RUMMY_DECK), rules=apply_rule_options(Rules(), rules)
    )
    return hand.explain(), hand.to_json()


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
    key = game.strip().lower()
    if key == "indecision":
        return _score_indecision(tokens, rules)
    if key == "indian-rummy":
        return _score_indian_rummy(tokens, wild, rules)
    if key == "declaration-rummy":
        return _score_declaration_rummy(tokens, rules)
    if key == "gin":
        return _score_gin(tokens)
    raise RulesError(f"unknown game {game!r}: choose one of {', '.join(SCORE_GAMES)}")


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
        game: Annotated[
            str, typer.Argument(help="indecision, indian-rummy, declaration-rummy or gin")
        ],
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
