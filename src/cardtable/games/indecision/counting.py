"""Counting a finished Indecision hand (RULES.md 1.5): every hand scored from the stopper (or,
when nobody stopped, from the seat to draw next) clockwise, automatically or, in manual
declaration mode, by each seat announcing its score, confirming or correcting it, with claims
over the true score challenged; then the hand's summary, the totals and the next hand or the
end of the game. The engine calls these when a hand ends; each returns the next state.
"""

from __future__ import annotations

from cardtable.games.indecision.state import (
    Counting,
    HandSummary,
    Phase,
    SeatResult,
    State,
    Table,
    event,
    replace_counting,
    replace_state,
    replace_table,
)


def begin_counting(
    state: State, counting: Counting, stopper_value: tuple[int, bool] | None = None
) -> State:
    """Start counting a finished hand: automatically, or by asking the first seat to declare.
    ``stopper_value`` is the stopper's ``(score, all_cards_used)`` when the caller has it (the
    stop checked it), so that hand is not scored twice."""
    if not state.table.rules.manual_declaration:
        return _count_automatically(state, counting, stopper_value)
    if counting.stop_problems:
        stopper = counting.stopper
        score, used = state.table.scorer.value(state.hands[stopper])
        forfeit = SeatResult(
            seat=stopper,
            cards=state.hands[stopper],
            score=score,
            all_cards_used=used,
            forfeited=True,
            total=state.table.totals[stopper],
        )
        counting = replace_counting(counting, results=(forfeit,))
    return _ask_next_declaration(state, state.table, counting)


def _count_automatically(
    state: State, counting: Counting, stopper_value: tuple[int, bool] | None
) -> State:
    table = state.table
    rules = table.rules
    value = table.scorer.value
    target = rules.target_score
    first_to_target = rules.win_check == "counting-order"
    forfeiting = counting.stopper if counting.stop_problems else -1
    totals = list(table.totals)
    results: list[SeatResult] = []
    winners: tuple[int, ...] = ()
    hands = state.hands
    stopper, known = -1, (0, False)
    if stopper_value is not None:
        stopper, known = counting.stopper, stopper_value
    for seat in counting.order:
        cards = hands[seat]
        score, used = known if seat == stopper else value(cards)
        if winners:
            results.append(
                SeatResult(
                    seat=seat,
                    cards=cards,
                    score=score,
                    all_cards_used=used,
                    total=totals[seat],
                    counted=False,
                )
            )
            continue
        forfeited = seat == forfeiting
        points = 0 if forfeited else score
        total = totals[seat] + points
        totals[seat] = total
        results.append(
            SeatResult(
                seat=seat,
                cards=cards,
                score=score,
                all_cards_used=used,
                forfeited=forfeited,
                points=points,
                total=total,
            )
        )
        if first_to_target and total >= target:
            winners = (seat,)
    counted = replace_counting(counting, results=tuple(results))
    return _finish_hand(state, counted, tuple(totals), winners)


def declare(state: State, seat: int, points: int) -> State:
    """``seat`` announces ``points`` (manual declaration); it then confirms or corrects them."""
    counting = state.counting
    assert counting is not None
    return replace_state(
        state,
        phase=Phase.CONFIRM,
        to_act=seat,
        drawn=-1,
        drawn_from_pile=False,
        events=(*state.events, event("declare", seat)),
        counting=replace_counting(counting, pending=points),
    )


def record_declaration(state: State, seat: int, declared: int, announced: int | None) -> State:
    """Record ``seat``'s declared number (``announced`` is the corrected one, if any): scored as
    declared at or under the true score, else challenged; then the next seat or the hand's end."""
    table = state.table
    rules = table.rules
    counting = state.counting
    assert counting is not None
    cards = state.hands[seat]
    score, used = table.scorer.value(cards)
    total = table.totals[seat]
    if declared <= score:
        points, penalty = declared, 0
        total += declared
    else:
        points, penalty = 0, min(total, 2 * (declared - score))
        total -= penalty
    result = SeatResult(
        seat=seat,
        cards=cards,
        score=score,
        all_cards_used=used,
        declared=declared,
        announced=announced,
        penalty=penalty,
        points=points,
        total=total,
    )
    totals = _with_total(table.totals, seat, total)
    results = (*counting.results, result)
    events = (*state.events, event("confirm" if announced is None else "correct", seat))
    recorded = replace_counting(counting, results=results, pending=-1)
    state = replace_state(
        state, to_act=-1, drawn=-1, drawn_from_pile=False, events=events, counting=recorded
    )
    if rules.win_check == "counting-order" and total >= rules.target_score:
        uncounted = []
        for other in counting.order[len(results) :]:
            other_score, other_used = table.scorer.value(state.hands[other])
            uncounted.append(
                SeatResult(
                    other,
                    state.hands[other],
                    other_score,
                    other_used,
                    total=totals[other],
                    counted=False,
                )
            )
        final = replace_counting(recorded, results=results + tuple(uncounted))
        return _finish_hand(state, final, totals, (seat,))
    return _ask_next_declaration(state, replace_table(table, totals=totals), recorded)


def _ask_next_declaration(state: State, table: Table, counting: Counting) -> State:
    if len(counting.results) == len(counting.order):
        return _finish_hand(state, counting, table.totals, ())
    return replace_state(
        state,
        table=table,
        phase=Phase.DECLARE,
        to_act=counting.order[len(counting.results)],
        drawn=-1,
        drawn_from_pile=False,
        counting=counting,
    )


def _finish_hand(
    state: State,
    counting: Counting,
    totals: tuple[int, ...],
    winners: tuple[int, ...],
) -> State:
    table = state.table
    rules = table.rules
    if not winners and rules.win_check == "end-of-round":
        best = max(totals)
        if best >= rules.target_score:
            winners = tuple(seat for seat, total in enumerate(totals) if total == best)
    summary = HandSummary(
        hand_number=table.hand_number,
        dealer=table.dealer,
        starter=table.starter,
        ending=counting.ending,
        stopper=None if counting.stopper < 0 else counting.stopper,
        stop_problems=counting.stop_problems,
        results=counting.results,
        winners=winners,
        rules=rules,
    )
    return _after_hand(state, summary, totals, counting)


def abandon_hand(state: State) -> State:
    """End the hand at the turn cap with no score (computer-only play)."""
    table = state.table
    summary = HandSummary(
        hand_number=table.hand_number,
        dealer=table.dealer,
        starter=table.starter,
        ending="turn-cap",
        stopper=None,
        stop_problems=(),
        results=(),
        winners=(),
        rules=table.rules,
    )
    return _after_hand(state, summary, table.totals, None)


def _after_hand(
    state: State,
    summary: HandSummary,
    totals: tuple[int, ...],
    counting: Counting | None,
) -> State:
    table = state.table
    winners = summary.winners
    if winners:
        phase, reason, dealer = Phase.GAME_OVER, "target", table.dealer
    elif table.hand_number >= table.rules.hand_cap:
        phase, reason, dealer = Phase.GAME_OVER, "cap", table.dealer
        if table.rules.people_seated:
            # With people at the table the points they earned decide the game.
            best = max(totals)
            winners = tuple(seat for seat, total in enumerate(totals) if total == best)
            reason = "hand-limit"
    else:
        phase, reason, dealer = Phase.DEAL, "", table.starter
    return replace_state(
        state,
        table=replace_table(
            table,
            dealer=dealer,
            totals=totals,
            last_hand=summary,
            winners=winners,
            end_reason=reason,
        ),
        phase=phase,
        to_act=-1,
        drawn=-1,
        drawn_from_pile=False,
        counting=counting,
    )


def _with_total(totals: tuple[int, ...], seat: int, total: int) -> tuple[int, ...]:
    return (*totals[:seat], total, *totals[seat + 1 :])
