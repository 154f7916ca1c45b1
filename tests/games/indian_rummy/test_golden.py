"""Golden transcripts: whole seeded games written out as text and compared line by line.

Each game is played through :func:`cardtable.driver.play` (random seats, or seats that declare
whenever a valid show exists) and told by the one golden writer (``golden_transcript``) in
Indian Rummy's words: every deal's dealer, wild joker, opening card and hands, each action
(with the card a stock draw brought), reshuffles, the deal's summary as
``render_hand_summary`` explains it, and the result. Any change in dealing, rules or scoring
shows up as a diff. ``CARDTABLE_REGEN_GOLDEN=1`` rewrites the files after a deliberate change.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from cardtable.bots import RandomBot, make_bot
from cardtable.cards import format_card, format_cards
from cardtable.driver import PlayedGame
from cardtable.games.contract import GameResult, rules_to_json
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.scoring import show_discards
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from cardtable.games.indian_rummy.text import render_hand_summary, standing_text
from cardtable.melds.indian import raw_points
from golden_transcript import golden_transcript
from playthrough import check_golden


class ShowWhenValidBot:
    """Declares whenever some put-down leaves a valid show (``show_discards``); otherwise draws
    from the stock and discards the card whose loss leaves the fewest points (ties at random).
    It never drops and never makes a wrong show, so its deals end with real valid shows."""

    name = "show-when-valid"
    version = "1"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if view.phase is Phase.DRAW:
            return act.DRAW_STOCK
        for put_down in show_discards(view.hand, view.wild_rank, view.rules):
            action = act.DECLARES[put_down]
            if action in legal:
                return action
        scored = []
        for action in legal:
            if isinstance(action, act.Discard):
                rest = list(view.hand)
                rest.remove(action.card)
                points = raw_points(
                    rest,
                    view.wild_rank,
                    jokers_per_sequence=view.rules.jokers_per_sequence,
                    all_joker_groups=view.rules.all_joker_groups,
                )
                scored.append((points, rng.random(), action))
        return min(scored)[2]


GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden" / "indian_rummy"

GAMES: dict[str, tuple[Rules, int, str]] = {
    "default-2p": (Rules(players=2, deals=3), 101, "random"),
    "default-4p": (Rules(players=4, deals=3), 202, "random"),
    "gentle-drops-3p": (dataclasses.replace(PRESETS["gentle-drops"], players=3, deals=3), 303,
                        "random"),
    "valid-shows-2p": (Rules(players=2, deals=2), 404, "show"),
    "valid-shows-3p-mixed": (Rules(players=3, deals=2, wrong_show_others="counted"), 505, "mixed"),
    # RULES.md 2.13: a whole Pool 101 game (eliminations, a rejoin) and a Deals game for chips.
    "pool-101-4p": (dataclasses.replace(PRESETS["pool-101"], players=4), 618, "levels"),
    "deals-3-3p": (dataclasses.replace(PRESETS["deals-3"], players=3), 707, "levels"),
}  # fmt: skip


def _seats(kind: str, players: int) -> list[Any]:
    if kind == "levels":
        return [make_bot("indian-rummy", ("easy", "normal")[seat % 2]) for seat in range(players)]
    if kind == "random":
        return [RandomBot() for _ in range(players)]
    if kind == "show":
        return [ShowWhenValidBot() for _ in range(players)]
    return [ShowWhenValidBot() if seat % 2 == 0 else RandomBot() for seat in range(players)]


def _plain(markup: str) -> str:
    return Text.from_markup(markup).plain


class IndianRummyStyle:
    """Indian Rummy's words: each deal's dealer, wild joker, opening card and hands, the card a
    stock draw brought, a drop's penalty, reshuffles, and each deal's summary as
    ``render_hand_summary`` explains it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.deal = 0
        self.reshuffles = 0

    def header(self, rules: Rules, seed: int, seats: Sequence[Any]) -> list[str]:
        return [
            f"Indian Rummy golden transcript: {self.name}",
            f"rules: {json.dumps(rules_to_json(rules), sort_keys=True)}",
            f"seed: {seed}",
            "seats: " + ", ".join(f"{i} {bot.name}" for i, bot in enumerate(seats)),
        ]

    def before(self, state: IndianRummyState) -> list[str]:
        lines: list[str] = []
        if state.deal_number != self.deal:
            self.deal, self.reshuffles = state.deal_number, 0
            wild = "none" if state.wild_card is None else format_card(state.wild_card)
            lines.append("")
            lines.append(
                f"== deal {state.deal_number}: dealer {state.dealer}, wild joker {wild} "
                f"(wild rank {state.wild_rank}), opening card {format_card(state.pile[0])}, "
                f"stock {len(state.stock)}"
            )
            for index, hand in enumerate(state.hands):
                lines.append(f"   hand {index}: {format_cards(hand) or '(out of the game)'}")
        reshuffles = sum(1 for e in state.events if e.verb == "reshuffle")
        if reshuffles != self.reshuffles:
            self.reshuffles = reshuffles
            lines.append(f"   -- stock ran out: pile reshuffled, new stock {len(state.stock)}")
        return lines

    def action(
        self,
        before: IndianRummyState,
        seat: int,
        action: act.IndianRummyAction,
        after: IndianRummyState,
        number: int,
    ) -> str:
        line = f"   {seat}: {action}"
        if isinstance(action, act.DrawStock):
            line += f"  [{format_card(after.drawn)}]"  # type: ignore[arg-type]
        elif isinstance(action, act.Drop):
            line += f"  ({after.drops[seat]})"
        return line

    def after(self, before: IndianRummyState, after: IndianRummyState) -> list[str]:
        names = [f"seat {s}" for s in range(after.rules.players)]
        if after.last_deal is before.last_deal:
            if after.standing == before.standing:
                return []
            # A rejoin or an answer to the agreed finish: the standing it leaves.
            told = standing_text(ENGINE.view(after, 0), names=names)
            return [] if told is None else ["   | " + _plain(told)]
        summary = render_hand_summary(ENGINE.view(after, 0), names=names)
        assert summary is not None
        return ["   | " + row for row in _plain(summary).splitlines()]

    def ending(self, game: PlayedGame, result: GameResult) -> list[str]:
        return [
            "",
            f"result: {result.summary}",
            f"winners {list(result.winners)}, scores {list(result.scores)}, "
            f"{len(game.actions)} seat actions, {game.chance_steps} chance steps",
        ]


def transcript(name: str) -> str:
    """The golden text of the game ``name`` of :data:`GAMES`."""
    rules, seed, kind = GAMES[name]
    seats = _seats(kind, rules.players)
    return golden_transcript(ENGINE, rules, seed, seats, IndianRummyStyle(name))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    check_golden(GOLDEN_DIR / f"{name}.txt", transcript(name))


def test_golden_games_include_valid_shows_wrong_shows_and_drops() -> None:
    text = "".join(
        (GOLDEN_DIR / f"{name}.txt").read_text(encoding="utf-8") for name in sorted(GAMES)
    )
    for phrase in ("a valid show", "a wrong show", "dropped", "declare", "discard"):
        assert phrase in text


def test_golden_format_games_include_an_elimination_a_rejoin_and_the_chips() -> None:
    pool = (GOLDEN_DIR / "pool-101-4p.txt").read_text(encoding="utf-8")
    for phrase in ("reached 101 and is out", ": rejoin", "is the last player left"):
        assert phrase in pool
    chips = (GOLDEN_DIR / "deals-3-3p.txt").read_text(encoding="utf-8")
    assert "chips after 3 deals" in chips
