"""Schema-driven fuzzing: schemathesis reads the app's own OpenAPI document and sends every
operation requests built from it (valid ones and, by mutating them, invalid ones); no answer
may be a 500, every status answered is one the document gives for that operation, and every
refusal carries its one-sentence ``detail``; a method no route at a path takes gets 405 with
an ``Allow`` naming the documented ones. The number of examples is
bounded so that the run stays short; the document itself must describe every request body and
answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from cardtable.server.app import create_app
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings

EXAMPLES_PER_OPERATION = 25


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FastAPI, str]]:
    """The app over its own database (computer players that wait, no rate limits: the fuzz
    comes from one address, fast), and a profile cookie for its requests."""
    path: Path = tmp_path_factory.mktemp("fuzz") / "cardtable.sqlite3"
    app = create_app(
        f"sqlite:///{path}", settings=Settings(test_seed=5, rate_limits=False, bot_delay_scale=100)
    )
    with TestClient(app) as client:
        client.post("/api/profile")
        token = client.cookies.get(COOKIE_NAME)
        assert token
        client.post("/api/tables", json={"game": "indecision"})
        yield app, token


CONSTRAINTS = ("enum", "minimum", "maximum", "minLength", "maxLength", "pattern")


def _cases() -> list[tuple[str, str, GenerationMode]]:
    """(method, path, mode) for every operation of the app's OpenAPI document: valid requests
    for all, and invalid ones where the document gives something to break (a body, or a
    parameter with a type or bound beyond "any text")."""
    document = create_app("sqlite://", settings=Settings()).openapi()
    cases = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            cases.append((method.upper(), path, GenerationMode.POSITIVE))
            schemas = [parameter.get("schema", {}) for parameter in operation.get("parameters", [])]
            breakable = "requestBody" in operation or any(
                any(key in schema for key in CONSTRAINTS) or schema.get("type") != "string"
                for schema in schemas
            )
            if breakable:
                cases.append((method.upper(), path, GenerationMode.NEGATIVE))
    return cases


@pytest.mark.parametrize(("method", "path", "mode"), _cases())
def test_no_request_built_from_the_openapi_document_gets_a_500(
    fuzzed_app: tuple[FastAPI, str], method: str, path: str, mode: GenerationMode
) -> None:
    app, token = fuzzed_app
    operation = schemathesis.openapi.from_asgi("/api/openapi.json", app)[path][method]
    documented = set(app.openapi()["paths"][path][method.lower()]["responses"])

    @given(case=operation.as_strategy(mode, cookies={COOKIE_NAME: token}))
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def no_500(case: Any) -> None:
        response = case.call()
        assert response.status_code < 500, (method, path, response.text[:500])
        assert str(response.status_code) in documented, (
            method,
            path,
            response.status_code,
            sorted(documented),
            response.text[:300],
        )
        if response.status_code >= 400 and response.status_code != 405:
            detail = response.json()["detail"]
            assert isinstance(detail, str) and detail, response.text[:500]

    no_500()


def test_the_openapi_document_describes_every_request_body_and_answer(
    fuzzed_app: tuple[FastAPI, str],
) -> None:
    app, _token = fuzzed_app
    document = TestClient(app).get("/api/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            ok = next(code for code in operation["responses"] if code.startswith("2"))
            content = operation["responses"][ok].get("content", {})
            schema_of = content.get("application/json", {}).get("schema", {})
            assert schema_of and schema_of != {}, f"{method.upper()} {path}: no answer schema"
            if method in ("post", "put") and "requestBody" in operation:
                body = operation["requestBody"]["content"]["application/json"]["schema"]
                assert "$ref" in body, f"{method.upper()} {path}: untyped request body"
    schemas = document["components"]["schemas"]
    for name in ("NewTable", "ProfileChange", "ProfileDocument", "SeatRequest"):
        assert schemas[name]["additionalProperties"] is False, name


def test_a_method_no_route_takes_is_answered_405_with_the_documented_methods(
    fuzzed_app: tuple[FastAPI, str],
) -> None:
    app, token = fuzzed_app
    client = TestClient(app, cookies={COOKIE_NAME: token})
    document = client.get("/api/openapi.json").json()
    wrong = []
    for path, operations in document["paths"].items():
        documented = {method.upper() for method in operations}
        concrete = path.replace("{table_id}", "t-none").replace("{game}", "indecision")
        concrete = concrete.replace("{hand}", "0").replace("{token}", "x" * 22)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            if method in documented:
                continue
            answer = client.request(method, concrete)
            allowed = {m.strip() for m in answer.headers.get("allow", "").split(",") if m.strip()}
            if answer.status_code != 405 or allowed != documented:
                wrong.append((method, path, answer.status_code, sorted(allowed)))
    assert not wrong, wrong
