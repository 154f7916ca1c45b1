"""The replay viewer's frames: each seat's summary line is plain text the page can show as it
is, with no terminal markup and jokers named in words."""

from __future__ import annotations

import random

from cardtable.games.contract import CHANCE
from cardtable.registry import get_engine
from cardtable.replay import GameRecord
from cardtable.server.review.replays import plain_summary, replay_frames
from playthrough import Wanderer


def _single_deal(seed: int) -> GameRecord:
    """A seeded one-deal Indian Rummy game played by wanderers that often show or drop."""
    engine = get_engine("indian-rummy")
    rules = engine.rules_from_json({"deals": 1})
    state = engine.new_game(rules, seed)
    rng = random.Random(seed)
    wanderer = Wanderer(plain=0.6)
    actions: list[tuple[int, str]] = []
    while engine.result(state) is None and len(actions) < 400:
        seat = engine.current_player(state)
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        action = wanderer.choose(None, engine.legal_actions(state, seat), rng)
        actions.append((seat, str(action)))
        state = engine.apply(state, action, seat)
    return GameRecord(
        game="indian-rummy", rules=engine.rules_to_json(rules), seed=seed, actions=tuple(actions)
    )


def test_a_shown_hand_with_a_wild_joker_reads_as_plain_words_in_the_replay() -> None:
    checked = 0
    for seed in range(12):
        last = replay_frames(_single_deal(seed))["frames"][-1]["summaries"]
        for line in last:
            assert line is not None
            assert "[" not in line and "*" not in line, line
            shown = [row for row in line.splitlines() if " showed " in row]
            if any(" (joker)" in row for row in shown):
                checked += 1
    # The seeds above include shown hands holding a wild joker (seeds 3, 4, 7 and 8 do).
    assert checked >= 2


def test_plain_summary_drops_rich_markup_and_undoes_its_escapes() -> None:
    markup = "[bold]Deal 1[/bold]: [bold magenta]7♥*[/] [red]8♥[/] PJ* \\[sic]"
    assert plain_summary(markup) == "Deal 1: 7♥ (joker) 8♥ PJ [sic]"
    assert plain_summary(None) is None
