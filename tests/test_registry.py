"""The registry and the game specs: one declaration per game, the only name -> game lookup."""

from __future__ import annotations

import pytest

from cardtable.errors import RulesError
from cardtable.registry import canonical_name, game_names, get_engine, get_spec, load, specs


def test_every_spec_names_parts_that_load_and_fit_the_game() -> None:
    for spec in specs():
        engine = get_engine(spec.name)
        assert engine.name == spec.name and engine.title == spec.title
        text = load(spec.text)
        assert callable(text.render_view) and callable(text.render_hand_summary)
        assert callable(load(spec.score))
        assert load(spec.bots).make_bot("normal").name == "normal"
        coach = load(spec.coach)
        assert callable(coach.hint) and callable(coach.coach)
        assert callable(load(spec.narrator)().finished)
        page = load(spec.howto)()
        assert page["title"] == spec.title and page["sections"] and page["examples"]
        assert load(spec.lens)().game == spec.name
        if spec.cli_rules is not None:
            assert isinstance(load(spec.cli_rules)(), engine.rules_type)
        if spec.research is not None:
            research = load(spec.research)
            assert (research.name, research.title) == (spec.name, spec.title)
            assert engine.min_players <= research.default_players <= engine.max_players
        assert spec.deal_word in ("hand", "deal", "game")
        for key, _ in spec.arena_rules:
            assert hasattr(engine.presets()["default"], key)


def test_names_aliases_and_titles_all_lead_to_one_game() -> None:
    assert game_names() == ("indecision", "indian-rummy", "declaration-rummy")
    assert canonical_name("IR") == canonical_name("indian_rummy") == "indian-rummy"
    assert canonical_name("Declaration Rummy") == canonical_name(" dr ") == "declaration-rummy"
    assert get_spec("ir") is get_spec("indian-rummy")


def test_an_unknown_game_is_refused_naming_the_choices() -> None:
    with pytest.raises(RulesError, match="unknown game 'poker': choose one of indecision, "):
        get_spec("poker")


def test_the_words_of_each_game_are_declared_once_in_its_spec() -> None:
    from cardtable.server.narration.announce import describe_move, public_notation
    from cardtable.server.people.names import BOT_NAMES
    from cardtable.server.routes.catalog import game_entry

    for spec in specs():
        entry = game_entry(spec.name)
        assert entry["deal_word"] == spec.deal_word
        assert entry["points_good"] is spec.points_good
        assert entry["face_down_verbs"] == sorted(spec.face_down_verbs)
        # The browser names computer players as the server seats them.
        assert entry["computer_names"] == list(BOT_NAMES)
    assert get_spec("indecision").face_down_verbs == {"stop"}
    assert public_notation("indecision", "stop 9S", actor=1, viewer=0) == "stop"
    assert describe_move("indecision", "declare 15") == "announced 15 points"
    assert describe_move("indian-rummy", "declare 7H") == "declared, putting down 7H"
    assert [s.name for s in specs() if s.deals_compared_by_points] == ["indian-rummy"]


def test_a_part_loads_typed_and_checked_for_every_game() -> None:
    from cardtable.bots.base import BotMaker
    from cardtable.coach import COACH, GameCoach
    from cardtable.registry import ENGINE, TEXT, GameText, Part

    bots: Part[BotMaker] = Part("bots", BotMaker)
    for spec in specs():
        assert isinstance(ENGINE.load(spec), type(get_engine(spec.name)))
        assert isinstance(TEXT.load(spec.name), GameText)
        assert isinstance(COACH.load(spec), GameCoach)
        assert isinstance(bots.load(spec), BotMaker)


def test_a_spec_naming_the_wrong_object_for_a_part_is_refused_naming_it() -> None:
    """The indecision spec's text module is no bot maker: loading it as the bots is refused
    with the path, not left to fail later as a missing attribute."""
    from dataclasses import replace

    from cardtable.bots.base import BotMaker
    from cardtable.registry import Part

    wrong = replace(get_spec("indecision"), bots="cardtable.games.indecision.text")
    with pytest.raises(TypeError, match=r"cardtable\.games\.indecision\.text, the bots part"):
        Part[BotMaker]("bots", BotMaker).load(wrong)


def test_a_part_the_game_does_not_have_is_refused_naming_the_game() -> None:
    from cardtable.registry import Part

    spec = next(spec for spec in specs() if spec.cli_rules is None)
    with pytest.raises(RulesError, match=f"{spec.title} has no cli_rules part"):
        Part[object]("cli_rules", object).load(spec)


def test_bot_levels_are_declared_once_and_every_list_follows_it() -> None:
    """The levels are cardtable.bots.Level: the strict request models spell them out, so this
    keeps their spelling, the options and the catalogue the page reads the same as Level."""
    from typing import get_args

    from cardtable.bots import LEVELS, Level
    from cardtable.server.people.player_options import BOT_LEVELS, DIFFICULTIES, Difficulty
    from cardtable.server.routes.catalog import catalog
    from cardtable.server.table.seating import BotLevel

    names = tuple(level.value for level in Level)
    assert LEVELS == BOT_LEVELS == get_args(BotLevel) == names
    assert set(DIFFICULTIES) == set(get_args(Difficulty)) == set(names)
    assert all(entry["bot_levels"] == list(names) for entry in catalog())


def test_the_research_side_spec_is_named_research_spec() -> None:
    """One name for each thing: the registry's GameSpec is the game's declaration; what the
    research adapters know of a game is a ResearchSpec."""
    import cardtable.envs as envs
    from cardtable.envs.spec import ResearchSpec, game_spec

    assert not hasattr(envs, "GameSpec")
    assert isinstance(game_spec("indian-rummy"), ResearchSpec)
