"""Gin rummy deadwood speed: cardtable's preset beside OpenSpiel's C++ and RLCard, same hands.

Hand sets (fixed seeds): uniformly random hands of 10 and 11 cards, and meld-rich hands of 10
and 11 cards (two or three disjoint melds, runs of 3-5 or sets of 3-4, plus random filler).

Timed per hand, contenders one after another on the same hand (so machine load hits them
alike), median microseconds per call over the set:

* ``cardtable gin_deadwood``: least deadwood of the cards as they are;
* ``cardtable gin_best_discard`` (11 cards): least deadwood after the best discard, and which;
* ``open_spiel min_deadwood``: ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood``.
  On 10 cards it is the plain deadwood. On 11 cards it lays the 11 cards' best melds and then
  drops the highest-ranked unmelded card, so it answers the best-discard question; it is set
  beside both of ours;
* ``rlcard``: ``rlcard.games.gin_rummy.utils.melding.get_best_meld_clusters`` plus
  ``utils.get_deadwood_count`` (10 cards only, as RLCard requires; on 11 cards every discard is
  tried, which is how RLCard's players pick one).

Card numbers differ: cardtable and RLCard use ``suit * 13 + rank`` with suits S H D C, OpenSpiel
the same with suits s c d h; every hand is converted and every answer is checked against ours
(the number of disagreements is printed). Ratios are cardtable / other: below 1 means faster.
Engines that cannot be imported are skipped. It never fails on time.

Reproduce from the repository root (the other engines are timed beside ours when the
``bench`` extra is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_gin
    .venv/bin/python -m benchmarks.bench_gin --hands 1000
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.common import (
    Hand,
    Timing,
    format_row,
    gin_meld_rich_hands,
    gin_random_hands,
    time_side_by_side,
)
from cardtable.melds.gin import gin_best_discard, gin_card_value, gin_deadwood

# Our suits S H D C are OpenSpiel's s h d c positions 0 3 2 1.
_OPEN_SPIEL_SUIT = (0, 3, 2, 1)


def to_open_spiel(hand: Hand) -> list[int]:
    return [_OPEN_SPIEL_SUIT[card // 13] * 13 + card % 13 for card in hand]


def load_open_spiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def load_rlcard() -> tuple[Any, Any] | None:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    return melding, utils


def rlcard_functions(
    melding: Any, utils: Any
) -> tuple[Callable[[list[Any]], int], Callable[[list[Any]], int]]:
    """RLCard's 10-card deadwood, and its best discard from 11 (each discard tried)."""

    def deadwood(cards: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(cards)
        if not clusters:
            return sum(utils.get_deadwood_value(card) for card in cards)
        return int(utils.get_deadwood_count(cards, clusters[0]))

    def best_discard(cards: list[Any]) -> int:
        return min(deadwood(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))

    return deadwood, best_discard


def run(hand_count: int, seed: int) -> None:
    open_spiel = load_open_spiel()
    rlcard = load_rlcard()
    hand_sets = [
        ("random 10", gin_random_hands(seed, 10, hand_count)),
        ("meld-rich 10", gin_meld_rich_hands(seed + 1, 10, hand_count)),
        ("random 11", gin_random_hands(seed + 2, 11, hand_count)),
        ("meld-rich 11", gin_meld_rich_hands(seed + 3, 11, hand_count)),
    ]
    print(f"gin rummy deadwood, {hand_count} hands per set, median microseconds per call")
    print(
        f"open_spiel: {'yes' if open_spiel else 'not importable'}; "
        f"rlcard: {'yes' if rlcard else 'not importable'}"
    )
    widths = (13, 30, 9, 9, 13)
    print(format_row(("set", "contender", "median", "p90", "disagreements"), widths))
    for name, hands in hand_sets:
        size = len(hands[0])
        contenders: list[tuple[str, Callable[[Any], Any]]] = [
            ("cardtable gin_deadwood", gin_deadwood)
        ]
        forms: list[Sequence[Any]] = [hands]
        disagreements: dict[str, int] = {}
        ours_plain = [gin_deadwood(h) for h in hands]
        ours_after_discard = [gin_best_discard(h)[0] for h in hands] if size == 11 else []
        if size == 11:
            contenders.append(("cardtable gin_best_discard", gin_best_discard))
            forms.append(hands)
        if open_spiel is not None:
            spiel_hands = [to_open_spiel(h) for h in hands]
            contenders.append(("open_spiel min_deadwood", open_spiel.min_deadwood))
            forms.append(spiel_hands)
            expected = ours_after_discard if size == 11 else ours_plain
            disagreements["open_spiel min_deadwood"] = sum(
                open_spiel.min_deadwood(h) != e for h, e in zip(spiel_hands, expected, strict=True)
            )
            # Its best meld group, without a discard, must match our plain deadwood too.
            disagreements["open_spiel best_meld_group"] = sum(
                sum(gin_card_value(c) for c in h)
                - sum(min(c % 13 + 1, 10) for meld in open_spiel.best_meld_group(s) for c in meld)
                != e
                for h, s, e in zip(hands, spiel_hands, ours_plain, strict=True)
            )
        if rlcard is not None:
            melding, utils = rlcard
            deadwood, best_discard = rlcard_functions(melding, utils)
            rl_hands = [[utils.card_from_card_id(c) for c in h] for h in hands]
            label = "rlcard best meld clusters" if size == 10 else "rlcard, each discard tried"
            function = deadwood if size == 10 else best_discard
            contenders.append((label, function))
            forms.append(rl_hands)
            expected = ours_plain if size == 10 else ours_after_discard
            disagreements[label] = sum(
                function(h) != e for h, e in zip(rl_hands, expected, strict=True)
            )
        timings: dict[str, Timing] = time_side_by_side(contenders, forms)
        for contender, timing in timings.items():
            shown = disagreements.get(contender, "")
            print(format_row((name, contender, timing.median, timing.p90, shown), widths))
        if "open_spiel best_meld_group" in disagreements:
            print(
                format_row(
                    (
                        name,
                        "open_spiel best_meld_group",
                        "",
                        "",
                        disagreements["open_spiel best_meld_group"],
                    ),
                    widths,
                )
            )
        ours = timings["cardtable gin_deadwood"].median
        for contender, timing in timings.items():
            if not contender.startswith("cardtable"):
                print(f"  ratio gin_deadwood / {contender}: {ours / timing.median:.2f}")
                if size == 11:
                    discard = timings["cardtable gin_best_discard"].median
                    print(f"  ratio gin_best_discard / {contender}: {discard / timing.median:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per set (1000)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the hand sets (2024)")
    arguments = parser.parse_args()
    run(arguments.hands, arguments.seed)


if __name__ == "__main__":
    main()
