"""The ``cardtable`` command line: scoring, batch mode, errors, simulation, play and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import app

runner = CliRunner()


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_score_explains_an_indecision_hand_in_the_games_terms() -> None:
    code, out, _ = _run("score", "indecision", "5H", "6H", "7H", "7C", "7S")
    assert code == 0
    assert "Prile of 3" in out and "Run on a Bike of 3" in out and "total 23" in out
    assert "all cards used" in out


def test_score_json_fields_for_each_game() -> None:
    code, out, _ = _run("score", "indecision", "10C", "JD", "QC", "KC", "KH", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["score"] == 17 and data["all_cards_used"] is True and data["melds"]

    hand = "3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C".split()
    code, out, _ = _run("score", "indian-rummy", "--wild", "2", *hand, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["points"] == 23 and data["valid_show"] is False
    assert {"groups", "loose"} <= set(data)

    code, out, _ = _run("score", "declaration-rummy", "2H", "3H", "4H", "4S", "4C", "--json")
    data = json.loads(out)
    assert data["count"] == 5 and data["can_go_out"] is False
    assert sorted(data["unmelded"]) == ["2H", "3H"]

    gin = "AS 2S JS AC 2C 2D JD AH 2H 3H JH".split()
    code, out, _ = _run("score", "gin", *gin, "--json")
    data = json.loads(out)
    assert data["deadwood_after_best_discard"] == 0


def test_score_indian_rummy_fourteen_cards_lists_the_show_discards() -> None:
    hand = "AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH QS".split()
    code, out, _ = _run("score", "indian-rummy", "--wild", "4", *hand, "--json")
    assert code == 0
    assert json.loads(out)["show_discards"] == ["QS"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("score", "indecision", "5H", "6H", "7H", "7C", "1X"), "unknown card '1X'"),
        (("score", "indecision", "5H", "5H", "7H", "7C", "8C"), "duplicate card 5H"),
        (("score", "indecision", "5H", "6H", "7H"), "5 cards"),
        (("score", "indian-rummy", "--wild", "Z", *["2H"] * 13), "unknown"),
        (("score", "indian-rummy", *"3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C".split()), "--wild"),
        (("score", "chess", "AS"), "unknown game"),
    ],
)
def test_bad_input_is_one_line_exit_2_no_traceback(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_batch_scores_every_line_in_order_and_reports_bad_lines() -> None:
    lines = [
        json.dumps({"cards": ["W", "KS"]}),
        "not json",
        json.dumps({"cards": ["7S", "7D", "7D"]}),
        json.dumps({"cards": "7S"}),
        json.dumps({"cards": ["7S", "7D", "W"]}),
    ]
    code, out, _ = _run("score", "declaration-rummy", "--batch", stdin="\n".join(lines) + "\n")
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r.get("count") for r in results] == [33, None, None, None, 0]
    assert "not valid JSON" in results[1]["error"]
    assert "duplicate card 7D" in results[2]["error"]
    assert "list of card labels" in results[3]["error"]


def test_batch_indian_rummy_reads_the_wild_rank_per_line() -> None:
    hand = "5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S".split()
    lines = [json.dumps({"cards": hand, "wild": "7"}), json.dumps({"cards": hand, "wild": "Q"})]
    code, out, _ = _run("score", "indian-rummy", "--batch", stdin="\n".join(lines))
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["valid_show"] is True and first["points"] == 0
    assert second["valid_show"] is True  # 5H 6H 7H stays pure with its natural seven


@pytest.mark.parametrize("game", ["indecision", "indian-rummy", "declaration-rummy"])
def test_simulate_reports_decisions_speed_and_endings(game: str) -> None:
    code, out, _ = _run("simulate", game, "--games", "3", "--seed", "5", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["games"] == 3 and sum(report["endings"].values()) == 3
    assert report["seat_decisions"] > 0 and report["decisions_per_second"] > 0


def test_simulate_indian_rummy_says_how_each_game_s_deal_ended() -> None:
    code, out, _ = _run("simulate", "indian-rummy", "--games", "20", "--seed", "1", "--json")
    assert code == 0
    report = json.loads(out)
    endings = report["endings"]
    # Random seats never drop or show wrongly: a deal ends with a valid show or at the turn cap.
    assert set(endings) <= {"last deal valid-show", "last deal abandoned"}
    assert endings.get("last deal valid-show", 0) >= 1 and sum(endings.values()) == 20
    assert report["decisions_per_game"] == round(report["seat_decisions"] / 20, 1)


def test_simulate_indian_rummy_plays_full_deals_without_drops_or_wrong_shows() -> None:
    code, out, _ = _run(
        "simulate", "indian-rummy", "--games", "2", "--rule", "deal_turn_cap=30", "--json"
    )
    assert code == 0
    report = json.loads(out)
    # No seat drops or shows wrongly, so each deal runs to its cap of 30 turns (two decisions
    # each) unless a seat finds a valid show.
    assert 2 * 2 < report["seat_decisions"] <= 2 * 60
    assert report["microseconds_per_decision"] > 0


def test_simulate_beside_gin_reports_openspiel_cost_and_the_ratio() -> None:
    code, out, _ = _run("simulate", "indecision", "--games", "3", "--beside-gin", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["gin_rummy_microseconds_per_decision"] > 0
    assert report["gin_rummy_cpu_microseconds_per_decision"] > 0
    # One round a game when there are fewer games than rounds; the ratio is the rounds' median.
    for key in ("cost_beside_gin_rummy", "cpu_cost_beside_gin_rummy"):
        rounds = report[f"{key}_rounds"]
        assert len(rounds) == 3 and all(ratio > 0 for ratio in rounds)
        assert report[key] == pytest.approx(sorted(rounds)[1], abs=0.001)


def test_simulate_rejects_a_bad_rule_option() -> None:
    code, _, err = _run("simulate", "indecision", "--rule", "players=9")
    assert code == 2 and "2 to 4 players" in err


def test_play_answers_bad_input_and_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "\n".join(["discard ZZ", "frobnicate", "99", "?", "quit"]) + "\n"
    code, out, _ = _run(
        "play", "indecision", "--seed", "3", "--bots", "random", "--save", str(record), stdin=typed
    )
    assert code == 0
    assert "unknown card" in out or "ZZ" in out
    assert "no legal action number 99" in out
    assert "You left the game." in out
    assert record.exists()
    code, out, err = _run("replay", str(record), "--seat", "1")
    assert code == 0, err
    assert "seen by seat 1" in out


def test_replay_of_a_missing_or_broken_file_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = _run("replay", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read record" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "cardtable-record", "version": 1}', encoding="utf-8")
    code, _, err = _run("replay", str(broken))
    assert code == 2 and "missing the field" in err


def test_one_key_draws_and_hand_positions_expand_to_notation() -> None:
    from cardtable.cards import parse_cards
    from cardtable.cli.play import resolve_shortcut
    from cardtable.games.indian_rummy.actions import DRAW_PILE, DRAW_STOCK

    hand = parse_cards("7H 8C 9D")
    assert resolve_shortcut("S", [DRAW_STOCK, DRAW_PILE], hand) == "draw stock"
    assert resolve_shortcut("d", [DRAW_STOCK, DRAW_PILE], hand) == "draw pile"
    assert resolve_shortcut("discard 2", [], hand) == "discard 8C"
    assert resolve_shortcut("discard 4", [], hand) == "discard 4"  # no fourth card: left as typed
    assert resolve_shortcut("declare 15", [], hand) == "declare 15"  # points, not a position


def _terminal_indecision(typed: list[str], **rules: object) -> tuple[list[tuple[int, object]], str]:
    """Play Indecision seed 3 in the terminal as seat 1 (the starter) typing ``typed``."""
    import dataclasses

    from rich.console import Console

    from cardtable.cli.play import TerminalGame
    from cardtable.games.indecision import Rules
    from cardtable.registry import get_engine

    answers = iter(typed)
    console = Console(record=True, width=200)
    game = TerminalGame(
        get_engine("indecision"),
        dataclasses.replace(Rules(), **rules),  # type: ignore[arg-type]
        3,
        human_seat=1,
        bot_level="random",
        console=console,
        read_line=lambda _prompt: next(answers),
    )
    game.run()
    return game.log, console.export_text()


def test_warn_invalid_stop_asks_before_an_opening_stop_that_would_score_zero() -> None:
    # The starter stopping at the opening discard: the dealer has not had a turn (stop
    # requirement 1), so the stop would score 0; declining keeps the same turn.
    log, out = _terminal_indecision(["stop 1", "n", "stop 1", "y", "quit"])
    assert out.count("If you stop now you score 0 for this hand") == 2
    assert "not every player has had a turn" in out
    assert "Move not played." in out
    assert str(log[0][1]) == "stop JS" and log[0][0] == 1
    assert "the stop is invalid" in out


def test_no_stop_warning_when_warn_invalid_stop_is_off() -> None:
    log, out = _terminal_indecision(["stop 1", "quit"], warn_invalid_stop=False)
    assert "If you stop now" not in out
    assert str(log[0][1]) == "stop JS"
