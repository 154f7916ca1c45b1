"""Declaration Rummy's declaration to the registry: names, table words and where its parts
live. One deal is one game here, so its record counts games as deals, and matches too."""

from __future__ import annotations

from typing import Final

from cardtable.games.spec import GameSpec, RecordExtra

SPEC: Final = GameSpec(
    name="declaration-rummy",
    title="Declaration Rummy",
    aliases=("declaration_rummy", "dr"),
    deal_word="game",
    points_word="count",
    deal_kind="game",
    points_good=False,
    action_words=(("drop", "Drop out of the game"),),
    record_extras=(
        RecordExtra("declared", "Declarations", "game", "declared"),
        RecordExtra("went_out", "Went out", "game", "went_out"),
        RecordExtra("drops", "Drops", "game", "dropped"),
        RecordExtra("matches_won", "Matches won", "match", "won"),
    ),
    engine="cardtable.games.declaration_rummy.engine:ENGINE",
    text="cardtable.games.declaration_rummy.text",
    score="cardtable.games.declaration_rummy.scoring:score_cards",
    bots="cardtable.bots.declaration_rummy",
    coach="cardtable.coach.declaration_rummy",
    narrator="cardtable.server.narration.declaration_rummy:DeclarationRummyNarrator",
    howto="cardtable.games.declaration_rummy.howto:page",
    playouts="cardtable.games.declaration_rummy.playouts",
    explain="cardtable.review.declaration_rummy",
    lens="cardtable.review.lenses:declaration_rummy_lens",
    research="cardtable.envs.declaration_rummy:RESEARCH",
    cli_rules="cardtable.games.declaration_rummy.cli_rules:rules_from_cli",
)
