"""Provably fair deals: the commitment and seed formulas, records carrying them, and
verification that passes an intact record and names what is wrong in a tampered one."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cards import format_cards
from cardtable.cli import app
from cardtable.fairness import (
    FairDeal,
    FairnessError,
    check_contribution,
    commitment_of,
    derive_seed,
)
from cardtable.registry import game_names, get_engine
from cardtable.replay import GameRecord, replay_steps, verify_record

from .records import SERVER_SEED, fair_record


def test_commitment_is_sha256_of_the_server_seed_bytes() -> None:
    assert commitment_of(SERVER_SEED) == hashlib.sha256(bytes.fromhex(SERVER_SEED)).hexdigest()


def test_game_seed_follows_the_documented_formula() -> None:
    material = f"cardtable-fair-v1\n{SERVER_SEED}\n0:00000000\n1:abcdef0123"
    expected = int.from_bytes(hashlib.sha256(material.encode()).digest()[:8], "big") >> 1
    # Contributions are taken in seat order whatever order they arrived in.
    assert derive_seed(SERVER_SEED, [(1, "ABCDEF0123"), (0, "00000000")]) == expected


def test_every_contribution_changes_the_game_seed() -> None:
    base = derive_seed(SERVER_SEED, [(0, "00000000")])
    assert derive_seed(SERVER_SEED, [(0, "00000001")]) != base
    assert derive_seed(SERVER_SEED, [(0, "00000000"), (1, "00000000")]) != base
    assert derive_seed("5f" * 32, [(0, "00000000")]) != base


@pytest.mark.parametrize("value", ["", "1234567", "xyz12345", "0" * 65, 12345678, None])
def test_malformed_contribution_is_rejected_naming_the_problem(value: object) -> None:
    with pytest.raises(FairnessError, match="8 to 64 hex digits"):
        check_contribution(value)


def test_a_seat_contributes_once_and_a_wrong_reveal_is_refused() -> None:
    fair = FairDeal.start(SERVER_SEED).with_contribution(0, "aaaaaaaa")
    with pytest.raises(FairnessError, match="already contributed"):
        fair.with_contribution(0, "bbbbbbbb")
    with pytest.raises(FairnessError, match="does not match the commitment"):
        fair.revealed("00" * 32)
    assert fair.revealed(SERVER_SEED).public() == fair


@pytest.mark.parametrize("game", game_names())
def test_intact_fair_record_verifies_every_deal(game: str) -> None:
    record = GameRecord.loads(fair_record(game).dumps())
    outcome = verify_record(record)
    assert outcome.ok, outcome.problem
    assert any("recomputed from that seed" in check for check in outcome.checks)


def _tamper_card(record: GameRecord) -> GameRecord:
    """Change the card of the first recorded discard to one its player did not hold."""
    engine = get_engine(record.game)
    actions = list(record.actions)
    for step in replay_steps(record):
        text = str(step.action)
        if text.startswith("discard "):
            held = set(format_cards(engine.view(step.before, step.seat).hand).split())
            other = next(c for c in ("KS", "QS", "JS", "10S", "9S", "8S") if c not in held)
            actions[step.index] = (step.seat, f"discard {other}")
            break
    return dataclasses.replace(record, actions=tuple(actions))


@pytest.mark.parametrize("game", game_names())
def test_record_with_a_card_changed_fails_verification(game: str) -> None:
    outcome = verify_record(_tamper_card(fair_record(game)))
    assert not outcome.ok
    assert outcome.problem is not None and "does not replay" in outcome.problem


@pytest.mark.parametrize("game", game_names())
def test_record_whose_ending_was_changed_fails_verification(game: str) -> None:
    record = fair_record(game)
    assert record.result is not None
    others = [
        seat for seat in range(len(record.result["scores"])) if seat not in record.result["winners"]
    ]
    forged = {**record.result, "winners": others[:1]}
    outcome = verify_record(dataclasses.replace(record, result=forged))
    assert not outcome.ok
    assert outcome.problem is not None and "but replayed from the seed it ends" in outcome.problem


def test_record_with_the_seed_changed_fails_verification() -> None:
    record = fair_record("indecision")
    outcome = verify_record(dataclasses.replace(record, seed=record.seed + 1))
    assert not outcome.ok
    assert outcome.problem is not None and "not the one derived" in outcome.problem


def test_record_with_the_commitment_changed_fails_verification() -> None:
    record = fair_record("indecision")
    assert record.fairness is not None
    forged = dataclasses.replace(record.fairness, commitment="0" * 64)
    outcome = verify_record(dataclasses.replace(record, fairness=forged))
    assert not outcome.ok
    assert outcome.problem is not None and "commitment does not match" in outcome.problem


def test_record_without_revealed_seed_cannot_be_verified() -> None:
    record = fair_record("indecision")
    assert record.fairness is not None
    outcome = verify_record(dataclasses.replace(record, fairness=record.fairness.public()))
    assert not outcome.ok and outcome.problem == (
        "the server seed has not been revealed in this record"
    )


def test_version_one_record_still_loads_without_fairness() -> None:
    data = json.loads(fair_record("indecision").dumps())
    data["version"] = 1
    del data["fairness"]
    record = GameRecord.from_json(data)
    assert record.fairness is None
    assert "no fairness data" in (verify_record(record).problem or "")


def test_fair_record_round_trips_through_json() -> None:
    record = fair_record("declaration-rummy")
    assert GameRecord.loads(record.dumps()) == record
    assert json.loads(record.dumps())["version"] == 2


def test_verify_command_passes_an_intact_record_and_fails_a_tampered_one(tmp_path: Path) -> None:
    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(fair_record("indecision").dumps(), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(good)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    bad = tmp_path / "bad.json"
    record = fair_record("indecision")
    bad.write_text(dataclasses.replace(record, seed=record.seed ^ 1).dumps(), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(bad), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["ok"] is False
