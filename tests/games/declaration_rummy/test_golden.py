"""Golden transcripts: whole seeded games (and a match) played through the driver by random
and counting bots, written as readable text under ``tests/golden/declaration_rummy/``.

Each case is told by the one golden writer (``golden_transcript``) in Declaration Rummy's
words and compared with the stored file; set
``CARDTABLE_REGEN_GOLDEN=1`` to rewrite the files after an intended change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardtable.bots.base import RandomBot
from cardtable.cards import format_cards
from cardtable.driver import PlayedGame
from cardtable.games.contract import GameResult
from cardtable.games.declaration_rummy.actions import DrawStock, TakeDiscard, TakeExtra
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules
from cardtable.games.declaration_rummy.state import GameOutcome
from golden_transcript import golden_transcript
from playthrough import check_golden

from .helpers import CountingBot, State

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden" / "declaration_rummy"

CASES: dict[str, tuple[Rules, int, str]] = {
    "two_players": (Rules(players=2), 238, "CR"),
    "four_players": (Rules(players=4), 5, "CRCC"),
    "ten_players": (Rules(players=10), 4, "CCRCCCRCCC"),
    "all_optional": (Rules(players=4, optional_cards=ALL_OPTIONAL), 1, "CCRC"),
    "gin": (Rules(players=3, gin_rummy=True, cards_dealt=7), 6, "CCR"),
    "match": (Rules(players=3, match=True, cards_dealt=5), 0, "CRC"),
}
"""Name -> (rules, seed, one letter per seat: C counting bot, R random bot)."""


def _rules_line(rules: Rules) -> str:
    defaults = Rules()
    changed = [
        f"{f.name}={getattr(rules, f.name)!r}"
        for f in dataclasses.fields(Rules)
        if getattr(rules, f.name) != getattr(defaults, f.name) or f.name == "players"
    ]
    return "rules: " + ", ".join(changed)


def _outcome_lines(outcome: GameOutcome) -> list[str]:
    lines = [f"  end: {outcome.reason}. {outcome.summary}"]
    for seat, hand in enumerate(outcome.hands):
        if hand is None:
            lines.append(f"    seat {seat}: dropped, cards unseen")
            continue
        melds = outcome.melds_of(seat) or ()
        shown = " + ".join(f"({format_cards(m)})" for m in melds) or "no melds"
        compared = outcome.compared[seat]
        extra = "" if compared == outcome.counts[seat] else f", compared as {compared}"
        lines.append(
            f"    seat {seat}: {format_cards(hand)} -> count {outcome.counts[seat]}{extra}; {shown}"
        )
    return lines


class DeclarationRummyStyle:
    """Declaration Rummy's words: each game's preliminary cards, table order, dealer and hands,
    numbered actions with the cards a draw or take brought, and each game's outcome."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = 0

    def header(self, rules: Rules, seed: int, seats: Sequence[Any]) -> list[str]:
        return [
            f"Declaration Rummy golden transcript: {self.name}",
            _rules_line(rules),
            f"seed: {seed}",
            "seats: " + ", ".join(f"{s} {bot.name}" for s, bot in enumerate(seats)),
        ]

    def before(self, state: State) -> list[str]:
        if state.game_number == self.game:
            return []
        self.game = state.game_number
        lines = [f"game {state.game_number}:"]
        if any(state.preliminary):
            dealt = "; ".join(
                f"{s}: {format_cards(c)}" for s, c in enumerate(state.preliminary) if c
            )
            lines.append(f"  preliminary: {dealt}")
        lines.append(
            f"  table order {list(state.order)}, dealer {state.dealer}, "
            f"first player {state.first_player}"
        )
        lines.extend(
            f"  seat {s} dealt: {format_cards(hand)}" for s, hand in enumerate(state.hands)
        )
        return lines

    def action(self, before: State, seat: int, action: Any, after: State, number: int) -> str:
        shown = ""
        if isinstance(action, DrawStock | TakeDiscard):
            shown = f" -> {format_cards(after.drawn)}"
        elif isinstance(action, TakeExtra):
            shown = f" -> {format_cards(after.drawn[-2:])}"
        return f"  {number:>4}. seat {seat}: {action}{shown}"

    def after(self, before: State, after: State) -> list[str]:
        finished = after.outcome
        if finished is None or before.outcome is finished:
            return []
        return _outcome_lines(finished)

    def ending(self, game: PlayedGame, result: GameResult) -> list[str]:
        return [
            f"result: winners {list(result.winners)}, scores {list(result.scores)}, "
            f"reason {result.reason}",
            f"summary: {result.summary}",
        ]


def transcript(name: str) -> str:
    rules, seed, letters = CASES[name]
    bots: list[Any] = [CountingBot() if letter == "C" else RandomBot() for letter in letters]
    return golden_transcript(ENGINE, rules, seed, bots, DeclarationRummyStyle(name))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name: str) -> None:
    text = transcript(name)
    check_golden(GOLDEN_DIR / f"{name}.txt", text)


def test_golden_games_end_by_the_game_s_own_endings() -> None:
    reasons = {name: _reason(name) for name in CASES}
    assert all(
        reason in ("declared", "went-out", "declined", "match") for reason in reasons.values()
    )


def _reason(name: str) -> str:
    path = GOLDEN_DIR / f"{name}.txt"
    last = [line for line in path.read_text(encoding="utf-8").splitlines() if line]
    return last[-2].rsplit("reason ", 1)[1]
