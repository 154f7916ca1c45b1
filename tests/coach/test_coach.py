"""The coach in each game's terms: hints with reasons, near-melds, discard options, warnings."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from bots.positions import declaration, indecision, indian  # tests/bots, a sibling package
from cardtable.cards import format_card, parse_card, parse_cards
from cardtable.coach import CoachReport, Hint, coach, hint
from cardtable.driver import advance
from cardtable.errors import IllegalActionError
from cardtable.games.declaration_rummy import actions as dr
from cardtable.games.declaration_rummy.engine import ENGINE as DR
from cardtable.games.indecision.actions import Discard, Stop
from cardtable.games.indecision.engine import ENGINE as IND
from cardtable.games.indecision.state import Phase as IndPhase
from cardtable.games.indian_rummy import actions as ir
from cardtable.games.indian_rummy.engine import ENGINE as IR
from cardtable.games.indian_rummy.state import Phase as IRPhase
from cardtable.games.indian_rummy.state import scenario
from games.indian_rummy.helpers import deals, everyone_drops_but, pool, position

OTHER_IR = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"


def _report(game: str, engine, state, seat: int = 0) -> CoachReport:  # type: ignore[no-untyped-def]
    report = coach(game, engine.view(state, seat), engine.legal_actions(state, seat))
    json.dumps(report.to_json())  # serialisable for the browser
    return report


def test_indecision_warns_that_every_stop_would_forfeit_and_suggests_a_discard() -> None:
    state = indecision(["7S 7H 7D 2C 9S KD", "3H 4H 8C JC QS"], pile="5D")
    report = _report("indecision", IND, state)
    assert any("forfeits" in w for w in report.warnings)
    assert report.hint is not None and isinstance(report.hint.action, Discard)
    assert "Discard" in report.hint.reason
    assert {option.card for option in report.discards} == set(state.hands[0])
    best = report.discards[0]
    assert "points" in best.leaves
    assert any("Prile of 3" in tip for tip in report.tips)


def test_indecision_hint_explains_a_winning_stop() -> None:
    state = indecision(["5H 6H 7H 8C 9D 2S", "3H 4H 8S JC QS"], totals=(115, 100))
    suggestion = hint("indecision", IND.view(state, 0), IND.legal_actions(state, 0))
    assert suggestion.action == Stop(parse_card("2S"))
    assert "win the game" in suggestion.reason


def test_indecision_near_melds_name_the_completing_cards_and_unseen_copies() -> None:
    state = indecision(["7S 7H 2C 9D KS", "3H 4H 8S JC QS"], pile="5C 7D", phase=IndPhase.DRAW)
    report = _report("indecision", IND, state)
    priles = [m for m in report.near_melds if m.kind == "Prile of 3"]
    (sevens,) = priles
    assert set(sevens.completing) == set(parse_cards("7D 7C"))
    assert sevens.unseen == 1  # 7D is on the pile, 7C unseen


def test_indecision_warns_about_feeding_the_next_players_pickups() -> None:
    state = indecision(
        ["5H 6H 7H 8H 9C 2D", "3D 4D 8S JC QS"],
        events=[("take-discard", 1, "JC")],
        had_turn=(0, 1),
    )
    report = _report("indecision", IND, state)
    notes = {format_card(o.card): o.note for o in report.discards}
    assert "feeds seat 1" in notes["9C"]


def test_indian_rummy_warns_that_a_show_now_would_be_wrong() -> None:
    state = indian(["5H 6H PJ 9S 7C JS 2C 2D 2S 4D 4C 4S 7D KH", OTHER_IR], wild="7S")
    report = _report("indian-rummy", IR, state)
    assert any("wrong" in w and "80" in w for w in report.warnings)
    assert report.hint is not None and isinstance(report.hint.action, ir.Discard)
    assert all(o.card != parse_card("PJ") or "joker" in o.note for o in report.discards)


def test_indian_rummy_hint_declares_a_valid_show_with_its_groups() -> None:
    state = indian(["5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KC", OTHER_IR], wild="7C", drawn="KC")
    suggestion = hint("indian-rummy", IR.view(state, 0), IR.legal_actions(state, 0))
    assert suggestion.action == ir.Declare(parse_card("KC"))
    assert "valid show" in suggestion.reason and "Pure sequence" in suggestion.reason
    report = _report("indian-rummy", IR, state)
    assert any("You can declare" in tip for tip in report.tips)


def test_indian_rummy_near_melds_count_unseen_copies_of_both_decks() -> None:
    state = indian(
        ["5H 6H 9S 9D KC QS 2S 4S 7C 8C JD 3D KS", OTHER_IR],
        wild="10C",
        pile="2C 4H",
        phase=IRPhase.DRAW,
    )
    report = _report("indian-rummy", IR, state)
    hearts = [m for m in report.near_melds if set(m.cards) == set(parse_cards("5H 6H"))]
    (pair,) = hearts
    assert set(pair.completing) == set(parse_cards("4H 7H"))
    assert pair.unseen == 3  # two 7H and one 4H (the other 4H is on the pile)


def test_declaration_rummy_warns_that_a_high_declaration_is_likely_to_lose() -> None:
    state = declaration(["KS QD JH 10C 8S 6D 4H 2C AH 3S 5D", "5C 6H 7S 8H 10D JC AS 2D 3D 9C"])
    report = _report("declaration-rummy", DR, state)
    assert any("likely to lose" in w for w in report.warnings)
    assert report.hint is not None and isinstance(report.hint.action, dr.Discard)
    counts = [o.value for o in report.discards]
    assert counts == sorted(counts)


def test_declaration_rummy_tips_name_going_out_and_cant_declare() -> None:
    from cardtable.games.declaration_rummy.rules import Rules

    state = declaration(["2H 3H 4H 9S 9D 9C KS", "5C 6D 7S 8H 10C JD"])
    report = _report("declaration-rummy", DR, state)
    assert report.hint is not None and report.hint.action == dr.GO_OUT
    assert any("go out" in tip for tip in report.tips)
    rules = Rules(players=2, optional_cards=("CD0",))
    blocked = declaration(["2H 3H 4H 9S 9D KC CD0 QS", "5C 6D 7S 8H 10D JC AH"], rules=rules)
    report = _report("declaration-rummy", DR, blocked)
    assert any("CAN'T DECLARE 0" in w for w in report.warnings)


def test_hint_refuses_a_seat_with_nothing_to_do() -> None:
    state = indecision(["7S 7H 7D 2C 9S KD", "3H 4H 8C JC QS"], pile="5D")
    with pytest.raises(IllegalActionError):
        hint("indecision", IND.view(state, 1), IND.legal_actions(state, 1))


def test_hint_and_report_json_shapes() -> None:
    state = indecision(["7S 7H 7D 2C 9S KD", "3H 4H 8C JC QS"], pile="5D")
    suggestion = hint("indecision", IND.view(state, 0), IND.legal_actions(state, 0))
    assert isinstance(suggestion, Hint)
    assert set(suggestion.to_json()) == {"action", "reason"}
    data = coach("indecision", IND.view(state, 0), IND.legal_actions(state, 0)).to_json()
    assert set(data) == {"tips", "near_melds", "discards", "warnings", "hint"}
    assert {"card", "leaves", "value", "note"} <= set(data["discards"][0])


def test_declaration_rummy_hint_never_takes_a_discard_only_to_discard_it_again() -> None:
    # Taking the top discard and then discarding that same card leaves the hand as it was: the
    # coach then says to draw from the stock instead of "take the 7H" followed by "discard 7H".
    from bots.positions import decision_states, default_rules
    from cardtable.bots.declaration_rummy import NormalBot
    from cardtable.coach.declaration_rummy import _discarded_again
    from cardtable.games.declaration_rummy.state import Phase as DRPhase

    checked = 0
    for seed in range(6):
        for state in decision_states(
            "declaration-rummy", default_rules("declaration-rummy"), seed, guide=NormalBot()
        ):
            seat = DR.current_player(state)
            view = DR.view(state, seat)
            if view.phase is not DRPhase.DRAW or view.discard_top is None:
                continue
            legal = DR.legal_actions(state, seat)
            if dr.DRAW_STOCK not in legal:
                continue
            advice = hint("declaration-rummy", view, legal).action
            if isinstance(advice, dr.TakeDiscard) and advice.count == 1:
                assert not _discarded_again(view.hand, view.discard_top), format_card(
                    view.discard_top
                )
                checked += 1
    assert checked > 0


def test_declaration_rummy_hint_never_discards_a_card_just_taken_from_the_pile() -> None:
    from bots.positions import decision_states, default_rules
    from cardtable.bots.declaration_rummy import NormalBot
    from cardtable.games.declaration_rummy.state import DrawKind
    from cardtable.games.declaration_rummy.state import Phase as DRPhase

    checked = 0
    for seed in range(6):
        for state in decision_states(
            "declaration-rummy", default_rules("declaration-rummy"), seed, guide=NormalBot()
        ):
            seat = DR.current_player(state)
            view = DR.view(state, seat)
            if view.phase is not DRPhase.PLAY or view.draw_kind is DrawKind.STOCK:
                continue
            legal = DR.legal_actions(state, seat)
            others = [a for a in legal if isinstance(a, dr.Discard) and a.card not in view.drawn]
            advice = hint("declaration-rummy", view, legal).action
            if others and isinstance(advice, dr.Discard):
                assert advice.card not in view.drawn, format_card(advice.card)
                checked += 1
    assert checked > 0


def test_declaration_rummy_coach_says_chances_in_words_not_percentages() -> None:
    from cardtable.coach.words import chance_words

    state = declaration(["KS QD JH 10C 8S 6D 4H 2C AH 3S 5D", "5C 6H 7S 8H 10D JC AS 2D 3D 9C"])
    report = _report("declaration-rummy", DR, state)
    texts = [*report.warnings, *report.tips, report.hint.reason if report.hint else ""]
    assert not any("%" in text for text in texts), texts
    (warning,) = [w for w in report.warnings if "likely to lose" in w]
    assert re.search(r"(almost never|rarely|about \d in \d+ times|about half the time)", warning)
    words = [chance_words(p / 100) for p in range(101)]
    assert words[0] == "almost never" and words[100] == "almost always"
    assert "about 1 in 5 times" in words and "about half the time" in words


def test_indian_rummy_discard_hint_names_the_card_once_with_its_worth() -> None:
    # No pure sequence yet, so no show: the hint is a discard ("Discard KD: it is a loose
    # card worth 10; ..."), the card named once.
    state = indian(["2H 4H 6H 5S 7S 9S 9C 9D JH KD QC 4D 7C 10H", OTHER_IR], wild="8D")
    advice = hint("indian-rummy", IR.view(state, 0), IR.legal_actions(state, 0))
    assert isinstance(advice.action, ir.Discard)
    card = format_card(advice.action.card)
    assert re.match(
        rf"Discard {card}: it is (a loose card|part of a weak near-meld) worth \d+; ", advice.reason
    )
    assert advice.reason.count(card) == 1


def test_indecision_names_the_spares_a_stop_counts_with_as_a_tip_not_an_alarm() -> None:
    # Only 2S may be the spare (the other five make a run); the five cards that would forfeit
    # are no red warning, only a tip naming the spare that counts.
    state = indecision(["5H 6H 7H 8C 9D 2S", "3H 4H 8S JC QS"], totals=(15, 10))
    report = _report("indecision", IND, state)
    assert not any("spare" in warning for warning in report.warnings), report.warnings
    assert "A stop counts only with 2S as the spare; any other spare would forfeit." in (
        report.tips
    )


def test_declaration_rummy_coach_out_of_turn_advises_nothing_and_never_fails() -> None:
    # Seat 1 while seat 0 is to play: it may only propose a tie or drop.
    state, _ = advance(DR, DR.new_game(DR.rules_type(players=3), 0))
    assert DR.current_player(state) == 0
    legal = DR.legal_actions(state, 1)
    assert sorted(str(action) for action in legal) == ["drop", "propose tie"]
    view = DR.view(state, 1)
    report = coach("declaration-rummy", view, legal)
    assert report.hint is None
    suggestion = hint("declaration-rummy", view, legal)
    assert suggestion.reason.startswith(("Propose a tie", "Drop out"))


# ------------------------------------------------------------------ Indian Rummy's Pool and Deals


def test_indian_pool_hint_knows_a_drop_at_95_in_pool_101_eliminates_you() -> None:
    state = position(pool(2), (95, 10), dealer=1)
    view = IR.view(state, 0)
    report = coach("indian-rummy", view, IR.legal_actions(state, 0))
    assert any("eliminated" in warning and "115" in warning for warning in report.warnings)
    assert report.hint is not None and report.hint.action != ir.DROP
    assert "Do not drop" in report.hint.reason and "eliminated" in report.hint.reason
    safe = position(pool(2), (40, 10), dealer=1)
    safe_report = coach("indian-rummy", IR.view(safe, 0), IR.legal_actions(safe, 0))
    assert not any("eliminated" in warning for warning in safe_report.warnings)


def test_indian_pool_hint_drops_into_a_rejoin_and_says_so() -> None:
    # Four players at 85, 10, 0, 0, a hopeless first hand: the first drop's 20 takes seat 0
    # out of the pool, and with its rejoin it comes back at the highest total in plus one.
    rules = dataclasses.replace(pool(4), wild_joker_cut=False)
    hands = [
        "AS 4S 7S 10S KS 2H 5H 8H JH 3D 6D 9D QD",
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
        "AH 3H 4H 6H 7H 9H 10H QH KH 2S 3S 5S 6S",
        "2D 4D 5D 7D 8D 10D JD KD AD 8S 9S JS QS",
    ]
    state = scenario(rules, hands, pile="2C", dealer=3, totals=(85, 10, 0, 0))
    report = coach("indian-rummy", IR.view(state, 0), IR.legal_actions(state, 0))
    assert report.hint is not None and report.hint.action == ir.DROP
    assert "out of the pool, and you rejoin at 11" in report.hint.reason
    assert not any("Do not drop" in warning for warning in report.warnings)


def test_indian_pool_coach_says_how_far_each_player_is_from_the_limit() -> None:
    state = position(pool(3), (95, 10, 60), dealer=2)
    report = _report("indian-rummy", IR, state)
    (tip,) = [t for t in report.tips if t.startswith("Pool 101")]
    assert "you 95, 6 from the limit" in tip
    assert "seat 1 10, 91 from the limit" in tip and "seat 2 60, 41 from the limit" in tip


def test_indian_deals_coach_gives_the_chips() -> None:
    state = position(deals(2), (0, 0), chips=(150, 170))
    report = _report("indian-rummy", IR, state)
    assert any("chips: you 150; seat 1 170" in tip for tip in report.tips)


def test_indian_pool_hint_explains_the_rejoin() -> None:
    state = everyone_drops_but(position(pool(3), (90, 39, 59), dealer=2), 2)
    report = _report("indian-rummy", IR, state)
    assert report.hint is not None and report.hint.action == ir.REJOIN
    assert "come back with 60 points, 41 from the limit" in report.hint.reason
