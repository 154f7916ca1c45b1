"""Game records read back only when well formed, and rule options from the command line."""

from __future__ import annotations

import json

import pytest

from cardtable.cli.rule_flags import apply_rule_options
from cardtable.errors import RecordError, RulesError
from cardtable.games.contract import rules_from_json, rules_to_json
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL
from cardtable.games.declaration_rummy.rules import Rules as DeclarationRules
from cardtable.games.indecision.rules import MeldValues
from cardtable.games.indecision.rules import Rules as IndecisionRules
from cardtable.games.indian_rummy.rules import Rules as IndianRules
from cardtable.replay import GameRecord


def _record(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": "cardtable-record",
        "version": 1,
        "game": "indecision",
        "rules": {},
        "seed": 7,
        "actions": [[0, "discard 7H"]],
    }
    data.update(changes)
    return data


def test_record_round_trips_through_json() -> None:
    record = GameRecord.from_json(_record())
    assert GameRecord.loads(record.dumps()) == record


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_record(format="other"), "not a cardtable game record"),
        (_record(version=99), "version 99 is not supported"),
        (_record(seed="x"), "'seed' a whole number"),
        (_record(actions=[[0]]), "must be a \\[seat, notation\\] pair"),
        (_record(game="chess"), "unknown game"),
    ],
)
def test_malformed_record_is_rejected_naming_the_problem(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises((RecordError, RulesError), match=message):
        GameRecord.from_json(data)


def test_record_that_is_not_json_is_rejected() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.loads("{")


@pytest.mark.parametrize(
    "rules",
    [
        IndecisionRules(players=3, meld_values=MeldValues(prile_4=20), manual_declaration=True),
        IndianRules(players=4, max_points=None, jokers_per_sequence=1, deals=3),
        DeclarationRules(players=5, cards_dealt=4, optional_cards=ALL_OPTIONAL, gin_rummy=True),
    ],
)
def test_rules_round_trip_through_json(rules: object) -> None:
    data = json.loads(json.dumps(rules_to_json(rules)))
    assert rules_from_json(type(rules), data) == rules


def test_unknown_rule_option_in_json_is_rejected() -> None:
    with pytest.raises(RulesError, match="unknown rule option"):
        rules_from_json(IndianRules, {"jokers": 3})


def test_rule_options_from_the_command_line_are_typed_by_their_defaults() -> None:
    rules = apply_rule_options(
        IndecisionRules(),
        ["players=4", "manual-declaration=yes", "meld_values.prile_4=36", "win_check=end-of-round"],
    )
    assert rules.players == 4 and rules.manual_declaration
    assert rules.meld_values.prile_4 == 36 and rules.win_check == "end-of-round"
    assert apply_rule_options(IndianRules(), ["max_points=none"]).max_points is None
    declaration = apply_rule_options(DeclarationRules(), ["optional_cards=W,W,C7"])
    assert declaration.optional_cards == ("C7", "W", "W")


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("players", "KEY=VALUE"),
        ("colour=red", "unknown rule option"),
        ("players=many", "whole number"),
        ("manual_declaration=maybe", "true or false"),
        ("players=9", "2 to 4 players"),
        ("meld_values.triple=3", "unknown part"),
    ],
)
def test_bad_rule_option_names_the_problem(assignment: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        apply_rule_options(IndecisionRules(), [assignment])


def test_declaration_rummy_rejects_a_deal_size_outside_the_table() -> None:
    with pytest.raises(RulesError, match="with 5 players each is dealt 2 to 5 cards"):
        DeclarationRules(players=5, cards_dealt=6)
    assert DeclarationRules(players=7).hand_size == 3
