"""Every bad input the server was shown to answer with a 500 now gets a 4xx and a sentence,
changes nothing, and the server goes on serving."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import new_table, visitor

JSON = {"content-type": "application/json"}


def _refused(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 24 levels deep"),
        (b'{"a": ' * 30 + b"1" + b"}" * 30, "nested more than 24 levels deep"),
        (b'{"game": ' + b"9" * 5000 + b"}", "numbers of more than 30 digits"),
        (b'{"game": "indecision", "rules": {"target_score": 1e400}}', "too large"),
        (b'{"game": NaN}', "NaN is not a number JSON allows"),
        (b'{"game": -Infinity}', "-Infinity is not a number JSON allows"),
        (b'{"game": "\\ud800"}', "not valid Unicode (a lone surrogate)"),
        (b'{"\\udfff": 1}', "not valid Unicode (a lone surrogate)"),
        (b'{"game": "\xff\xfe"}', "not valid UTF-8"),
        (b"{not json", "not valid JSON"),
    ],
)
def test_malformed_json_bodies_are_refused_with_a_sentence(
    client: TestClient, body: bytes, words: str
) -> None:
    assert words in _refused(client.post("/api/tables", content=body, headers=JSON))
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"game": "indecision", "rules": {"players": 2.0}}, "rule players must be a whole number"),
        ({"game": "indecision", "rules": {"players": True}}, "rule players must be a whole number"),
        (
            {"game": "indecision", "rules": {"target_score": 10**20}},
            "rule target_score must be at most",
        ),
        (
            {"game": "indecision", "rules": {"meld_values": {"pair": 2.5}}},
            "rule meld_values.pair must be a whole number",
        ),
        (
            {"game": "indecision", "rules": {"meld_values": 3}},
            "rule meld_values must be an object",
        ),
        (
            {"game": "indecision", "rules": {"manual_declaration": 1}},
            "rule manual_declaration must be true or false",
        ),
        (
            {"game": "declaration-rummy", "rules": {"optional_cards": [1]}},
            "rule optional_cards[0] must be text",
        ),
        (
            {"game": "declaration-rummy", "rules": {"optional_cards": "W"}},
            "rule optional_cards must be a list",
        ),
        (
            {"game": "declaration-rummy", "rules": {"missing_optional": 1.5}},
            "rule missing_optional must be a whole number, not 1.5",
        ),
        ({"game": "indecision", "seats": [{"kind": "human", "level": 3}]}, "seats[0].level"),
        ({"game": "indecision", "seats": [{"kind": "human"}] * 11}, "at most 10 items"),
        ({"game": "x" * 41}, "game must be at most 40 characters"),
        ({"game": ["indecision"]}, "game must be text"),
    ],
)
def test_rules_and_seats_of_the_wrong_json_type_are_refused(
    client: TestClient, payload: dict[str, Any], words: str
) -> None:
    assert words in _refused(client.post("/api/tables", json=payload))


def test_rule_errors_of_the_game_itself_become_400s_with_their_sentence(
    client: TestClient,
) -> None:
    detail = _refused(client.post("/api/tables", json={"game": "indecision", "rules": {"x": 1}}))
    assert "unknown rule option(s)" in detail
    detail = _refused(
        client.post("/api/tables", json={"game": "indecision", "rules": {"players": 9}})
    )
    assert "2 to 4 players" in detail


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("evil\u202egnp.exe", "invisible formatting character (U+202E)"),
        ("a\u200bb", "invisible formatting character (U+200B)"),
        ("nul\x00byte", "control character (U+0000)"),
        ("\u2028", "a line break"),
        ("You", "is used by the table itself"),
        ("  yOU ", "is used by the table itself"),
        ("Ruby", "is used by the table itself"),
        ("ＨＵＧＯ", "is used by the table itself"),
        ("...", "at least one letter or digit"),
        ("\U000f0000", "private-use character"),
        ("x" * 41, "at most 40 characters"),
        (7, "name must be text"),
    ],
)
def test_misleading_names_are_refused(client: TestClient, name: object, words: str) -> None:
    assert words in _refused(client.put("/api/profile", json={"name": name}))
    assert client.get("/api/profile").json()["name"] == "Player"


def test_names_are_normalised(client: TestClient) -> None:
    response = client.put("/api/profile", json={"name": "  Ｍａｒｙ\t Ann  "})
    assert response.status_code == 200 and response.json()["name"] == "Mary Ann"


def test_a_lone_surrogate_in_a_name_is_refused(client: TestClient) -> None:
    body = b'{"name": "a\\ud83db"}'
    assert "lone surrogate" in _refused(client.put("/api/profile", content=body, headers=JSON))


@pytest.mark.parametrize(
    "options",
    [{"coach": 1}, {"coach": None}, {"opponent_speed": 3}, {"difficulty": ["hard"]}, []],
)
def test_options_of_the_wrong_type_are_refused(client: TestClient, options: Any) -> None:
    _refused(client.put("/api/profile", json={"options": options}))
    assert client.get("/api/profile").json()["options"]["coach"] is False


def test_unknown_addresses_and_methods_answer_a_sentence(client: TestClient) -> None:
    assert _refused(client.get("/api/nothing"), 404) == "there is nothing at /api/nothing"
    assert "PATCH is not accepted" in _refused(client.patch("/api/profile", json={}), 405)


def test_a_table_id_too_long_is_refused(client: TestClient) -> None:
    assert "table_id must be at most 64 characters" in _refused(
        client.get("/api/tables/" + "x" * 65)
    )


def test_an_oversized_body_is_refused_before_it_is_read(client: TestClient) -> None:
    response = client.post("/api/profile/import", content=b" " * (2 * 1024 * 1024 + 1))
    assert "too large" in _refused(response, 413)


def test_the_server_keeps_serving_after_every_refusal(client: TestClient) -> None:
    client.post("/api/tables", content=b"[" * 50_000, headers=JSON)
    client.put("/api/profile", content=b'{"name": "\\udc00"}', headers=JSON)
    table_id = new_table(client, "indecision")
    assert client.get(f"/api/tables/{table_id}").status_code == 200


def test_every_preset_of_every_game_passes_the_strict_rule_types(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        # A profile per game: all presets together pass one player's limit of unfinished tables.
        player = visitor(client)
        for preset, rules in game["presets"].items():
            response = player.post("/api/tables", json={"game": game["name"], "rules": rules})
            assert response.status_code == 201, (game["name"], preset, response.text)


def test_a_choice_of_numbers_takes_only_those_numbers(client: TestClient) -> None:
    for value in (True, 2.0, "2", 1):
        response = client.post(
            "/api/tables", json={"game": "indian-rummy", "rules": {"printed_jokers": value}}
        )
        assert "rule printed_jokers must be one of 2, 0" in _refused(response)


def test_the_seat_list_bound_admits_every_games_largest_table(client: TestClient) -> None:
    from cardtable.registry import game_names, get_engine
    from cardtable.server.routes.models import MAX_SEATS

    assert max(get_engine(name).max_players for name in game_names()) <= MAX_SEATS
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 9
    response = client.post("/api/tables", json={"game": "declaration-rummy", "seats": seats})
    assert response.status_code == 201, response.text


def test_an_unforeseen_error_is_a_json_500_and_the_server_goes_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable import storage

    def broken(*_arguments: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(storage, "totals_of_profile", broken)
    tolerant = TestClient(client.app, raise_server_exceptions=False, cookies=client.cookies)
    response = tolerant.get("/api/record")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "the server could not handle this request; please try again"
    }
    assert "disk on fire" not in response.text
    assert tolerant.get("/api/profile").status_code == 200
