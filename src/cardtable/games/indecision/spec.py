"""Indecision's declaration to the registry: names, table words and where its parts live."""

from __future__ import annotations

from typing import Final

from cardtable.games.spec import GameSpec, RecordExtra

SPEC: Final = GameSpec(
    name="indecision",
    title="Indecision",
    deal_word="hand",
    points_good=True,
    face_down_verbs=frozenset({"stop"}),
    move_phrases=(("declare", "announced {arg} points"),),
    record_extras=(
        RecordExtra("ties", "Hands tied on points", "deal", "tied"),
        RecordExtra("stops", "Hands stopped", "deal", "stopped"),
        RecordExtra("forfeits", "Stops forfeited", "deal", "forfeit"),
    ),
    engine="cardtable.games.indecision.engine:ENGINE",
    text="cardtable.games.indecision.text",
    score="cardtable.games.indecision.scoring:score_cards",
    bots="cardtable.bots.indecision",
    coach="cardtable.coach.indecision",
    narrator="cardtable.server.narration.indecision:IndecisionNarrator",
    howto="cardtable.games.indecision.howto:page",
    lens="cardtable.review.lenses:indecision_lens",
    research="cardtable.envs.indecision:RESEARCH",
)
