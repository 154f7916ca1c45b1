"""``cardtable review FILE --seat N [--json]``: the move-by-move analysis of one seat's play
in a recorded game (:mod:`cardtable.review`), offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.cli.common import fail
from cardtable.cli.records import load_record
from cardtable.errors import CardtableError
from cardtable.review import DEFAULT_BUDGET, GameReview, ReviewBudget, review_record
from cardtable.review.explain import amount

PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
"""Each label's plural, for the counts ("1 mistake", "2 inaccuracies")."""


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: "1 decision", "3 blunders"."""
    return f"{n} {word if n == 1 else PLURALS.get(word, word + 's')}"


def render(review: GameReview) -> list[str]:
    """The analysis as lines of text: counts with their plurals, costs rounded as a player
    reads them (whole points from 10 up, one decimal below, whole percentages)."""
    t = review.thresholds
    lines = [
        f"Seat {review.seat}: accuracy {review.accuracy or 0:.0f}% over "
        f"{counted(len(review.decisions), 'decision')}; "
        + ", ".join(counted(n, label) for label, n in review.counts().items()),
        f"Costs are in {t.unit}: inaccuracy from {t.inaccuracy:g}, mistake from {t.mistake:g}, "
        f"blunder from {t.blunder:g}."
        + (
            ""
            if t.noise is None
            else f" Between two analyses drawing different deals a move's cost differs by "
            f"about {t.noise:g} (median)"
            + ("." if t.noise_p95 is None else f", {t.noise_p95:g} or more for one in twenty.")
        ),
    ]
    for hand in review.hands:
        lines.append(f"Hand {hand.hand}: accuracy {hand.accuracy or 0:.0f}%")
        for d in hand.decisions:
            mark = f"  [{d.label}]" if d.label else ""
            best = "" if d.best == d.played else f"; best {d.best}"
            cost = amount(d.cost, t.unit)
            lines.append(f"  {d.index + 1:>4}. {d.played} (cost {cost}{best}){mark}")
    if review.top:
        lines.append("Costliest moves:")
        for n, d in enumerate(review.top, 1):
            lines.append(f"  {n}. move {d.index + 1}: {d.explanation}")
    return lines


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to ``app``."""

    @app.command("review")
    def review_command(
        file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
        seat: Annotated[int, typer.Option(help="whose decisions to analyse")],
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
        samples: Annotated[
            int, typer.Option(help="imagined deals per decision (more is steadier, slower)")
        ] = DEFAULT_BUDGET.samples,
        sampler_seed: Annotated[int, typer.Option(help="seed of the sampler")] = 0,
    ) -> None:
        """Analyse one seat's play move by move, from that seat's view only."""
        if samples < 1:
            fail("--samples must be at least 1")
        budget = ReviewBudget(samples=samples, screen=min(DEFAULT_BUDGET.screen, samples))
        try:
            record = load_record(file)
            review = review_record(record, seat, budget=budget, sampler_seed=sampler_seed)
        except (CardtableError, ValueError) as exc:
            fail(str(exc))
        if as_json:
            typer.echo(json.dumps(review.to_json()))
            return
        console = Console(highlight=False, soft_wrap=True)
        for line in render(review):
            console.print(line, markup=False)
