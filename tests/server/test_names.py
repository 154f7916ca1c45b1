"""Names that impersonate are refused: a word mixing look-alike scripts ("Rubу" with a Cyrillic
у, like the computer player Ruby), the open seat's label "Player", a reserved name spelled with
accents or look-alike letters, and letters under a stack of combining marks; at one table, a
name that looks like a member's is taken. Names in one script, accents and all, still pass."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .online import friend, join, shared_table


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Rub\u0443", "must not mix Cyrillic and Latin letters in one word"),
        ("R\u00faby", "looks like a name the table uses itself"),
        ("\u0399\u03bd\u0443", "must not mix Cyrillic and Greek letters"),
        ("Zalgo" + "\u0336" * 30, "must not stack more than 2 combining marks"),
        ("a" + "\u0301\u0302\u0303", "must not stack more than 2 combining marks"),
    ],
)
def test_impersonating_names_are_refused(client: TestClient, name: str, words: str) -> None:
    answer = client.put("/api/profile", json={"name": name})
    assert answer.status_code in (400, 422), answer.text
    assert words in answer.text
    assert client.get("/api/profile").json()["name"] == "Player"


@pytest.mark.parametrize(
    "name",
    [
        "Nguy\u1ec5n V\u0103n",
        "\u0410\u043d\u043d\u0430",
        "\u03a3\u03bf\u03c6\u03af\u03b1",
        "Zo\u00eb",
        "\u5c71\u7530",
    ],
)
def test_names_in_one_script_with_their_accents_pass(client: TestClient, name: str) -> None:
    answer = client.put("/api/profile", json={"name": name})
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("name", ["Player", "open SEAT", "Pl\u00e1yer"])
def test_an_open_seats_label_is_refused_as_a_name_at_a_peoples_table(
    client: TestClient, name: str
) -> None:
    table = shared_table(client, "indian-rummy", [{"kind": "human"}, {"kind": "human"}])
    answer = friend(client).post(
        "/api/invites/join", json={"token": table["invite"]["token"], "name": name}
    )
    assert answer.status_code == 400, answer.text
    assert "is what an open seat shows" in answer.json()["detail"]


def test_a_name_that_looks_like_a_members_is_taken_at_the_table(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    table = shared_table(client, "indian-rummy", seats)
    token = table["invite"]["token"]
    join(friend(client), token, "Anne")
    look_alike = friend(client).post(
        "/api/invites/join", json={"token": token, "name": "\u00c1nne"}
    )
    assert look_alike.status_code == 409
    assert "already called" in look_alike.json()["detail"]
