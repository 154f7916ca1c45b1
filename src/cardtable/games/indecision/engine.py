"""The Indecision rules engine (RULES.md section 1) on the engine contract.

One hand: the starter (clockwise of the dealer) holds six cards and makes the opening discard,
which starts the face-up pile and counts as the starter's first turn; then each seat in turn
draws from the deck or the pile and either discards or stops, putting a spare card face down.
A stop ends the hand: every hand is counted from the stopper clockwise (1.5); the stopper scores
0 unless every player has had a turn and all five kept cards are used (1.4). The first total to
reach the target in counting order wins (or, as an option, the highest after the whole round).
The starter deals the next hand. Counting a finished hand lives in
:mod:`~cardtable.games.indecision.counting`, the seat's view and determinization in
:mod:`~cardtable.games.indecision.view`; this module holds turns, checks and chance steps.

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

from cardtable.cards import format_card, rank_of, shuffle_in_place, without
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
from cardtable.games.indecision.counting import (
    abandon_hand,
    begin_counting,
    declare,
    record_declaration,
)
from cardtable.games.indecision.rules import PRESETS, Rules
from cardtable.games.indecision.scoring import HandScore, hand_scorer, score_hand
from cardtable.games.indecision.state import (
    Counting,
    HandSummary,
    Phase,
    State,
    Table,
    event,
    replace_state,
    replace_table,
)
from cardtable.games.indecision.view import IndecisionView, determinize, make_view

HAND_SIZE: Final = 5
TURN_PROBLEM: Final = "not every player has had a turn"
STRICT_TURN_PROBLEM: Final = "not every player has completed a turn before this one"
UNUSED_PROBLEM: Final = "not all five kept cards are used by counted melds"

_DISCARD_EVENTS: Final = tuple(tuple(event("discard", s, c) for c in range(52)) for s in range(4))
_TAKE_EVENTS: Final = tuple(tuple(event("take-discard", s, c) for c in range(52)) for s in range(4))
_DISCARD_OF: Final = DISCARDS.__getitem__
_STOP_OF: Final = STOPS.__getitem__
_BOTH_DRAWS: Final = (DRAW_DECK, DRAW_PILE)
_PILE_ONLY: Final = (DRAW_PILE,)
_STOPPED_EVENTS: Final = tuple(event("stop", s) for s in range(4))
_DRAW_STOCK_EVENTS: Final = tuple(event("draw-stock", s) for s in range(4))
_DEAL_EVENTS: Final = tuple((event("deal", s),) for s in range(4))
_ORDERS: Final = tuple(
    tuple(tuple((first + i) % players for i in range(players)) for first in range(players))
    for players in range(5)
)
"""``_ORDERS[players][first]``: the seats clockwise from ``first`` (the counting order)."""
_DECK: Final = tuple(range(52))
_DEAL_CUTS: Final = tuple(
    tuple(
        tuple(
            slice(51 - (seat - starter) % players, 51 - 5 * players, -players)
            for seat in range(players)
        )
        for starter in range(players)
    )
    for players in range(5)
)
"""``_DEAL_CUTS[players][starter][seat]``: where ``seat``'s five cards lie in a shuffled deck.
The deck's top card is its last; dealt one at a time clockwise from the starter, the seat at
offset ``i`` from the starter gets the cards at ``51 - i``, ``51 - i - players``, ... (the
starter's sixth card is the next one, at ``51 - 5 * players``)."""
# Enum members read from module constants: ``Phase.DRAW`` is an attribute lookup on the
# enum class on every use, several times per decision.
_CUT: Final = Phase.CUT
_DEAL: Final = Phase.DEAL
_OPENING: Final = Phase.OPENING
_DRAW: Final = Phase.DRAW
_RESHUFFLE: Final = Phase.RESHUFFLE
_DISCARD: Final = Phase.DISCARD
_DECLARE: Final = Phase.DECLARE
_CONFIRM: Final = Phase.CONFIRM
_GAME_OVER: Final = Phase.GAME_OVER
_PHASE_DOING: Final = {
    Phase.OPENING: "make the opening discard",
    Phase.DRAW: "draw",
    Phase.DISCARD: "discard or stop",
    Phase.DECLARE: "declare a score",
    Phase.CONFIRM: "confirm or correct a declaration",
}


def _with_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


class IndecisionEngine(GameEngine[State, IndecisionAction, Rules, IndecisionView]):
    """Indecision for 2-4 players (see the module docstring)."""

    name: ClassVar[str] = "indecision"
    title: ClassVar[str] = "Indecision"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    rules_type: ClassVar[type[Rules]] = Rules
    action_types = (Discard, Stop, DrawDeck, DrawPile, Declare, Correct, Confirm)

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
        if phase is _GAME_OVER:
            return TERMINAL
        if phase is _DEAL or phase is _CUT or phase is _RESHUFFLE:
            return CHANCE
        return state.to_act

    def legal_actions(self, state: State, seat: int) -> Sequence[IndecisionAction]:
        """What ``seat`` may do now; empty unless it is that seat's turn."""
        if seat != state.to_act:
            return ()
        phase = state.phase
        if phase is _DRAW:
            return _BOTH_DRAWS if state.deck or len(state.pile) > 1 else _PILE_ONLY
        if phase is _DISCARD or phase is _OPENING:
            hand = state.hands[seat]
            if state.drawn_from_pile and not state.table.rules.may_discard_taken_card:
                taken = state.drawn
                return (
                    *(DISCARDS[card] for card in hand if card != taken),
                    *map(_STOP_OF, hand),
                )
            return (*map(_DISCARD_OF, hand), *map(_STOP_OF, hand))
        if phase is _DECLARE:
            return self._declaration_actions(state.table)[0]
        if phase is _CONFIRM:
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

    def why_illegal_now(
        self, state: State, action: IndecisionAction, seat: int
    ) -> IllegalActionError | None:
        """Indecision's own rules for the seat to act (the shared checks come first: see
        :meth:`GameEngine.why_illegal`)."""
        phase = state.phase
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
        # The four playing actions first, the commonest first.
        match action:
            case Discard():
                return self._discard(state, seat, action.card)
            case Stop():
                return self._stop(state, seat, action.card)
            case DrawDeck():
                return self._draw_deck(state, seat)
            case DrawPile():
                return self._draw_pile(state, seat)
            case Declare(points):
                return declare(state, seat, points)
            case Confirm():
                counting = state.counting
                assert counting is not None
                return record_declaration(state, seat, counting.pending, None)
            case Correct(points):
                counting = state.counting
                assert counting is not None
                return record_declaration(state, seat, points, counting.pending)
        raise IllegalActionError(
            f"{action!r} is not an Indecision action", rule=RuleKey.UNKNOWN_ACTION
        )

    def _discard(self, state: State, seat: int, card: int) -> State:
        table = state.table
        rules = table.rules
        turns = state.turns + 1
        following = seat + 1
        if following == rules.players:
            following = 0
        hands = state.hands
        after = State(
            table=table,
            phase=_DRAW,
            chance_steps=state.chance_steps,
            hands=_with_hand(hands, seat, without(hands[seat], card)),
            deck=state.deck,
            pile=(*state.pile, card),
            to_act=following,
            turns=turns,
            had_turn=state.had_turn | 1 << seat,
            drawn=-1,
            drawn_from_pile=False,
            events=(*state.events, _DISCARD_EVENTS[seat][card]),
            counting=None,
        )
        if turns >= rules.hand_turn_cap:
            if not rules.people_seated:
                return abandon_hand(after)
            counting = Counting(
                ending="turn-limit",
                stopper=-1,
                stop_card=-1,
                stop_problems=(),
                order=_ORDERS[rules.players][following],
            )
            return begin_counting(after, counting)
        if not state.deck and rules.deck_exhaustion == "score-hand":
            counting = Counting(
                ending="deck-exhausted",
                stopper=-1,
                stop_card=-1,
                stop_problems=(),
                order=_ORDERS[rules.players][following],
            )
            return begin_counting(after, counting)
        return after

    def _draw_deck(self, state: State, seat: int) -> State:
        deck = state.deck
        if not deck:
            return replace_state(
                state,
                phase=Phase.RESHUFFLE,
                to_act=seat,
                drawn=-1,
                drawn_from_pile=False,
                counting=None,
            )
        card = deck[-1]
        hands = state.hands
        return State(
            table=state.table,
            phase=_DISCARD,
            chance_steps=state.chance_steps,
            hands=_with_hand(hands, seat, (*hands[seat], card)),
            deck=deck[:-1],
            pile=state.pile,
            to_act=seat,
            turns=state.turns,
            had_turn=state.had_turn,
            drawn=card,
            drawn_from_pile=False,
            events=(*state.events, _DRAW_STOCK_EVENTS[seat]),
            counting=None,
        )

    def _draw_pile(self, state: State, seat: int) -> State:
        pile = state.pile
        card = pile[-1]
        hands = state.hands
        return State(
            table=state.table,
            phase=_DISCARD,
            chance_steps=state.chance_steps,
            hands=_with_hand(hands, seat, (*hands[seat], card)),
            deck=state.deck,
            pile=pile[:-1],
            to_act=seat,
            turns=state.turns,
            had_turn=state.had_turn,
            drawn=card,
            drawn_from_pile=True,
            events=(*state.events, _TAKE_EVENTS[seat][card]),
            counting=None,
        )

    def _stop(self, state: State, seat: int, card: int) -> State:
        table = state.table
        rules = table.rules
        players = rules.players
        hands = state.hands
        kept = without(hands[seat], card)
        everyone = (1 << players) - 1
        had_turn = state.had_turn | 1 << seat
        problems: tuple[str, ...] = ()
        if rules.strict_stop_turns:
            if state.had_turn != everyone:
                problems = (STRICT_TURN_PROBLEM,)
        elif had_turn != everyone:
            problems = (TURN_PROBLEM,)
        kept_value = table.scorer.value(kept)
        if not kept_value[1]:
            problems = (*problems, UNUSED_PROBLEM)
        stopped = State(
            table=table,
            phase=state.phase,
            chance_steps=state.chance_steps,
            hands=_with_hand(hands, seat, kept),
            deck=state.deck,
            pile=state.pile,
            to_act=-1,
            turns=state.turns + 1,
            had_turn=had_turn,
            drawn=-1,
            drawn_from_pile=False,
            events=(*state.events, _STOPPED_EVENTS[seat]),
            counting=None,
        )
        counting = Counting(
            ending="stop",
            stopper=seat,
            stop_card=card,
            stop_problems=problems,
            order=_ORDERS[players][seat],
        )
        return begin_counting(stopped, counting, kept_value)

    # -- counting a hand -----------------------------------------------------------------------

    # -- chance --------------------------------------------------------------------------------

    def chance_step(self, state: State, rng: random.Random | None = None) -> State:
        """Perform the due cut, deal or reshuffle, drawing from ``chance_rng(seed, step)``
        (or ``rng``)."""
        phase = state.phase
        if rng is None:
            rng = chance_rng(state.table.seed, state.chance_steps)
        if phase is Phase.DEAL:
            return self._deal(state, rng)
        if phase is Phase.RESHUFFLE:
            return self._reshuffle(state, rng)
        if phase is Phase.CUT:
            return self._cut(state, rng)
        raise IllegalActionError(
            f"no chance step is due (phase {phase.value})", rule=RuleKey.NO_CHANCE_STEP
        )

    def _cut(self, state: State, rng: random.Random) -> State:
        table = state.table
        cutters = table.cutters
        cut = tuple(zip(cutters, rng.sample(range(52), len(cutters)), strict=True))
        lowest = min(rank_of(card) for _, card in cut)
        tied = tuple(seat for seat, card in cut if rank_of(card) == lowest)
        dealer = tied[0] if len(tied) == 1 else -1
        new_table = replace_table(
            table,
            dealer=dealer,
            hand_number=0,
            cut_rounds=(*table.cut_rounds, cut),
            cutters=() if dealer >= 0 else tied,
            last_hand=None,
            winners=(),
            end_reason="",
        )
        # Every field is set: building the state costs less than ``_replace``.
        return State(
            table=new_table,
            phase=Phase.DEAL if dealer >= 0 else Phase.CUT,
            chance_steps=state.chance_steps + 1,
            hands=state.hands,
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

    def _deal(self, state: State, rng: random.Random) -> State:
        table = state.table
        players = table.rules.players
        deck = list(_DECK)
        shuffle_in_place(deck, rng)
        dealer = table.dealer
        starter = dealer + 1 if dealer + 1 < players else 0
        dealt = 5 * players
        hands = [tuple(deck[cut]) for cut in _DEAL_CUTS[players][starter]]
        hands[starter] += (deck[51 - dealt],)
        dealt_table = Table(
            rules=table.rules,
            seed=table.seed,
            dealer=dealer,
            hand_number=table.hand_number + 1,
            totals=table.totals,
            cut_rounds=table.cut_rounds,
            cutters=table.cutters,
            last_hand=table.last_hand,
            winners=(),
            end_reason="",
            scorer=table.scorer,
        )
        dealt_state = State(
            table=dealt_table,
            phase=_OPENING,
            chance_steps=state.chance_steps + 1,
            hands=tuple(hands),
            deck=tuple(deck[: 52 - dealt - 1]),
            pile=(),
            to_act=starter,
            turns=0,
            had_turn=0,
            drawn=-1,
            drawn_from_pile=False,
            events=_DEAL_EVENTS[dealer],
            counting=None,
        )
        return dealt_state

    def _reshuffle(self, state: State, rng: random.Random) -> State:
        pile = state.pile
        deck = list(pile[:-1])
        shuffle_in_place(deck, rng)
        seat = state.to_act
        card = deck.pop()
        return replace_state(
            state,
            phase=Phase.DISCARD,
            chance_steps=state.chance_steps + 1,
            hands=_with_hand(state.hands, seat, (*state.hands[seat], card)),
            deck=tuple(deck),
            pile=pile[-1:],
            to_act=seat,
            drawn=card,
            drawn_from_pile=False,
            events=(*state.events, event("reshuffle", seat), event("draw-stock", seat)),
            counting=None,
        )

    # -- views, results, determinization -------------------------------------------------------

    def view(self, state: State, seat: int) -> IndecisionView:
        """What ``seat`` may see (see :mod:`cardtable.games.indecision.view`)."""
        return make_view(state, seat)

    def determinize(self, view: IndecisionView, rng: random.Random) -> State:
        """A full state consistent with ``view`` (see :func:`~.view.determinize`)."""
        return determinize(view, rng)

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
        kept = score_hand(without(view.hand, card), view.rules)
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


ENGINE: Final = IndecisionEngine()
"""The Indecision engine (what :func:`cardtable.registry.get_engine` returns)."""

__all__ = ["ENGINE", "IndecisionEngine"]
