"""A slow, independent Indian Rummy meld counter to check the solver against.

It shares no code with :mod:`cardtable.melds.indian` and takes the other road wherever it can:

* every card, jokers included, is a position of its own; a group is a set of positions, and
  each group is found by naming the cards it represents (a suit and a window of ranks, or a
  rank and some suits) and then assigning real cards to them explicitly: the very card, or a
  joker standing in, every combination tried;
* the arrangement is a recursive partition of the positions: the lowest position not yet
  decided is left loose or laid in each group that contains it, memoised per call;
* the cards of a 14-card hand that can be put down are found by trying each one in turn.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

PRINTED_JOKER = 52


def value(card: int, wild_rank: int | None) -> int:
    """J Q K A 10, number cards their number, every joker 0."""
    if card == PRINTED_JOKER:
        return 0
    rank = card % 13
    if rank == wild_rank:
        return 0
    if rank == 0 or rank >= 10:
        return 10
    return rank + 1


def is_joker(card: int, wild_rank: int | None) -> bool:
    return card == PRINTED_JOKER or card % 13 == wild_rank


PURE, SEQUENCE, SET = "pure", "sequence", "set"


def _realisations(
    cards: tuple[int, ...],
    wild_rank: int | None,
    represented: list[int],
    limit: int | None,
    all_joker_groups: bool,
    is_sequence: bool,
) -> dict[int, str]:
    """Every set of positions that can play the represented cards, with its best kind.

    Each represented card is played by an identical card of the hand (as itself) or left to a
    joker; the jokers are then chosen among the joker positions not already playing as
    themselves.
    """
    found: dict[int, str] = {}
    jokers = [i for i, c in enumerate(cards) if is_joker(c, wild_rank)]
    choices = [[i for i, c in enumerate(cards) if c == want] for want in represented]
    if sum(1 for options in choices if not options) > len(jokers):
        return found  # more gaps than jokers: nothing to assign

    def assign(slot: int, used: tuple[int, ...], gaps: int) -> None:
        if gaps > len(jokers):
            return
        if slot == len(represented):
            if gaps > len(jokers):
                return
            if is_sequence and limit is not None and gaps > limit:
                return
            if not used and not all_joker_groups:
                return
            free = [j for j in jokers if j not in used]
            for stand_ins in combinations(free, gaps):
                mask = 0
                for i in (*used, *stand_ins):
                    mask |= 1 << i
                kind = SET if not is_sequence else (PURE if gaps == 0 else SEQUENCE)
                old = found.get(mask)
                if old is None or _rank_kind(kind) > _rank_kind(old):
                    found[mask] = kind
            return
        assign(slot + 1, used, gaps + 1)
        for i in choices[slot]:
            if i not in used:
                assign(slot + 1, (*used, i), gaps)

    assign(0, (), 0)
    return found


def _rank_kind(kind: str) -> int:
    return {SET: 0, SEQUENCE: 1, PURE: 2}[kind]


def all_groups(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_joker_groups: bool = False,
) -> dict[int, str]:
    """Every valid group of the hand as {position mask: best kind it can be}."""
    groups: dict[int, str] = {}
    size = len(cards)

    def add(found: dict[int, str]) -> None:
        for mask, kind in found.items():
            old = groups.get(mask)
            if old is None or _rank_kind(kind) > _rank_kind(old):
                groups[mask] = kind

    for suit in range(4):
        # Ranks 1..14 stand for A-low..K then A-high; a window never wraps past the high ace.
        for start in range(0, 14):
            for length in range(3, min(size, 14 - start) + 1):
                represented = [suit * 13 + ((start + k) % 13) for k in range(length)]
                add(_realisations(cards, wild_rank, represented, limit, all_joker_groups, True))
    for rank in range(13):
        for count in (3, 4):
            for suits in combinations(range(4), count):
                represented = [s * 13 + rank for s in suits]
                add(_realisations(cards, wild_rank, represented, limit, all_joker_groups, False))
    return groups


def _step(state: tuple[int, bool], kind: str) -> tuple[int, bool]:
    sequences, pure = state
    if kind == SET:
        return state
    return (min(2, sequences + 1), pure or kind == PURE)


def brute_points(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_joker_groups: bool = False,
    cap: int | None = 80,
) -> tuple[str, int, int]:
    """(category letter A/B/C, raw points, capped points) of a hand, by RULES.md 2.8."""
    groups = all_groups(cards, wild_rank, limit, all_joker_groups)
    by_lowest: dict[int, list[tuple[int, str]]] = {}
    for mask, kind in groups.items():
        lowest = (mask & -mask).bit_length() - 1
        by_lowest.setdefault(lowest, []).append((mask, kind))
    values = [value(c, wild_rank) for c in cards]
    full = (1 << len(cards)) - 1

    @cache
    def least(left: int, state: tuple[int, bool]) -> float:
        if not left:
            return 0 if state == (2, True) else float("inf")
        lowest = (left & -left).bit_length() - 1
        best = values[lowest] + least(left & ~(1 << lowest), state)
        for mask, kind in by_lowest.get(lowest, ()):
            if mask & left == mask:
                best = min(best, least(left & ~mask, _step(state, kind)))
        return best

    total = sum(values)
    a_points = least(full, (0, False))
    if a_points != float("inf"):
        category, raw = "A", int(a_points)
    else:
        pure_values = [
            sum(values[i] for i in range(len(cards)) if mask >> i & 1)
            for mask, kind in groups.items()
            if kind == PURE
        ]
        if pure_values:
            category, raw = "B", total - max(pure_values)
        else:
            category, raw = "C", total
    capped = raw if cap is None else min(raw, cap)
    return category, raw, capped


def _cover_exists(by_lowest: dict[int, list[tuple[int, str]]], full: int) -> bool:
    @cache
    def cover(left: int, state: tuple[int, bool]) -> bool:
        if not left:
            return state == (2, True)
        lowest = (left & -left).bit_length() - 1
        return any(
            cover(left & ~mask, _step(state, kind))
            for mask, kind in by_lowest.get(lowest, ())
            if mask & left == mask
        )

    return cover(full, (0, False))


def _by_lowest(groups: dict[int, str], without: int = 0) -> dict[int, list[tuple[int, str]]]:
    by_lowest: dict[int, list[tuple[int, str]]] = {}
    for mask, kind in groups.items():
        if mask & without:
            continue
        lowest = (mask & -mask).bit_length() - 1
        by_lowest.setdefault(lowest, []).append((mask, kind))
    return by_lowest


def brute_valid(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_joker_groups: bool = False,
) -> bool:
    """Every card in a group, two sequences at least, one pure."""
    groups = all_groups(cards, wild_rank, limit, all_joker_groups)
    return _cover_exists(_by_lowest(groups), (1 << len(cards)) - 1)


def brute_show_discards(
    cards: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_joker_groups: bool = False,
) -> tuple[int, ...]:
    """Distinct cards whose put-down leaves a valid show, each position tried on its own.

    The groups of all 14 cards are listed once; putting a card down keeps those without it.
    """
    groups = all_groups(cards, wild_rank, limit, all_joker_groups)
    full = (1 << len(cards)) - 1
    found = set()
    for position, card in enumerate(cards):
        if card in found:
            continue
        bit = 1 << position
        if _cover_exists(_by_lowest(groups, without=bit), full & ~bit):
            found.add(card)
    return tuple(sorted(found))


def group_is_legal(
    kind: str,
    cards: tuple[int, ...],
    represented: tuple[int, ...],
    wild_rank: int | None,
    limit: int | None = None,
    all_joker_groups: bool = False,
) -> bool:
    """Is this laid group (each card with the card it stands as) legal by RULES.md 2.4?"""
    if len(cards) != len(represented) or len(cards) < 3:
        return False
    if any(not 0 <= r < 52 for r in represented) or len(set(represented)) != len(represented):
        return False
    stand_ins = 0
    for card, stands in zip(cards, represented, strict=True):
        if card != stands:
            if not is_joker(card, wild_rank):
                return False
            stand_ins += 1
    if stand_ins == len(cards) and not all_joker_groups:
        return False
    if kind == "set":
        return len(cards) <= 4 and len({r % 13 for r in represented}) == 1
    if len({r // 13 for r in represented}) != 1:
        return False
    if limit is not None and stand_ins > limit:
        return False
    if kind == "pure sequence" and stand_ins:
        return False
    ranks = [r % 13 for r in represented]
    for ace in (0, 13):
        positions = sorted(ace if rank == 0 else rank for rank in ranks)
        if positions == list(range(positions[0], positions[0] + len(positions))):
            return kind in ("sequence", "pure sequence")
    return False
