"""How a Declaration Rummy game ends up: the revealed hands and their counts, the winner (lowest
compared count, ties to the player furthest left of the first player: RULES.md 3.8), the
sentence that explains it, and the contract's :class:`~cardtable.games.contract.GameResult` for
a game and for a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtable.games.contract import GameResult
from cardtable.games.declaration_rummy.hands import hand_count
from cardtable.games.declaration_rummy.state import (
    DeclarationRummyState,
    GameOutcome,
)

State = DeclarationRummyState
COMPARING_REASONS: Final = ("declared", "declined", "exhaustion-cap", "turn-cap")
"""Endings decided by comparing counts."""


def make_outcome(
    state: State,
    reason: str,
    *,
    ender: int | None,
    declarer: int | None,
    winner: int | None,
) -> GameOutcome:
    """The outcome of the game ``state`` ends with ``reason``: every hand still in revealed
    and counted, the declarer's count reduced under Declare Bonus, and the winner (given, or
    by comparing counts)."""
    rules = state.rules
    dropped = state.dropped
    hands: tuple[tuple[int, ...] | None, ...]
    counts: list[int | None]
    if True in dropped:
        hands = tuple(None if out else hand for hand, out in zip(state.hands, dropped, strict=True))
        counts = [None if hand is None else hand_count(hand) for hand in hands]
    else:
        # Every hand is revealed (the usual case; many players deal hands too small to meld,
        # which hand_count adds up without the solver).
        hands = state.hands
        counts = list(map(hand_count, hands))
    compared = list(counts)
    if declarer is not None and rules.declare_bonus:
        count = counts[declarer]
        if count is not None:
            compared[declarer] = count - 1
    tie_break: str | None = None
    if reason in COMPARING_REASONS:
        winner, tie_break = lowest_count_winner(state, compared)
    summary = _summary(state, reason, winner, ender, declarer, compared)
    if tie_break:
        summary = f"{summary} {tie_break}"
    return GameOutcome(
        game=state.game_number,
        reason=reason,
        winner=winner,
        ender=ender,
        declarer=declarer,
        hands=hands,
        counts=tuple(counts),
        compared=tuple(compared),
        tie_break=tie_break,
        summary=summary,
        single_meld=rules.going_out_single_meld,
    )


def lowest_count_winner(state: State, compared: Sequence[int | None]) -> tuple[int, str | None]:
    """The lowest compared count wins; among tied players the one furthest left of the first
    player (the highest clockwise offset) wins (RULES.md 3.8)."""
    low = min([count for count in compared if count is not None])
    if compared.count(low) == 1:
        return compared.index(low), None
    tied = [seat for seat, count in enumerate(compared) if count == low]
    # Ties are common with small hands (many players): each offset is worked out once.
    n = len(state.order)
    positions = state.positions
    first = positions[state.first_player]
    offset = {seat: (positions[seat] - first) % n for seat in tied}
    by_offset = sorted(tied, key=offset.__getitem__)
    best = by_offset[-1]
    offsets = ", ".join(f"seat {seat} at {offset[seat]}" for seat in by_offset)
    return best, (
        f"Seats {', '.join(str(s) for s in tied)} tie at {low}; counting clockwise "
        f"from the first player (seat {state.first_player}) they sit at offsets {offsets}, so "
        f"seat {best}, furthest to the left, takes the tie."
    )


def _summary(
    state: State,
    reason: str,
    winner: int | None,
    ender: int | None,
    declarer: int | None,
    compared: Sequence[int | None],
) -> str:
    def count_of(seat: int | None) -> str:
        return "?" if seat is None else str(compared[seat])

    if reason == "tie":
        return "All remaining players agreed to a tie game: nobody wins."
    if reason == "last-player":
        return f"Every other player dropped: seat {winner} wins."
    if reason == "went-out":
        return f"Seat {winner} went out and wins."
    if reason == "four-sevens":
        return f"Seat {winner} laid down the four sevens and wins."
    if reason == "declared":
        bonus = " (less 1, Declare Bonus)" if state.rules.declare_bonus else ""
        return (
            f"Seat {declarer} declared with {count_of(declarer)}{bonus}; seat {winner} wins "
            f"with the lowest count, {count_of(winner)}."
        )
    if reason == "declined":
        return (
            f"The stockpile was exhausted and seat {ender} declined the discard pile; seat "
            f"{winner} wins with the lowest count, {count_of(winner)}."
        )
    rules = state.rules
    if reason == "exhaustion-cap":
        limit = f"{rules.exhaustion_circuits} full rounds of turns after the stockpile ran out"
    else:
        limit = f"its limit of {rules.turn_cap} turns"
    return (
        f"The game reached {limit} and ended on the counts, as if the discard pile were "
        f"declined; seat {winner} wins with the lowest count, {count_of(winner)}."
    )


def game_result(outcome: GameOutcome, dropped: Sequence[bool]) -> GameResult:
    n = len(outcome.compared)
    winner = outcome.winner
    if winner is None:
        remaining = [seat for seat in range(n) if not dropped[seat]]
        share = 1.0 / len(remaining)
        utilities = tuple(share if seat in remaining else 0.0 for seat in range(n))
        winners: tuple[int, ...] = ()
    else:
        won = [0.0] * n
        won[winner] = 1.0
        utilities = tuple(won)
        winners = (winner,)
    return GameResult(
        winners=winners,
        scores=outcome.compared,
        utilities=utilities,
        reason=outcome.reason,
        summary=outcome.summary,
    )


def match_result(state: State) -> GameResult:
    wins = state.match_wins
    rules = state.rules
    best = max(wins)
    leaders = tuple(seat for seat, w in enumerate(wins) if w == best)
    if best >= rules.match_wins:
        reason = "match"
        summary = f"Seat {leaders[0]} wins the match with {best} game wins."
    else:
        reason = "match-cap"
        summary = (
            f"The match reached its cap of {rules.match_game_cap} games; "
            f"{'seat' if len(leaders) == 1 else 'seats'} "
            f"{', '.join(str(s) for s in leaders)} led with {best} game wins."
        )
    share = 1.0 / len(leaders)
    return GameResult(
        winners=leaders,
        scores=tuple(wins),
        utilities=tuple(share if seat in leaders else 0.0 for seat in range(len(wins))),
        reason=reason,
        summary=summary,
    )
