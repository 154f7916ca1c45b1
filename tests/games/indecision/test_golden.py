"""Seeded golden transcripts of whole Indecision games, played through the driver.

Each game is played from its seed, told by the one golden writer (``golden_transcript``) in
Indecision's words (the writer also replays its record) and compared line by line with the file
in ``tests/golden/indecision/``; set ``CARDTABLE_REGEN_GOLDEN=1`` to rewrite the files after an
intended change (and read the diff before committing it).

The seats are random bots with one rule of thumb added so that games end by a real win rather
than the hand cap: stop when the stop is valid and the kept hand scores at least a threshold;
in manual declaration mode, announce the true score most of the time, sometimes a little more
(then correct it or be challenged) or a little less.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardtable.bots import RandomBot
from cardtable.cards import format_cards
from cardtable.driver import PlayedGame
from cardtable.games.contract import GameResult
from cardtable.games.indecision import (
    CONFIRM,
    ENGINE,
    PRESETS,
    Correct,
    Declare,
    IndecisionView,
    Phase,
    Rules,
    State,
    Stop,
    score_hand,
)
from cardtable.games.indecision.text import summary_lines
from golden_transcript import golden_transcript
from playthrough import check_golden

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "indecision"
GAMES = {
    "default-2p-seed-101": (PRESETS["default"], 101),
    "default-3p-seed-202": (Rules(players=3), 202),
    "default-4p-seed-303": (Rules(players=4), 303),
    "manual-declaration-3p-seed-404": (Rules(players=3, manual_declaration=True), 404),
}


class ThresholdBot:
    """A random bot that stops when the stop is valid and worth ``threshold`` points."""

    name = "threshold"
    version = "1"

    def __init__(self, threshold: int = 8) -> None:
        self.threshold = threshold
        self.fallback = RandomBot()

    def choose(self, view: IndecisionView, legal: Sequence[Any], rng: random.Random) -> Any:
        if view.phase is Phase.DECLARE:
            true = score_hand(view.hand, view.rules).score
            roll = rng.random()
            announced = true + 2 if roll < 0.2 else max(0, true - 1) if roll < 0.3 else true
            return Declare(min(announced, len(legal) - 1))
        if view.phase is Phase.CONFIRM:
            true = score_hand(view.hand, view.rules).score
            pending = view.pending_declaration or 0
            if pending > true and rng.random() < 0.5:
                return Correct(true)
            return CONFIRM
        best: tuple[int, Any] | None = None
        for action in legal:
            if isinstance(action, Stop):
                kept, problems = ENGINE.stop_check(view, action.card)
                good = not problems and kept.score >= self.threshold
                if good and (best is None or kept.score > best[0]):
                    best = (kept.score, action)
        if best is not None:
            return best[1]
        others = [a for a in legal if not isinstance(a, Stop)]
        return self.fallback.choose(view, others or legal, rng)


class IndecisionStyle:
    """Indecision's words: the cut for the first dealer, each hand's dealer, starter and dealt
    cards, the actions, each hand's count as ``summary_lines`` gives it with the totals, and the
    result with the utilities."""

    def __init__(self) -> None:
        self.hand = 0
        self.summary: Any = None

    def header(self, rules: Rules, seed: int, seats: Sequence[Any]) -> list[str]:
        return [
            f"Indecision, {rules.players} players, seed {seed}, "
            f"{'manual declaration' if rules.manual_declaration else 'automatic scoring'}, "
            f"target {rules.target_score}"
        ]

    def _closed_hand(self, state: State) -> list[str]:
        summary = state.table.last_hand
        if summary is None or summary is self.summary:
            return []
        self.summary = summary
        return [
            *(f"  {line}" for line in summary_lines(summary)),
            f"  totals: {' '.join(map(str, state.table.totals))}",
        ]

    def before(self, state: State) -> list[str]:
        lines = self._closed_hand(state)
        table = state.table
        if table.hand_number != self.hand:
            if self.hand == 0:
                for cut in table.cut_rounds:
                    cuts = ", ".join(f"seat {s} {format_cards((c,))}" for s, c in cut)
                    lines.append(f"Cut: {cuts}")
                lines.append(f"Seat {table.dealer} deals first.")
            self.hand = table.hand_number
            lines.append(
                f"Hand {table.hand_number}: dealer seat {table.dealer}, "
                f"starter seat {table.starter}"
            )
            for other, hand in enumerate(state.hands):
                lines.append(f"  dealt to seat {other}: {format_cards(hand)}")
        return lines

    def action(self, before: State, seat: int, action: Any, after: State, number: int) -> str:
        return f"  seat {seat}: {action}"

    def after(self, before: State, after: State) -> list[str]:
        return []  # a hand's count is told before the next action, with the new totals

    def ending(self, game: PlayedGame, result: GameResult) -> list[str]:
        return [
            *self._closed_hand(game.state),
            f"Result ({result.reason}): {result.summary}",
            f"Utilities: {' '.join(f'{u:g}' for u in result.utilities)}",
        ]


def transcript(rules: Rules, seed: int) -> str:
    """Play one game and write down every action, each hand's count and the result."""
    bots = [ThresholdBot() for _ in range(rules.players)]
    return golden_transcript(ENGINE, rules, seed, bots, IndecisionStyle(), checked=True)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    rules, seed = GAMES[name]
    text = transcript(rules, seed)
    check_golden(GOLDEN / f"{name}.txt", text)


def test_golden_games_end_by_reaching_the_target() -> None:
    for name in sorted(GAMES):
        last = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()[-2]
        assert last.startswith("Result (target)"), name
