"""Indian Rummy's declaration to the registry: names, table words and where its parts live."""

from __future__ import annotations

from typing import Final

from cardtable.games.spec import GameSpec, RecordExtra

SPEC: Final = GameSpec(
    name="indian-rummy",
    title="Indian Rummy",
    aliases=("indian_rummy", "ir"),
    deal_word="deal",
    points_good=False,
    deals_compared_by_points=True,
    arena_rules=(("deals", 1),),
    arena_rules_unless=("format",),
    move_phrases=(
        ("rejoin", "rejoined the game"),
        ("stay", "stayed out of the game"),
        ("finish", "agreed to finish and share the win"),
        ("play", "chose to play on"),
    ),
    action_words=(("draw pile", "Take the discard"), ("drop", "Drop out of this deal")),
    record_extras=(
        RecordExtra("valid_shows", "Valid declarations", "deal", "valid_show"),
        RecordExtra("wrong_shows", "Wrong shows", "deal", "wrong_show"),
        RecordExtra("drops", "Drops", "deal", "dropped"),
    ),
    engine="cardtable.games.indian_rummy.engine:ENGINE",
    text="cardtable.games.indian_rummy.text",
    score="cardtable.games.indian_rummy.scoring:score_cards",
    bots="cardtable.bots.indian_rummy",
    coach="cardtable.coach.indian_rummy",
    narrator="cardtable.server.narration.indian_rummy:IndianRummyNarrator",
    howto="cardtable.games.indian_rummy.howto:page",
    playouts="cardtable.games.indian_rummy.playouts",
    explain="cardtable.review.indian_rummy",
    lens="cardtable.review.lenses:indian_rummy_lens",
    research="cardtable.envs.indian_rummy:RESEARCH",
    table_format="cardtable.games.indian_rummy.formats:FORMATS",
)
