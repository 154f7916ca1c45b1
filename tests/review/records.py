"""Seeded, provably fair game records for the review and fairness tests (played by Normal bots,
so they are short and realistic)."""

from __future__ import annotations

import dataclasses
from functools import cache

from cardtable.bots import make_bot
from cardtable.driver import play
from cardtable.fairness import FairDeal, derive_seed
from cardtable.registry import get_engine
from cardtable.replay import GameRecord, record_of

SERVER_SEED = "5e" * 32
PRESETS = {
    "indecision": "short",
    "indian-rummy": "single-deal",
    "declaration-rummy": "default",
}


@cache
def fair_record(game: str, min_actions: int = 16) -> GameRecord:
    """A finished game of ``game`` dealt from the fair seed, with the server seed revealed: the
    first contribution (``c0ffee00``, ``c0ffee01``…) whose game lasts ``min_actions`` actions,
    so that every seat has choices to analyse."""
    engine = get_engine(game)
    rules = engine.presets()[PRESETS[game]]
    for attempt in range(256):
        fair = FairDeal.start(SERVER_SEED).with_contribution(0, f"c0ffee{attempt:02x}")
        seed = derive_seed(SERVER_SEED, fair.contributions)
        bots = [make_bot(game, "normal") for _ in range(rules.players)]
        played = play(engine, rules, seed, bots)
        if len(played.actions) >= min_actions:
            record = record_of(game, rules, seed, played.actions)
            result = engine.result(played.state)
            assert result is not None
            return dataclasses.replace(
                record, fairness=fair.revealed(SERVER_SEED), result=result.to_json()
            )
    raise AssertionError("no contribution gave a long enough game")
