"""Rules declared as data (cardtable.rule_options): every option of the three games carries words a
player understands and bounds, and validation and the house-rules schema follow from them."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

import pytest

from cardtable.errors import RulesError
from cardtable.games.contract import rules_from_json
from cardtable.games.declaration_rummy.rules import Rules as DeclarationRules
from cardtable.games.indecision.rules import Rules as IndecisionRules
from cardtable.games.indian_rummy.rules import Rules as IndianRules
from cardtable.melds.indecision import MeldValues
from cardtable.rule_options import RuleGroup, options_of
from cardtable.server.routes.rules_schema import rule_groups, rules_schema

RULES_TYPES: tuple[type[Any], ...] = (IndecisionRules, IndianRules, DeclarationRules, MeldValues)
VARIATIONS = (
    "gin_rummy",
    "declare_bonus",
    "going_out_single_meld",
    "declare_or_go_out",
    "three_card_draw",
    "four_sevens",
    "spread_out_discard",
    "missing_cards",
    "seating",
    "shuffle_option",
    "match",
)


def _words(rules_type: type[Any]) -> list[tuple[str, str]]:
    out = []
    for declared in options_of(rules_type):
        spec = declared.option
        out.append((f"{declared.name} label", spec.label))
        out.append((f"{declared.name} help", spec.help))
        out += [(f"{declared.name} choice", text) for text in spec.choice_labels.values()]
    return out


@pytest.mark.parametrize("rules_type", RULES_TYPES, ids=lambda t: t.__module__.split(".")[-2])
def test_every_option_is_labelled_and_explained_in_plain_words(rules_type: type[Any]) -> None:
    field_names = {f.name for f in dataclasses.fields(rules_type)}
    for where, text in _words(rules_type):
        assert text and text == text.strip(), where
        assert "RULES.md" not in text and "None" not in text, (where, text)
        assert "*" not in text and "`" not in text and "_" not in text, (where, text)
        assert not set(re.findall(r"[a-z]+(?:_[a-z]+)+", text)) & field_names, (where, text)
    for declared in options_of(rules_type):
        assert declared.option.help.endswith("."), declared.name
        assert declared.option.help[0].isupper(), declared.name


def test_each_declaration_rummy_variation_is_explained_in_a_real_sentence() -> None:
    helps = {d.name: d.option.help for d in options_of(DeclarationRules)}
    for name in VARIATIONS:
        words = helps[name].split()
        assert len(words) >= 8, (name, helps[name])
        assert helps[name].endswith(".")
    assert len(set(helps[name] for name in VARIATIONS)) == len(VARIATIONS)


@pytest.mark.parametrize("rules_type", RULES_TYPES, ids=lambda t: t.__module__.split(".")[-2])
def test_every_whole_number_option_has_a_lower_and_an_upper_bound(rules_type: type[Any]) -> None:
    for declared in options_of(rules_type):
        if declared.kind not in ("int", "int-or-none"):
            continue
        spec = declared.option
        if spec.bounds_by is not None:
            assert all(low <= high <= 10_000 for low, high in spec.bounds_by[1].values())
        else:
            assert spec.low is not None and spec.high is not None, declared.name
            assert spec.low <= spec.high <= 10_000, declared.name


def _bad_values(rules_type: type[Any]) -> list[tuple[str, object]]:
    bad: list[tuple[str, object]] = []
    for declared in options_of(rules_type):
        if declared.kind in ("int", "int-or-none"):
            spec = declared.option
            high = spec.high if spec.high is not None else 10
            bad += [
                (declared.name, 2.0),
                (declared.name, True),
                (declared.name, math.inf),
                (declared.name, "3"),
                (declared.name, high + 10**6),
            ]
        elif declared.kind == "bool":
            bad += [(declared.name, 1), (declared.name, "true"), (declared.name, None)]
        elif declared.kind == "choice":
            bad += [(declared.name, "sometimes"), (declared.name, 2.0), (declared.name, True)]
    return bad


@pytest.mark.parametrize(
    ("rules_type", "name", "value"),
    [(t, name, value) for t in RULES_TYPES for name, value in _bad_values(t)],
    ids=str,
)
def test_options_have_strict_types_and_bounds_with_a_one_sentence_error(
    rules_type: type[Any], name: str, value: object
) -> None:
    # No float or bool for a whole number, no Infinity, no number past the upper bound; the
    # same through the JSON path the server uses.
    with pytest.raises(RulesError) as caught:
        rules_type(**{name: value})
    message = str(caught.value)
    assert "\n" not in message and message.count(". ") == 0, message
    if rules_type is not MeldValues:
        with pytest.raises(RulesError):
            rules_from_json(rules_type, {name: value})


def test_bounds_may_depend_on_another_option() -> None:
    with pytest.raises(RulesError, match="Indian Rummy is for 2 to 4 players, not 6"):
        IndianRules(players=6)
    assert IndianRules(players=6, allow_six_players=True).players == 6
    with pytest.raises(RulesError, match="with 4 players each is dealt 2 to 7 cards, not 8"):
        DeclarationRules(cards_dealt=8)
    assert DeclarationRules(players=3, cards_dealt=10).hand_size == 10


def test_optional_cards_that_are_not_labels_are_refused_with_a_sentence() -> None:
    with pytest.raises(RulesError, match="optional_cards must be a list of card labels"):
        rules_from_json(DeclarationRules, {"optional_cards": [1]})
    with pytest.raises(RulesError, match="optional_cards must be a list of card labels"):
        rules_from_json(DeclarationRules, {"optional_cards": "W"})


@pytest.mark.parametrize(
    "rules_type", (IndecisionRules, IndianRules, DeclarationRules), ids=lambda t: t.__module__
)
def test_house_rules_schema_is_generated_from_the_declarations(rules_type: type[Any]) -> None:
    schema = {entry["name"]: entry for entry in rules_schema(rules_type, {})}
    for declared in options_of(rules_type):
        if declared.option.table_sets:
            assert declared.name not in schema  # set by the table, not offered in the form
            continue
        entry = schema[declared.name]
        assert (entry["label"], entry["help"]) == (declared.option.label, declared.option.help)
        if declared.option.bounds_by is None and declared.option.low is not None:
            assert (entry["min"], entry["max"]) == (declared.option.low, declared.option.high)
        if entry["type"] == "choice":
            assert len(entry["choice_labels"]) == len(entry["choices"])
            assert not any("-" in label for label in entry["choice_labels"])


def test_schema_gives_the_bounds_another_option_decides() -> None:
    schema = {entry["name"]: entry for entry in rules_schema(DeclarationRules, {})}
    cards = schema["cards_dealt"]
    assert (cards["min"], cards["max"]) == (2, 7)  # the default four players
    assert cards["bounds_by"]["field"] == "players"
    by_players = {b["when"]: (b["min"], b["max"]) for b in cards["bounds_by"]["bounds"]}
    assert by_players[2] == (2, 10) and by_players[8] == (2, 2)
    players = {e["name"]: e for e in rules_schema(IndianRules, {})}["players"]
    assert (players["min"], players["max"]) == (2, 4)
    assert {b["when"]: b["max"] for b in players["bounds_by"]["bounds"]} == {False: 4, True: 6}


@pytest.mark.parametrize("rules_type", RULES_TYPES, ids=lambda t: t.__module__.split(".")[-2])
def test_no_option_text_writes_cards_in_engine_notation(rules_type: type[Any]) -> None:
    # The house-rules form is for players: a card reads "A♠", never the engine's "AS".
    for where, text in _words(rules_type):
        assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", text), (where, text)


def test_bike_inside_longer_run_help_states_the_score_the_engine_counts() -> None:
    # RULES.md 1.6, open alternative: the help's worked example must be what the scorer counts
    # with and without the house rule, and name the melds the scorer lists.
    from cardtable.cards import parse_cards
    from cardtable.games.indecision.scoring import score_hand

    helps = {d.name: d.option.help for d in options_of(IndecisionRules)}
    text = helps["bike_inside_longer_run_counts"]
    found = re.search(r"((?:\S+ ){4}\S+) then scores (\d+) instead of (\d+)", text)
    assert found is not None, text
    hand = parse_cards(found.group(1))
    counted = score_hand(hand, IndecisionRules(bike_inside_longer_run_counts=True))
    usual = score_hand(hand, IndecisionRules())
    assert (int(found.group(2)), int(found.group(3))) == (counted.score, usual.score), text
    named = re.findall(r"(Run on a Bike of \w+|Run of \w+)", text[found.end() :])
    assert sorted(named) == sorted(meld.name for meld in counted.melds), text


GAME_RULES: tuple[type[Any], ...] = (IndecisionRules, IndianRules, DeclarationRules)


@pytest.mark.parametrize("rules_type", GAME_RULES, ids=lambda t: t.__module__.split(".")[-2])
def test_only_the_safeguards_against_endless_games_are_folded_away(rules_type: type[Any]) -> None:
    # The safeguards are the caps on turns, deals and games (and Declaration Rummy's passes over
    # an exhausted stock); nothing a player chooses the game by is folded away with them.
    folded = {d.name for d in options_of(rules_type) if d.option.group.folded}
    capped = {d.name for d in options_of(rules_type) if d.name.endswith("_cap")}
    assert capped and capped <= folded
    assert folded - capped <= {"exhaustion_circuits"}


def test_the_house_rules_form_groups_each_option_under_a_declared_heading() -> None:
    indian = {entry["name"]: entry for entry in rules_schema(IndianRules, {})}
    assert indian["first_drop"]["group"] == "dropping"
    assert indian["deal_turn_cap"]["group"] == "safeguards"
    assert indian["pool_limit"]["group"] == "more"
    groups = rule_groups()
    assert [group["name"] for group in groups] == [group.value for group in RuleGroup]
    assert [group["title"] for group in groups if group["folded"]] == [
        "Safeguards against endless games"
    ]
    names = {group["name"] for group in groups}
    for rules_type in GAME_RULES:
        assert {entry["group"] for entry in rules_schema(rules_type, {})} <= names
    # Headings are distinct, so no two groups merge on the page.
    assert len({group["title"] for group in groups}) == len(groups)
