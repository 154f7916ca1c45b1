"""Action notation (parse and print) and the command-line rule options."""

from __future__ import annotations

import pytest

from cardtable.errors import ActionSyntaxError, RulesError
from cardtable.games.declaration_rummy.actions import (
    DISCARDS,
    NextGame,
    TakeDiscard,
    parse_action,
)
from cardtable.games.declaration_rummy.cli_rules import VARIATIONS, parse_optional, rules_from_cli
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, PRESETS, Rules

from .helpers import card

NOTATIONS = [
    "draw stock",
    "take discard",
    "take discard 4",
    "take extra",
    "decline",
    "discard 10H",
    "discard NM0",
    "discard W",
    "declare",
    "go out",
    "four sevens",
    "propose tie",
    "accept tie",
    "reject tie",
    "drop",
    "next game",
    "next game cards_dealt=5 gin_rummy=true optional_cards=C7,W,W",
    "next game cards_dealt=none optional_cards=none",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_every_action_prints_as_the_notation_it_is_read_from(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action
    assert hash(action) == hash(parse_action(text))


def test_notation_is_case_and_space_insensitive() -> None:
    assert parse_action("  Take   DISCARD ") == TakeDiscard()
    assert parse_action("discard th") == DISCARDS[card("10H")]
    assert parse_action("take discard 1") == TakeDiscard(1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("discard", "unknown action"),
        ("discard ZZ", "cannot read the card"),
        ("discard PJ", "printed joker"),
        ("take discard 0", "at least 1"),
        ("take discard many", "at least 1"),
        ("next game cards_dealt", "field=value"),
        ("next game nonsense=1", "unknown rule field"),
        ("next game gin_rummy=perhaps", "true or false"),
        ("next game cards_dealt=few", "whole number"),
        ("next game optional_cards=Q9", "unknown optional card"),
        ("next game gin_rummy=true gin_rummy=false", "given twice"),
        ("fold", "unknown action"),
    ],
)
def test_bad_notation_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(ActionSyntaxError, match=message):
        parse_action(text)


def test_parse_action_rejects_non_text() -> None:
    with pytest.raises(ActionSyntaxError, match="an action is text"):
        parse_action(7)  # type: ignore[arg-type]


def test_next_game_changes_keep_their_order_and_types() -> None:
    action = parse_action("next game declare_bonus=yes gin_threshold=5")
    assert action == NextGame((("declare_bonus", True), ("gin_threshold", 5)))


def test_engine_presets_are_the_rules_presets() -> None:
    assert ENGINE.presets() is PRESETS
    assert PRESETS["gin"].gin_rummy


# --- command-line options ---------------------------------------------------------------------


def test_rules_from_cli_defaults_to_the_default_rules() -> None:
    assert rules_from_cli(None, None, None, None, None) == Rules()


def test_optional_cards_from_the_command_line() -> None:
    assert parse_optional("all") == ALL_OPTIONAL
    assert parse_optional("none") == ()
    assert parse_optional("3W") == ("W", "W", "W")
    assert parse_optional("Wx2,nm2") == ("W", "W", "NM2")
    assert rules_from_cli(optional="W,C7,NM2").optional_cards == ("C7", "NM2", "W")
    with pytest.raises(RulesError, match="at most 3"):
        rules_from_cli(optional="2W,W,W")
    with pytest.raises(RulesError, match="three WILDCARDs"):
        parse_optional("4W")
    with pytest.raises(RulesError, match="unknown optional card 'C5'"):
        rules_from_cli(optional="C5")
    with pytest.raises(RulesError, match="cannot be combined"):
        parse_optional("all,W")


def test_every_variation_name_sets_its_rule() -> None:
    for name, field in VARIATIONS.items():
        assert getattr(rules_from_cli(variation=name), field) is True


def test_variation_numbers() -> None:
    rules = rules_from_cli(
        players=3,
        cards=8,
        optional="all",
        variation="gin:5,match:3,missing-cards:4:7,declare-bonus",
    )
    assert rules.players == 3 and rules.hand_size == 8
    assert rules.gin_rummy and rules.gin_threshold == 5
    assert rules.match and rules.match_wins == 3
    assert (rules.missing_cards, rules.missing_optional, rules.missing_regular) == (True, 4, 7)
    assert rules.declare_bonus


@pytest.mark.parametrize(
    ("variation", "message"),
    [
        ("gin-rumy", "unknown variation 'gin-rumy'"),
        ("missing-cards:4", "two numbers"),
        ("missing-cards:4:9", "missing_regular must be 0-7"),
        ("missing-cards:13:0", "missing_optional must be 0-12"),
        ("seating:2", "takes no number"),
        ("gin:x", "whole numbers"),
        ("gin:3:4", "at most one number"),
    ],
)
def test_bad_variations_are_named(variation: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_cli(variation=variation)


def test_preset_then_overrides() -> None:
    rules = rules_from_cli(players=2, preset="gin-all-optional", variation="spread-out")
    assert rules.players == 2 and rules.gin_rummy and rules.spread_out_discard
    assert rules.optional_cards == ALL_OPTIONAL
    with pytest.raises(RulesError, match="unknown preset 'ginn'"):
        rules_from_cli(preset="ginn")


def test_deal_size_is_checked_against_the_player_count() -> None:
    with pytest.raises(RulesError, match="with 7 players each is dealt 2 to 3 cards, not 5"):
        rules_from_cli(players=7, cards=5)
