"""How far an Indian Rummy hand is from a valid show, for the bots and the coach.

The exact meld solver (:mod:`cardtable.melds.indian`) answers "what does this hand score now";
a player also needs "what is it becoming". :func:`analyze` splits a hand into complete groups
(pure sequences, sets, sequences finished with jokers), *near-melds* (two natural cards one card
from a group: ``5H 6H`` or ``5H 7H`` for a sequence, ``9S 9D`` for a set) and loose cards, trying
each choice of pure sequences and keeping the split with the lowest :func:`shape_cost`.

The cost mixes two things a player weighs: ``missing``, roughly how many useful cards must still
be drawn before a valid show (each loose card must be replaced, each near-meld completed, and a
missing pure sequence or second sequence built), and ``risk``, the points the hand would count
if someone declared now (every card without a pure sequence; all but one pure sequence without
a second sequence; otherwise the cards outside groups).

Wild-rank cards are treated as jokers here (more flexible than as themselves); the exact solver
still decides every show, so this simplification never makes a bot declare wrongly.

>>> from cardtable.cards import parse_cards
>>> shape = analyze(parse_cards("3H 4H 5H 9S 9D 9C KD KC 2S 4S 7C 8C JD", deck=None), 11)
>>> shape.pure, shape.sequences, len(shape.partials)  # 3H-5H and 7C-9C; 9S 9D, JD KD, 2S 4S
(2, 2, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cardtable.cards import Card
from cardtable.melds.indian import NATURAL_VALUES, is_joker


def _card_at(suit: int, position: int) -> Card:
    """The card of ``suit`` at sequence position 0..13 (13 is the ace above the king)."""
    return suit * 13 + (position % 13)


@dataclass(frozen=True, slots=True)
class Partial:
    """A near-meld: two natural cards and the cards that would complete it."""

    cards: tuple[Card, Card]
    kind: str
    """``sequence`` (same suit, one rank apart or with one gap) or ``set`` (same rank)."""
    completing: tuple[Card, ...]


@dataclass(slots=True)
class Shape:
    """One split of a hand: complete groups, near-melds, loose cards and the jokers."""

    groups: list[tuple[str, tuple[Card, ...]]] = field(default_factory=list)
    partials: list[Partial] = field(default_factory=list)
    loose: list[Card] = field(default_factory=list)
    jokers: list[Card] = field(default_factory=list)
    pure: int = 0
    sequences: int = 0
    missing: float = 0.0
    risk: int = 0


def _seq_positions(rank: int) -> tuple[int, ...]:
    return (0, 13) if rank == 0 else (rank,)


def _runs(counts: list[int]) -> list[tuple[int, int]]:
    """Maximal intervals of occupied positions 0..13 of one suit (counts by position)."""
    out = []
    start = None
    for pos in range(15):
        present = pos < 14 and counts[pos % 13] > 0
        if present and start is None:
            start = pos
        elif not present and start is not None:
            if pos - start >= 3:
                out.append((start, pos - 1))
            start = None
    return out


def _run_options(counts_by_suit: list[list[int]]) -> list[tuple[int, int, int]]:
    """Candidate pure runs ``(suit, first position, last position)``: each maximal run and its
    prefixes and suffixes of three or more cards."""
    options = []
    for suit, counts in enumerate(counts_by_suit):
        for first, last in _runs(counts):
            seen = set()
            for a in range(first, last - 1):
                for b in (last,) if a != first else range(a + 2, last + 1):
                    if (a, b) not in seen:
                        seen.add((a, b))
                        options.append((suit, a, b))
    return options


def _take_run(counts_by_suit: list[list[int]], run: tuple[int, int, int]) -> bool:
    suit, first, last = run
    needed = Counter(pos % 13 for pos in range(first, last + 1))
    counts = counts_by_suit[suit]
    if any(counts[rank] < n for rank, n in needed.items()):
        return False
    for rank, n in needed.items():
        counts[rank] -= n
    return True


def _give_back(counts_by_suit: list[list[int]], run: tuple[int, int, int]) -> None:
    suit, first, last = run
    for pos in range(first, last + 1):
        counts_by_suit[suit][pos % 13] += 1


def _completing_sequence(suit: int, low: int, high: int) -> tuple[Card, ...]:
    if high - low == 1:
        ends = [p for p in (low - 1, high + 1) if 0 <= p <= 13]
        return tuple(sorted({_card_at(suit, p) for p in ends}))
    return (_card_at(suit, low + 1),)


def _finish(
    counts_by_suit: list[list[int]],
    runs: list[tuple[int, int, int]],
    jokers: list[Card],
    gone: Counter[Card] | None,
) -> Shape:
    """Complete a split once its pure runs are chosen: sets, near-melds, jokers, the cost."""
    shape = Shape(jokers=list(jokers))
    for suit, first, last in runs:
        cards = tuple(_card_at(suit, p) for p in range(first, last + 1))
        shape.groups.append(("pure sequence", cards))
        shape.pure += 1
        shape.sequences += 2 if last - first + 1 >= 6 else 1
    rest = [row[:] for row in counts_by_suit]
    for rank in range(13):
        suits = [s for s in range(4) if rest[s][rank] > 0]
        if len(suits) >= 3:
            cards = tuple(s * 13 + rank for s in suits[:4])
            for s in suits[:4]:
                rest[s][rank] -= 1
            shape.groups.append(("set", cards))
    remaining = [s * 13 + r for s in range(4) for r in range(13) for _ in range(rest[s][r])]
    candidates: list[tuple[float, Card, Card, str, tuple[Card, ...]]] = []
    for i, a in enumerate(remaining):
        for b in remaining[i + 1 :]:
            if a == b:
                continue
            if a // 13 == b // 13:
                suit = a // 13
                for pa in _seq_positions(a % 13):
                    for pb in _seq_positions(b % 13):
                        low, high = min(pa, pb), max(pa, pb)
                        if 1 <= high - low <= 2:
                            completing = _completing_sequence(suit, low, high)
                            live = _live(completing, gone)
                            if live:
                                weight = (3.0 if high - low == 1 else 2.0) + live * 0.25
                                candidates.append((weight, a, b, "sequence", completing))
            elif a % 13 == b % 13:
                completing = tuple(s * 13 + a % 13 for s in range(4) if s not in (a // 13, b // 13))
                live = _live(completing, gone)
                if live:
                    candidates.append((1.5 + live * 0.25, a, b, "set", completing))
    candidates.sort(key=lambda c: (-c[0], -(NATURAL_VALUES[c[1] % 13] + NATURAL_VALUES[c[2] % 13])))
    used: Counter[Card] = Counter()
    pool = Counter(remaining)
    for _, a, b, kind, completing in candidates:
        if used[a] < pool[a] and used[b] < pool[b]:
            used[a] += 1
            used[b] += 1
            shape.partials.append(Partial((a, b), kind, completing))
    shape.loose = list((pool - used).elements())
    free_jokers = len(jokers)
    # Jokers finish near-melds first where a sequence is still needed, then the costliest.
    order = sorted(
        shape.partials,
        key=lambda p: (
            p.kind != "sequence" or shape.sequences >= 2,
            -(NATURAL_VALUES[p.cards[0] % 13] + NATURAL_VALUES[p.cards[1] % 13]),
        ),
    )
    finished: list[Partial] = []
    for partial in order:
        if free_jokers == 0:
            break
        if partial.kind == "sequence" and shape.pure == 0 and len(shape.partials) == 1:
            break  # keep the only pure candidate natural
        free_jokers -= 1
        finished.append(partial)
        kind = "sequence" if partial.kind == "sequence" else "set"
        shape.groups.append((kind, partial.cards))
        if kind == "sequence":
            shape.sequences += 1
    for partial in finished:
        shape.partials.remove(partial)
    shape.loose.sort(key=lambda c: -NATURAL_VALUES[c % 13])
    while free_jokers >= 2 and shape.loose and shape.sequences < 2:
        card = shape.loose.pop(0)
        shape.groups.append(("sequence", (card,)))
        shape.sequences += 1
        free_jokers -= 2
    _price(shape, free_jokers)
    return shape


def _live(completing: Iterable[Card], gone: Counter[Card] | None) -> int:
    """Copies of the completing cards not known to be gone (two decks: two of each)."""
    if gone is None:
        return 2 * len(tuple(completing))
    return sum(max(0, 2 - gone[card]) for card in completing)


def _price(shape: Shape, free_jokers: int) -> None:
    completions = len(shape.partials)
    extra = 0.0
    if shape.pure == 0:
        natural = any(p.kind == "sequence" for p in shape.partials)
        extra += 0.0 if natural else 2.0
    if shape.sequences < 2:
        seq_partials = sum(p.kind == "sequence" for p in shape.partials)
        short = 2 - shape.sequences - min(seq_partials, 2 - shape.sequences)
        extra += 2.0 * max(0, short - free_jokers // 2)
    loose = len(shape.loose)
    shape.missing = max(float(loose), completions + extra)
    loose_points = sum(NATURAL_VALUES[c % 13] for c in shape.loose)
    partial_points = sum(NATURAL_VALUES[c % 13] for p in shape.partials for c in p.cards)
    group_points = sum(NATURAL_VALUES[c % 13] for kind, cards in shape.groups for c in cards)
    if shape.pure == 0:
        shape.risk = min(80, loose_points + partial_points + group_points)
    elif shape.sequences < 2:
        best_pure = max(
            (
                sum(NATURAL_VALUES[c % 13] for c in cards)
                for kind, cards in shape.groups
                if kind[0] == "p"
            ),
            default=0,
        )
        shape.risk = min(80, loose_points + partial_points + group_points - best_pure)
    else:
        shape.risk = loose_points + partial_points


def shape_cost(shape: Shape, risk_weight: float = 0.12) -> float:
    """Lower is better: missing cards weigh 3 points each, the points at risk ``risk_weight``."""
    return 3.0 * shape.missing + risk_weight * shape.risk


def analyze(
    hand: Sequence[Card],
    wild_rank: int | None,
    *,
    gone: Counter[Card] | None = None,
    risk_weight: float = 0.12,
    greedy: bool = False,
) -> Shape:
    """The best split of ``hand`` (see the module docstring); ``greedy`` takes every maximal
    pure run as it comes instead of trying the other choices.

    ``gone`` counts cards known to be out of reach (on the pile under its top, in the wild
    card's place, already in this hand): near-melds whose completing cards are all gone are
    dead and left loose.
    """
    jokers = [c for c in hand if is_joker(c, wild_rank)]
    counts = [[0] * 13 for _ in range(4)]
    for card in hand:
        if not is_joker(card, wild_rank):
            counts[card // 13][card % 13] += 1
    best: Shape | None = None
    best_cost = float("inf")
    chosen: list[tuple[int, int, int]] = []

    def explore() -> None:
        nonlocal best, best_cost
        shape = _finish(counts, chosen, jokers, gone)
        cost = shape_cost(shape, risk_weight)
        if cost < best_cost:
            best, best_cost = shape, cost
        if len(chosen) >= 4:
            return
        for run in _run_options(counts):
            # Runs are chosen in order, so each set of runs is tried once.
            if chosen and run < chosen[-1]:
                continue
            if _take_run(counts, run):
                chosen.append(run)
                explore()
                chosen.pop()
                _give_back(counts, run)

    if greedy:
        while True:
            runs = [run for run in _run_options(counts) if run[1] == _maximal_start(counts, run)]
            full = [run for run in runs if not _extends(counts, run)]
            if not full or not _take_run(counts, full[0]):
                break
            chosen.append(full[0])
        return _finish(counts, chosen, jokers, gone)
    explore()
    assert best is not None
    return best


def _maximal_start(counts: list[list[int]], run: tuple[int, int, int]) -> int:
    suit, first, _ = run
    while first > 0 and counts[suit][(first - 1) % 13] > 0:
        first -= 1
    return first


def _extends(counts: list[list[int]], run: tuple[int, int, int]) -> bool:
    suit, _, last = run
    return last < 13 and counts[suit][(last + 1) % 13] > 0
