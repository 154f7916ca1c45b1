"""The HTTP API: the game catalogue and its rules schema, how-to-play pages, tables, profile
and options, with a clear 4xx answer for every bad request."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

import cardtable.server as server_package
from cardtable.games.contract import rules_to_json
from cardtable.registry import game_names, get_engine
from cardtable.rule_options import options_of
from cardtable.server.people.player_options import DEFAULT_OPTIONS, PlayerOptions
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.routes.models import (
    GameEntry,
    GameRecord,
    HowToPlay,
    ListedTable,
    Options,
    OptionsChange,
    TableInfo,
)
from cardtable.server.settings import Settings

from .conftest import new_table, owner_of, visitor


def test_asking_for_a_profile_gets_an_httponly_profile_cookie(client: TestClient) -> None:
    fresh = TestClient(client.app)
    response = fresh.post("/api/profile")
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert response.json() == {"name": "Player", "options": DEFAULT_OPTIONS}


def test_known_cookie_keeps_its_profile_and_sets_no_new_cookie(client: TestClient) -> None:
    client.put("/api/profile", json={"name": "Rowena"})
    response = client.get("/api/profile")
    assert "set-cookie" not in response.headers
    assert response.json()["name"] == "Rowena"
    again = client.post("/api/profile")
    assert again.status_code == 200 and "set-cookie" not in again.headers
    assert again.json()["name"] == "Rowena"


def test_index_page_is_the_single_page_app_and_sets_the_cookie(client: TestClient) -> None:
    fresh = TestClient(client.app)
    response = fresh.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert COOKIE_NAME in response.headers["set-cookie"]


def test_static_files_are_served_from_the_static_directory(client: TestClient) -> None:
    response = client.get("/static/index.html")
    assert response.status_code == 200
    assert client.get("/static/no-such-file.js").status_code == 404


def test_index_page_preloads_every_script_module(client: TestClient) -> None:
    # Preloading fetches every module at once; one missing from the list costs the first table
    # a round trip per import level it sits at.
    scripts = Path(server_package.__file__).parent / "static" / "js"
    modules = {f"/static/js/{p.relative_to(scripts).as_posix()}" for p in scripts.rglob("*.js")}
    html = client.get("/").text
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    entry = set(re.findall(r'<script type="module" src="([^"]+)">', html))
    assert entry == {"/static/js/main.js"}
    assert preloaded == modules - entry
    for path in preloaded:
        assert client.get(path).status_code == 200


def test_catalogue_lists_every_game_with_presets_levels_and_notice(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [game["name"] for game in games] == list(game_names())
    for game in games:
        engine = get_engine(game["name"])
        assert game["title"] == engine.title
        assert (game["min_players"], game["max_players"]) == (
            engine.min_players,
            engine.max_players,
        )
        assert game["presets"]["default"] == rules_to_json(engine.presets()["default"])
        assert game["bot_levels"] == ["random", "easy", "normal", "hard"]
        assert "entertainment only" in game["notice"]
        assert "no wagering" in game["notice"]


def test_rules_schema_offers_every_rules_field_with_its_default(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        rules_type = get_engine(game["name"]).rules_type
        defaults = rules_to_json(rules_type())
        schema = {entry["name"]: entry for entry in game["rules_schema"]}
        # Every field a player may choose; only what the table sets itself is left out.
        offered = [d.name for d in options_of(rules_type) if not d.option.table_sets]
        assert offered == [
            field.name for field in dataclasses.fields(rules_type) if field.name != "people_seated"
        ]
        assert list(schema) == offered
        for name, entry in schema.items():
            assert entry["default"] == defaults[name]
            assert entry["help"], f"{game['name']}.{name} has no help text"
            assert entry["type"] in ("bool", "int", "choice", "int-or-none", "labels", "object")


def test_schema_ranges_are_the_validation_limits_of_the_rules(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        rules_type = get_engine(game["name"]).rules_type
        for entry in game["rules_schema"]:
            name = entry["name"]
            if "min" in entry:
                rules_type(**{name: entry["min"]})
                with pytest.raises(ValueError):
                    rules_type(**{name: entry["min"] - 1})
            if "max" in entry:
                rules_type(**{name: entry["max"]})
                with pytest.raises(ValueError):
                    rules_type(**{name: entry["max"] + 1})
            for choice in entry.get("choices", []) if entry["type"] == "choice" else []:
                rules_type(**{name: choice})


def test_schema_describes_types_choices_and_nested_tables() -> None:
    from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, PRESETS
    from cardtable.games.declaration_rummy.rules import Rules as DeclarationRules
    from cardtable.games.indecision.rules import PRESETS as INDECISION_PRESETS
    from cardtable.games.indecision.rules import Rules as IndecisionRules
    from cardtable.server.routes.rules_schema import rules_schema

    declaration = {entry["name"]: entry for entry in rules_schema(DeclarationRules, PRESETS)}
    assert declaration["gin_rummy"]["type"] == "bool"
    assert declaration["cards_dealt"]["type"] == "int-or-none"
    assert declaration["optional_cards"]["type"] == "labels"
    assert sorted(declaration["optional_cards"]["choices"]) == sorted(set(ALL_OPTIONAL))
    assert declaration["optional_cards"]["max_repeats"] == {"W": 3}
    assert "count of at most" in declaration["gin_rummy"]["help"]
    indecision = {e["name"]: e for e in rules_schema(IndecisionRules, INDECISION_PRESETS)}
    assert indecision["win_check"]["choices"] == ["counting-order", "end-of-round"]
    melds = {entry["name"]: entry for entry in indecision["meld_values"]["fields"]}
    assert melds["prile_4"]["default"] == 24
    assert (melds["prile_4"]["min"], melds["prile_4"]["max"]) == (0, 1000)


def test_how_to_play_pages_have_sections_examples_and_the_notice(client: TestClient) -> None:
    for name in game_names():
        page = client.get(f"/api/rules/{name}").json()
        assert page["title"] == get_engine(name).title
        assert len(page["sections"]) >= 5
        assert all(section["heading"] and section["html"] for section in page["sections"])
        assert page["examples"]
        assert "entertainment only" in page["notice"]
    assert client.get("/api/rules/chess").status_code == 404


def test_indecision_examples_score_what_their_captions_say(client: TestClient) -> None:
    from cardtable.cards import parse_cards
    from cardtable.games.indecision.rules import Rules
    from cardtable.games.indecision.scoring import score_hand

    examples = client.get("/api/rules/indecision").json()["examples"]
    assert [example["score"] for example in examples] == [23, 17, 14, 16, 9, 10]
    for example in examples:
        cards = parse_cards(" ".join(example["cards"]))
        assert score_hand(cards, Rules()).score == example["score"]


def test_how_to_play_says_what_a_run_on_a_bike_inside_a_longer_run_counts(
    client: TestClient,
) -> None:
    # RULES.md 1.6: by default the four spades inside A-2-3-4-5 (a mixed Run of 5) are not
    # also a Run on a Bike; the option bike_inside_longer_run_counts adds them.
    from cardtable.cards import parse_cards
    from cardtable.games.indecision.rules import Rules
    from cardtable.games.indecision.scoring import score_hand

    page = client.get("/api/rules/indecision").json()
    (melds,) = [s["html"] for s in page["sections"] if s["heading"] == "Melds"]
    mixed, alone = parse_cards("AS 2S 3S 4S 5H"), parse_cards("AS 2S 3S 4S 9H")
    default, option = Rules(), Rules(bike_inside_longer_run_counts=True)
    assert (score_hand(mixed, default).score, score_hand(alone, default).score) == (9, 10)
    assert score_hand(mixed, option).score == 19
    assert "A♠ 2♠ 3♠ 4♠ 5♥ is a Run of 5 and scores 9" in melds
    assert (
        "A♠ 2♠ 3♠ 4♠ 9♥ has no longer run" in melds and "Run on a Bike of 4 and score 10" in melds
    )
    assert "then A♠ 2♠ 3♠ 4♠ 5♥ scores 19" in melds
    assert "bike_inside_longer_run_counts" not in melds


def test_how_to_play_has_no_repeated_section_and_writes_cards_with_suit_symbols(
    client: TestClient,
) -> None:
    import re

    for name in game_names():
        page = client.get(f"/api/rules/{name}").json()
        headings = [section["heading"] for section in page["sections"]]
        assert len(headings) == len(set(headings)), headings
        captions = " ".join(example["caption"] for example in page["examples"])
        assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", captions), captions
        assert not re.search(r"\b\d (spades|hearts|diamonds|clubs)\b", captions), captions


def test_rummy_examples_score_what_their_captions_say(client: TestClient) -> None:
    from cardtable.cards import parse_cards
    from cardtable.games.declaration_rummy.scoring import count_hand
    from cardtable.games.indian_rummy.rules import Rules
    from cardtable.games.indian_rummy.scoring import arrange

    indian = client.get("/api/rules/indian-rummy").json()["examples"]
    twos_wild = 1
    for example in indian:
        cards = parse_cards(" ".join(example["cards"]), deck=None)
        assert arrange(cards, twos_wild, Rules()).points == example["score"]
    (declaration,) = client.get("/api/rules/declaration-rummy").json()["examples"]
    assert declaration["score"] == 5
    assert count_hand(parse_cards(" ".join(declaration["cards"]), deck=None)).count == 5


def test_profile_options_are_validated_and_merged(client: TestClient) -> None:
    response = client.put("/api/profile", json={"options": {"coach": True}})
    assert response.status_code == 200
    assert response.json()["options"] == {**DEFAULT_OPTIONS, "coach": True}
    changed = client.put("/api/profile", json={"options": {"opponent_speed": "fast"}}).json()
    assert changed["options"]["coach"] is True and changed["options"]["opponent_speed"] == "fast"
    for bad, words in [
        ({"options": {"coach": "yes"}}, "coach must be true or false"),
        ({"options": {"opponent_speed": "warp"}}, "opponent_speed must be 'slow', 'normal'"),
        ({"options": {"difficulty": "expert"}}, "options.difficulty must be "),
        ({"options": {"sound": True}}, "unknown field options.sound"),
        ({"name": ""}, "name must be non-empty text"),
        ({"name": "x" * 41}, "at most 40 characters"),
        ({"colour": "red"}, "unknown field colour"),
    ]:
        response = client.put("/api/profile", json=bad)
        assert response.status_code == 400, bad
        assert words in response.json()["detail"]
    assert client.get("/api/profile").json()["options"]["opponent_speed"] == "fast"


def test_player_options_the_models_and_the_pages_schema_agree_with_the_one_declaration(
    client: TestClient,
) -> None:
    declared = options_of(PlayerOptions)
    names = [d.name for d in declared]
    schema = client.get("/api/options").json()
    assert [entry["name"] for entry in schema] == names
    assert {entry["name"]: entry["default"] for entry in schema} == DEFAULT_OPTIONS
    assert dataclasses.asdict(PlayerOptions()) == DEFAULT_OPTIONS
    assert list(Options.model_fields) == list(OptionsChange.model_fields) == names
    for entry, one in zip(schema, declared, strict=True):
        assert (entry["label"], entry["help"]) == (one.option.label, one.option.help)
        if one.kind == "choice":
            assert entry["choices"] == list(one.option.choices)
            assert len(entry["choice_labels"]) == len(entry["choices"])
            # The request model accepts exactly the declared choices.
            for choice in one.option.choices:
                OptionsChange.model_validate({one.name: choice})
            with pytest.raises(ValidationError):
                OptionsChange.model_validate({one.name: "not-a-choice"})
        else:
            assert entry["type"] == "bool" and "choices" not in entry
    # A new profile has the declared defaults, and the documented table lists every option.
    fresh = TestClient(client.app)
    assert fresh.post("/api/profile").json()["options"] == DEFAULT_OPTIONS
    protocol = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    for name in names:
        assert f"| `{name}` |" in protocol, name


def test_bad_json_body_is_refused_with_a_sentence(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "the request body is not valid JSON"
    response = client.post("/api/tables", json=[1, 2])
    assert response.status_code == 400
    assert response.json()["detail"] == "the request body must be a JSON object"


def test_oversized_body_is_refused(client: TestClient) -> None:
    response = client.post("/api/profile/import", content=b" " * (2 * 1024 * 1024 + 1))
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": 3}, "game must be text"),
        ({"game": "indecision", "rules": {"players": 9}}, "Indecision is for 2 to 4 players"),
        ({"game": "indecision", "rules": {"colour": 1}}, "unknown rule option(s)"),
        ({"game": "indecision", "rules": []}, "rules must be a JSON object"),
        (
            {"game": "indecision", "rules": {"players": 3}, "seats": [{"kind": "human"}]},
            "the rules are for 3 players but 1 seats were given",
        ),
        (
            {"game": "indecision", "seats": [{"kind": "bot"}, {"kind": "bot"}]},
            'at least one seat must be {"kind": "human"}',
        ),
        (
            {"game": "indecision", "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]},
            "seats[1].level must be 'random', 'easy', 'normal' or 'hard'",
        ),
        (
            {"game": "indecision", "seats": [{"kind": "human"}, {"kind": "alien"}]},
            "seats[1].kind must be 'human' or 'bot'",
        ),
        ({"game": "indecision", "seed": 7}, "unknown field seed"),
        ({"game": "indecision", "table": 1}, "unknown field table"),
    ],
)
def test_bad_new_table_requests_name_the_problem(
    client: TestClient, payload: dict[str, object], words: str
) -> None:
    response = client.post("/api/tables", json=payload)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_new_table_seats_the_creator_at_the_first_human_seat(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(bot_delay_scale=1000.0)  # the bots wait: the game stays unfinished
    client.put("/api/profile", json={"name": "Rowena"})
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "human"}, {"kind": "bot"}]
    response = client.post("/api/tables", json={"game": "declaration-rummy", "seats": seats})
    assert response.status_code == 201
    body = response.json()
    assert body["seat"] == 1
    info = client.get(f"/api/tables/{body['table_id']}").json()
    assert info["your_seat"] == 1 and info["game"] == "declaration-rummy"
    assert info["rules"]["players"] == 3 and info["finished"] is False
    assert [seat["kind"] for seat in info["seats"]] == ["bot", "human", "bot"]
    assert info["seats"][1]["name"] == "Rowena"
    assert info["seats"][0]["level"] == "easy"
    assert info["seats"][2]["level"] == DEFAULT_OPTIONS["difficulty"]


def test_default_seats_are_you_against_bots_at_your_difficulty(client: TestClient) -> None:
    client.put("/api/profile", json={"options": {"difficulty": "easy"}})
    body = client.post("/api/tables", json={"game": "indian-rummy", "rules": {"players": 3}}).json()
    info = client.get(f"/api/tables/{body['table_id']}").json()
    assert [(seat["kind"], seat.get("level")) for seat in info["seats"]] == [
        ("human", None),
        ("bot", "easy"),
        ("bot", "easy"),
    ]


def test_tables_with_a_person_seated_tell_the_engine_so_caps_keep_earned_points(
    client: TestClient,
) -> None:
    for game in ("indecision", "indian-rummy"):
        body = client.post("/api/tables", json={"game": game}).json()
        info = client.get(f"/api/tables/{body['table_id']}").json()
        assert info["rules"]["people_seated"] is True, game


def test_unfinished_tables_are_listed_and_deleting_abandons_them(client: TestClient) -> None:
    first = new_table(client, "indian-rummy")
    second = new_table(client, "indecision")
    listed = [table["table_id"] for table in client.get("/api/tables").json()]
    assert sorted(listed) == sorted([first, second])
    response = client.delete(f"/api/tables/{first}")
    assert response.status_code == 200 and response.json()["status"] == "abandoned"
    assert [table["table_id"] for table in client.get("/api/tables").json()] == [second]
    assert client.get(f"/api/tables/{first}").json()["finished"] is True


def test_every_answer_has_exactly_the_fields_its_model_declares(client: TestClient) -> None:
    # The answer models forbid fields they do not declare, so the OpenAPI document names every
    # field the browser reads; the listing is sent without FastAPI's check, so check it here.
    table_id = new_table(client, "indian-rummy")
    for row in client.get("/api/tables").json():
        ListedTable.model_validate(row)
    TableInfo.model_validate(client.get(f"/api/tables/{table_id}").json())
    for entry in client.get("/api/games").json():
        GameEntry.model_validate(entry)
    for game in game_names():
        HowToPlay.model_validate(client.get(f"/api/rules/{game}").json())
    for record in client.get("/api/record").json().values():
        GameRecord.model_validate(record)
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        ListedTable.model_validate({**client.get("/api/tables").json()[0], "secret": 1})


def test_other_profiles_cannot_see_delete_or_list_your_tables(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    stranger = visitor(client)
    assert stranger.get("/api/tables").json() == []
    assert stranger.get(f"/api/tables/{table_id}").json()["your_seat"] is None
    assert stranger.delete(f"/api/tables/{table_id}").status_code == 403
    assert client.get(f"/api/tables/{table_id}").json()["finished"] is False


def test_unknown_table_is_404(client: TestClient) -> None:
    for method in ("get", "delete"):
        response = getattr(client, method)("/api/tables/nope")
        assert response.status_code == 404
        assert response.json()["detail"] == "there is no table 'nope'"


def test_a_second_human_seat_can_be_joined_once(client: TestClient) -> None:
    table_id = new_table(client, "indecision", seats=[{"kind": "human"}, {"kind": "human"}])
    friend = visitor(client)
    assert friend.post(f"/api/tables/{table_id}/join").json() == {"table_id": table_id, "seat": 1}
    assert friend.get(f"/api/tables/{table_id}").json()["your_seat"] == 1
    assert client.post(f"/api/tables/{table_id}/join").json()["seat"] == 0
    third = visitor(client)
    response = third.post(f"/api/tables/{table_id}/join")
    assert response.status_code == 409
    assert response.json()["detail"] == "every human seat at this table is taken"


def test_the_api_takes_no_seed_so_a_creator_cannot_know_the_cards(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "indecision", "seed": 7})
    assert response.status_code == 400
    assert response.json()["detail"] == "unknown field seed"


def test_without_the_test_setting_every_table_gets_its_own_secure_seed(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=Settings())
    seeds = set()
    for _ in range(4):
        response = client.post("/api/tables", json={"game": "indecision"})
        assert response.status_code == 201
        seeds.add(owner_of(client, response.json()["table_id"]).setup.seed)
    assert len(seeds) == 4


def test_the_server_side_test_seed_deals_every_table_alike(
    make_client: Callable[..., TestClient],
) -> None:
    # The computer players wait, so both tables still show the deal itself.
    client = make_client(settings=Settings(test_seed=123), bot_delay_scale=1000.0)
    tables = [client.post("/api/tables", json={"game": "indian-rummy"}).json() for _ in range(2)]
    owners = [owner_of(client, table["table_id"]) for table in tables]
    assert [owner.setup.seed for owner in owners] == [123, 123]
    assert owners[0].state_for(0)["view"] == owners[1].state_for(0)["view"]
