"""Seeded golden transcripts of whole Indecision games, played through the driver.

Each game is replayed from its seed and compared line by line with the file in
``tests/golden/indecision/``; set ``CARDTABLE_REGEN_GOLDEN=1`` to rewrite the files after an
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
from cardtable.driver import play
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


def transcript(rules: Rules, seed: int) -> str:
    """Play one game and write down every action, each hand's count and the result."""
    lines = [
        f"Indecision, {rules.players} players, seed {seed}, "
        f"{'manual declaration' if rules.manual_declaration else 'automatic scoring'}, "
        f"target {rules.target_score}"
    ]
    shown: dict[str, Any] = {"hand": 0, "summary": None}

    def close_hand(state: State) -> None:
        summary = state.table.last_hand
        if summary is not None and summary is not shown["summary"]:
            shown["summary"] = summary
            lines.extend(f"  {line}" for line in summary_lines(summary))
            lines.append(f"  totals: {' '.join(map(str, state.table.totals))}")

    def on_action(state: State, seat: int, action: Any) -> None:
        close_hand(state)
        table = state.table
        if table.hand_number != shown["hand"]:
            if shown["hand"] == 0:
                for cut in table.cut_rounds:
                    cuts = ", ".join(f"seat {s} {format_cards((c,))}" for s, c in cut)
                    lines.append(f"Cut: {cuts}")
                lines.append(f"Seat {table.dealer} deals first.")
            shown["hand"] = table.hand_number
            lines.append(
                f"Hand {table.hand_number}: dealer seat {table.dealer}, "
                f"starter seat {table.starter}"
            )
            for other, hand in enumerate(state.hands):
                lines.append(f"  dealt to seat {other}: {format_cards(hand)}")
        lines.append(f"  seat {seat}: {action}")

    bots = [ThresholdBot() for _ in range(rules.players)]
    game = play(ENGINE, rules, seed, bots, checked=True, on_action=on_action)
    close_hand(game.state)
    result = ENGINE.result(game.state)
    assert result is not None
    lines.append(f"Result ({result.reason}): {result.summary}")
    lines.append(f"Utilities: {' '.join(f'{u:g}' for u in result.utilities)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    rules, seed = GAMES[name]
    text = transcript(rules, seed)
    check_golden(GOLDEN / f"{name}.txt", text)


def test_golden_games_end_by_reaching_the_target() -> None:
    for name in sorted(GAMES):
        last = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()[-2]
        assert last.startswith("Result (target)"), name
