"""The Indecision rules engine (RULES.md section 1) on the engine contract.

One hand: the starter (clockwise of the dealer) holds six cards and makes the opening discard,
which starts the face-up pile and counts as the starter's first turn; then each seat in turn
draws from the deck or the pile and either discards or stops, putting a spare card face down.
A stop ends the hand: every hand is counted from the stopper clockwise (1.5); the stopper scores
0 unless every player has had a turn and all five kept cards are used (1.4). The first total to
reach the target in counting order wins (or, as an option, the highest after the whole round).
The starter deals the next hand.

Chance steps (:meth:`IndecisionEngine.chance_step`): the cut for the first dealer (ties among
the lowest re-cut), each hand's shuffle and deal, and the reshuffle of the pile under its top
card when a seat draws from an empty deck. (A one-card pile with an empty deck, where only
``draw pile`` is legal, cannot arise with one 52-card deck: the pile then holds 30 cards or
more. The rule is kept as a safeguard.) With ``deck_exhaustion="score-hand"`` the hand ends at
the end of the turn that leaves the deck empty: nobody stopped, so every hand is counted, from
the seat that would have drawn next. Safeguards: after ``hand_turn_cap`` turns (the opening
discard is the first) a hand ends, and after ``hand_cap`` hands the game. In computer-only play
(RULES.md 1.3: the caps are for simulations) the hand is abandoned with no score and the game
with no winner. When people are seated (``rules.people_seated``, set by the table), a cap never
wipes points: the hand ends as deck exhaustion's ``score-hand`` does, every hand counted from
the seat that would have drawn next (ending ``turn-limit``), and at the hand cap the highest
total wins (reason ``hand-limit``).

Manual declaration mode: after a hand ends, each seat in counting order plays ``declare N``,
then ``confirm`` (records N) or ``correct M`` (records M instead; a correction is final, so the
counting always ends). A recorded number at or under the true score is scored as declared; one
over it is challenged automatically: the hand scores 0 and the total loses twice the excess,
never going below 0. The stopper of an invalid stop forfeits and does not declare.

A game's result gives utility 1 to the winner and 0 to the others; a shared win (possible only
with ``win_check="end-of-round"``) splits the 1 evenly; a game abandoned at the cap gives 0 to
all.

>>> from cardtable.driver import play
>>> from cardtable.bots import RandomBot
>>> game = play(ENGINE, Rules(target_score=15), 7, [RandomBot(), RandomBot()])
>>> ENGINE.result(game.state).reason
'target'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from cardtable.cards import format_card, rank_of
from cardtable.errors import IllegalActionError, RuleKey, RulesError
from cardtable.games.contract import CHANCE, TERMINAL, GameEngine, GameResult, chance_rng
from cardtable.games.indecision.actions import (
    CONFIRM,
    DISCARDS,
    DRAW_DECK,
    DRAW_PILE,
    STOPS,
    Confirm,
    Correct,
    Declare,
    Discard,
    DrawDeck,
    DrawPile,
    IndecisionAction,
    Stop,
    parse_action,
)
from cardtable.games.indecision.rules import PRESETS, Rules
from cardtable.games.indecision.scoring import HandScore, hand_scorer, score_hand
from cardtable.games.indecision.state import (
    Counting,
    HandSummary,
    Phase,
    SeatResult,
    State,
    Table,
    event,
)
from cardtable.games.indecision.view import IndecisionView

HAND_SIZE: Final = 5
TURN_PROBLEM: Final = "not every player has had a turn"
STRICT_TURN_PROBLEM: Final = "not every player has completed a turn before this one"
UNUSED_PROBLEM: Final = "not all five kept cards are used by counted melds"

_DISCARD_EVENTS: Final = tuple(tuple(event("discard", s, c) for c in range(52)) for s in range(4))
_TAKE_EVENTS: Final = tuple(tuple(event("take-discard", s, c) for c in range(52)) for s in range(4))
_BOTH_DRAWS: Final = (DRAW_DECK, DRAW_PILE)
_PILE_ONLY: Final = (DRAW_PILE,)
_PHASE_DOING: Final = {
    Phase.OPENING: "make the opening discard",
    Phase.DRAW: "draw",
    Phase.DISCARD: "discard or stop",
    Phase.DECLARE: "declare a score",
    Phase.CONFIRM: "confirm or correct a declaration",
}


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _with_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _new_table(
    table: Table,
    *,
    dealer: int | None = None,
    hand_number: int | None = None,
    totals: tuple[int, ...] | None = None,
    last_hand: HandSummary | None = None,
    winners: tuple[int, ...] = (),
    end_reason: str = "",
) -> Table:
    """A copy of ``table`` with the per-hand fields changed (cheaper than dataclasses.replace;
    positional, in the field order of :class:`Table`, because this runs once per hand)."""
    return Table(
        table.rules,
        table.seed,
        table.dealer if dealer is None else dealer,
        table.hand_number if hand_number is None else hand_number,
        table.totals if totals is None else totals,
        table.cut_rounds,
        table.cutters,
        table.last_hand if last_hand is None else last_hand,
        winners,
        end_reason,
        table.scorer,
    )


class IndecisionEngine(GameEngine[State, IndecisionAction, Rules, IndecisionView]):
    """Indecision for 2-4 players (see the module docstring)."""

    name: ClassVar[str] = "indecision"
    title: ClassVar[str] = "Indecision"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_type: ClassVar[type[Rules]] = Rules

    def __init__(self) -> None:
        self._declarations: dict[int, tuple[tuple[Declare, ...], tuple[Correct, ...]]] = {}

    # -- setup ---------------------------------------------------------------------------------

    def presets(self) -> Mapping[str, Rules]:
        """The named rule sets of :data:`cardtable.games.indecision.rules.PRESETS`."""
        return PRESETS

    def new_game(self, rules: Rules, seed: int) -> State:
        """A new game; its first step is the chance step of the cut for the first dealer."""
        if not isinstance(rules, Rules):
            raise RulesError(f"Indecision needs Indecision Rules, not {type(rules).__name__}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RulesError(f"a game's seed is a whole number, not {seed!r}")
        players = rules.players
        table = Table(
            rules=rules,
            seed=seed,
            dealer=-1,
            hand_number=0,
            totals=(0,) * players,
            cut_rounds=(),
            cutters=tuple(range(players)),
            last_hand=None,
            winners=(),
            end_reason="",
            scorer=hand_scorer(rules),
        )
        return State(
            table=table,
            phase=Phase.CUT,
            chance_steps=0,
            hands=((),) * players,
            deck=(),
            pile=(),
            to_act=-1,
            turns=0,
            had_turn=0,
            drawn=-1,
            drawn_from_pile=False,
            events=(),
            counting=None,
        )

    def rules_of(self, state: State) -> Rules:
        """The rules ``state`` is played under."""
        return state.table.rules

    # -- whose turn and what may be done -------------------------------------------------------

    def current_player(self, state: State) -> int:
        """The seat to act, ``CHANCE`` (cut, deal, reshuffle due) or ``TERMINAL``."""
        phase = state.phase
        if phase is Phase.GAME_OVER:
            return TERMINAL
        if phase is Phase.CUT or phase is Phase.DEAL or phase is Phase.RESHUFFLE:
            return CHANCE
        return state.to_act

    def legal_actions(self, state: State, seat: int) -> Sequence[IndecisionAction]:
        """What ``seat`` may do now; empty unless it is that seat's turn."""
        if seat != state.to_act:
            return ()
        phase = state.phase
        if phase is Phase.DRAW:
            return _BOTH_DRAWS if state.deck or len(state.pile) > 1 else _PILE_ONLY
        if phase is Phase.DISCARD or phase is Phase.OPENING:
            hand = state.hands[seat]
            discards = tuple(map(DISCARDS.__getitem__, hand))
            if state.drawn_from_pile and not state.table.rules.may_discard_taken_card:
                taken = state.drawn
                discards = tuple(d for d in discards if d.card != taken)
            return discards + tuple(map(STOPS.__getitem__, hand))
        if phase is Phase.DECLARE:
            return self._declaration_actions(state.table)[0]
        if phase is Phase.CONFIRM:
            return (CONFIRM, *self._declaration_actions(state.table)[1])
        return ()

    def declaration_limit(self, rules: Rules) -> int:
        """The largest number a seat may declare: no hand can score more under ``rules``."""
        return hand_scorer(rules).max_score()

    def _declaration_actions(self, table: Table) -> tuple[tuple[Declare, ...], tuple[Correct, ...]]:
        limit = table.scorer.max_score()
        actions = self._declarations.get(limit)
        if actions is None:
            numbers = range(limit + 1)
            actions = (tuple(map(Declare, numbers)), tuple(map(Correct, numbers)))
            self._declarations[limit] = actions
        return actions

    # -- applying actions ----------------------------------------------------------------------

    def parse_action(self, text: str) -> IndecisionAction:
        """Read an action's notation (see :mod:`cardtable.games.indecision.actions`)."""
        return parse_action(text)

    def why_illegal(self, state: State, action: object, seat: int) -> IllegalActionError | None:
        """The error naming the rule that forbids ``action`` by ``seat`` now, else ``None``."""
        if not isinstance(
            action, Discard | Stop | DrawDeck | DrawPile | Declare | Correct | Confirm
        ):
            return IllegalActionError(
                f"{action!r} is not an Indecision action", rule=RuleKey.UNKNOWN_ACTION
            )
        players = state.table.rules.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            return IllegalActionError(
                f"seat {seat!r} does not exist: this game has seats 0 to {players - 1}",
                rule=RuleKey.NO_SUCH_SEAT,
            )
        phase = state.phase
        if phase is Phase.GAME_OVER:
            return IllegalActionError("the game is over", rule=RuleKey.GAME_OVER)
        if self.current_player(state) == CHANCE:
            return IllegalActionError(
                f"a chance step ({phase.value}) is due before anyone acts",
                rule=RuleKey.CHANCE_PENDING,
            )
        if seat != state.to_act:
            return IllegalActionError(
                f"it is seat {state.to_act}'s turn to {_PHASE_DOING[phase]}, not seat {seat}'s",
                rule=RuleKey.NOT_YOUR_TURN,
            )
        if phase is Phase.DRAW:
            return self._check_draw_phase(state, action)
        if phase is Phase.OPENING or phase is Phase.DISCARD:
            return self._check_hand_phase(state, action, seat)
        return self._check_declaration_phase(state, action)

    def _check_draw_phase(
        self, state: State, action: IndecisionAction
    ) -> IllegalActionError | None:
        if isinstance(action, DrawDeck):
            if not state.deck and len(state.pile) < 2:
                return IllegalActionError(
                    "the deck is empty and the pile has one card: draw the pile card",
                    rule=RuleKey.MUST_DRAW_PILE,
                )
        elif not isinstance(action, DrawPile):
            return IllegalActionError(
                f"draw first, from the deck or the pile, before you can {action}",
                rule=RuleKey.DRAW_FIRST,
            )
        return None

    def _check_hand_phase(
        self, state: State, action: IndecisionAction, seat: int
    ) -> IllegalActionError | None:
        if isinstance(action, DrawDeck | DrawPile):
            if state.phase is Phase.OPENING:
                return IllegalActionError(
                    "the opening turn has no draw: the starter discards one of six cards "
                    "(or stops)",
                    rule=RuleKey.OPENING_DISCARD,
                )
            return IllegalActionError(
                "you have already drawn this turn: discard a card or stop",
                rule=RuleKey.ALREADY_DREW,
            )
        if not isinstance(action, Discard | Stop):
            return IllegalActionError(
                f"{action} is for counting a stopped hand; now {_PHASE_DOING[state.phase]}",
                rule=RuleKey.NOT_COUNTING,
            )
        if action.card not in state.hands[seat]:
            return IllegalActionError(
                f"{format_card(action.card)} is not in your hand", rule=RuleKey.NOT_IN_HAND
            )
        if (
            isinstance(action, Discard)
            and state.drawn_from_pile
            and action.card == state.drawn
            and not state.table.rules.may_discard_taken_card
        ):
            return IllegalActionError(
                f"{format_card(action.card)} was just taken from the pile and may not be "
                "discarded straight back",
                rule=RuleKey.CARD_TAKEN_FROM_PILE,
            )
        return None

    def _check_declaration_phase(
        self, state: State, action: IndecisionAction
    ) -> IllegalActionError | None:
        phase = state.phase
        if phase is Phase.DECLARE and not isinstance(action, Declare):
            return IllegalActionError(
                f"the hand is being counted: announce your score with 'declare N', not {action}",
                rule=RuleKey.DECLARE_FIRST,
            )
        if phase is Phase.CONFIRM and not isinstance(action, Confirm | Correct):
            return IllegalActionError(
                f"'confirm' your announcement or 'correct N' it, not {action}",
                rule=RuleKey.CONFIRM_OR_CORRECT,
            )
        if isinstance(action, Declare | Correct):
            limit = state.table.scorer.max_score()
            if action.points > limit:
                return IllegalActionError(
                    f"{action.points} is more than any hand can score (at most {limit})",
                    rule=RuleKey.DECLARATION_RANGE,
                )
        return None

    def apply_unchecked(self, state: State, action: IndecisionAction, seat: int) -> State:
        """Fast apply of an action taken from ``legal_actions(state, seat)``."""
        kind = type(action)
        if kind is Discard:
            return self._discard(state, seat, action.card)  # type: ignore[union-attr]
        if kind is DrawDeck:
            return self._draw_deck(state, seat)
        if kind is DrawPile:
            return self._draw_pile(state, seat)
        if kind is Stop:
            return self._stop(state, seat, action.card)  # type: ignore[union-attr]
        if kind is Declare:
            return self._declare(state, seat, action.points)  # type: ignore[union-attr]
        if kind is Confirm:
            counting = state.counting
            assert counting is not None
            return self._record_declaration(state, seat, counting.pending, None)
        if kind is Correct:
            counting = state.counting
            assert counting is not None
            return self._record_declaration(
                state,
                seat,
                action.points,  # type: ignore[union-attr]
                counting.pending,
            )
        raise IllegalActionError(
            f"{action!r} is not an Indecision action", rule=RuleKey.UNKNOWN_ACTION
        )

    # The next three are the hot path of simulations: positional State(...) calls keep them lean.
    # Field order: table, phase, chance_steps, hands, deck, pile, to_act, turns, had_turn,
    # drawn, drawn_from_pile, events, counting.

    def _discard(self, state: State, seat: int, card: int) -> State:
        table = state.table
        rules = table.rules
        turns = state.turns + 1
        following = seat + 1
        if following == rules.players:
            following = 0
        after = State(
            table,
            Phase.DRAW,
            state.chance_steps,
            _with_hand(state.hands, seat, _without(state.hands[seat], card)),
            state.deck,
            (*state.pile, card),
            following,
            turns,
            state.had_turn | 1 << seat,
            -1,
            False,
            (*state.events, _DISCARD_EVENTS[seat][card]),
            None,
        )
        if turns >= rules.hand_turn_cap:
            if not rules.people_seated:
                return self._abandon_hand(after)
            order = tuple((following + i) % rules.players for i in range(rules.players))
            return self._begin_counting(after, Counting("turn-limit", -1, -1, (), order))
        if not state.deck and rules.deck_exhaustion == "score-hand":
            order = tuple((following + i) % rules.players for i in range(rules.players))
            return self._begin_counting(after, Counting("deck-exhausted", -1, -1, (), order))
        return after

    def _draw_deck(self, state: State, seat: int) -> State:
        deck = state.deck
        if not deck:
            return State(
                state.table,
                Phase.RESHUFFLE,
                state.chance_steps,
                state.hands,
                deck,
                state.pile,
                seat,
                state.turns,
                state.had_turn,
                -1,
                False,
                state.events,
                None,
            )
        card = deck[-1]
        return State(
            state.table,
            Phase.DISCARD,
            state.chance_steps,
            _with_hand(state.hands, seat, (*state.hands[seat], card)),
            deck[:-1],
            state.pile,
            seat,
            state.turns,
            state.had_turn,
            card,
            False,
            (*state.events, event("draw-stock", seat)),
            None,
        )

    def _draw_pile(self, state: State, seat: int) -> State:
        pile = state.pile
        card = pile[-1]
        return State(
            state.table,
            Phase.DISCARD,
            state.chance_steps,
            _with_hand(state.hands, seat, (*state.hands[seat], card)),
            state.deck,
            pile[:-1],
            seat,
            state.turns,
            state.had_turn,
            card,
            True,
            (*state.events, _TAKE_EVENTS[seat][card]),
            None,
        )

    def _stop(self, state: State, seat: int, card: int) -> State:
        table = state.table
        rules = table.rules
        players = rules.players
        kept = _without(state.hands[seat], card)
        everyone = (1 << players) - 1
        problems: tuple[str, ...] = ()
        if rules.strict_stop_turns:
            if state.had_turn != everyone:
                problems = (STRICT_TURN_PROBLEM,)
        elif state.had_turn | 1 << seat != everyone:
            problems = (TURN_PROBLEM,)
        if not table.scorer.value(kept)[1]:
            problems = (*problems, UNUSED_PROBLEM)
        order = tuple((seat + i) % players for i in range(players))
        stopped = State(
            table,
            state.phase,
            state.chance_steps,
            _with_hand(state.hands, seat, kept),
            state.deck,
            state.pile,
            -1,
            state.turns + 1,
            state.had_turn | 1 << seat,
            -1,
            False,
            (*state.events, event("stop", seat)),
            None,
        )
        return self._begin_counting(stopped, Counting("stop", seat, card, problems, order))

    # -- counting a hand -----------------------------------------------------------------------

    def _begin_counting(self, state: State, counting: Counting) -> State:
        if not state.table.rules.manual_declaration:
            return self._count_automatically(state, counting)
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
            counting = Counting(
                counting.ending,
                stopper,
                counting.stop_card,
                counting.stop_problems,
                counting.order,
                (forfeit,),
            )
        return self._ask_next_declaration(state, state.table, counting)

    def _count_automatically(self, state: State, counting: Counting) -> State:
        table = state.table
        rules = table.rules
        value = table.scorer.value
        target = rules.target_score
        first_to_target = rules.win_check == "counting-order"
        forfeiting = counting.stopper if counting.stop_problems else -1
        totals = list(table.totals)
        results: list[SeatResult] = []
        winners: tuple[int, ...] = ()
        for seat in counting.order:
            cards = state.hands[seat]
            score, used = value(cards)
            # Positional SeatResult fields: seat, cards, score, all_cards_used, forfeited,
            # declared, announced, penalty, points, total, counted.
            if winners:
                results.append(
                    SeatResult(
                        seat, cards, score, used, False, None, None, 0, 0, totals[seat], False
                    )
                )
                continue
            forfeited = seat == forfeiting
            points = 0 if forfeited else score
            totals[seat] += points
            results.append(
                SeatResult(
                    seat, cards, score, used, forfeited, None, None, 0, points, totals[seat], True
                )
            )
            if first_to_target and totals[seat] >= target:
                winners = (seat,)
        counted = Counting(
            counting.ending,
            counting.stopper,
            counting.stop_card,
            counting.stop_problems,
            counting.order,
            tuple(results),
        )
        return self._finish_hand(state, counted, tuple(totals), winners)

    def _declare(self, state: State, seat: int, points: int) -> State:
        counting = state.counting
        assert counting is not None
        announced = Counting(
            counting.ending,
            counting.stopper,
            counting.stop_card,
            counting.stop_problems,
            counting.order,
            counting.results,
            points,
        )
        return State(
            state.table,
            Phase.CONFIRM,
            state.chance_steps,
            state.hands,
            state.deck,
            state.pile,
            seat,
            state.turns,
            state.had_turn,
            -1,
            False,
            (*state.events, event("declare", seat)),
            announced,
        )

    def _record_declaration(
        self, state: State, seat: int, declared: int, announced: int | None
    ) -> State:
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
            seat, cards, score, used, False, declared, announced, penalty, points, total
        )
        totals = _with_total(table.totals, seat, total)
        results = (*counting.results, result)
        events = (*state.events, event("confirm" if announced is None else "correct", seat))
        recorded = Counting(
            counting.ending,
            counting.stopper,
            counting.stop_card,
            counting.stop_problems,
            counting.order,
            results,
        )
        state = State(
            table,
            state.phase,
            state.chance_steps,
            state.hands,
            state.deck,
            state.pile,
            -1,
            state.turns,
            state.had_turn,
            -1,
            False,
            events,
            recorded,
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
            final = Counting(
                counting.ending,
                counting.stopper,
                counting.stop_card,
                counting.stop_problems,
                counting.order,
                results + tuple(uncounted),
            )
            return self._finish_hand(state, final, totals, (seat,))
        return self._ask_next_declaration(state, _new_table(table, totals=totals), recorded)

    def _ask_next_declaration(self, state: State, table: Table, counting: Counting) -> State:
        if len(counting.results) == len(counting.order):
            return self._finish_hand(state, counting, table.totals, ())
        return State(
            table,
            Phase.DECLARE,
            state.chance_steps,
            state.hands,
            state.deck,
            state.pile,
            counting.order[len(counting.results)],
            state.turns,
            state.had_turn,
            -1,
            False,
            state.events,
            counting,
        )

    def _finish_hand(
        self,
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
            table.hand_number,
            table.dealer,
            table.starter,
            counting.ending,
            None if counting.stopper < 0 else counting.stopper,
            counting.stop_problems,
            counting.results,
            winners,
            rules,
        )
        return self._after_hand(state, summary, totals, counting)

    def _abandon_hand(self, state: State) -> State:
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
        return self._after_hand(state, summary, table.totals, None)

    def _after_hand(
        self,
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
        return State(
            _new_table(
                table,
                dealer=dealer,
                totals=totals,
                last_hand=summary,
                winners=winners,
                end_reason=reason,
            ),
            phase,
            state.chance_steps,
            state.hands,
            state.deck,
            state.pile,
            -1,
            state.turns,
            state.had_turn,
            -1,
            False,
            state.events,
            counting,
        )

    # -- chance --------------------------------------------------------------------------------

    def chance_step(self, state: State) -> State:
        """Perform the due cut, deal or reshuffle, drawing from ``chance_rng(seed, step)``."""
        phase = state.phase
        if phase is Phase.DEAL:
            return self._deal(state)
        if phase is Phase.RESHUFFLE:
            return self._reshuffle(state)
        if phase is Phase.CUT:
            return self._cut(state)
        raise IllegalActionError(
            f"no chance step is due (phase {phase.value})", rule=RuleKey.NO_CHANCE_STEP
        )

    def _cut(self, state: State) -> State:
        table = state.table
        rng = chance_rng(table.seed, state.chance_steps)
        cutters = table.cutters
        cut = tuple(zip(cutters, rng.sample(range(52), len(cutters)), strict=True))
        lowest = min(rank_of(card) for _, card in cut)
        tied = tuple(seat for seat, card in cut if rank_of(card) == lowest)
        dealer = tied[0] if len(tied) == 1 else -1
        new_table = Table(
            rules=table.rules,
            seed=table.seed,
            dealer=dealer,
            hand_number=0,
            totals=table.totals,
            cut_rounds=(*table.cut_rounds, cut),
            cutters=() if dealer >= 0 else tied,
            last_hand=None,
            winners=(),
            end_reason="",
            scorer=table.scorer,
        )
        return State(
            new_table,
            Phase.DEAL if dealer >= 0 else Phase.CUT,
            state.chance_steps + 1,
            state.hands,
            (),
            (),
            -1,
            0,
            0,
            -1,
            False,
            (),
            None,
        )

    def _deal(self, state: State) -> State:
        table = state.table
        players = table.rules.players
        deck = list(range(52))
        chance_rng(table.seed, state.chance_steps).shuffle(deck)
        # The deck's top card is its last; dealing one at a time clockwise from the starter
        # gives the seat at offset i the cards popped at turns i, i + players, ... so a
        # reversed slice with a stride deals them all at once.
        from_top = deck[::-1]
        starter = table.starter
        dealt = 5 * players
        hands: list[tuple[int, ...]] = [()] * players
        for offset in range(players):
            hands[(starter + offset) % players] = tuple(from_top[offset:dealt:players])
        hands[starter] += (from_top[dealt],)
        return State(
            _new_table(table, hand_number=table.hand_number + 1),
            Phase.OPENING,
            state.chance_steps + 1,
            tuple(hands),
            tuple(deck[: 52 - dealt - 1]),
            (),
            starter,
            0,
            0,
            -1,
            False,
            (event("deal", table.dealer),),
            None,
        )

    def _reshuffle(self, state: State) -> State:
        pile = state.pile
        deck = list(pile[:-1])
        chance_rng(state.table.seed, state.chance_steps).shuffle(deck)
        seat = state.to_act
        card = deck.pop()
        return State(
            state.table,
            Phase.DISCARD,
            state.chance_steps + 1,
            _with_hand(state.hands, seat, (*state.hands[seat], card)),
            tuple(deck),
            pile[-1:],
            seat,
            state.turns,
            state.had_turn,
            card,
            False,
            (*state.events, event("reshuffle", seat), event("draw-stock", seat)),
            None,
        )

    # -- views, results, determinization -------------------------------------------------------

    def view(self, state: State, seat: int) -> IndecisionView:
        """What ``seat`` may see (see :mod:`cardtable.games.indecision.view`)."""
        table = state.table
        players = table.rules.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesError(
                f"seat {seat!r} does not exist: this game has seats 0 to {players - 1}"
            )
        counting = state.counting
        to_act = self.current_player(state)
        drawn: int | None = None
        drawn_from: str | None = None
        if state.drawn >= 0:
            drawn_from = "pile" if state.drawn_from_pile else "deck"
            if state.drawn_from_pile or state.to_act == seat:
                drawn = state.drawn
        stopper = None if counting is None or counting.stopper < 0 else counting.stopper
        return IndecisionView(
            seat=seat,
            rules=table.rules,
            phase=state.phase,
            hand_number=table.hand_number,
            dealer=table.dealer,
            starter=table.starter,
            to_act=to_act if to_act >= 0 else None,
            turns=state.turns,
            had_turn=tuple(bool(state.had_turn >> s & 1) for s in range(players)),
            hand=state.hands[seat],
            hand_sizes=tuple(len(hand) for hand in state.hands),
            pile=state.pile,
            deck_size=len(state.deck),
            drawn=drawn,
            drawn_from=drawn_from,
            stopper=stopper,
            stop_card=counting.stop_card if counting is not None and stopper == seat else None,
            stop_problems=() if counting is None else counting.stop_problems,
            scoring=() if counting is None else counting.results,
            pending_declaration=None
            if counting is None or counting.pending < 0
            else counting.pending,
            totals=table.totals,
            events=state.events,
            last_hand=table.last_hand,
            cut_rounds=table.cut_rounds,
            winners=table.winners,
            end_reason=table.end_reason,
        )

    def hand_summary(self, state: State | IndecisionView) -> HandSummary | None:
        """The public summary of the last finished hand, from a state or a view."""
        if isinstance(state, IndecisionView):
            return state.last_hand
        return state.table.last_hand

    def stop_check(self, view: IndecisionView, card: int) -> tuple[HandScore, tuple[str, ...]]:
        """What stopping with ``card`` as the spare would give the seat on turn: the kept hand's
        score and the stop requirements it would fail (empty when the stop is valid). For
        interfaces that warn before an invalid stop."""
        if view.to_act != view.seat or len(view.hand) != HAND_SIZE + 1:
            raise IllegalActionError(
                "only the seat on turn holding six cards can stop", rule=RuleKey.NOT_YOUR_TURN
            )
        if card not in view.hand:
            raise IllegalActionError(
                f"{format_card(card)} is not in your hand", rule=RuleKey.NOT_IN_HAND
            )
        kept = score_hand(_without(view.hand, card), view.rules)
        had = [*view.had_turn]
        problems: list[str] = []
        if view.rules.strict_stop_turns:
            if not all(had):
                problems.append(STRICT_TURN_PROBLEM)
        else:
            had[view.seat] = True
            if not all(had):
                problems.append(TURN_PROBLEM)
        if not kept.all_cards_used:
            problems.append(UNUSED_PROBLEM)
        return kept, tuple(problems)

    def result(self, state: State) -> GameResult | None:
        """The result once the game is over, else ``None``."""
        if state.phase is not Phase.GAME_OVER:
            return None
        table = state.table
        totals = table.totals
        winners = table.winners
        players = table.rules.players
        if winners:
            share = 1.0 / len(winners)
            utilities = tuple(share if seat in winners else 0.0 for seat in range(players))
            names = " and ".join(f"seat {seat}" for seat in winners)
            verb = "wins" if len(winners) == 1 else "share the win"
            summary = (
                f"{names} {verb} with {totals[winners[0]]} points after "
                f"{table.hand_number} hand{'s' if table.hand_number != 1 else ''}"
            )
            if table.end_reason == "hand-limit":
                summary += ", the game's limit of hands, with the highest total"

        else:
            utilities = (0.0,) * players
            summary = (
                f"game abandoned after {table.hand_number} hands (hand cap) with no winner; "
                f"totals {', '.join(map(str, totals))}"
            )
        return GameResult(
            winners=winners,
            scores=totals,
            utilities=utilities,
            reason=table.end_reason,
            summary=summary[0].upper() + summary[1:] + ".",
        )

    def determinize(self, view: IndecisionView, rng: random.Random) -> State:
        """A full state consistent with ``view``: the cards this seat cannot see are dealt at
        random to the other hands, the face-down stop card and the deck, keeping every card
        known to be in another hand (taken from the pile, or shown in the counting) there."""
        rules = view.rules
        players = rules.players
        stopper = view.stopper
        in_box = view.hand_number == 0
        taken = view.taken_cards()
        revealed = {result.seat: result.cards for result in view.scoring}
        seen = set(view.hand) | set(view.pile)
        if view.stop_card is not None:
            seen.add(view.stop_card)
        for seat, cards in taken.items():
            seen |= cards
            seen |= set(revealed.get(seat, ()))
        unseen = [card for card in range(52) if card not in seen]
        rng.shuffle(unseen)
        hands: list[tuple[int, ...]] = []
        stop_card = -1 if view.stop_card is None else view.stop_card
        for seat in range(players):
            if seat == view.seat:
                hands.append(view.hand)
                continue
            if seat in revealed:
                hands.append(revealed[seat])
                spare = sorted(taken[seat] - set(revealed[seat]))
                if seat == stopper and spare:
                    stop_card = spare[0]
                continue
            held = sorted(taken[seat])
            if seat == stopper and len(held) > view.hand_sizes[seat]:
                # One known card must be the face-down spare; any of them is consistent.
                stop_card = held.pop(rng.randrange(len(held)))
            need = view.hand_sizes[seat] - len(held)
            hands.append(tuple(held) + tuple(unseen[:need]))
            del unseen[:need]
        if stopper is not None and stop_card < 0 and not in_box:
            stop_card = unseen.pop()
        if len(unseen) != view.deck_size and not in_box:
            raise RulesError("the view is inconsistent: its card counts do not add up to 52")
        deck = () if in_box else tuple(unseen)
        counting = None
        if view.stopper is not None or view.scoring or view.phase in (Phase.DECLARE, Phase.CONFIRM):
            counting = self._counting_from_view(view, stop_card)
        drawn = -1 if view.drawn is None else view.drawn
        if view.drawn_from == "deck" and drawn < 0 and view.to_act is not None:
            drawn = hands[view.to_act][-1]
        table = Table(
            rules=rules,
            seed=rng.randrange(2**63),
            dealer=view.dealer,
            hand_number=view.hand_number,
            totals=view.totals,
            cut_rounds=view.cut_rounds,
            cutters=() if view.dealer >= 0 else self._cutters_from_view(view),
            last_hand=view.last_hand,
            winners=view.winners,
            end_reason=view.end_reason,
            scorer=hand_scorer(rules),
        )
        to_act = view.to_act
        if to_act is None and view.phase is Phase.RESHUFFLE:
            to_act = self._reshuffling_seat(view)
        return State(
            table=table,
            phase=view.phase,
            chance_steps=rng.randrange(2**31),
            hands=tuple(hands),
            deck=deck,
            pile=view.pile,
            to_act=-1 if to_act is None else to_act,
            turns=view.turns,
            had_turn=sum(1 << s for s in range(players) if view.had_turn[s]),
            drawn=drawn,
            drawn_from_pile=view.drawn_from == "pile",
            events=view.events,
            counting=counting,
        )

    def _counting_from_view(self, view: IndecisionView, stop_card: int) -> Counting:
        players = view.players
        last = view.events[-1] if view.events else None
        if view.stopper is not None:
            first, ending = view.stopper, "stop"
        elif view.scoring:
            first, ending = view.scoring[0].seat, "deck-exhausted"
        else:
            first = view.to_act if view.to_act is not None else (last.seat if last else 0)
            ending = "deck-exhausted"
        return Counting(
            ending=ending,
            stopper=-1 if view.stopper is None else view.stopper,
            stop_card=stop_card,
            stop_problems=view.stop_problems,
            order=tuple((first + i) % players for i in range(players)),
            results=view.scoring,
            pending=-1 if view.pending_declaration is None else view.pending_declaration,
        )

    def _cutters_from_view(self, view: IndecisionView) -> tuple[int, ...]:
        if not view.cut_rounds:
            return tuple(range(view.players))
        last = view.cut_rounds[-1]
        lowest = min(rank_of(card) for _, card in last)
        return tuple(seat for seat, card in last if rank_of(card) == lowest)

    def _reshuffling_seat(self, view: IndecisionView) -> int:
        last = view.events[-1] if view.events else None
        return 0 if last is None else (last.seat + 1) % view.players


def _with_total(totals: tuple[int, ...], seat: int, total: int) -> tuple[int, ...]:
    return (*totals[:seat], total, *totals[seat + 1 :])


ENGINE: Final = IndecisionEngine()
"""The Indecision engine (what :func:`cardtable.registry.get_engine` returns)."""

__all__ = ["ENGINE", "IndecisionEngine"]
