"""The Indecision How to play page says what the scorer counts (RULES.md 1.6)."""

from __future__ import annotations

from cardtable.cards import parse_cards
from cardtable.games.indecision.howto import page
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.scoring import score_hand


def _melds_section() -> str:
    (html,) = [s["html"] for s in page()["sections"] if s["heading"] == "Melds"]
    return str(html)


def test_how_to_play_says_smaller_melds_inside_a_prile_or_a_longer_run_do_not_count() -> None:
    # C1: three of a rank are one Prile of 3, no pairs; C2: the runs of 3 inside a run of 4 do
    # not count. The page once said every way the cards form a meld counts.
    melds = _melds_section()
    assert "Every way your five cards form a meld counts" not in melds
    prile = score_hand(parse_cards("7S 7H 7C 2D 10C"), Rules())
    assert [m.name for m in prile.melds] == ["Prile of 3"]
    assert "three sevens are one Prile of 3, not also three Pairs" in melds
    runs = score_hand(parse_cards("10C JD QC KC KH"), Rules())
    names = [m.name for m in runs.melds]
    assert names.count("Run of 4") == 2 and "Run of 3" not in names
    assert "10♣ J♦ Q♣ K♣ K♥ holds two Runs of 4 (one with each king) and no Run of 3" in melds
